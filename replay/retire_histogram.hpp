// Retired instructions counted by kind between two flushes: the platform's retire() then runs once per kind with
// its count (events in a batch have no order), not once per instruction. A kind is everything retire() reads
// (isa::retire_kind). Kinds get dense numbers as they are first seen (a trace has a few dozen), so a block adds its
// counts by number.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "isa/decode.hpp"
#include "platforms/platform.hpp"

namespace pmusim::replay {

class RetireHistogram {
public:
    // The dense number of kind `key` (isa::retire_kind(i)), given one the first time.
    uint32_t id(const isa::RetiredInsn& i, uint32_t key) {
        Slot& s = slots_[(key * 0x9E3779B1u) >> 26];
        if (s.used && s.key == key) return s.id;
        uint32_t n = 0;
        while (n < keys_.size() && keys_[n] != key) ++n;
        if (n == keys_.size()) {
            keys_.push_back(key);
            insns_.push_back(i);
            counts_.push_back(0);
        }
        s = Slot{key, n, true};
        return n;
    }
    void add_id(uint32_t id, uint64_t n) {
        if (counts_[id] == 0) touched_.push_back(id);
        counts_[id] += n;
    }
    // `key` is retire_kind(i); the replay builds it from the decoded part and the record's (kind_of).
    void add(const isa::RetiredInsn& i, uint32_t key, uint64_t n = 1) { add_id(id(i, key), n); }
    void drain(const Platform& p, EventBatch& b) {
        for (uint32_t k : touched_) {
            p.retire(insns_[k], counts_[k], b);
            counts_[k] = 0;
        }
        touched_.clear();
    }

private:
    struct Slot {  // a direct-mapped cache of kind -> number
        uint32_t key = 0, id = 0;
        bool used = false;
    };
    std::array<Slot, 64> slots_{};
    std::vector<uint32_t> keys_;
    std::vector<isa::RetiredInsn> insns_;
    std::vector<uint64_t> counts_;
    std::vector<uint32_t> touched_;  // numbers with a count, in the order first counted
};

}  // namespace pmusim::replay
