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
    // The hit inline (the set searched, the line made the most recent), a miss out of line (miss()).
    [[gnu::always_inline]] Result access(uint64_t addr, bool write) {
        ++accesses_;
        const uint64_t line = addr >> line_shift_;
        const size_t base = static_cast<size_t>(set_of(line)) * cfg_.ways;
        const uint64_t tag = line;
        const uint8_t part = dirty_part(addr, write);
        const uint64_t* t = &tags_[base];
        for (unsigned w = 0; w < cfg_.ways; ++w)
            if (t[w] == tag) {
                if (!unchanged(base, w, part)) {
                    note(base);
                    promote(base, w, part);
                }
                Result r;
                r.hit = true;
                return r;
            }
        note(base);
        return miss(base, tag, part, write);
    }
    // A line's set (the index of its first way) and tag, worked out once for a probe() and a touch().
    struct Ref {
        size_t base;
        uint64_t tag;
    };
    Ref ref(uint64_t addr) const {
        const uint64_t line = addr >> line_shift_;
        return {static_cast<size_t>(set_of(line)) * cfg_.ways, line};
    }
    // Whether the line is in the cache, changing nothing (the block timing probes before it commits).
    bool probe(const Ref& r) const {
        const uint64_t* t = &tags_[r.base];
        for (unsigned w = 0; w < cfg_.ways; ++w)
            if (t[w] == r.tag) return true;
        return false;
    }
    bool probe(uint64_t addr) const { return probe(ref(addr)); }
    // What access() does where the line is in the cache (a hit): true, the line made the most recent and marked
    // dirty_part(addr, write), and where that changed its set (the line was not the most recent already with that
    // part marked) its way before and its dirty parts kept at *undo++; false (nothing changed) where it is not there.
    // untouch() with the undos kept and the number of touches made (those that returned true) leaves the cache as
    // it was before them (the block timing touches a body's lines as it finds them and undoes them where a later one
    // is missing: one search per lookup). A touch that changed no set needs no undo: undone latest first, the
    // others leave each set as it was before it.
    struct Undo {
        size_t base;
        unsigned way;
        unsigned dirty;  // not a byte: a byte's store may alias anything (the sets' pointers loaded again after it)
    };
    [[gnu::always_inline]] bool touch_present(const Ref& r, uint8_t part, Undo*& undo) {
        const uint64_t* t = &tags_[r.base];
        unsigned w = 0;
        while (t[w] != r.tag)
            if (++w == cfg_.ways) return false;
        ++accesses_;
        if (unchanged(r.base, w, part)) return true;  // only the count moves
        const unsigned dirty = dirty_[r.base + w];
        // The journal saves the set as it is before its first change after a mark: an undone touch leaves the set
        // as saved.
        note(r.base);
        *undo++ = {r.base, w, dirty};
        promote(r.base, w, part);
        return true;
    }
    // touch_present() where the line is known to be in the cache, not undone.
    [[gnu::always_inline]] void touch(const Ref& r, uint8_t part) {
        Undo unused;
        Undo* u = &unused;
        touch_present(r, part, u);
    }
    // `n` more touches of the line touch() or touch_present() just made the most recent, with the same part: only
    // the counts move (the line is in front, its part marked).
    void touch_again(uint64_t n) {
        accesses_ += n;
    }
    // `touches` touches undone, the changes they made kept in [first, last) (touch_present), latest first.
    void untouch(const Undo* first, const Undo* last, uint64_t touches) {
        accesses_ -= touches;
        while (last != first) {
            const Undo& u = *--last;
            const uint64_t tag = tags_[u.base];
            for (unsigned w = 0; w < u.way; ++w) {
                tags_[u.base + w] = tags_[u.base + w + 1];
                dirty_[u.base + w] = dirty_[u.base + w + 1];
            }
            tags_[u.base + u.way] = tag;
            dirty_[u.base + u.way] = static_cast<uint8_t>(u.dirty);
        }
    }
    // The dirty part an access marks (none for a read, or write-through).
    uint8_t dirty_part(uint64_t addr, bool write) const {
        return static_cast<uint8_t>(write && cfg_.write_back ? 1u << ((addr & (cfg_.line - 1)) >> part_shift_) : 0u);
    }
    // Whether two caches hold the same lines in the same LRU order and dirtiness, with the same counts.
    bool same_state(const Cache& o) const;

    uint64_t accesses() const { return accesses_; }
    // Accesses that leave every line where it is, in the LRU order it is in (TimingModel::skip_loop: a stretch
    // repeated that hit throughout, or that left each set it refilled as it found it): only the counts move.
    void skip(uint64_t accesses, uint64_t refills, uint64_t writebacks) {
        accesses_ += accesses;
        refills_ += refills;
        writebacks_ += writebacks;
    }

    // The sets' journal (TimingModel::loop_mark, loop_same_caches). While it is on, each set's ways are saved as
    // they are before its first change after each mark (a line moved, marked dirty or brought in; an access that
    // changes nothing, a hit on the line in front with its part marked, saves nothing: its set is as it was at the
    // mark, and is saved so where it changes later), so that the cache can later be compared with itself as it was
    // at a mark. Off, it costs a test per change.
    void set_journal(bool on);
    // A new mark: its number (1, 2, ...; 0 while the journal is off).
    uint32_t mark();
    // Whether every set changed since mark `m` (not 0) now holds what it held at `m`: the same line in each way,
    // the same dirty parts, its ways in the same LRU order. (A set not changed since holds it unchanged.) False
    // for a mark forgotten.
    bool same_since(uint32_t m);
    // The saved sets that only marks before `m` need, dropped: those marks are forgotten.
    void forget_before(uint32_t m);
    uint64_t refills() const { return refills_; }
    uint64_t writebacks() const { return writebacks_; }
    unsigned sets() const { return sets_; }
    uint64_t line_of(uint64_t addr) const { return addr >> line_shift_; }

private:
    // The set of a line (a mask when the sets are a power of two, as they usually are). A way's tag is its line's
    // number, set bits included: one word compared, none worked out.
    unsigned set_of(uint64_t line) const {
        return static_cast<unsigned>(sets_pow2_ ? line & set_mask_ : line % sets_);
    }
    // Whether a hit in way `w` of the set at `base` changes nothing: the line in front with its part marked (access()
    // and touch_present() then neither save the set in the journal nor move a line).
    bool unchanged(size_t base, unsigned w, uint8_t part) const {
        return w == 0 && (dirty_[base] | part) == dirty_[base];
    }
    // The set at `base` (its first way's index) saved before its first change after the mark. One test whether the
    // journal is on or off: off (and on before the first mark), jmark_ is 0 and so is every jset_ entry.
    void note(size_t base) {
        if (jset_[base] != jmark_) save_set(base);
    }
    void save_set(size_t base);
    // access() where the line at `base`, `tag` is not in its set: a refill (or a write-around miss).
    Result miss(size_t base, uint64_t tag, uint8_t part, bool write);
    static constexpr unsigned max_ways = 64;  // the most ways a cache may have (platform_json.cpp)
    // The line in way w of the set at `base` becomes the most recent (way 0), the ones before it move down one.
    // The set's ways through pointers held in locals: a store to a dirty part, a byte, may alias anything, and would
    // have the vectors' data loaded again after each.
    void promote(size_t base, unsigned w, uint8_t part) {
        uint8_t* const d = dirty_.data() + base;
        if (w == 0) {  // the most recent already
            d[0] = static_cast<uint8_t>(d[0] | part);
            return;
        }
        uint64_t* const t = tags_.data() + base;
        if (w == 1) {  // the line behind the front (a page or line taken in turn with another): a swap, no loop
            const uint64_t t0 = t[0], t1 = t[1];
            const uint8_t d0 = d[0], d1 = d[1];
            t[0] = t1;
            t[1] = t0;
            d[0] = static_cast<uint8_t>(d1 | part);
            d[1] = d0;
            return;
        }
        const uint64_t tag = t[w];
        const uint8_t dirty = static_cast<uint8_t>(d[w] | part);
        for (; w > 0; --w) {
            t[w] = t[w - 1];
            d[w] = d[w - 1];
        }
        t[0] = tag;
        d[0] = dirty;
    }
    CacheConfig cfg_;
    unsigned sets_ = 0, line_shift_ = 0, part_shift_ = 0;
    bool sets_pow2_ = false;  // sets_ is a power of two: set_mask_ is sets_ - 1
    unsigned set_mask_ = 0;
    // Per set, its ways' tags and dirty parts in LRU order, the most recent first (valgrind's cg_sim.c keeps its
    // sets so): a hit moves its line to the front, a refill takes the last way (the least recent, or an empty
    // one: empty ways, tag ~0, stay behind the lines). No stamps: a set's order is its ways' order.
    std::vector<uint64_t> tags_;
    std::vector<uint8_t> dirty_;
    uint64_t accesses_ = 0, refills_ = 0, writebacks_ = 0;
    // The journal: per set (at its first way's index, so that no division finds it) the mark it was last saved under
    // (kept, all 0, while the journal is off: note()); the saved sets in the order saved (so by mark) with
    // their ways (cfg_.ways each) in jtags_ and jdirty_; a scratch mark per set for same_since().
    bool journal_ = false;
    uint32_t jmark_ = 0, jforgotten_ = 0;  // the current mark; marks before jforgotten_ are forgotten
    std::vector<uint32_t> jset_, jseen_;
    uint32_t jseen_gen_ = 0;
    struct Saved {
        uint32_t set, mark;
    };
    std::vector<Saved> jsaved_;
    std::vector<uint64_t> jtags_;
    std::vector<uint8_t> jdirty_;
};

}  // namespace pmusim::timing
