// A set-associative cache with LRU replacement, write-back or write-through, with or without write allocation.
// Counts accesses, refills and write-backs; the timing model decides what a miss costs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pmusim::timing {

struct CacheConfig {
    unsigned size = 32 * 1024;  // bytes
    unsigned ways = 4;
    unsigned line = 64;         // bytes, a power of two
    bool write_back = true;     // false: write-through (stores never leave dirty lines)
    bool write_allocate = true; // a store miss allocates the line
    unsigned dirty_parts = 1;   // dirty bits per line (ARM11: 2, one per half line), a power of two
};

class Cache {
public:
    explicit Cache(const CacheConfig& c);

    struct Result {
        bool hit = false;
        bool refill = false;     // a line was brought in
        bool writeback = false;  // a dirty line was evicted
        unsigned dirty_parts = 0;  // how many of its parts were dirty (and written back), with writeback
        uint64_t victim = 0;     // the evicted line's address, with writeback
    };
    Result access(uint64_t addr, bool write);
    // The way that holds `addr`'s line (-1: none), changing nothing (the block timing probes before it commits).
    int find(uint64_t addr) const {
        const uint64_t line = addr >> line_shift_;
        const uint64_t tag = tag_of(line);
        const size_t base = static_cast<size_t>(set_of(line)) * cfg_.ways;
        // With many ways, the way found last first (a line is in one way of its set at most; no line's tag is ~0).
        if (cfg_.ways > 4 && hint_ - base < cfg_.ways && ways_[hint_].tag == tag) return static_cast<int>(hint_);
        for (unsigned w = 0; w < cfg_.ways; ++w)
            if (ways_[base + w].tag == tag) {
                hint_ = base + w;
                return static_cast<int>(hint_);
            }
        return -1;
    }
    bool probe(uint64_t addr) const { return find(addr) >= 0; }
    // What access() does on a hit, on the way find(addr) returned (no other access in between).
    void hit(int way, uint64_t addr, bool write) {
        if (journal_) note(way_shift_ ? static_cast<size_t>(way) >> (way_shift_ - 1) : static_cast<size_t>(way) / cfg_.ways);
        ++accesses_;
        ++clock_;
        Way& w = ways_[static_cast<size_t>(way)];
        w.used = clock_;
        w.dirty |= static_cast<uint8_t>(write && cfg_.write_back ? 1u << ((addr & (cfg_.line - 1)) >> part_shift_) : 0u);
    }
    // Whether two caches hold the same lines in the same LRU order and dirtiness, with the same counts.
    bool same_state(const Cache& o) const;

    uint64_t accesses() const { return accesses_; }
    uint64_t clock() const { return clock_; }
    // Accesses that leave every line where it is, in the LRU order it is in (TimingModel::skip_loop: a stretch
    // repeated that hit throughout, or that left each set it refilled as it found it): only the counts and the
    // clock move. The epoch moves with the refills: a way found before is looked up again.
    void skip(uint64_t accesses, uint64_t clock, uint64_t refills, uint64_t writebacks) {
        accesses_ += accesses;
        clock_ += clock;
        refills_ += refills;
        writebacks_ += writebacks;
    }

    // The sets' journal (TimingModel::loop_mark, loop_same_caches). While it is on, each set's ways are saved as
    // they are before its first access after each mark, so that the cache can later be compared with itself as
    // it was at a mark. Off, it costs a test per access.
    void set_journal(bool on);
    // A new mark: its number (1, 2, ...; 0 while the journal is off).
    uint32_t mark();
    // Whether every set accessed since mark `m` (not 0) now holds what it held at `m`: the same line in each way,
    // the same dirty parts, its ways in the same LRU order. (A set not accessed since holds it unchanged.) False
    // for a mark forgotten.
    bool same_since(uint32_t m);
    // The saved sets that only marks before `m` need, dropped: those marks are forgotten.
    void forget_before(uint32_t m);
    uint64_t refills() const { return refills_; }
    // Changes whenever a line enters the cache, the only way one leaves it: while it stays the same, every line
    // find() found is still in the way it was found in.
    uint64_t epoch() const { return refills_; }
    uint64_t writebacks() const { return writebacks_; }
    unsigned sets() const { return sets_; }
    uint64_t line_of(uint64_t addr) const { return addr >> line_shift_; }

private:
    struct Way {
        uint64_t tag = ~uint64_t{0};
        uint64_t used = 0;  // LRU stamp
        uint8_t dirty = 0;  // a bit per dirty part
    };
    // The set and tag of a line (a shift and a mask when the sets are a power of two, as they usually are).
    unsigned set_of(uint64_t line) const { return static_cast<unsigned>(set_shift_ ? line & (sets_ - 1) : line % sets_); }
    uint64_t tag_of(uint64_t line) const { return set_shift_ ? line >> (set_shift_ - 1) : line / sets_; }
    void note(size_t set) {
        if (jset_[set] != jmark_) save_set(set);
    }
    void save_set(size_t set);
    static constexpr unsigned max_ways = 64;  // same_since() compares sets of up to this many ways
    bool same_set(const Way* a, const Way* b) const;
    CacheConfig cfg_;
    unsigned sets_ = 0, line_shift_ = 0, part_shift_ = 0;
    unsigned set_shift_ = 0;  // log2(sets) + 1 when sets is a power of two, else 0
    unsigned way_shift_ = 0;  // log2(ways) + 1 when ways is a power of two, else 0
    std::vector<Way> ways_;
    mutable size_t hint_ = 0;  // the way find() found last
    uint64_t clock_ = 0, accesses_ = 0, refills_ = 0, writebacks_ = 0;
    // The journal: per set the mark it was last saved under; the saved sets in the order saved (so by mark) with
    // their ways (cfg_.ways each) in jways_; a scratch mark per set for same_since().
    bool journal_ = false;
    uint32_t jmark_ = 0, jforgotten_ = 0;  // the current mark; marks before jforgotten_ are forgotten
    std::vector<uint32_t> jset_, jseen_;
    uint32_t jseen_gen_ = 0;
    struct Saved {
        uint32_t set, mark;
    };
    std::vector<Saved> jsaved_;
    std::vector<Way> jways_;
};

}  // namespace pmusim::timing
