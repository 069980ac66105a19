// VeeR EL2's DCCM store buffer (el2_lsu_stbuf.sv, el2_lsu_dccm_ctl.sv) followed from the commit cycles the timing
// model gives its loads and stores, for the cycles it is full (event 34's store-buffer half, lsu_stbuf_full_any).
// It only watches: the commit cycles are the timing model's (stbuf full does stall a load or store at decode, and the
// model's cycles include that wait where they are right; tests/veer-rtl/stbuf.py derives the same count from the
// RTL's own exec.log and from the model's cycles, and both match the RTL's count on the probes).
//
// The rules, stage by stage (one instruction a cycle; the exec.log's spacing shows the stages):
//  - an instruction that commits at cycle c was at decode (a load at the DCCM's read port) at c - 3, in the LSU's
//    M stage at c - 2, in R at c - 1;
//  - a DCCM store enters the buffer the cycle after R, one entry per 32-bit word it writes (a misaligned store
//    that crosses a word: two, ldst_dual), unless a buffered entry holds the same word (store_coalesce_lo_r/hi_r);
//  - the oldest entry drains to the DCCM in any cycle in which no load at the read port reads its bank (address
//    bits 3:2 of the load's first and last byte; lsu_stbuf_commit_any);
//  - full (lsu_stbuf_full_any) when the buffered entries plus the DCCM stores in M and R (two each when dual,
//    stbuf_specvld_m/r) reach `depth` with a load or store that is not dual at decode, `depth` - 1 otherwise.
#pragma once
#include <array>
#include <cstdint>

namespace pmusim::timing {

class StoreBuffer {
public:
    explicit StoreBuffer(unsigned depth = 4) : depth_(depth) {}

    // A load or store that commits at cycle `c` (after every one given before: one a cycle), to the DCCM (`dccm`)
    // or not, its first and last byte's addresses (`first` != `last` word: dual).
    void commit(uint64_t c, bool store, bool dccm, uint64_t first, uint64_t last) {
        settle(c - 1);  // the cycles before this one's items (any earlier cycle is final without it)
        // With nothing buffered or coming, the cycle at c - 3, where its decode and read-port items act, has no
        // entry to drain and nothing counted in full: they cannot matter (the common case, kept cheap).
        const bool idle = n_ == 0 && last_store_ + 1 <= cursor_;
        if (idle && !(store && dccm)) return;
        Slot& s = slots_[c & 7u];
        s.c = c;
        s.dual = (first >> 2) != (last >> 2);
        s.store = store && dccm;
        s.load = !store && dccm;
        s.lo = first >> 2;
        s.hi = last >> 2;
        if (s.store) last_store_ = c;
    }
    // Every cycle up to `c` - 3 is final once the instruction committing at `c` is given (the next commits after
    // it, and its earliest item lies at its commit - 3): counted.
    void settle(uint64_t c) {
        if (c < 3 || cursor_ >= c - 2) return;
        if (n_ == 0 && last_store_ + 1 <= cursor_) {
            cursor_ = c - 2;  // nothing buffered or coming: nothing can be full
            return;
        }
        run_to(c - 2);
    }
    // Cycles counted full since the last take().
    uint64_t take() {
        const uint64_t n = full_;
        full_ = 0;
        return n;
    }
    bool operator==(const StoreBuffer& o) const;

private:
    // The load or store that commits at cycle c (one a cycle: the slot c & 7 until the cycles pass it).
    struct Slot {
        uint64_t c = ~uint64_t{0};
        bool dual = false, store = false, load = false;  // store, load: to the DCCM
        uint64_t lo = 0, hi = 0;                         // the words of its first and last byte
    };
    const Slot* at(uint64_t c) const {
        const Slot& s = slots_[c & 7u];
        return s.c == c ? &s : nullptr;
    }
    void enter(uint64_t word) {  // a store's word enters the buffer, unless an entry holds it (coalesces)
        for (unsigned k = 0; k < n_; ++k)
            if (buf_[k] == word) return;
        if (n_ < buf_.size()) buf_[n_++] = word;
    }
    void run_to(uint64_t end);

    unsigned depth_;
    std::array<uint64_t, 8> buf_{};  // the buffered words, oldest first
    unsigned n_ = 0;
    std::array<Slot, 8> slots_{};
    uint64_t last_store_ = 0;  // the commit of the last DCCM store given (0: none)
    uint64_t cursor_ = 0;      // the first cycle not yet counted
    uint64_t full_ = 0;
};

}  // namespace pmusim::timing
