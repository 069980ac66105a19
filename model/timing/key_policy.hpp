// When a block body is worth keying (TimingModel::block): on natural traces the data addresses seldom repeat, so a
// body's recordings seldom apply and keying, probing and recording cost more than stepping it (issue 38). The policy
// only chooses between the shortcut and step(), the definition: outputs never depend on it.
#pragma once
#include <algorithm>
#include <cstdint>

namespace pmusim::timing {

// A debt: each miss (no recording for the entry state: TimingModel::block records one; a recording whose lookups
// would not all hit is not counted, as such misses pass on the ARM traces) adds `miss_cost`, each hit (a recording
// replayed) pays one back. A miss costs about as much as two hits save (callgrind on the natural traces: a miss
// keys, searches and records, then steps the body; a hit replays instead of stepping), so keying pays only where
// more than about two executions in three hit. Once the debt reaches `patience` the body is stepped without a key
// for `backoff` executions, the debt cleared; the back-off doubles, up to `max_backoff`, while the misses outweigh
// the hits, and a hit with no debt sets it back. Tuning constants, measured with callgrind on the natural traces
// (docs/performance.md).
struct KeyPolicy {
    static constexpr uint16_t miss_cost = 2, patience = 16, first_backoff = 16, max_backoff = 1024;
    uint16_t debt = 0, skip = 0, backoff = first_backoff;

    // Whether to key this execution (false: step it).
    bool try_key() {
        if (skip == 0) return true;
        --skip;
        return false;
    }
    void hit() {
        if (debt == 0) backoff = first_backoff;
        else --debt;
    }
    void miss() {
        debt = static_cast<uint16_t>(debt + miss_cost);
        if (debt < patience) return;
        debt = 0;
        skip = backoff;
        backoff = static_cast<uint16_t>(std::min<unsigned>(2u * backoff, max_backoff));
    }
};

}  // namespace pmusim::timing
