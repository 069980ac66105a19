// When a block body is worth keying (TimingModel::block): on natural traces the data addresses seldom repeat, so a
// body's recordings seldom apply and keying, probing and recording cost more than stepping it (issue 38). The policy
// only chooses between the shortcut and step(), the definition: outputs never depend on it.
#pragma once
#include <algorithm>
#include <cstdint>

namespace pmusim::timing {

// After `patience` misses in a row (no recording for the entry state: TimingModel::block records one; a recording
// whose lookups would not all hit is not counted, as such misses pass on the ARM traces), the body is stepped
// without a key for `backoff` executions; the back-off doubles, up to `max_backoff`, while the misses go on after
// it, and a hit (a recording replayed) sets both back. Tuning constants, measured with callgrind
// on the natural traces (docs/performance.md).
struct KeyPolicy {
    static constexpr uint16_t patience = 8, first_backoff = 16, max_backoff = 1024;
    uint16_t misses = 0, skip = 0, backoff = first_backoff;

    // Whether to key this execution (false: step it).
    bool try_key() {
        if (skip == 0) return true;
        --skip;
        return false;
    }
    void hit() {
        misses = 0;
        backoff = first_backoff;
    }
    void miss() {
        if (++misses < patience) return;
        misses = 0;
        skip = backoff;
        backoff = static_cast<uint16_t>(std::min<unsigned>(2u * backoff, max_backoff));
    }
};

}  // namespace pmusim::timing
