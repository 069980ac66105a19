// The cache and TLB structure (model/timing/cache.hpp) against its replacement rule: least recently used, a refill
// taking an empty way while there is one. Hits, refills and victims worked out by hand on short page sequences, and
// random streams compared access by access with a plain reference implementation of the same rule (age stamps
// instead of the list order the structure keeps), so that a faster structure must stay bit for bit the same.
#include <gtest/gtest.h>

#include "model/timing/cache.hpp"

#include <random>
#include <vector>

using namespace pmusim::timing;

namespace {

// A fully associative micro TLB of `entries` 4 KiB pages, as TimingModel builds one (timing_model.cpp).
CacheConfig micro_tlb(unsigned entries) {
    CacheConfig c;
    c.size = entries * 4096;
    c.ways = entries;
    c.line = 4096;
    c.write_back = false;
    return c;
}

// One set of `ways` ways of 64-byte lines (write-back, the default).
CacheConfig one_set(unsigned ways) {
    CacheConfig c;
    c.size = ways * 64;
    c.ways = ways;
    c.line = 64;
    return c;
}

// The reference: per set, each way's line, dirty parts and the stamp of its last use; a hit restamps, a refill
// takes an empty way or else the way of the oldest stamp. Nothing is ordered or moved.
class RefLru {
public:
    explicit RefLru(const CacheConfig& c) : c_(c), sets_(c.size / (c.line * c.ways)), ways_(size_t{sets_} * c.ways) {}
    Cache::Result access(uint64_t addr, bool write) {
        const uint64_t line = addr / c_.line;
        Way* set = &ways_[(line % sets_) * c_.ways];
        const uint8_t part = part_of(addr, write);
        Cache::Result r;
        for (unsigned w = 0; w < c_.ways; ++w)
            if (set[w].valid && set[w].line == line) {
                set[w].stamp = ++clock_;
                set[w].dirty = static_cast<uint8_t>(set[w].dirty | part);
                r.hit = true;
                return r;
            }
        if (write && !c_.write_allocate) return r;
        Way* v = nullptr;
        for (unsigned w = 0; w < c_.ways && !v; ++w)
            if (!set[w].valid) v = &set[w];
        if (!v) {
            v = &set[0];
            for (unsigned w = 1; w < c_.ways; ++w)
                if (set[w].stamp < v->stamp) v = &set[w];
            if (v->dirty) {
                r.writeback = true;
                r.victim = v->line * c_.line;
                for (uint8_t d = v->dirty; d; d = static_cast<uint8_t>(d & (d - 1))) ++r.dirty_parts;
            }
        }
        *v = {true, line, part, ++clock_};
        r.refill = true;
        return r;
    }
    bool present(uint64_t addr) const {
        const uint64_t line = addr / c_.line;
        const Way* set = &ways_[(line % sets_) * c_.ways];
        for (unsigned w = 0; w < c_.ways; ++w)
            if (set[w].valid && set[w].line == line) return true;
        return false;
    }
    uint8_t part_of(uint64_t addr, bool write) const {
        if (!write || !c_.write_back) return 0;
        return static_cast<uint8_t>(1u << ((addr % c_.line) / (c_.line / c_.dirty_parts)));
    }

private:
    struct Way {
        bool valid = false;
        uint64_t line = 0;
        uint8_t dirty = 0;
        uint64_t stamp = 0;
    };
    CacheConfig c_;
    unsigned sets_;
    std::vector<Way> ways_;
    uint64_t clock_ = 0;
};

}  // namespace

// 3 entries, pages 1 2 3 1 4 2 5 1 3 5 1 2. LRU order (most recent first) after each:
// 1 | 2 1 | 3 2 1 | 1 3 2 (hit) | 4 1 3 (2 out) | 2 4 1 (3 out) | 5 2 4 (1 out) | 1 5 2 (4 out) | 3 1 5 (2 out) |
// 5 3 1 (hit) | 1 5 3 (hit) | 2 1 5 (3 out). 9 refills, 3 hits.
TEST(CacheLru, MicroTlbPageSequenceWorkedByHand) {
    Cache t(micro_tlb(3));
    const uint64_t pages[] = {1, 2, 3, 1, 4, 2, 5, 1, 3, 5, 1, 2};
    const bool hit[] = {false, false, false, true, false, false, false, false, false, true, true, false};
    const int out[] = {-1, -1, -1, -1, 2, 3, 1, 4, 2, -1, -1, 3};  // the page evicted (-1: none)
    for (size_t i = 0; i < std::size(pages); ++i) {
        const auto r = t.access(pages[i] * 4096 + 0x10, false);
        EXPECT_EQ(r.hit, hit[i]) << "access " << i;
        EXPECT_EQ(r.refill, !hit[i]) << "access " << i;
        EXPECT_FALSE(r.writeback);  // a TLB holds nothing dirty
        if (out[i] >= 0) {
            EXPECT_FALSE(t.probe(static_cast<uint64_t>(out[i]) * 4096)) << "access " << i;
        }
        EXPECT_TRUE(t.probe(pages[i] * 4096 + 0xfff)) << "access " << i;
    }
    EXPECT_EQ(t.accesses(), 12u);
    EXPECT_EQ(t.refills(), 9u);
    EXPECT_TRUE(t.probe(2 * 4096) && t.probe(1 * 4096) && t.probe(5 * 4096));
    EXPECT_FALSE(t.probe(3 * 4096) || t.probe(4 * 4096));
}

// The same order seen through victims: a write-back set of 3 ways that every access writes, so that each eviction
// is a write-back naming its line. Lines 0x40 apart in a 1-set cache: A B C A D B E, victims B (by D: order A C B),
// C (by B: D A C), A (by E: B D A).
TEST(CacheLru, WriteBackVictimsFollowTheLruOrder) {
    const CacheConfig c = one_set(3);
    Cache k(c);
    const uint64_t A = 0x000, B = 0x040, C = 0x080, D = 0x0c0, E = 0x100;
    for (uint64_t a : {A, B, C}) EXPECT_TRUE(k.access(a, true).refill);
    EXPECT_TRUE(k.access(A, true).hit);
    const uint64_t next[] = {D, B, E}, victim[] = {B, C, A};
    for (int i = 0; i < 3; ++i) {
        const auto r = k.access(next[i], true);
        EXPECT_TRUE(r.refill && r.writeback) << i;
        EXPECT_EQ(r.victim, victim[i]) << i;
        EXPECT_EQ(r.dirty_parts, 1u) << i;
    }
    EXPECT_EQ(k.writebacks(), 3u);
}

// Random streams over a few lines per set (so that hits, refills and evictions all happen), for TLB-like and
// cache-like geometries: every access's outcome equal to the reference's, and where a run of touches (the block
// timing's claims) is undone, the cache as it was.
TEST(CacheLru, RandomStreamsMatchTheReferenceBitForBit) {
    std::mt19937_64 rng(38);
    struct Geo {
        unsigned size, ways, line, parts;
        bool write_back, allocate;
    };
    const Geo geos[] = {{10 * 4096, 10, 4096, 1, false, true}, {32 * 4096, 32, 4096, 1, false, true},
                        {512 * 4096, 4, 4096, 1, false, true}, {32768, 4, 64, 1, true, true},
                        {32768, 2, 32, 2, true, true},         {3 * 3 * 64, 3, 64, 1, true, false},
                        {5 * 2 * 64, 2, 64, 8, true, true},    {4096, 1, 64, 1, false, false}};
    for (const Geo& g : geos) {
        CacheConfig c;
        c.size = g.size;
        c.ways = g.ways;
        c.line = g.line;
        c.dirty_parts = g.parts;
        c.write_back = g.write_back;
        c.write_allocate = g.allocate;
        Cache k(c);
        RefLru ref(c);
        const unsigned sets = g.size / (g.line * g.ways);
        const uint64_t lines = uint64_t{sets} * (g.ways + 2);  // a little more than fits
        uint64_t hits = 0, refills = 0, writebacks = 0;
        for (int i = 0; i < 20000; ++i) {
            const uint64_t addr = (rng() % lines) * g.line + rng() % g.line;
            const bool write = rng() % 3 == 0;
            if (rng() % 8 == 0) {  // a claim of up to 4 present lines, undone: nothing changes
                Cache before = k;
                Cache::Undo u[4];
                Cache::Undo* next = u;
                uint64_t n = 0;
                for (int j = 0; j < 4; ++j) {
                    const uint64_t a = (rng() % lines) * g.line;
                    ASSERT_EQ(k.probe(a), ref.present(a));
                    if (k.touch_present(k.ref(a), k.dirty_part(a, write), next)) ++n;
                }
                k.untouch(u, next, n);
                ASSERT_TRUE(k.same_state(before)) << "geometry " << (&g - geos) << " step " << i;
            }
            const auto a = k.access(addr, write), b = ref.access(addr, write);
            ASSERT_EQ(a.hit, b.hit) << "geometry " << (&g - geos) << " step " << i;
            ASSERT_EQ(a.refill, b.refill) << "geometry " << (&g - geos) << " step " << i;
            ASSERT_EQ(a.writeback, b.writeback) << "geometry " << (&g - geos) << " step " << i;
            if (a.writeback) {
                ASSERT_EQ(a.victim, b.victim) << "geometry " << (&g - geos) << " step " << i;
                ASSERT_EQ(a.dirty_parts, b.dirty_parts) << "geometry " << (&g - geos) << " step " << i;
            }
            hits += a.hit;
            refills += a.refill;
            writebacks += a.writeback;
        }
        EXPECT_EQ(k.accesses(), 20000u);
        EXPECT_EQ(k.refills(), refills);
        EXPECT_EQ(k.writebacks(), writebacks);
        EXPECT_GT(hits, 1000u);     // the stream exercised both
        EXPECT_GT(refills, 1000u);  // outcomes
    }
}

// A line found just behind the front (way 1: a page or line taken in turn with another) swaps places with the front
// one; the others keep their order. One set of 4 ways, every access a write (each eviction names its victim).
// Order most recent first; lines A..J 0x40 apart. Filled A B C D: D C B A. Then C (way 1): C D B A; B (way 2):
// B C D A; C (way 1): C B D A; E evicts A: E C B D; C (way 1): C E B D; F evicts D: F C E B; C (way 1): C F E B;
// E (way 2): E C F B; G evicts B: G E C F; E (way 1): E G C F; H evicts F: H E G C; I evicts C: I H E G; J evicts
// G: J I H E. (Were a hit at way 1 to leave the order, the last victim would be E.) The same again with the hits
// made by touch_present (the block timing's claims): the same victims.
TEST(CacheLru, AHitBehindTheFrontSwapsWithTheFront) {
    const CacheConfig c = one_set(4);
    const uint64_t A = 0x000, B = 0x040, C = 0x080, D = 0x0c0, E = 0x100, F = 0x140, G = 0x180, H = 0x1c0, I = 0x200,
                   J = 0x240;
    struct Step {
        uint64_t line;
        int64_t victim;  // -1: a hit
    };
    const Step steps[] = {{C, -1}, {B, -1}, {C, -1}, {E, A}, {C, -1}, {F, D}, {C, -1},
                          {E, -1}, {G, B}, {E, -1}, {H, F}, {I, C}, {J, G}};
    for (const bool claimed : {false, true}) {
        Cache k(c);
        for (uint64_t a : {A, B, C, D}) EXPECT_TRUE(k.access(a, true).refill);
        for (size_t i = 0; i < std::size(steps); ++i) {
            const Step& s = steps[i];
            if (s.victim < 0 && claimed) {
                Cache::Undo u[1];
                Cache::Undo* next = u;
                EXPECT_TRUE(k.touch_present(k.ref(s.line), k.dirty_part(s.line, true), next)) << i;
                continue;
            }
            const auto r = k.access(s.line, true);
            EXPECT_EQ(r.hit, s.victim < 0) << "step " << i << (claimed ? " claimed" : "");
            if (s.victim >= 0) {
                EXPECT_TRUE(r.writeback) << i;
                EXPECT_EQ(r.victim, static_cast<uint64_t>(s.victim)) << "step " << i << (claimed ? " claimed" : "");
                EXPECT_EQ(r.dirty_parts, 1u) << i;
            }
        }
        EXPECT_EQ(k.accesses(), 17u);
        EXPECT_EQ(k.refills(), 10u);    // A B C D, E F G H I J
        EXPECT_EQ(k.writebacks(), 6u);  // one a refill after the fill
    }
}

// The journal saves a set before its first change after a mark: a hit on the line in front with its part marked
// (no change) saves nothing, and the set still compares as it was at an earlier mark where it changes after a
// later one. One set of 4 ways, lines A B (B in front).
TEST(CacheLru, JournalSavesASetBeforeItsFirstChange) {
    const CacheConfig c = one_set(4);
    Cache k(c);
    k.set_journal(true);
    const uint64_t A = 0x000, B = 0x040;
    k.access(A, false);
    k.access(B, false);
    const uint32_t m1 = k.mark();
    EXPECT_TRUE(k.access(B, false).hit);  // in front already: no change
    EXPECT_TRUE(k.same_since(m1));
    EXPECT_TRUE(k.access(A, false).hit);  // A before B: changed
    EXPECT_FALSE(k.same_since(m1));
    EXPECT_TRUE(k.access(B, false).hit);  // B before A again: as at m1
    EXPECT_TRUE(k.same_since(m1));
    // A claim that changes the set and is undone: as it was.
    const uint32_t m2 = k.mark();
    Cache::Undo u[2];
    Cache::Undo* next = u;
    EXPECT_TRUE(k.touch_present(k.ref(A), 0, next));
    EXPECT_EQ(next - u, 1);  // A was behind B: a change, kept for the undo
    EXPECT_FALSE(k.same_since(m2));
    k.untouch(u, next, 1);
    EXPECT_TRUE(k.same_since(m2));
    // A claim of the front line changes nothing (no undo, no save); the set changed only after the next mark is
    // saved then, as it was at both marks: compared with m3 it differs.
    const uint32_t m3 = k.mark();
    next = u;
    EXPECT_TRUE(k.touch_present(k.ref(B), 0, next));
    EXPECT_EQ(next - u, 0);
    const uint32_t m4 = k.mark();
    EXPECT_TRUE(k.access(A, false).hit);
    EXPECT_FALSE(k.same_since(m3));
    EXPECT_FALSE(k.same_since(m4));
    // B in front again, clean; then marked dirty in front: a change of its dirty part alone.
    EXPECT_TRUE(k.access(B, false).hit);
    const uint32_t m5 = k.mark();
    EXPECT_TRUE(k.access(B, true).hit);
    EXPECT_FALSE(k.same_since(m5));
    EXPECT_TRUE(k.access(B, true).hit);  // dirty already: no change, still differs from m5 by the dirty part
    EXPECT_FALSE(k.same_since(m5));
}
