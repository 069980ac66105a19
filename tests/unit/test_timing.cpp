// Timing-model components on hand-made streams whose counts are worked out on paper (docs/accuracy.md).
#include <gtest/gtest.h>

#include "model/timing/body_key_fields.hpp"
#include "model/timing/branch_predictor.hpp"
#include "model/timing/cache.hpp"
#include "model/timing/timing_model.hpp"
#include "isa/arm_classify.hpp"
#include "isa/decode.hpp"
#include "isa/reg_use.hpp"
#include "platforms/timing_params.hpp"

#include <functional>
#include <map>
#include <random>
#include <set>
#include <vector>

using namespace pmusim;
using namespace pmusim::timing;

namespace {

// VeeR EL2's predictor, keeping the table signature the block engine keys (set_memo) or not.
BranchPredictor veer_predictor(bool memo) {
    BranchPredictor p(platform_timing("veer-el2").value().predictor);
    p.set_memo(memo);
    return p;
}

// 4 KiB, 2 ways, 64-byte lines: 32 sets; addresses 2 KiB apart share a set.
CacheConfig small_cache() {
    CacheConfig c;
    c.size = 4096;
    c.ways = 2;
    c.line = 64;
    return c;
}

void sweep(Cache& c, uint64_t base, uint64_t bytes, uint64_t stride, bool write) {
    for (uint64_t a = base; a < base + bytes; a += stride) c.access(a, write);
}

}  // namespace

// The inline bit count the pairing test uses, against counts worked out by hand and against a bit-by-bit loop.
TEST(Popcount, CountsSetBits) {
    EXPECT_EQ(timing::popcount(0u), 0u);
    EXPECT_EQ(timing::popcount(0xFFFFFFFFu), 32u);
    EXPECT_EQ(timing::popcount(0x80000001u), 2u);
    EXPECT_EQ(timing::popcount(0x000000F0u), 4u);
    std::mt19937 rng(7);
    for (int i = 0; i < 1000; ++i) {
        const uint32_t m = static_cast<uint32_t>(rng());
        unsigned n = 0;
        for (uint32_t b = m; b; b >>= 1) n += b & 1u;
        EXPECT_EQ(timing::popcount(m), n) << std::hex << m;
    }
}

TEST(Cache, GeometryFromConfig) {
    EXPECT_EQ(Cache(small_cache()).sets(), 32u);
    CacheConfig a53;  // 32 KiB, 4 ways, 64 B: 128 sets
    EXPECT_EQ(Cache(a53).sets(), 128u);
}

// A line's set is its line number modulo the sets, its tag the quotient, whether or not the sets are a power of two
// (a mask and a shift where they are).
TEST(Cache, SetsNotAPowerOfTwoTakeTheLineModuloTheSets) {
    CacheConfig three;  // 3 sets of 2 ways, 64-byte lines
    three.size = 3 * 2 * 64;
    three.ways = 2;
    three.line = 64;
    Cache c(three);
    EXPECT_EQ(c.sets(), 3u);
    // Lines 0, 1 and 2 fall in sets 0, 1 and 2; lines 3 and 6 in set 0 with line 0.
    for (uint64_t line : {0u, 1u, 2u, 3u}) EXPECT_TRUE(c.access(line * 64, false).refill) << line;
    for (uint64_t line : {0u, 1u, 2u, 3u}) EXPECT_TRUE(c.access(line * 64, false).hit) << line;
    EXPECT_TRUE(c.access(6 * 64, false).refill);  // set 0's third line: evicts line 0, the least recent there
    EXPECT_TRUE(c.access(3 * 64, false).hit);
    EXPECT_TRUE(c.access(1 * 64, false).hit);  // set 1 untouched
    EXPECT_TRUE(c.access(0, false).refill);
    // Lines 0 and 3 (tags 0 and 1 in set 0) are two lines, not one.
    EXPECT_TRUE(c.access(6 * 64, false).refill);
}

TEST(Cache, FullyAssociativeHoldsAsManyLinesAsWays) {
    CacheConfig tlb;  // one set of 10 ways (the Cortex-A53's micro-TLBs), 4 KiB pages
    tlb.size = 10 * 4096;
    tlb.ways = 10;
    tlb.line = 4096;
    Cache c(tlb);
    EXPECT_EQ(c.sets(), 1u);
    for (uint64_t page = 0; page < 10; ++page) EXPECT_TRUE(c.access(page * 4096, false).refill) << page;
    for (uint64_t page = 0; page < 10; ++page) EXPECT_TRUE(c.access(page * 4096, false).hit) << page;
    EXPECT_TRUE(c.access(10 * 4096, false).refill);  // evicts page 0, the least recent
    EXPECT_TRUE(c.access(9 * 4096, false).hit);
    EXPECT_TRUE(c.access(0, false).refill);
}

TEST(Cache, ArrayThatFitsMissesOncePerLine) {
    // 2 KiB read word by word, twice: 32 lines, one per set, all refilled on the first pass and hit on the second.
    Cache c(small_cache());
    sweep(c, 0x10000, 2048, 4, false);
    EXPECT_EQ(c.refills(), 32u);
    sweep(c, 0x10000, 2048, 4, false);
    EXPECT_EQ(c.accesses(), 1024u);
    EXPECT_EQ(c.refills(), 32u);
    EXPECT_EQ(c.writebacks(), 0u);
}

TEST(Cache, CyclicSweepLargerThanTheCacheThrashesLru) {
    // 8 KiB by lines, twice: each set sees 4 lines in turn with 2 ways under LRU, so every access misses.
    Cache c(small_cache());
    sweep(c, 0, 8192, 64, false);
    sweep(c, 0, 8192, 64, false);
    EXPECT_EQ(c.accesses(), 256u);
    EXPECT_EQ(c.refills(), 256u);
}

TEST(Cache, LruKeepsTheRecentlyUsedWay) {
    // Set 0 holds lines 0 and 2048; touching 0 again makes 2048 the victim of 4096, so 0 still hits.
    Cache c(small_cache());
    EXPECT_TRUE(c.access(0, false).refill);
    EXPECT_TRUE(c.access(2048, false).refill);
    EXPECT_TRUE(c.access(0, false).hit);
    EXPECT_TRUE(c.access(4096, false).refill);
    EXPECT_TRUE(c.access(0, false).hit);
    EXPECT_TRUE(c.access(2048, false).refill);
}

// A fully associative cache of 4 lines (one set): the victim is always the least recently used line, whatever the
// order the lines came in. Lines A-E at 0, 64, ... 256: A B C D fill it; A, then C, hit (LRU order from the
// least recent: B D A C); E evicts B; B evicts D; D evicts A; then C, E, B, D are in and A is not.
TEST(Cache, FourWayLruEvictsTheLeastRecentLine) {
    CacheConfig cfg;
    cfg.size = 256;
    cfg.ways = 4;
    cfg.line = 64;
    Cache c(cfg);
    ASSERT_EQ(c.sets(), 1u);
    for (uint64_t a : {0, 64, 128, 192}) EXPECT_TRUE(c.access(a, false).refill);
    EXPECT_TRUE(c.access(0, false).hit);
    EXPECT_TRUE(c.access(128, false).hit);
    EXPECT_TRUE(c.access(256, false).refill);  // evicts B (64)
    EXPECT_FALSE(c.probe(64));
    EXPECT_TRUE(c.access(64, false).refill);   // evicts D (192)
    EXPECT_FALSE(c.probe(192));
    EXPECT_TRUE(c.access(192, false).refill);  // evicts A (0)
    EXPECT_FALSE(c.probe(0));
    for (uint64_t a : {128, 256, 64, 192}) EXPECT_TRUE(c.probe(a));
    EXPECT_EQ(c.refills(), 7u);
}

// The block timing's probe() and touch() do what access() does on a hit: the same LRU order, dirty parts and counts
// (a store's touch marks its line dirty: evicted, it is written back).
TEST(Cache, TouchIsAnAccessThatHits) {
    Cache a(small_cache()), b(small_cache());
    for (Cache* c : {&a, &b}) {
        c->access(0, false);
        c->access(2048, false);  // set 0: 2048 the more recent
    }
    a.access(0, true);
    ASSERT_TRUE(b.probe(0));
    Cache::Undo u[1]{};
    Cache::Undo* next = u;
    ASSERT_TRUE(b.touch_present(b.ref(0), b.dirty_part(0, true), next));
    EXPECT_TRUE(a.same_state(b));
    // Two more accesses of the same line: touch_again(2) counts them (the line already in front, its part marked).
    a.access(0, true);
    a.access(0, true);
    b.touch_again(2);
    EXPECT_TRUE(a.same_state(b));
    // 4096 evicts 2048 (now the least recent) in both, then 2048 evicts 0, dirty: a write-back.
    b.access(4096, false);
    EXPECT_FALSE(b.probe(2048));
    EXPECT_TRUE(b.access(2048, false).writeback);
}

// A touch of a line that is not there changes nothing; touches undone latest first leave the cache as it was: the
// same lines in the same LRU order with the same dirty parts and counts.
TEST(Cache, TouchesUndoneLeaveTheCacheAsItWas) {
    CacheConfig cfg;
    cfg.size = 256;  // one set of four 64-byte ways
    cfg.ways = 4;
    cfg.line = 64;
    Cache c(cfg), before(cfg);
    for (Cache* x : {&c, &before}) {
        for (uint64_t a : {0, 64, 128, 192}) x->access(a, false);  // LRU order, most recent first: 192 128 64 0
        x->access(64, true);                                       // 64 128 192 0, 64 dirty
    }
    Cache::Undo u[3];
    Cache::Undo* next = u;
    ASSERT_TRUE(c.touch_present(c.ref(0), c.dirty_part(0, true), next));      // 0 64 128 192, 0 dirty
    ASSERT_TRUE(c.touch_present(c.ref(128), c.dirty_part(128, false), next));  // 128 0 64 192
    ASSERT_TRUE(c.touch_present(c.ref(0), c.dirty_part(0, false), next));      // 0 128 64 192
    EXPECT_FALSE(c.touch_present(c.ref(256), 0, next));
    EXPECT_EQ(next, u + 3);  // each of the three changed the set
    EXPECT_EQ(c.accesses(), before.accesses() + 3);
    c.untouch(u, next, 3);
    EXPECT_TRUE(c.same_state(before));
    // Still the order 64 128 192 0 with 64 dirty: 256 then 320 evict 0 and 192 (clean), 384 evicts 128, 448 evicts
    // 64 with its write-back.
    EXPECT_FALSE(c.access(256, false).writeback);
    EXPECT_FALSE(c.access(320, false).writeback);
    EXPECT_FALSE(c.access(384, false).writeback);
    EXPECT_FALSE(c.probe(128));
    EXPECT_TRUE(c.probe(64));
    EXPECT_TRUE(c.access(448, false).writeback);
    EXPECT_FALSE(c.probe(64));
}

// A touch of the line already in front with its part already marked changes only the count: it leaves no undo. One
// that marks a new part, or moves a line, leaves one; the run undone leaves the cache as it was, and made, as
// access() leaves it.
TEST(Cache, TouchThatChangesNoSetLeavesNoUndo) {
    CacheConfig cfg;
    cfg.size = 128;  // one set of two 64-byte ways, a dirty bit per 32-byte half
    cfg.ways = 2;
    cfg.line = 64;
    cfg.dirty_parts = 2;
    Cache c(cfg);
    c.access(64, false);
    c.access(0, true);  // 0 64, 0's first half dirty
    const Cache before = c;
    Cache want = c;
    Cache::Undo u[4];
    Cache::Undo* next = u;
    ASSERT_TRUE(c.touch_present(c.ref(0), c.dirty_part(0, false), next));  // a read of the line in front
    ASSERT_TRUE(c.touch_present(c.ref(8), c.dirty_part(8, true), next));   // a store to its dirty half
    EXPECT_EQ(next, u);
    ASSERT_TRUE(c.touch_present(c.ref(40), c.dirty_part(40, true), next));  // its other half: now dirty too
    EXPECT_EQ(next, u + 1);
    ASSERT_TRUE(c.touch_present(c.ref(64), c.dirty_part(64, false), next));  // 64 0
    EXPECT_EQ(next, u + 2);
    for (const auto& [a, w] : {std::pair<uint64_t, bool>{0, false}, {8, true}, {40, true}, {64, false}}) want.access(a, w);
    EXPECT_TRUE(c.same_state(want));
    EXPECT_EQ(c.accesses(), before.accesses() + 4);
    c.untouch(u, next, 4);
    EXPECT_TRUE(c.same_state(before));
    // 128 evicts 64 (clean), then 192 evicts 0 with its first half dirty only.
    EXPECT_FALSE(c.access(128, false).writeback);
    const auto r = c.access(192, false);
    EXPECT_TRUE(r.writeback);
    EXPECT_EQ(r.dirty_parts, 1u);
}

TEST(Cache, DirtyLinesAreWrittenBackWhenEvicted) {
    // 2 KiB stored by lines: 32 dirty lines, one per set. 4 KiB read elsewhere: 2 lines per set, the second of
    // which evicts the dirty line (least recently used): 32 write-backs, 32 + 64 refills.
    Cache c(small_cache());
    sweep(c, 0, 2048, 64, true);
    sweep(c, 0x100000, 4096, 64, false);
    EXPECT_EQ(c.writebacks(), 32u);
    EXPECT_EQ(c.refills(), 96u);
}

// The journal (Cache::same_since): a set compared with itself as it was at a mark, by its lines, their dirty parts
// and their LRU order, whichever ways hold them. Set 0 of the small cache (2 ways) holds lines at multiples of
// 2048; set 1 starts at 64.
TEST(Cache, JournalComparesTheSetsAccessedSinceAMark) {
    Cache c(small_cache());
    c.set_journal(true);
    c.access(0, false);     // way 0
    c.access(2048, false);  // way 1, the more recent
    const uint32_t m1 = c.mark();
    EXPECT_EQ(m1, 1u);
    EXPECT_TRUE(c.same_since(m1));  // nothing accessed since
    // 4096 evicts 0 (least recent) into way 0; 0 evicts 2048 into way 1; 2048 evicts 4096 into way 0. The set
    // holds 0 then 2048 again, in the same LRU order, in swapped ways: the same state.
    EXPECT_TRUE(c.access(4096, false).refill);
    EXPECT_TRUE(c.access(0, false).refill);
    EXPECT_TRUE(c.access(2048, false).refill);
    EXPECT_TRUE(c.same_since(m1));
    // A hit that reverses the order: 0 the more recent. Not the state at m1, nor at m2 (taken before it).
    const uint32_t m2 = c.mark();
    c.access(0, false);
    EXPECT_FALSE(c.same_since(m1));
    EXPECT_FALSE(c.same_since(m2));
    // Back in order (2048 the more recent), but 2048 now dirty: differs from m2 by its dirty part alone.
    c.access(2048, true);
    EXPECT_FALSE(c.same_since(m2));
    const uint32_t m3 = c.mark();
    c.access(2048, true);  // dirty already, the more recent already
    EXPECT_TRUE(c.same_since(m3));
    // Another line in set 1 since m3: set 1 held nothing then.
    c.access(64, false);
    EXPECT_FALSE(c.same_since(m3));
    // Marks before the last one forgotten: the last compares as before; an older one may no longer be asked.
    const uint32_t m4 = c.mark();
    c.forget_before(m4);
    c.access(64, false);
    EXPECT_TRUE(c.same_since(m4));
    // A forgotten mark compares false, even where nothing was accessed since.
    const uint32_t m5 = c.mark();
    const uint32_t m6 = c.mark();
    c.forget_before(m6);
    EXPECT_TRUE(c.same_since(m6));
    EXPECT_FALSE(c.same_since(m5));
    // Off, it keeps nothing and marks nothing.
    c.set_journal(false);
    EXPECT_EQ(c.mark(), 0u);
    EXPECT_FALSE(c.same_since(m4));
}

// A repeat skipped (TimingModel::skip_loop) adds its accesses, refills and write-backs.
TEST(Cache, SkipAddsTheStretchsCounts) {
    Cache c(small_cache());
    c.access(0, true);
    c.skip(10, 3, 2);
    EXPECT_EQ(c.accesses(), 11u);
    EXPECT_EQ(c.refills(), 4u);
    EXPECT_EQ(c.writebacks(), 2u);
    EXPECT_TRUE(c.access(0, false).hit);  // the line stays
}

TEST(Cache, WriteThroughWithoutAllocationLeavesNothingDirty) {
    CacheConfig cfg = small_cache();
    cfg.write_back = false;
    cfg.write_allocate = false;
    Cache c(cfg);
    sweep(c, 0, 2048, 64, true);  // store misses go around the cache
    EXPECT_EQ(c.refills(), 0u);
    sweep(c, 0, 2048, 64, false);
    EXPECT_EQ(c.refills(), 32u);
    sweep(c, 0, 2048, 64, true);  // store hits: written through, not dirty
    sweep(c, 0x100000, 4096, 64, false);
    EXPECT_EQ(c.writebacks(), 0u);
}

namespace {

// 10 runs of a 10-iteration loop: its backward branch is taken 9 times, then falls through. Returns mispredicts.
unsigned loop_mispredicts(PredictorConfig cfg) {
    BranchPredictor bp(cfg);
    unsigned miss = 0;
    for (int run = 0; run < 10; ++run)
        for (int i = 0; i < 10; ++i) miss += bp.conditional(0x1000, 0xF00, i < 9);
    return miss;
}

}  // namespace

TEST(BranchPredictor, LoopBranchUnderEachDirectionScheme) {
    PredictorConfig c;
    c.direction = PredictorConfig::Direction::not_taken;
    EXPECT_EQ(loop_mispredicts(c), 90u);  // every taken iteration
    c.direction = PredictorConfig::Direction::btfn;
    EXPECT_EQ(loop_mispredicts(c), 10u);  // backward: predicted taken; every exit misses
    c.direction = PredictorConfig::Direction::bimodal;
    // The counter starts weakly not-taken: the first iteration of the first run misses, then every exit.
    EXPECT_EQ(loop_mispredicts(c), 11u);
    // btac (ARM1176 TRM 5.2.2-5.2.3): the first sight is not in the cache, so the static rule predicts the
    // backward branch taken (right); allocated weakly taken, then only the 10 exits miss.
    c.direction = PredictorConfig::Direction::btac;
    EXPECT_EQ(loop_mispredicts(c), 10u);
}

// ARM1176 TRM 5.2.2-5.2.3: the BTAC holds B and BL as well; a direct branch it misses goes by the static rule, which
// takes an unconditional one as taken (forward or backward) and a forward conditional one as not taken.
TEST(BranchPredictor, BtacDirectBranchesHitOnceResolved) {
    PredictorConfig c;
    c.direction = PredictorConfig::Direction::btac;
    c.table_bits = 7;
    BranchPredictor bp(c);
    auto d = bp.direct(0x1000, 0x1100, true, false);  // B forward, first sight: static taken, right, a miss
    EXPECT_FALSE(d.mispredicted);
    EXPECT_FALSE(d.hit);
    d = bp.direct(0x1000, 0x1100, true, false);  // allocated when resolved: a hit now
    EXPECT_FALSE(d.mispredicted);
    EXPECT_TRUE(d.hit);
    d = bp.direct(0x2000, 0x2100, true, true);  // BNE forward, taken, first sight: static not taken, wrong
    EXPECT_TRUE(d.mispredicted);
    EXPECT_FALSE(d.hit);
    bp.set_enabled(false);  // prediction off: predicted not taken, even an unconditional branch
    EXPECT_TRUE(bp.direct(0x1000, 0x1100, true, false).mispredicted);
    EXPECT_FALSE(bp.direct(0x3000, 0x3100, false, true).mispredicted);
}

TEST(BranchPredictor, BtacMissesFallBackToTheStaticRuleAndEvictByIndex) {
    // ARM1176 TRM (DDI 0301H) 5.2.2-5.2.3, 128 entries indexed from address bit 2: 0x1000 and 0x1200 share index
    // 0 ((0x1000 >> 2) & 127 = (0x1200 >> 2) & 127 = 0).
    PredictorConfig c;
    c.direction = PredictorConfig::Direction::btac;
    c.table_bits = 7;
    BranchPredictor bp(c);
    // A forward branch, not held: predicted not taken statically; it is taken, a miss, and is allocated weakly taken.
    EXPECT_TRUE(bp.conditional(0x1000, 0x1100, true));
    // Held now (counter 2: taken): right; the counter goes to 3.
    EXPECT_FALSE(bp.conditional(0x1000, 0x1100, true));
    // Another forward branch at the same index, not taken: static not taken, right; it evicts the first.
    EXPECT_FALSE(bp.conditional(0x1200, 0x1300, false));
    // The first again: its strong counter is gone, the static rule says not taken again: a miss. (A bimodal
    // table without tags would have kept one counter per index and never told the two branches apart.)
    EXPECT_TRUE(bp.conditional(0x1000, 0x1100, true));
    // A backward branch seen for the first time, taken: the static rule predicts it taken, right (a bimodal
    // counter starts weakly not taken and would miss).
    EXPECT_FALSE(bp.conditional(0x2004, 0x1F00, true));
    // The untaken branch at 0x1200 was evicted by the first; its own entry is gone, static not taken again: right.
    EXPECT_FALSE(bp.conditional(0x1200, 0x1300, false));
}

TEST(BranchPredictor, GshareLearnsAnAlternatingBranch) {
    // T, N, T, N...: a bimodal counter flips between the two weak states and misses often; with one bit of global
    // history each outcome gets its own counter. After warm-up (the first 4 outcomes) gshare never misses.
    PredictorConfig c;
    c.direction = PredictorConfig::Direction::gshare;
    c.table_bits = 4;
    c.history_bits = 1;
    BranchPredictor bp(c);
    unsigned late_miss = 0;
    for (int i = 0; i < 40; ++i) {
        const bool miss = bp.conditional(0x40, 0x20, i % 2 == 0);
        if (i >= 4) late_miss += miss;
    }
    EXPECT_EQ(late_miss, 0u);
}

// The Cortex-A9's Global History Buffer (TRM DDI 0388I, 7.3: 4096 2-bit counters; its index taken as the
// Cortex-A8's, 10 bits of global history XORed into the address: assumed). One branch alternating T, N, T, N ... from
// an empty history, every counter weakly not taken: each N is predicted right; each T misses the first time it sees
// its history. T at i = 0, 2, 4, 6, 8 sees 0, 0b10, 0b1010, 0b101010, 0b10101010 (the history still filling), T at
// i = 10 sees the full 0b1010101010, which every later T sees again: 6 misses in 40. A bimodal table (the A9's before:
// 2^10 counters, no history) flips between the two weak states: all 40 miss.
TEST(BranchPredictor, CortexA9GlobalHistoryLearnsAnAlternatingBranch) {
    const auto p = platform_timing("cortex-a9");
    ASSERT_TRUE(p.has_value());
    BranchPredictor bp(p->predictor);
    unsigned misses = 0;
    for (int i = 0; i < 40; ++i) misses += bp.conditional(0x8040, 0x8020, i % 2 == 0);
    EXPECT_EQ(misses, 6u);
}

// The Cortex-A9's BTAC (TRM DDI 0388I, 7.3: 512 entries; the model's target table indexes it by the address's
// halfword, direct-mapped): two indirect jumps 0x200 bytes apart (256 halfwords) each to a target of its own keep
// their entries in 512 (2 cold misses in 10 rounds of the pair); in the 256 entries the A9 had before they share
// one and every one of the 20 misses.
TEST(BranchPredictor, CortexA9BtacHoldsTwoJumps256HalfwordsApart) {
    const auto p = platform_timing("cortex-a9");
    ASSERT_TRUE(p.has_value());
    BranchPredictor bp(p->predictor);
    unsigned misses = 0;
    for (int i = 0; i < 10; ++i) {
        misses += bp.indirect(0x8000, 0x9000, false);
        misses += bp.indirect(0x8200, 0xA000, false);
    }
    EXPECT_EQ(misses, 2u);
}

// The Cortex-A9's BTAC as its TRM has it (DDI 0388I, 7.3: 512 entries, 2 ways x 256; the set is the address's
// halfword index, least recently used replaced: assumed). Jumps A 0x8000, B 0x8400, C 0x8800 (512 halfwords apart)
// share set 0, each to a target of its own. A, B, A, C, A, B: A and B miss cold (ways 0, 1), A hits (B now least
// recently used), C misses and evicts B, A hits (C least recently used), B misses (evicting C): 4 misses. Round robin
// would evict A for C (5 misses); the direct-mapped table of 512 (one index for the three) misses all 6.
TEST(BranchPredictor, CortexA9BtacKeepsTwoJumpsOfOneSetAndEvictsTheLeastRecentlyUsed) {
    const auto p = platform_timing("cortex-a9");
    ASSERT_TRUE(p.has_value());
    BranchPredictor bp(p->predictor);
    const uint64_t a = 0x8000, b = 0x8400, c = 0x8800;
    EXPECT_TRUE(bp.indirect(a, 0x9000, false));
    EXPECT_TRUE(bp.indirect(b, 0xA000, false));
    EXPECT_FALSE(bp.indirect(a, 0x9000, false));
    EXPECT_TRUE(bp.indirect(c, 0xB000, false));
    EXPECT_FALSE(bp.indirect(a, 0x9000, false));
    EXPECT_TRUE(bp.indirect(b, 0xA000, false));
    // Two of them in one set stay predicted: 10 rounds of A, B, 2 cold misses (B is still held: no miss for it).
    BranchPredictor two(p->predictor);
    unsigned misses = 0;
    for (int i = 0; i < 10; ++i) {
        misses += two.indirect(a, 0x9000, false);
        misses += two.indirect(b, 0xA000, false);
    }
    EXPECT_EQ(misses, 2u);
    // A hit with a new target mispredicts and takes it in place, keeping the set's other way.
    EXPECT_TRUE(two.indirect(a, 0x9100, false));
    EXPECT_FALSE(two.indirect(b, 0xA000, false));
    EXPECT_FALSE(two.indirect(a, 0x9100, false));
}

TEST(BranchPredictor, PredictionOffMispredictsEveryTakenBranch) {
    PredictorConfig c;
    c.enabled = false;
    EXPECT_EQ(loop_mispredicts(c), 90u);
    BranchPredictor bp(c);
    EXPECT_TRUE(bp.indirect(0x100, 0x200, false));
    EXPECT_TRUE(bp.indirect(0x100, 0x200, false));
}

// The VeeR EL2 predictor (BranchPredictor::veer; rules from the RTL, cited there). History off (0 bits) so that
// each branch has one counter and the counts can be followed by hand.
PredictorConfig veer_config(unsigned wrong_path) {
    PredictorConfig c;
    c.direction = PredictorConfig::Direction::veer_el2;
    c.table_bits = 9;
    c.history_bits = 0;
    c.btb_bits = 9;
    c.btb_tag_bits = 5;
    c.ras_depth = 8;
    c.wrong_path_fetch = wrong_path;
    return c;
}
using VK = BranchPredictor::VeerKind;

TEST(BranchPredictor, VeerLoopBranchAllocatesOnItsFirstTakenMiss) {
    BranchPredictor bp(veer_config(0));
    unsigned miss = 0;
    for (int run = 0; run < 10; ++run)
        for (int i = 0; i < 10; ++i) miss += bp.veer(0x1000, 4, VK::cond, i < 9, 0xF00).mispredicted;
    // Not in the BTB the first time: predicted not taken, taken: a miss that allocates it and moves its counter
    // from weakly not taken to weakly taken. Then every taken one is right and every exit wrong: 1 + 10.
    EXPECT_EQ(miss, 11u);
}

// The fetch-side global history (el2_ifu_bp_ctl.sv: fghr, merged_ghr, fghr_ns): per 4-byte fetch window one bit
// for one BTB hit, two ("0" and the direction fetch follows) for two; the first window after a flush reads the
// history fetch had before it and loses its own bits, while execute's history shifts every hit branch's outcome.
// Jumps A (0x2000 -> 0x3000) and B (0x2002 -> 0x1000) share the window at 0x2000; J is 0x1000 -> 0x2000, K 0x3000 ->
// 0x0ff0. 8 bits of history, no wrong-path windows (veer_config leaves wrong_path_windows 0).
TEST(BranchPredictor, VeerFetchHistoryIsKeptPerWindowAndLosesTheFirstWindowAfterAFlush) {
    PredictorConfig c = veer_config(0);
    c.history_bits = 8;
    BranchPredictor bp(c);
    EXPECT_TRUE(bp.veer(0x2000, 2, VK::jump, true, 0x3000).mispredicted);  // A allocated; a flush
    // B: fetch reads window 0x2000 (A hits: one bit), then B misses and flushes: execute's history is still 0.
    EXPECT_TRUE(bp.veer(0x2002, 2, VK::jump, true, 0x1000).mispredicted);
    EXPECT_EQ(bp.veer_history(), 0u);
    EXPECT_EQ(bp.veer_fetch_history(0x1000, 2), 0b1u);  // the first window after the flush: fetch's old history
    EXPECT_TRUE(bp.veer(0x1000, 2, VK::jump, true, 0x2000).mispredicted);  // J allocated; a flush to 0x2000
    EXPECT_FALSE(bp.veer(0x2000, 2, VK::jump, true, 0x3000).mispredicted);  // A hits, in the first window
    EXPECT_EQ(bp.veer_history(), 0b1u);
    EXPECT_EQ(bp.veer_fetch_history(0x3000, 2), 0u);  // A's bit is lost to fetch
    EXPECT_TRUE(bp.veer(0x3000, 2, VK::jump, true, 0x0ff0).mispredicted);  // K allocated; fetch history := 0b1
    EXPECT_FALSE(bp.veer(0x0ff0, 2, VK::cond, false, 0x0ff2).mispredicted);  // the first window: nothing to lose
    EXPECT_FALSE(bp.veer(0x1000, 2, VK::jump, true, 0x2000).mispredicted);  // J hits: 0b1 -> 0b11
    EXPECT_EQ(bp.veer_fetch_history(0x2000, 2), 0b11u);
    // Window 0x2000 holds two hits: A, predicted taken, and B behind it, never executed: 0b11 -> 0b11'0'1.
    EXPECT_FALSE(bp.veer(0x2000, 2, VK::jump, true, 0x3000).mispredicted);
    EXPECT_EQ(bp.veer_fetch_history(0x3000, 2), 0b1101u);
    EXPECT_EQ(bp.veer_history(), 0b111u);
}

TEST(BranchPredictor, VeerReturnsAfterA32BitCallAlwaysMiss) {
    BranchPredictor bp(veer_config(0));
    // A 16-bit call and its return: both miss the first time (not in the BTB), then the call pushes pc + 2.
    EXPECT_TRUE(bp.veer(0x100, 2, VK::call, true, 0x400).mispredicted);
    EXPECT_TRUE(bp.veer(0x410, 2, VK::ret, true, 0x102).mispredicted);
    EXPECT_FALSE(bp.veer(0x100, 2, VK::call, true, 0x400).mispredicted);
    EXPECT_FALSE(bp.veer(0x410, 2, VK::ret, true, 0x102).mispredicted);
    // A 32-bit call pushes its own address (rs_addr adds no halfword for a 4-byte branch): its return misses.
    EXPECT_TRUE(bp.veer(0x200, 4, VK::call, true, 0x500).mispredicted);
    EXPECT_TRUE(bp.veer(0x510, 2, VK::ret, true, 0x204).mispredicted);
    for (int i = 0; i < 2; ++i) {
        EXPECT_FALSE(bp.veer(0x200, 4, VK::call, true, 0x500).mispredicted);
        EXPECT_TRUE(bp.veer(0x510, 2, VK::ret, true, 0x204).mispredicted);
    }
}

TEST(BranchPredictor, VeerAddressesSharingASlotMemoEntryKeepTheirOwnBtbEntries) {
    BranchPredictor bp(veer_config(0));
    // 512 bytes apart: the same entry of the memo of BTB slots (veer_lookup), BTB sets 4 and 0x84. A slot taken
    // from the other address would hit the other jump's entry, whose target differs: a branch error, a flush.
    for (int i = 0; i < 3; ++i) {
        const auto a = bp.veer(0x1000, 4, VK::jump, true, 0x3000);
        const auto b = bp.veer(0x1200, 4, VK::jump, true, 0x4000);
        EXPECT_EQ(a.mispredicted, i == 0);
        EXPECT_EQ(a.flush, i == 0);
        EXPECT_EQ(b.mispredicted, i == 0);
        EXPECT_EQ(b.flush, i == 0);
    }
}

TEST(BranchPredictor, VeerUnpredictedJumpsFlushWithoutMispredicting) {
    BranchPredictor bp(veer_config(0));
    for (int i = 0; i < 2; ++i) {  // a JALR call through a register: never in the BTB, always refetched
        const auto o = bp.veer(0x100, 4, VK::other, true, 0x800);
        EXPECT_FALSE(o.mispredicted);
        EXPECT_TRUE(o.flush);
    }
}

TEST(BranchPredictor, VeerWrongPathReturnPopsTheStack) {
    // A branch mispredicted not taken: fetch went on to its fall-through, where a return in the BTB popped the
    // return stack; the flush does not restore it, so the next return finds the wrong address.
    auto last_return_missed = [](unsigned wrong_path) {
        BranchPredictor bp(veer_config(wrong_path));
        bp.veer(0x400, 2, VK::ret, true, 0x999);   // returns at 0x400 and 0x300 enter the BTB
        bp.veer(0x300, 2, VK::ret, true, 0x999);
        bp.veer(0x180, 2, VK::call, true, 0x2FC);  // a call enters the BTB, then pushes 0x182
        bp.veer(0x180, 2, VK::call, true, 0x2FC);
        EXPECT_TRUE(bp.veer(0x2FC, 4, VK::cond, true, 0x400).mispredicted);  // fall-through: 0x300
        return bp.veer(0x400, 2, VK::ret, true, 0x182).mispredicted;
    };
    EXPECT_FALSE(last_return_missed(0));
    EXPECT_TRUE(last_return_missed(4));  // 0x300 popped 0x182 on the wrong path
}

// A group of calls replayed as one (BranchPredictor::group_begin, group_end, apply; TimingModel::predict_body):
// what the group changed, applied to a predictor in the state the group started from, gives the state stepping the
// calls gives.
TEST(BranchPredictor, VeerGroupOfCallsAppliedGivesTheSteppedState) {
    const auto params = platform_timing("veer-el2");
    ASSERT_TRUE(params.has_value());
    BranchPredictor plain(params->predictor), memo(params->predictor);
    memo.set_memo(true);
    // A loop body: a call and its return, nine jumps in a chain (each hit shifts a 1 into the 8-bit histories), a
    // conditional branch taken every other iteration (always read with all-ones histories: one counter, moved up
    // and down, a table write each time), and the jump back when it falls through.
    auto iteration = [](BranchPredictor& bp, unsigned it) {
        bp.veer(0x100, 2, VK::call, true, 0x400);
        bp.veer(0x410, 2, VK::ret, true, 0x102);
        for (uint64_t k = 0; k < 9; ++k) bp.veer(0x110 + 0x10 * k, 2, VK::jump, true, 0x120 + 0x10 * k);
        const bool taken = it % 2 == 0;
        bp.veer(0x200, 4, VK::cond, taken, taken ? 0x100 : 0x204);
        if (!taken) bp.veer(0x204, 2, VK::jump, true, 0x100);
    };
    for (unsigned it = 0; it < 48; ++it) {
        const BranchPredictor start = memo;  // a copy: the state the group starts from (the memo shared)
        uint64_t key_before[BranchPredictor::state_words], key_start[BranchPredictor::state_words];
        memo.state_key(key_before);
        memo.group_begin();
        iteration(memo, it);
        BranchPredictor::Changes changes;
        ASSERT_TRUE(memo.group_end(changes));
        iteration(plain, it);
        ASSERT_TRUE(memo.same_state(plain)) << "iteration " << it;
        BranchPredictor replayed = start;
        replayed.apply(changes);
        EXPECT_TRUE(replayed.same_state(plain)) << "iteration " << it;
        start.state_key(key_start);
        EXPECT_TRUE(std::equal(key_before, key_before + BranchPredictor::state_words, key_start));
    }
}

TEST(BranchPredictor, VeerBranchBeforeAnInterruptGoesWherePredicted) {
    // A loop branch in the BTB, predicted taken; the last one before an interrupt entry has the handler as its
    // successor in the trace. Taken to go where predicted, it neither mispredicts nor loses its BTB entry (as a
    // taken branch to the handler's address it would be a branch error that invalidates the entry).
    BranchPredictor bp(veer_config(0));
    EXPECT_TRUE(bp.veer(0x1000, 2, VK::cond, true, 0xFF0).mispredicted);  // allocated, counter weakly taken
    EXPECT_FALSE(bp.veer(0x1000, 2, VK::cond, true, 0xFF0).mispredicted);
    const auto o = bp.veer_as_predicted(0x1000, 2, VK::cond);
    EXPECT_FALSE(o.mispredicted);
    EXPECT_FALSE(o.flush);
    EXPECT_FALSE(bp.veer(0x1000, 2, VK::cond, true, 0xFF0).mispredicted);  // still in the BTB, still taken
    // The old way: the handler (0x3A0) as the target of the entry for 0xFF0, a branch error: refetched unpredicted,
    // and the entry is gone, so the next taken one mispredicts again.
    EXPECT_TRUE(bp.veer(0x1000, 2, VK::cond, true, 0x3A0).mispredicted);
    EXPECT_TRUE(bp.veer(0x1000, 2, VK::cond, true, 0xFF0).mispredicted);
    // Not in the BTB: predicted to fall through, which is no misprediction and allocates nothing.
    EXPECT_FALSE(bp.veer_as_predicted(0x2000, 2, VK::cond).mispredicted);
    EXPECT_TRUE(bp.veer(0x2000, 2, VK::cond, true, 0x1F00).mispredicted);
}

// The table signature the memo keeps as the tables are written (put(); a counter's through counter_sigs_, the flat
// table set_memo makes) is the one worked out from the tables whole: after every call of a random run over one
// fetch line's branch sites of every kind (counters moved both ways, BTB entries allocated and invalidated, the
// return stack pushed and popped), the signature word of state_key (a predictor with the memo) equals the last word
// of loop_state (one without: veer_table_sig, every entry's signature from entry_sig).
TEST(BranchPredictor, VeerKeptSignatureIsTheTablesWhole) {
    BranchPredictor plain = veer_predictor(false), memo = veer_predictor(true);
    ASSERT_TRUE(memo.memo());
    std::mt19937 rng(7);
    const VK kinds[] = {VK::cond, VK::cond, VK::cond, VK::call, VK::ret, VK::jump, VK::other};
    for (unsigned n = 0; n < 3000; ++n) {
        const uint64_t pc = 0x2000 + 2 * (rng() % 32);
        const VK kind = kinds[rng() % 7];
        const bool taken = kind != VK::cond || (rng() & 1);
        const uint64_t next = taken ? 0x2000 + 2 * (rng() % 32) : pc + 2;
        plain.veer(pc, 2, kind, taken, next);
        memo.veer(pc, 2, kind, taken, next);
        uint64_t key[BranchPredictor::state_words];
        memo.state_key(key);
        std::vector<uint64_t> whole;
        plain.loop_state(whole);
        ASSERT_EQ(key[BranchPredictor::state_words - 1], whole.back()) << "call " << n;
    }
}

// The table signature the block engine keys (BranchPredictor::set_memo: every table write through put()) must be
// invisible: a predictor keeping it and one without, given the same calls, agree on every outcome and on both
// global histories after each. The calls go over 24 branch sites of every kind and three jumps whose entries share
// one BTB set (0x3000, 0x3404 and 0x3808: the same set index, bits [9:2] ^ [17:10] ^ [25:18], other tags), which
// evict each other in turn:
//  - 400 iterations in patterns, their conditional outcomes following the iteration's number, with now and then a
//    site met as another kind (a branch error), a return elsewhere than pushed, a call that goes as predicted;
//  - 4000 calls of sites drawn at random, outcomes at random;
//  - 60 iterations alike (each conditional site always taken or always not), the same calls meeting the same
//    states again.
TEST(BranchPredictor, VeerMemoGivesWhatSteppingGives) {
    BranchPredictor plain = veer_predictor(false), memo = veer_predictor(true);
    ASSERT_TRUE(memo.memo());
    struct Site {
        uint64_t pc;
        unsigned size;
        VK kind;
        uint64_t target;
    };
    std::vector<Site> sites;
    const VK kinds[] = {VK::cond, VK::cond, VK::cond, VK::call, VK::ret, VK::jump, VK::other, VK::cond};
    for (unsigned k = 0; k < 24; ++k) {
        const uint64_t pc = 0x2000 + 6 * k + (k % 3 == 0 ? 0x200 * (k / 3) : 0);
        sites.push_back({pc, k % 2 ? 2u : 4u, kinds[k % 8], 0x1000 + 0x40 * k});
    }
    for (uint64_t pc : {0x3000u, 0x3404u, 0x3808u}) sites.push_back({pc, 2, VK::jump, pc + 0x100});
    auto both = [&](const Site& s, bool taken, bool as_predicted) {
        const uint64_t next = taken ? s.target : s.pc + s.size;
        const auto a = as_predicted ? plain.veer_as_predicted(s.pc, s.size, s.kind) : plain.veer(s.pc, s.size, s.kind, taken, next);
        const auto b = as_predicted ? memo.veer_as_predicted(s.pc, s.size, s.kind) : memo.veer(s.pc, s.size, s.kind, taken, next);
        EXPECT_EQ(a.mispredicted, b.mispredicted);
        EXPECT_EQ(a.flush, b.flush);
        EXPECT_EQ(plain.veer_history(), memo.veer_history());
        EXPECT_EQ(plain.veer_fetch_history(next, 2), memo.veer_fetch_history(next, 2));
        return a.mispredicted == b.mispredicted && a.flush == b.flush && plain.same_state(memo);
    };
    for (unsigned it = 0; it < 400; ++it)
        for (size_t k = 0; k < sites.size(); ++k) {
            Site s = sites[k];
            bool taken = true;
            if (s.kind == VK::cond) taken = k % 3 == 0 ? it % 2 == 0 : k % 3 == 1 ? (it % 5) < 3 : it >= 200;
            if (it % 37 == 5 && k == 7) s.kind = VK::jump;          // a conditional site met as a jump
            if (s.kind == VK::ret && it % 11 == 3) s.target += 2;  // a return elsewhere than pushed
            ASSERT_TRUE(both(s, taken, s.kind == VK::call && it % 13 == 7)) << "iteration " << it << ", site " << k;
        }
    std::mt19937 rng(15);
    for (unsigned n = 0; n < 4000; ++n) {
        const Site& s = sites[rng() % sites.size()];
        ASSERT_TRUE(both(s, s.kind != VK::cond || (rng() & 1), false)) << "random call " << n;
    }
    // 8 sites packed 2 bytes apart (several to a fetch window), jumping among themselves: few states, met again
    // and again with small differences (one history bit, one return-stack entry). The calls at 0x4002 and 0x400e
    // push 0x4004 and 0x4010; the returns at 0x4006 and 0x400a go back to those.
    std::vector<Site> packed;
    const VK packed_kinds[] = {VK::cond, VK::call, VK::cond, VK::ret, VK::cond, VK::ret, VK::cond, VK::call};
    for (unsigned k = 0; k < 8; ++k) packed.push_back({0x4000 + 2 * k, 2, packed_kinds[k], 0x4000 + 2 * ((k * 3 + 5) % 8)});
    packed[3].target = 0x4004;
    packed[5].target = 0x4010;
    for (unsigned n = 0; n < 50000; ++n) {
        const Site& s = packed[rng() % packed.size()];
        ASSERT_TRUE(both(s, s.kind != VK::cond || (rng() & 1), false)) << "packed call " << n;
    }
    // Calls and returns alone, at random: their counters and BTB entries settle at once (taken), and the states
    // met again differ in the return stack's entries only. Calls at 0x5002 and 0x500e push 0x5004 and 0x5010;
    // returns at 0x5006 and 0x500a go back to those.
    const Site stack_sites[] = {{0x5002, 2, VK::call, 0x5008}, {0x500e, 2, VK::call, 0x5008},
                                {0x5006, 2, VK::ret, 0x5004},  {0x500a, 2, VK::ret, 0x5010}};
    for (unsigned n = 0; n < 20000; ++n)
        ASSERT_TRUE(both(stack_sites[rng() % 4], true, false)) << "call or return " << n;
    for (unsigned it = 0; it < 60; ++it)
        for (size_t k = 0; k < sites.size(); ++k)
            ASSERT_TRUE(both(sites[k], sites[k].kind != VK::cond || k % 2 == 0, false)) << "iteration " << it << ", site " << k;
}


TEST(VeerDivider, TimeFollowsTheOperands) {
    // el2_exu_div_ctl.sv (4-bit steps, shortcut from the operands' leading sign bits), with 11 cycles for a
    // division that takes no shortcut. 123456789 / 977: 5 and 22 leading zeros, 22 - 5 + 1 = 18, 18 / 4 + 1 = 5
    // steps: 11 - 7 + 5.
    EXPECT_EQ(TimingModel::veer_div_time(11, 123456789u, 977u, false), 9u);
    // 0 % 5: a remainder of 0 has no early finish; 29 - 0 + 1 = 30 is no shortcut: 11.
    EXPECT_EQ(TimingModel::veer_div_time(11, 0u, 5u, true), 11u);
    // 1 % 5: 29 - 31 + 1 < 0, taken as 0: 1 step.
    EXPECT_EQ(TimingModel::veer_div_time(11, 1u, 5u, true), 5u);
    // 7 / 3 (both below 16) and any division by 0 finish at once: taken as 1 step.
    EXPECT_EQ(TimingModel::veer_div_time(11, 7u, 3u, false), 5u);
    EXPECT_EQ(TimingModel::veer_div_time(11, 0x80000000u, 0u, true), 5u);
    // -1 (31 leading sign bits) / 0x40000000 (1): 1 - 31 + 1 < 0: 1 step.
    EXPECT_EQ(TimingModel::veer_div_time(11, 0xFFFFFFFFu, 0x40000000u, false), 5u);
}

TEST(BranchPredictor, TargetBufferRemembersTheLastTarget) {
    PredictorConfig c;
    BranchPredictor bp(c);
    EXPECT_TRUE(bp.indirect(0x100, 0x800, false));   // cold
    EXPECT_FALSE(bp.indirect(0x100, 0x800, false));  // same target
    EXPECT_TRUE(bp.indirect(0x100, 0x900, false));   // a new target
    c.btb_bits = 0;                                   // no buffer: every indirect jump misses
    BranchPredictor none(c);
    EXPECT_TRUE(none.indirect(0x100, 0x800, false));
    EXPECT_TRUE(none.indirect(0x100, 0x800, false));
}

TEST(BranchPredictor, ReturnStackOverflowLosesTheOldestReturn) {
    PredictorConfig c;
    c.ras_depth = 2;
    BranchPredictor bp(c);
    bp.call(0x1004);  // three nested calls: the first return address falls off a 2-entry stack
    bp.call(0x2004);
    bp.call(0x3004);
    EXPECT_FALSE(bp.indirect(0x3100, 0x3004, true));
    EXPECT_FALSE(bp.indirect(0x2100, 0x2004, true));
    EXPECT_TRUE(bp.indirect(0x1100, 0x1004, true));
}

namespace {

isa::RetiredInsn insn(isa::InsnClass cls, uint8_t branch = 0) {
    isa::RetiredInsn i;
    i.cls = cls;
    i.branch = branch;
    return i;
}

}  // namespace

TEST(TimingModel, CyclesAreOnePerInstructionPlusClassExtrasAndPenalties) {
    TimingParams p;
    p.class_extra[static_cast<size_t>(isa::InsnClass::div)] = 5;
    p.mispredict_penalty = 3;
    p.predictor.direction = PredictorConfig::Direction::btfn;
    p.ev_mispredict = 0x10;
    p.ev_predictable = 0x12;
    TimingModel m(p);
    EventBatch b;
    uint64_t cycles = 0;
    // A loop of 4 iterations: add, div, then a backward branch taken 3 times. Predicted taken (backward): only the
    // exit misses. 12 instructions + 4 x 5 (div) + 1 x 3 (the exit) = 35 cycles.
    for (int i = 0; i < 4; ++i) {
        cycles += m.step(insn(isa::InsnClass::alu), 0x100, 4, 0x104, nullptr, 0, b);
        cycles += m.step(insn(isa::InsnClass::div), 0x104, 4, 0x108, nullptr, 0, b);
        const bool taken = i < 3;
        const uint8_t br = isa::br_immediate | isa::br_conditional | (taken ? isa::br_taken : 0);
        cycles += m.step(insn(isa::InsnClass::branch, br), 0x108, 4, taken ? 0x100 : 0x10C, nullptr, 0, b);
    }
    EXPECT_EQ(cycles, 35u);
    EXPECT_EQ(b.count(0x10), 1u);
    EXPECT_EQ(b.count(0x12), 4u);
}

// BR_PRED (0x12) and BR_MIS_PRED (0x10) by their definitions (Arm ARM, PMUv3 common events; ARMv7 ARM C12.8):
// every executed branch of a kind the predictor handles is predictable, whether predicted or not; the mispredicted
// and not predicted ones are BR_MIS_PRED. A loop of 3 iterations, each with 6 branches:
//   0x100 BL 0x200 (unconditional immediate call)  0x200 add  0x204 BX LR (return, to 0x104)
//   0x104 BLR-like indirect jump to 0x300            0x300 BXEQ LR, its condition failed
//   0x304 B 0x310 (unconditional immediate)          0x310 BNE 0x100 (taken twice, then falls through to 0x314)
// then one exception return (ERET), which this core does not predict (predict_exc_return off): no predictable branch.
namespace {

void branch_events_loop(bool enabled, EventBatch& b) {
    TimingParams p;
    p.predictor.direction = PredictorConfig::Direction::bimodal;
    p.predictor.table_bits = 4;  // counters start at 1, weakly not taken
    p.predictor.btb_bits = 4;
    p.predictor.ras_depth = 4;
    p.predictor.enabled = enabled;
    p.predict_exc_return = false;
    p.ev_mispredict = 0x10;
    p.ev_predictable = 0x12;
    TimingModel m(p);
    using isa::InsnClass;
    const uint8_t imm = isa::br_immediate | isa::br_taken, reg = isa::br_register | isa::br_taken;
    for (int i = 0; i < 3; ++i) {
        m.step(insn(InsnClass::branch, imm | isa::br_call), 0x100, 4, 0x200, nullptr, 0, b);
        m.step(insn(InsnClass::alu), 0x200, 4, 0x204, nullptr, 0, b);
        m.step(insn(InsnClass::branch, reg | isa::br_return), 0x204, 4, 0x104, nullptr, 0, b);
        m.step(insn(InsnClass::branch, reg), 0x104, 4, 0x300, nullptr, 0, b);
        isa::RetiredInsn failed = insn(InsnClass::branch, reg | isa::br_return);
        failed.cond_failed = true;
        m.step(failed, 0x300, 4, 0x304, nullptr, 0, b);
        m.step(insn(InsnClass::branch, imm), 0x304, 4, 0x310, nullptr, 0, b);
        const bool taken = i < 2;
        m.step(insn(InsnClass::branch, isa::br_immediate | isa::br_conditional | (taken ? isa::br_taken : 0)), 0x310, 4,
               taken ? 0x100 : 0x314, nullptr, 0, b);
    }
    m.step(insn(InsnClass::branch, reg | isa::br_exc_return), 0x314, 4, 0x400, nullptr, 0, b);
}

}  // namespace

TEST(TimingModel, BranchEventsFollowTheirArchitecturalDefinitions) {
    // Prediction on. BR_PRED: 6 branches x 3 iterations = 18 (the ERET is none). BR_MIS_PRED: the indirect jump's
    // first run (its target buffer entry empty), and BNE twice: counter 1 predicts not taken (taken: miss, -> 2),
    // then taken (taken: hit, -> 3), then taken (falls through: miss). The returns hit the return stack (BL pushed
    // 0x104 each time); BXEQ's failed condition is predicted not taken by its counter (1); BL and B are
    // unconditional and predicted. 1 + 2 = 3.
    EventBatch on;
    branch_events_loop(true, on);
    EXPECT_EQ(on.count(0x12), 18u);
    EXPECT_EQ(on.count(0x10), 3u);
    // Prediction off (ARM11 out of reset): the same 18 predictable branches, none predicted: every one that changed
    // the flow is BR_MIS_PRED. Taken: BL, BX LR, the jump and B each iteration (12), BNE twice = 14.
    EventBatch off;
    branch_events_loop(false, off);
    EXPECT_EQ(off.count(0x12), 18u);
    EXPECT_EQ(off.count(0x10), 14u);
}

TEST(TimingModel, DataCacheRefillsCostTheirPenaltyAndAreCounted) {
    TimingParams p;
    p.l1d = small_cache();
    p.l1d_refill_penalty = 10;
    p.ev_l1d_access = 0x04;
    p.ev_l1d_refill = 0x03;
    p.ev_l1d_writeback = 0x15;
    TimingModel m(p);
    EventBatch b;
    uint64_t cycles = 0;
    // 64 word loads over 256 bytes: 4 lines, 4 refills: 64 + 4 x 10 cycles.
    for (uint64_t a = 0; a < 256; a += 4) {
        const MemRef r{0x8000 + a, false};
        cycles += m.step(insn(isa::InsnClass::load), 0x200, 4, 0x204, &r, 1, b);
    }
    EXPECT_EQ(cycles, 104u);
    EXPECT_EQ(b.count(0x04), 64u);
    EXPECT_EQ(b.count(0x03), 4u);
    EXPECT_EQ(b.count(0x15), 0u);
    const auto ev = m.produced_events();
    EXPECT_EQ(ev.size(), 3u);
}

TEST(TimingModel, InstructionFetchCountsOneAccessPerLineEntered) {
    TimingParams p;
    CacheConfig ic = small_cache();
    p.l1i = ic;
    p.l1i_refill_penalty = 20;
    p.ev_l1i_access = 0x14;
    p.ev_l1i_refill = 0x01;
    TimingModel m(p);
    EventBatch b;
    uint64_t cycles = 0;
    // 32 sequential 4-byte instructions from 0x1000: two 64-byte lines, each entered once and refilled once;
    // then the same 32 again: two more accesses, both hits.
    for (int pass = 0; pass < 2; ++pass)
        for (uint64_t pc = 0x1000; pc < 0x1080; pc += 4) cycles += m.step(insn(isa::InsnClass::alu), pc, 4, pc + 4, nullptr, 0, b);
    EXPECT_EQ(b.count(0x14), 4u);
    EXPECT_EQ(b.count(0x01), 2u);
    EXPECT_EQ(cycles, 64u + 2 * 20);
}

// VeeR EL2's fetch events: I-cache hits per 4-byte fetch (an instruction straddling two fetches starts the
// second; a taken branch starts a new fetch), I-bus transactions per 8-byte beat of a 64-byte line refill.
TEST(TimingModel, FetchHitsAndInstructionBusBeats) {
    TimingParams p;
    p.l1i = small_cache();
    p.ev_l1i_refill = 3;
    p.fetch_bytes = 4;
    p.ev_l1i_hit = 2;
    p.ibus_beat = 8;
    p.ev_ibus_access = 42;
    TimingModel m(p);
    EventBatch b;
    using C = isa::InsnClass;
    for (int pass = 0; pass < 2; ++pass) {
        m.step(insn(C::alu), 0x1000, 4, 0x1004, nullptr, 0, b);  // fetch 0x1000 (pass 1: the refill's miss)
        m.step(insn(C::alu), 0x1004, 2, 0x1006, nullptr, 0, b);  // fetch 0x1004
        m.step(insn(C::alu), 0x1006, 4, 0x100A, nullptr, 0, b);  // 0x1004 already fetched; fetch 0x1008
        m.step(insn(C::alu), 0x100A, 2, 0x100C, nullptr, 0, b);  // within 0x1008
        m.step(insn(C::jump, isa::br_immediate | isa::br_taken), 0x100C, 4, 0x1000, nullptr, 0, b);  // fetch 0x100C
    }
    EXPECT_EQ(b.count(3), 1u);       // one miss
    EXPECT_EQ(b.count(2), 3u + 4u);  // hits: 3 on the first pass, 4 on the second
    EXPECT_EQ(b.count(42), 8u);      // 64 bytes in 8-byte beats
    // Code in a tightly coupled memory (VeeR ICCM) does not go through the I-cache: no events, no refill cost.
    p.local_code = TimingParams::Region{0xEE000000u, 0x10000};
    TimingModel iccm(p);
    EventBatch ib;
    EXPECT_EQ(iccm.step(insn(C::alu), 0xEE000100, 4, 0xEE000104, nullptr, 0, ib), 1u);
    EXPECT_TRUE(ib.events.empty());
}

// VeeR EL2 pre- and post-sync (el2_dec_decode_ctl.sv): a presync instruction issues no sooner than 3 cycles
// after the instruction before it, the instruction after a postsync one no sooner than 3 cycles after it (after
// its own extra cycles); a CSR read no sooner than 4 after a write-only CSR instruction. Events: 32 presync, 31
// postsync, 30 every decode wait.
TEST(TimingModel, VeerPreAndPostSync) {
    TimingParams p;
    p.sync_stall = 2;
    p.csr_write_block = 3;
    p.presync_csrs = {0xB02};
    p.postsync_csrs = {0x341};
    p.ev_presync = 32;
    p.ev_postsync = 31;
    p.ev_dep_stall = 30;
    p.class_extra[static_cast<size_t>(isa::InsnClass::ecall)] = 1;
    TimingModel m(p);
    EventBatch b;
    using C = isa::InsnClass;
    auto step = [&](C cls, uint16_t csr = 0) {
        StepInputs in;
        in.csr = csr;
        return m.step(insn(cls), 0x1000, 4, 0x1004, nullptr, 0, b, in);
    };
    EXPECT_EQ(step(C::alu), 1u);
    EXPECT_EQ(step(C::csr_read_write, 0x340), 3u);  // csrrs mscratch: presync 2
    EXPECT_EQ(step(C::alu), 3u);                    // behind its postsync: 2
    EXPECT_EQ(step(C::csr_write, 0x340), 1u);       // csrw mscratch: pipelined, no sync
    EXPECT_EQ(step(C::csr_read, 0x340), 4u);        // csrr behind the csrw: 3
    EXPECT_EQ(step(C::csr_read, 0xB02), 3u);        // csrr minstret: presync 2
    EXPECT_EQ(step(C::ecall), 2u);                  // its extra cycle
    EXPECT_EQ(step(C::csr_read, 0x341), 3u);        // csrr mepc (postsync): behind the ecall's postsync, 2
    EXPECT_EQ(step(C::alu), 3u);                    // behind csrr mepc's postsync: 2
    EXPECT_EQ(step(C::alu), 1u);
    EXPECT_EQ(b.count(32), 2u + 2u);
    EXPECT_EQ(b.count(31), 2u + 2u + 2u);
    EXPECT_EQ(b.count(30), 2u + 2u + 3u + 2u + 2u + 2u);
}

// VeeR EL2 interrupt entries and trap redirects (tests/veer-rtl/irq, traps; figures of the veer-el2 platform):
// an mret commits 1 cycle after its postsync wait, its target 4 after it, with interrupts enabled again; a timer
// interrupt's handler begins 4 cycles after the instruction before it, an external one's 4 later still (the fast
// redirect's freeze, with interrupts enabled), one after a fw-halt wake 7 after it.
TEST(TimingModel, VeerInterruptEntriesAndTrapRedirects) {
    TimingParams p;
    p.sync_stall = 2;
    p.ev_postsync = 31;
    p.ev_dep_stall = 30;
    p.ev_irq_disabled = 49;
    p.trap_redirect = 1;
    p.interrupt_entry = 3;
    p.ext_interrupt_freeze = 4;
    p.fw_halt_wake = 7;
    TimingModel m(p);
    EventBatch b;
    using C = isa::InsnClass;
    auto step = [&](C cls) { return m.step(insn(cls), 0x1000, 4, 0x1004, nullptr, 0, b); };
    m.set_mstatus(0x88);  // MIE, MPIE
    EXPECT_EQ(step(C::alu), 1u);
    m.take_interrupt(7);            // machine timer: MIE 0
    EXPECT_EQ(step(C::alu), 4u);    // 1 + interrupt_entry, interrupts disabled
    EXPECT_EQ(step(C::mret), 1u);   // disabled too
    EXPECT_EQ(step(C::alu), 4u);    // 1 + the postsync wait 2 + the redirect 1: enabled again (MPIE)
    EXPECT_EQ(step(C::alu), 1u);
    EXPECT_EQ(b.count(49), 4u + 1u);
    // Event 30: the entry's flush stops the instruction at decode (1, rtl_trace.sh dec on irq and irqpair), the
    // mret's postsync wait 2.
    EXPECT_EQ(b.count(30), 1u + 2u);
    m.take_interrupt(11);           // machine external: the fast redirect's freeze first
    EXPECT_EQ(step(C::alu), 8u);
    EXPECT_EQ(b.count(30), 3u + 1u);       // the entry's flush; the freeze holds nothing at decode
    EXPECT_EQ(b.count(49), 5u + 8u - 4u);  // not while frozen: the interrupt is not yet taken
    EXPECT_EQ(step(C::mret), 1u);
    EXPECT_EQ(step(C::alu), 4u);
    m.take_interrupt(29, true);     // internal timer 0, waking the core from fw-halt
    EXPECT_EQ(step(C::alu), 7u);    // fw_halt_wake, its own cycle included
    EXPECT_EQ(b.count(31), 2u + 2u);
    EXPECT_EQ(b.count(30), 4u + 2u);  // the second mret's postsync; the wake: nothing at decode while halted
}

// VeeR EL2 (tests/veer-rtl/irqpair's warm windows, exec.log): an interrupt pending when an instruction sets
// mstatus.MIE is taken 2 cycles after that instruction commits (el2_dec_tlu_ctl.sv: not while
// dec_csr_stall_int_ff, the cycle after a write to mstatus, nor with mret_r), and the handler's first instruction
// commits interrupt_entry (3) cycles after the flush: 5 after csrw mstatus (commit 1527, flush 1529, c.addi 1532)
// and 5 after mret (1551, 1553, 1556), not the 3 of the csrw's postsync or the 4 of the mret's redirect plus the
// entry's 3. Elsewhere the flush is a cycle after the last commit: the handler 4 cycles after it. Events 30 and 31
// still count the postsync wait of the instruction the flush stopped at decode.
TEST(TimingModel, VeerInterruptRightAfterMieIsSetLandsTwoCyclesLater) {
    using C = isa::InsnClass;
    auto run = [](unsigned after_enable) {
        TimingParams p;
        p.sync_stall = 2;
        p.postsync_csrs = {0x300};
        p.ev_postsync = 31;
        p.ev_dep_stall = 30;
        p.trap_redirect = 1;
        p.interrupt_entry = 3;
        p.interrupt_after_enable = after_enable;
        TimingModel m(p);
        EventBatch b;
        auto step = [&](C cls, uint16_t csr = 0) {
            StepInputs in;
            in.csr = csr;
            return m.step(insn(cls), 0x1000, 4, 0x1004, nullptr, 0, b, in);
        };
        std::vector<uint64_t> v;
        v.push_back(step(C::alu));
        v.push_back(step(C::csr_write, 0x300));  // csrw mstatus: MIE set as it commits
        m.set_mstatus(0x8);
        m.take_interrupt(29);  // internal timer 0, pending
        v.push_back(step(C::alu));  // the handler's first instruction
        v.push_back(step(C::alu));
        v.push_back(step(C::mret));  // MPIE 1: MIE set again
        m.take_interrupt(30);        // internal timer 1, pending
        v.push_back(step(C::alu));
        v.push_back(step(C::alu));
        v.push_back(step(C::mret));
        v.push_back(step(C::alu));  // no interrupt: the mret's postsync and redirect
        v.push_back(step(C::alu));
        m.take_interrupt(29);  // MIE set long ago: a cycle after the last commit
        v.push_back(step(C::alu));
        v.push_back(b.count(31));
        return v;
    };
    // The csrw 1, its handler 5; the mret 1, its handler 5; the last mret's successor 4 (1 + the postsync 2 + the
    // redirect 1); the last handler 4. Event 31: the postsync waits of the csrw and the three mrets but the last, 2
    // each: the two handlers' and the last mret's successor's.
    EXPECT_EQ(run(2), (std::vector<uint64_t>{1, 1, 5, 1, 1, 5, 1, 1, 4, 1, 4, 6}));
    // Without the rule the handler takes the postsync or the redirect and then the entry: 6 and 7.
    EXPECT_EQ(run(0), (std::vector<uint64_t>{1, 1, 6, 1, 1, 7, 1, 1, 4, 1, 4, 6}));
}

namespace {
// The VeeR EL2 predictor of the RTL's default build (platforms/timing_params.cpp), a misprediction 1 cycle.
TimingParams veer_predictor() {
    TimingParams p;
    p.predictor.direction = PredictorConfig::Direction::veer_el2;
    p.predictor.btb_bits = 9;
    p.predictor.btb_tag_bits = 5;
    p.predictor.table_bits = 9;
    p.predictor.history_bits = 8;
    p.mispredict_penalty = 1;
    return p;
}

// jalr ra, 0(a5): neither call, jump nor return (VeerKind::other): never predicted, always a flush.
isa::RetiredInsn veer_jalr() {
    isa::RetiredInsn j = insn(isa::InsnClass::jump);
    j.branch = isa::br_register | isa::br_call | isa::br_taken;
    j.regs.dst = isa::reg_bit(1);
    j.regs.src = isa::reg_bit(15);
    return j;
}
}  // namespace

// VeeR EL2: mret's flush (dec_tlu_flush_lower_wb, exu_flush_final) restores fetch's global history from execute's,
// as a branch's flush does (el2_ifu_bp_ctl.sv, fghr_ns; tests/veer-rtl/irqpair: its wait loop's exit after an
// interrupt's mret mispredicted, event 25 5 as on the RTL, 4 before). The branches of
// BranchPredictor.VeerFetchHistoryIsKeptPerWindowAndLosesTheFirstWindowAfterAFlush leave fetch's history at 0b1101 and
// execute's at 0b111; after an mret to 0x5000 the second window fetched (0x5004) reads execute's 0b111.
TEST(TimingModel, VeerMretRestoresTheFetchHistory) {
    TimingParams p = veer_predictor();
    TimingModel m(p);
    EventBatch b;
    using C = isa::InsnClass;
    const uint8_t jump = isa::br_immediate | isa::br_taken, cond = isa::br_immediate | isa::br_conditional;
    auto br = [&](uint8_t kind, uint64_t pc, uint64_t next) { m.step(insn(C::jump, kind), pc, 2, next, nullptr, 0, b); };
    br(jump, 0x2000, 0x3000);
    br(jump, 0x2002, 0x1000);
    br(jump, 0x1000, 0x2000);
    br(jump, 0x2000, 0x3000);
    br(jump, 0x3000, 0x0ff0);
    m.step(insn(C::branch, cond), 0x0ff0, 2, 0x0ff2, nullptr, 0, b);
    br(jump, 0x1000, 0x2000);
    br(jump, 0x2000, 0x3000);
    EXPECT_EQ(m.predictor().veer_history(), 0b111u);
    EXPECT_EQ(m.predictor().veer_fetch_history(0x3000, 2), 0b1101u);
    m.step(insn(C::mret, isa::br_register | isa::br_taken | isa::br_exc_return), 0x3000, 4, 0x5000, nullptr, 0, b);
    EXPECT_EQ(m.predictor().veer_fetch_history(0x5004, 2), 0b111u);
}

// VeeR EL2 (tests/veer-rtl/irq, rtl_trace.sh bht): the branch the trace shows last before an interrupt entry
// committed and went where the program resumes after the handler (mepc), and the predictor was trained with that:
// the cold `c.beqz` at 0x80000496, taken to 0x80000492 where the program resumed, missed the BTB, was allocated with
// counter 0x24 weakly taken (W0, t=2045), hit at its next fetch after the mret and was predicted taken (t=2605), a
// misprediction where it then fell through (W0, t=2625). Here: a cold conditional branch at 0x1000 before an entry,
// the program resuming at 0x0ffc: a misprediction (1 + 1 cycles), then after the handler and the mret the branch
// falls through and is mispredicted again (2). With the resume address unknown the branch is taken to have gone
// where predicted (not taken, 1), nothing is allocated, and the fall-through is predicted (1).
TEST(TimingModel, VeerBranchBeforeAnInterruptTrainsWithWhereTheProgramResumes) {
    using C = isa::InsnClass;
    const uint8_t cond = isa::br_immediate | isa::br_conditional;
    auto run = [&](uint64_t resume) {
        TimingModel m(veer_predictor());
        EventBatch b;
        StepInputs in;
        in.interrupted = true;
        in.resume = resume;
        std::vector<uint64_t> v;
        // Its successor in the trace is the handler at 0x3a0: taken as the replay sees it.
        v.push_back(m.step(insn(C::branch, cond | isa::br_taken), 0x1000, 2, 0x3a0, nullptr, 0, b, in));
        m.take_interrupt(7);
        m.step(insn(C::alu), 0x3a0, 2, 0x3a2, nullptr, 0, b);
        m.step(insn(C::mret, isa::br_register | isa::br_taken | isa::br_exc_return), 0x3a2, 4, 0x0ffc, nullptr, 0, b);
        m.step(insn(C::alu), 0x0ffc, 4, 0x1000, nullptr, 0, b);
        v.push_back(m.step(insn(C::branch, cond), 0x1000, 2, 0x1002, nullptr, 0, b));
        return v;
    };
    EXPECT_EQ(run(0x0ffc), (std::vector<uint64_t>{2, 2}));
    EXPECT_EQ(run(0), (std::vector<uint64_t>{1, 1}));
}

// VeeR EL2 (tests/veer-rtl/irq, rtl_trace.sh bht): the branch at mepc, which the trace shows before an interrupt
// entry and the reader drops, went through execute before the entry killed it in R. Its misprediction there wrote its
// counter (el2_ifu_bp_ctl.sv bht_wr_en0 from exu_mp_pkt) and its outcome went into execute's history (el2_exu.sv
// ghr_x_ns from i0_taken_x), which the entry's flush and the mret's hand to fetch. A loop's branch taken 20 times
// (execute's 8-bit history all ones, the counter at 0xff strongly taken), then killed at an entry where it falls
// through: the killed run pushes a 0 (history 0xfe), so its run after the mret reads the untouched counter at 0xfe
// (0, not taken): right, 1 cycle. Without the killed run it reads 0xff's counter (2 or 3: taken): mispredicted, 1 +
// mispredict_penalty (1).
TEST(TimingModel, VeerBranchKilledByAnEntryTrainsThePredictor) {
    using C = isa::InsnClass;
    const uint8_t cond = isa::br_immediate | isa::br_conditional;
    auto run = [&](bool killed) {
        TimingModel m(veer_predictor());
        EventBatch b;
        for (int i = 0; i < 20; ++i) {
            m.step(insn(C::alu), 0x0ffc, 4, 0x1000, nullptr, 0, b);
            m.step(insn(C::branch, cond | isa::br_taken), 0x1000, 2, 0x0ffc, nullptr, 0, b);
        }
        StepInputs in;
        in.interrupted = true;
        in.resume = 0x1000;
        if (killed) {  // the killed branch: a conditional one of 2 bytes that went to 0x1002
            in.killed_kind = 1 + static_cast<uint8_t>(BranchPredictor::VeerKind::cond);
            in.killed_size = 2;
            in.killed_next = 0x1002;
        }
        m.step(insn(C::alu), 0x0ffc, 4, 0x3a0, nullptr, 0, b, in);
        m.take_interrupt(7);
        m.step(insn(C::alu), 0x3a0, 2, 0x3a2, nullptr, 0, b);
        m.step(insn(C::mret, isa::br_register | isa::br_taken | isa::br_exc_return), 0x3a2, 4, 0x1000, nullptr, 0, b);
        return m.step(insn(C::branch, cond), 0x1000, 2, 0x1002, nullptr, 0, b);
    };
    EXPECT_EQ(run(true), 1u);
    EXPECT_EQ(run(false), 2u);
}

// VeeR EL2 (tests/veer-rtl/unpred): after a branch's flush, a 32-bit instruction at an odd halfword takes
// split_fetch_after_flush more cycles; not after a branch that did not flush, not at an aligned address, not a
// 16-bit one. A JAL beyond the BTB's 12-bit offset (br_far) always flushes; a near one is predicted once in the BTB.
TEST(TimingModel, VeerSplitFetchAfterAFlushAndUnpredictedJumps) {
    TimingParams p = veer_predictor();
    p.split_fetch_after_flush = 1;
    TimingModel m(p);
    EventBatch b;
    using C = isa::InsnClass;
    const isa::RetiredInsn jalr = veer_jalr();
    EXPECT_EQ(m.step(jalr, 0x1000, 4, 0x2002, nullptr, 0, b), 2u);  // 1 + the flush
    EXPECT_EQ(m.step(insn(C::alu), 0x2002, 4, 0x2006, nullptr, 0, b), 2u);  // 32-bit at 0x2002: 1 + 1
    EXPECT_EQ(m.step(insn(C::alu), 0x2006, 4, 0x200a, nullptr, 0, b), 1u);  // no flush before it
    EXPECT_EQ(m.step(jalr, 0x200a, 4, 0x3000, nullptr, 0, b), 2u);
    EXPECT_EQ(m.step(insn(C::alu), 0x3000, 4, 0x3004, nullptr, 0, b), 1u);  // aligned
    EXPECT_EQ(m.step(jalr, 0x3004, 4, 0x4002, nullptr, 0, b), 2u);
    isa::RetiredInsn c16 = insn(C::alu);
    c16.compressed = true;
    EXPECT_EQ(m.step(c16, 0x4002, 2, 0x4004, nullptr, 0, b), 1u);  // 16-bit: one fetch
    isa::RetiredInsn j = insn(C::jump);
    j.branch = isa::br_immediate | isa::br_taken;
    isa::RetiredInsn far = j;
    far.branch |= isa::br_far;
    EXPECT_EQ(m.step(j, 0x4004, 4, 0x4010, nullptr, 0, b), 2u);    // not in the BTB yet: a flush, then added
    EXPECT_EQ(m.step(far, 0x4010, 4, 0x9010, nullptr, 0, b), 2u);  // never predicted
    EXPECT_EQ(m.step(j, 0x4004, 4, 0x4010, nullptr, 0, b), 1u);    // predicted
    EXPECT_EQ(m.step(far, 0x4010, 4, 0x9010, nullptr, 0, b), 2u);

    // With an I-cache of 64-byte lines whose fetches keep bit 1 after a redirect (fetch_keeps_halfword), only an
    // instruction whose upper half lies in the next line comes in two pieces.
    p.l1i = CacheConfig{};
    p.fetch_keeps_halfword = true;
    TimingModel f(p);
    EventBatch fb;
    f.step(jalr, 0x1000, 4, 0x2002, nullptr, 0, fb);
    f.step(insn(C::alu), 0x2002, 4, 0x2006, nullptr, 0, fb);  // warms the lines (refills cost nothing here)
    f.step(jalr, 0x2006, 4, 0x2012, nullptr, 0, fb);
    EXPECT_EQ(f.step(insn(C::alu), 0x2012, 4, 0x2016, nullptr, 0, fb), 1u);  // 0x2012-0x2015: one fetch
    f.step(jalr, 0x2016, 4, 0x203e, nullptr, 0, fb);
    f.step(insn(C::alu), 0x203e, 4, 0x2042, nullptr, 0, fb);  // 0x203e-0x2041: its upper half in the next line
    f.step(jalr, 0x2042, 4, 0x203e, nullptr, 0, fb);
    EXPECT_EQ(f.step(insn(C::alu), 0x203e, 4, 0x2042, nullptr, 0, fb), 2u);  // both lines cached: 1 + 1
}

// VeeR EL2's fetch buffer (tests/veer-rtl, measured cycle by cycle): 3 entries of one 4-byte fetch; a fetch happens
// no sooner than the commit of the last instruction in the entry 3 fetches before it and no later than 2 cycles
// before its own instruction commits (after a flush, exactly then). Event 28 counts the cycles the fetch waits for
// room but the one that makes it; event 2 the wrong-path fetches until the flush lands (a branch's a cycle before
// it commits, a trap's a cycle after). Worked out by hand on a second pass (every line cached), e the first ALU
// instruction's commit after the jalr's flush:
//   alu 0x2000 at e: fetched e-2        mul 0x2004 (6 cycles) at e+1: fetched e-1
//   alu 0x2008 at e+7: fetched e        alu 0x200c at e+8: e+1        alu 0x2010 at e+9: e+2 (the buffer full)
//   alu 0x2014 at e+10: room when 0x2008 commits, e+7: waits e+3..e+5 (3 cycles of event 28; e+6 makes room)
//   jalr 0x2018 at e+11, fetched e+8: one wrong-path fetch (e+9) before its flush lands at e+10
//   ecall 0x3000, first after the flush, at e+13, fetched e+11: two wrong-path fetches (e+12, e+13), lands e+14
//   jalr 0x1000, first after the ecall: none (fetched a cycle before its flush lands)
TEST(TimingModel, VeerFetchBufferWrongPathAndStalls) {
    TimingParams p = veer_predictor();
    p.l1i = CacheConfig{};
    p.fetch_bytes = 4;
    p.fetch_queue = 3;
    p.ev_l1i_hit = 2;
    p.ev_fetch_stall = 28;
    p.class_extra[static_cast<size_t>(isa::InsnClass::mul)] = 5;
    TimingModel m(p);
    EventBatch b;
    using C = isa::InsnClass;
    const isa::RetiredInsn jalr = veer_jalr();
    struct Step { isa::RetiredInsn in; uint64_t pc, next, hits, stalls; };
    const std::vector<Step> steps = {
        {jalr, 0x1000, 0x2000, 1, 0},           {insn(C::alu), 0x2000, 0x2004, 1, 0},
        {insn(C::mul), 0x2004, 0x2008, 1, 0},   {insn(C::alu), 0x2008, 0x200c, 1, 0},
        {insn(C::alu), 0x200c, 0x2010, 1, 0},   {insn(C::alu), 0x2010, 0x2014, 1, 0},
        {insn(C::alu), 0x2014, 0x2018, 1, 3},   {jalr, 0x2018, 0x3000, 1 + 1, 0},
        {insn(C::ecall), 0x3000, 0x1000, 1 + 2, 0},
    };
    for (const auto& s : steps) m.step(s.in, s.pc, 4, s.next, nullptr, 0, b);  // the lines cached
    for (const auto& s : steps) {
        const uint64_t hits = b.count(2), stalls = b.count(28);
        m.step(s.in, s.pc, 4, s.next, nullptr, 0, b);
        EXPECT_EQ(b.count(2) - hits, s.hits) << std::hex << s.pc;
        EXPECT_EQ(b.count(28) - stalls, s.stalls) << std::hex << s.pc;
    }
    // A flush at the very first cycle (a refill that costs nothing): its own fetch is the refill's (not a hit), and
    // no fetch passes before the flush lands.
    p.l1i_refill_penalty = 0;
    TimingModel first(p);
    EventBatch fb;
    first.step(jalr, 0x1000, 4, 0x2000, nullptr, 0, fb);
    EXPECT_EQ(fb.count(2), 0u);
    EXPECT_EQ(fb.count(28), 0u);
    p.fetch_queue = 5;
    EXPECT_THROW(TimingModel{p}, std::invalid_argument);
    // The fetch granule is a power of two (platform_json.cpp refuses any other in a file): the step shifts by it.
    p.fetch_queue = 3;
    p.fetch_bytes = 6;
    EXPECT_THROW(TimingModel{p}, std::invalid_argument);
    p.fetch_bytes = 8;
    EXPECT_NO_THROW(TimingModel{p});
}

// VeeR EL2 misaligned D-bus accesses (tests/veer-rtl/misaligned, splitma): nothing holds the access itself (a split
// load's data comes bus_misaligned_load_penalty later per 64-bit beat it reads, a split store costs nothing more);
// the next load or store waits at decode while the D-bus buffer is full (el2_lsu.sv: lsu_load_stall_any,
// lsu_store_stall_any = lsu_bus_buffer_full_any; el2_dec_decode_ctl.sv: i0_load_stall_d), a decode stall (event 30).
// Ten ALU instructions commit at 1-10; misaligned's two stores, across a word inside a beat (0x..0A) and across two
// beats (0x..0E), 1 cycle each, commit at 11 and 12; the D-bus buffer's count (lsu_buffers.hpp, worked in
// BusBuffer.AnAccessAtDecodeWaitsWhileTheCountIsFull one cycle earlier) is 4 at 10 and 11, 3 at 12-14, then 2. The
// load across a word (0x..02) would commit at 13, at decode from 10: dual, full at 3, it waits 10-14 and leaves at
// 15: 5 cycles (6 in all); it commits at 18 (M at 16, R at 17). Reaching M, it drains the ibuf at 17 (an entry
// 17-20), which sends the entry waiting alone (12-19); the load's own two entries count from its M to its data,
// which returns at its commit (bus_load_latency 0): 16-18. The count is 4 at 16-18 (the ibuf or its entry, the
// waiting entry, the load's two), 2 at 19, then 1. The first store is two writes (event 43: its first word's
// entry, its second word from the ibuf), the second one (its first word joins the ibuf: el2_lsu_bus_buffer.sv,
// ibuf_merge_en). The store to the DCCM across a word (0x..E1-E4) would commit at
// 19, at decode from 16: dual, full at 3, it waits 16-18 and leaves at 19: 3 cycles (4 in all); it commits at 22.
// The aligned D-bus load after it, at decode from 20 (count 1, full at 4), does not wait.
TEST(TimingModel, VeerMisalignedBusAccessesStallDecode) {
    TimingParams p;
    p.local_data = TimingParams::Region{0xF0040000u, 64 * 1024};
    p.bus_misaligned_load_penalty = 1;
    p.bus_misaligned_store_penalty = 0;
    p.dbus_beat = 8;
    p.store_buffer = 4;
    p.bus_buffer = 4;
    p.ibuf_timeout = 11;
    p.ibuf_merge_window = 7;
    p.ev_dep_stall = 30;
    p.ev_bus_access = 43;
    TimingModel m(p);
    EventBatch b;
    auto step = [&](isa::InsnClass cls, uint64_t addr, bool unaligned) {
        isa::RetiredInsn i = insn(cls);
        i.unaligned = unaligned;
        const MemRef r{addr, cls == isa::InsnClass::store, 4};
        return m.step(i, 0x200, 4, 0x204, &r, 1, b);
    };
    for (int k = 0; k < 10; ++k) EXPECT_EQ(m.step(insn(isa::InsnClass::alu), 0x200, 4, 0x204, nullptr, 0, b), 1u);
    EXPECT_EQ(step(isa::InsnClass::store, 0x8010000A, true), 1u);
    EXPECT_EQ(b.count(43), 2u);  // two writes: its first word's entry, its second word from the ibuf
    EXPECT_EQ(step(isa::InsnClass::store, 0x8010000E, true), 1u);
    EXPECT_EQ(b.count(43), 3u);  // its first word (0x..0C) joins the ibuf: one write more, its second word's
    EXPECT_EQ(b.count(30), 0u);
    EXPECT_EQ(step(isa::InsnClass::load, 0x80100002, true), 6u);   // in one beat, held at decode 5 cycles
    EXPECT_EQ(step(isa::InsnClass::store, 0xF00400E1, true), 4u);  // to the DCCM, held at decode 3 cycles
    EXPECT_EQ(step(isa::InsnClass::load, 0x80100000, false), 1u);
    EXPECT_EQ(b.count(30), 5u + 3u);
    EXPECT_EQ(b.count(43), 2u + 1u + 1u + 1u);
}

// VeeR EL2 mrac: region r is cacheable when its two bits are 01 (10 and 11: side effect, not cacheable). Fetches
// from a region that is not cacheable go over the I-bus one by one.
TEST(TimingModel, UncacheableRegionsFetchOverTheBus) {
    TimingParams p;
    p.l1i = small_cache();
    p.l1i_refill_penalty = 10;
    p.ev_l1i_refill = 3;
    p.fetch_bytes = 4;
    p.ibus_beat = 8;
    p.ev_ibus_access = 42;
    p.follows_mrac = true;
    p.uncached_fetch_penalty = 5;
    TimingModel m(p);
    EventBatch b;
    using C = isa::InsnClass;
    m.set_mrac(0);  // reset: nothing cacheable
    EXPECT_EQ(m.step(insn(C::alu), 0x80000000, 4, 0x80000004, nullptr, 0, b), 6u);
    EXPECT_EQ(m.step(insn(C::alu), 0x80000004, 2, 0x80000006, nullptr, 0, b), 6u);  // a new 4-byte fetch
    EXPECT_EQ(m.step(insn(C::alu), 0x80000006, 2, 0x80000008, nullptr, 0, b), 1u);  // in the same fetch
    EXPECT_EQ(b.count(42), 2u);
    EXPECT_EQ(b.count(3), 0u);
    // Region 8 cacheable (bits 17:16 = 01), region 0xD side effect with both bits set (27:26 = 11).
    m.set_mrac(0x0C010000u);
    EXPECT_EQ(m.step(insn(C::alu), 0x80000008, 4, 0x8000000C, nullptr, 0, b), 11u);  // an I-cache miss
    EXPECT_EQ(m.step(insn(C::alu), 0xD0000000, 4, 0xD0000004, nullptr, 0, b), 6u);   // not cacheable
    EXPECT_EQ(b.count(3), 1u);
    EXPECT_EQ(b.count(42), 2u + 8 + 1);
}

// Speculative events: each misprediction adds the wrong path's instructions; correct predictions add none.
TEST(TimingModel, MispredictionsAddTheWrongPathToSpeculativeEvents) {
    TimingParams p;
    p.predictor.direction = PredictorConfig::Direction::not_taken;
    p.ev_mispredict = 0x10;
    p.wrong_path = 3;
    p.ev_spec = {0x1B, no_event};
    TimingModel m(p);
    EventBatch b;
    const uint8_t cond = isa::br_immediate | isa::br_conditional;
    m.step(insn(isa::InsnClass::branch, cond | isa::br_taken), 0x1000, 4, 0x2000, nullptr, 0, b);  // mispredicted
    m.step(insn(isa::InsnClass::branch, cond), 0x2000, 4, 0x2004, nullptr, 0, b);                  // predicted
    m.step(insn(isa::InsnClass::branch, cond | isa::br_taken), 0x2004, 4, 0x3000, nullptr, 0, b);  // mispredicted
    EXPECT_EQ(b.count(0x10), 2u);
    EXPECT_EQ(b.count(0x1B), 6u);
}

namespace {

uint64_t loads(TimingModel& m, uint64_t base, uint64_t bytes, uint64_t stride, bool write, EventBatch& b) {
    uint64_t cycles = 0;
    for (uint64_t a = base; a < base + bytes; a += stride) {
        const MemRef r{a, write};
        cycles += m.step(insn(write ? isa::InsnClass::store : isa::InsnClass::load), 0x200, 4, 0x204, &r, 1, b);
    }
    return cycles;
}

}  // namespace

TEST(TimingModel, MicroTlbOfTenPages) {
    TimingParams p;
    p.dtlb_entries = 10;
    p.tlb_refill_penalty = 2;
    p.ev_dtlb_refill = 0x05;
    TimingModel m(p);
    EventBatch b;
    // 10 pages touched twice: 10 refills. Then 12 pages in turn, twice: LRU over 10 entries misses every time.
    EXPECT_EQ(loads(m, 0x100000, 10 * 4096, 4096, false, b) + loads(m, 0x100000, 10 * 4096, 4096, false, b), 20u + 10 * 2);
    EXPECT_EQ(b.count(0x05), 10u);
    b.clear();
    loads(m, 0x200000, 12 * 4096, 4096, false, b);
    loads(m, 0x200000, 12 * 4096, 4096, false, b);
    EXPECT_EQ(b.count(0x05), 24u);
}

namespace {

// The 4 KiB 2-way L1D of small_cache() in front of a 16 KiB 4-way L2 of 64-byte lines, with the ARMv8 numbers.
TimingParams with_l2() {
    TimingParams p;
    p.l1d = small_cache();
    CacheConfig l2;
    l2.size = 16 * 1024;
    l2.ways = 4;
    l2.line = 64;
    p.l2 = l2;
    p.ev_l1d_refill = 0x03;
    p.ev_l1d_writeback = 0x15;
    p.ev_l2_access = 0x16;
    p.ev_l2_refill = 0x17;
    p.ev_l2_writeback = 0x18;
    return p;
}

}  // namespace

// The return stack's events (ARM1176 0x23-0x26): a call pushes; a return pops, right or wrong.
TEST(TimingModel, ReturnStackEvents) {
    TimingParams p;
    p.predictor.ras_depth = 2;
    p.ev_ras_push = 0x23;
    p.ev_ras_pop = 0x24;
    p.ev_ras_hit = 0x25;
    p.ev_ras_miss = 0x26;
    TimingModel m(p);
    EventBatch b;
    using C = isa::InsnClass;
    const uint8_t call = isa::br_immediate | isa::br_call | isa::br_taken, ret = isa::br_register | isa::br_return | isa::br_taken;
    m.step(insn(C::jump, call), 0x100, 4, 0x800, nullptr, 0, b);  // bl 0x800: pushes 0x104
    m.step(insn(C::jump, ret), 0x800, 4, 0x104, nullptr, 0, b);   // bx lr to 0x104: predicted
    m.step(insn(C::jump, ret), 0x104, 4, 0x900, nullptr, 0, b);   // a return with the stack empty: wrong
    EXPECT_EQ(b.count(0x23), 1u);
    EXPECT_EQ(b.count(0x24), 2u);
    EXPECT_EQ(b.count(0x25), 1u);
    EXPECT_EQ(b.count(0x26), 1u);
    // With prediction off (ARM11 before SCTLR.Z) the stack is not used: no events.
    m.predictor().set_enabled(false);
    m.step(insn(C::jump, call), 0x100, 4, 0x800, nullptr, 0, b);
    m.step(insn(C::jump, ret), 0x800, 4, 0x104, nullptr, 0, b);
    EXPECT_EQ(b.count(0x23) + b.count(0x24), 3u);
}

// Behind 2-entry micro TLBs, a main TLB of 4 entries in 2 ways (2 sets of 4 KiB pages): a micro refill that
// hits the main TLB costs the refill penalty, one that misses it walks the page tables too.
TEST(TimingModel, MainTlbCatchesMicroTlbRefillsAndWalksOnItsMisses) {
    TimingParams p;
    p.dtlb_entries = 2;
    p.ev_dtlb_refill = 0x05;
    p.tlb_refill_penalty = 2;
    p.main_tlb_entries = 4;
    p.main_tlb_ways = 2;
    p.walk_penalty = 20;
    p.ev_main_tlb_refill = 0x0F;
    TimingModel m(p);
    EventBatch b;
    // Pages 0, 1, 2, 3 (first touch: 4 micro refills, 4 walks), then 0, 1, 2, 3 again: the 2-entry micro TLB
    // misses each (4 more refills) but the main TLB (pages 0, 2 in set 0; 1, 3 in set 1) holds all four.
    uint64_t cycles = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (uint64_t page = 0; page < 4; ++page) {
            const MemRef r{0x100000 + page * 4096, false};
            cycles += m.step(insn(isa::InsnClass::load), 0x200, 4, 0x204, &r, 1, b);
        }
    EXPECT_EQ(b.count(0x05), 8u);
    EXPECT_EQ(b.count(0x0F), 4u);
    EXPECT_EQ(cycles, 8u + 8 * 2 + 4 * 20);
}

// ARM11 data side: two dirty bits per line (DCACHE_WBACK counts half lines), and an access in the line of the
// instruction's previous access is not counted again.
TEST(TimingModel, HalfLineWriteBacksAndSequentialAccesses) {
    TimingParams p;
    CacheConfig c;  // 1 KiB, 1 way, 32-byte lines: addresses 1 KiB apart evict each other
    c.size = 1024;
    c.ways = 1;
    c.line = 32;
    c.dirty_parts = 2;
    p.l1d = c;
    p.count_line_once = true;
    p.ev_l1d_access = 0x0A;
    p.ev_l1d_refill = 0x0B;
    p.ev_l1d_writeback = 0x0C;
    TimingModel m(p);
    EventBatch b;
    auto store = [&](std::vector<MemRef> refs) { m.step(insn(isa::InsnClass::store), 0x200, 4, 0x204, refs.data(), static_cast<unsigned>(refs.size()), b); };
    store({{0x1000, true}});                             // one word in the first half: 1 access, 1 refill
    store({{0x2000, false}});                            // evicts 0x1000: one dirty half
    store({{0x1000, true}, {0x1004, true}, {0x1010, true}, {0x1014, true}});  // an STM in one line: 1 access
    store({{0x2000, false}});                            // evicts 0x1000 again: both halves dirty
    store({{0x101C, true}, {0x1020, true}});             // an STM across two lines: 2 accesses
    EXPECT_EQ(b.count(0x0A), 1u + 1 + 1 + 1 + 2);
    EXPECT_EQ(b.count(0x0B), 1u + 1 + 1 + 1 + 2);
    EXPECT_EQ(b.count(0x0C), 1u + 2);
}

TEST(TimingModel, L2CatchesWhatTheL1Thrashes) {
    TimingParams p = with_l2();
    p.l1d_refill_penalty = 10;
    p.l2_refill_penalty = 50;
    TimingModel m(p);
    EventBatch b;
    // 8 KiB by lines, twice: every L1 access misses (4 lines per 2-way set); the L2 holds all 128 lines, so only
    // the first pass misses there. 256 loads + 256 x 10 + 128 x 50.
    const uint64_t cycles = loads(m, 0, 8192, 64, false, b) + loads(m, 0, 8192, 64, false, b);
    EXPECT_EQ(b.count(0x03), 256u);
    EXPECT_EQ(b.count(0x16), 256u);
    EXPECT_EQ(b.count(0x17), 128u);
    EXPECT_EQ(cycles, 256u + 256 * 10 + 128 * 50);
}

TEST(TimingModel, L1WriteBacksWriteTheL2) {
    TimingModel m(with_l2());
    EventBatch b;
    // 2 KiB stored by lines: 32 L1 refills, each an L2 read that misses. Then 4 KiB read elsewhere: 64 L1 refills
    // (64 L2 misses) whose second per set evicts a dirty line: 32 L1 write-backs, each an L2 write that hits.
    // 6 KiB in all fits the 16 KiB L2: nothing leaves it.
    loads(m, 0, 2048, 64, true, b);
    loads(m, 0x100000, 4096, 64, false, b);
    EXPECT_EQ(b.count(0x15), 32u);
    EXPECT_EQ(b.count(0x16), 32u + 64 + 32);
    EXPECT_EQ(b.count(0x17), 96u);
    EXPECT_EQ(b.count(0x18), 0u);
}

// Register use, from encodings worked out by the A64 and RISC-V encoding tables (A64 ones checked with GNU as).
namespace {

uint32_t regs(std::initializer_list<uint8_t> rs) {
    uint32_t m = 0;
    for (uint8_t r : rs) m |= uint32_t{1} << r;
    return m;
}

void expect_use(const isa::RegUse& u, std::initializer_list<uint8_t> dst, std::initializer_list<uint8_t> srcs,
                const char* what) {
    EXPECT_EQ(u.dst, regs(dst)) << what;
    EXPECT_EQ(u.src, regs(srcs)) << what;
}

// The same, with the address registers (a subset of the sources) named.
void expect_mem(const isa::RegUse& u, std::initializer_list<uint8_t> dst, std::initializer_list<uint8_t> srcs,
                std::initializer_list<uint8_t> addr, const char* what) {
    expect_use(u, dst, srcs, what);
    EXPECT_EQ(u.addr, regs(addr)) << what;
}

}  // namespace

TEST(RegUse, A64IntegerClasses) {
    using isa::a64_reg_use;
    expect_use(a64_reg_use(0xF9400001u), {1}, {0}, "ldr x1, [x0]");
    expect_use(a64_reg_use(0xB8646843u), {3}, {2, 4}, "ldr w3, [x2, x4]");
    expect_use(a64_reg_use(0xF90007E5u), {}, {5}, "str x5, [sp, #8]: SP is not tracked");
    expect_use(a64_reg_use(0x91000422u), {2}, {1}, "add x2, x1, #1");
    expect_use(a64_reg_use(0x8B020023u), {3}, {1, 2}, "add x3, x1, x2");
    expect_use(a64_reg_use(0x9B020C24u), {4}, {1, 2, 3}, "madd x4, x1, x2, x3");
    expect_use(a64_reg_use(0x9AC70CC5u), {5}, {6, 7}, "sdiv x5, x6, x7");
    expect_use(a64_reg_use(0xDAC01041u), {1}, {2}, "clz x1, x2: no Rm");
    expect_mem(a64_reg_use(0xA9400801u), {1, 2}, {0}, {0}, "ldp x1, x2, [x0]: both destinations");
    expect_mem(a64_reg_use(0xB8646843u), {3}, {2, 4}, {2, 4}, "ldr w3, [x2, x4]: both form the address");
    expect_mem(a64_reg_use(0x58000041u), {1}, {}, {}, "ldr x1, #8 (literal)");
    expect_use(a64_reg_use(0xB4000007u), {}, {7}, "cbz x7");
    expect_use(a64_reg_use(0xD65F03C0u), {}, {30}, "ret");
    expect_use(a64_reg_use(0xF28000A1u), {1}, {1}, "movk x1, #5 keeps the rest of x1");
    expect_use(a64_reg_use(0xAA0203E1u), {1}, {2}, "mov x1, x2 (orr x1, xzr, x2)");
    // SIMD&FP data registers are not tracked; the general-purpose registers that form the address are.
    expect_mem(a64_reg_use(0xFD400000u), {}, {0}, {0}, "ldr d0, [x0]");
    expect_mem(a64_reg_use(0xAD400440u), {}, {2}, {2}, "ldp q0, q1, [x2]");
    expect_mem(a64_reg_use(0x3C80F2A0u), {}, {21}, {21}, "stur q0, [x21, #15]");
    expect_mem(a64_reg_use(0x3CE26820u), {}, {1, 2}, {1, 2}, "ldr q0, [x1, x2]");
    expect_mem(a64_reg_use(0x4CC27020u), {}, {1, 2}, {1, 2}, "ld1 {v0.16b}, [x1], x2");
    expect_mem(a64_reg_use(0x4CDF7020u), {}, {1}, {1}, "ld1 {v0.16b}, [x1], #16");
    expect_mem(a64_reg_use(0x9C000040u), {}, {}, {}, "ldr q0, #8 (literal)");
}

TEST(RegUse, RiscvBaseAndCompressed) {
    using isa::rv_reg_use;
    expect_use(rv_reg_use(0x0005A503u), {10}, {11}, "lw a0, 0(a1)");
    expect_use(rv_reg_use(0x00B50633u), {12}, {10, 11}, "add a2, a0, a1");
    expect_mem(rv_reg_use(0x00C12223u), {}, {2, 12}, {2}, "sw a2, 4(sp): sp forms the address");
    expect_use(rv_reg_use(0x000056B7u), {13}, {}, "lui a3, 5");
    expect_use(rv_reg_use(0x34079773u), {14}, {15}, "csrrw a4, mscratch, a5");
    expect_use(rv_reg_use(0x3402D773u), {14}, {}, "csrrwi a4, mscratch, 5");
    expect_use(rv_reg_use(0x4188u), {10}, {11}, "c.lw a0, 0(a1)");
    expect_use(rv_reg_use(0x962Au), {12}, {12, 10}, "c.add a2, a0");
    expect_use(rv_reg_use(0x86BAu), {13}, {14}, "c.mv a3, a4");
    expect_use(rv_reg_use(0x8082u), {}, {1}, "c.jr ra");
    expect_use(rv_reg_use(0x9782u), {1}, {15}, "c.jalr a5");
    expect_use(rv_reg_use(0xC42Eu), {}, {2, 11}, "c.swsp a1, 8(sp)");
    expect_use(rv_reg_use(0x8C05u), {8}, {8, 9}, "c.sub s0, s1");
    expect_use(rv_reg_use(0xC101u), {}, {10}, "c.beqz a0");
}

// A32 and T32, from the ARM ARM's encoding tables (DDI 0406C A5, A6), checked with GNU as (armv7ve).
TEST(RegUse, A32) {
    using isa::a32_reg_use;
    expect_mem(a32_reg_use(0xE5921000u), {1}, {2}, {2}, "ldr r1, [r2]");
    expect_mem(a32_reg_use(0xE7923004u), {3}, {2, 4}, {2, 4}, "ldr r3, [r2, r4]");
    expect_mem(a32_reg_use(0xE58D5008u), {}, {5, 13}, {13}, "str r5, [sp, #8]: SP is a register in A32");
    expect_mem(a32_reg_use(0xE4921004u), {1}, {2}, {2}, "ldr r1, [r2], #4: the write-back is not a result");
    expect_mem(a32_reg_use(0xE59F0008u), {0}, {}, {}, "ldr r0, [pc, #8]: the PC is no dependency");
    expect_use(a32_reg_use(0xE2812001u), {2}, {1}, "add r2, r1, #1");
    expect_use(a32_reg_use(0xE0813412u), {3}, {1, 2, 4}, "add r3, r1, r2, lsl r4");
    expect_use(a32_reg_use(0x00811002u), {1}, {1, 2, 31}, "addeq r1, r1, r2");  // 31: the flags (isa::flags_bit)
    expect_use(a32_reg_use(0xE1A01002u), {1}, {2}, "mov r1, r2");
    expect_use(a32_reg_use(0xE1510002u), {31}, {1, 2}, "cmp r1, r2");
    expect_use(a32_reg_use(0xE0040291u), {4}, {1, 2}, "mul r4, r1, r2");
    expect_use(a32_reg_use(0xE0243291u), {4}, {1, 2, 3}, "mla r4, r1, r2, r3");
    expect_use(a32_reg_use(0xE0810392u), {0, 1}, {2, 3}, "umull r0, r1, r2, r3");
    expect_use(a32_reg_use(0xE0E10392u), {0, 1}, {0, 1, 2, 3}, "smlal r0, r1, r2, r3 accumulates");
    expect_use(a32_reg_use(0xE1610382u), {1}, {2, 3}, "smulbb r1, r2, r3");
    expect_use(a32_reg_use(0xE1014382u), {1}, {2, 3, 4}, "smlabb r1, r2, r3, r4");
    expect_use(a32_reg_use(0xE715F716u), {5}, {6, 7}, "sdiv r5, r6, r7");
    expect_mem(a32_reg_use(0xE8904030u), {4, 5, 14}, {0}, {0}, "ldm r0, {r4, r5, lr}");
    expect_mem(a32_reg_use(0xE8BD8010u), {4}, {13}, {13}, "pop {r4, pc}");
    expect_mem(a32_reg_use(0xE92D4010u), {}, {4, 14, 13}, {13}, "push {r4, lr}");
    expect_mem(a32_reg_use(0xE1C020D0u), {2, 3}, {0}, {0}, "ldrd r2, r3, [r0]");
    expect_mem(a32_reg_use(0xE1C210B2u), {}, {1, 2}, {2}, "strh r1, [r2, #2]");
    expect_use(a32_reg_use(0xEBFFFFEFu), {14}, {}, "bl");
    expect_use(a32_reg_use(0xE12FFF1Eu), {}, {14}, "bx lr");
    expect_use(a32_reg_use(0xE12FFF33u), {14}, {3}, "blx r3");
    expect_use(a32_reg_use(0xE3001005u), {1}, {}, "movw r1, #5");
    expect_use(a32_reg_use(0xE3401005u), {1}, {1}, "movt r1, #5 keeps the low half");
    expect_use(a32_reg_use(0xEE192F1Cu), {2}, {}, "mrc p15, 0, r2, c9, c12, 0");
    expect_use(a32_reg_use(0xEE092F1Cu), {}, {2}, "mcr p15, 0, r2, c9, c12, 0");
    expect_use(a32_reg_use(0xE7E311D2u), {1}, {2}, "ubfx r1, r2, #3, #4");
    expect_use(a32_reg_use(0xE7C61192u), {1}, {1, 2}, "bfi r1, r2, #3, #4 keeps the other bits");
    expect_use(a32_reg_use(0xE6EF1072u), {1}, {2}, "uxtb r1, r2");
    expect_use(a32_reg_use(0xE16F1F12u), {1}, {2}, "clz r1, r2");
}

// The operand shapes (RegUse::shifted, shape), from the encodings' shift and extend fields (Arm ARM C4.1.67,
// C6.2 EXTR, LSLV; DDI 0406C A5.2.1-A5.2.3, A6.2.1, A6.2.2, A6.3.11, A6.3.12): a shift of 0 and an extension that
// changes nothing are no shift.
TEST(RegUse, OperandShapes) {
    using isa::a32_reg_use;
    using isa::a64_reg_use;
    using isa::t32_reg_use;
    auto shape = [](const isa::RegUse& u, std::initializer_list<uint8_t> shifted, uint8_t s, const char* what) {
        EXPECT_EQ(u.shifted, regs(shifted)) << what;
        EXPECT_EQ(u.shape, s) << what;
    };
    shape(a64_reg_use(0x8B0100A4u), {}, 0, "add x4, x5, x1");
    shape(a64_reg_use(0x8B0108A4u), {1}, 0, "add x4, x5, x1, lsl #2");
    shape(a64_reg_use(0x8B2140A4u), {1}, 0, "add x4, x5, w1, uxtw");
    shape(a64_reg_use(0x8B2160A4u), {}, 0, "add x4, x5, x1, uxtx");
    shape(a64_reg_use(0x0B2140A4u), {}, 0, "add w4, w5, w1, uxtw");
    shape(a64_reg_use(0x9AC32041u), {}, isa::shape_shift_register, "lsl x1, x2, x3 (LSLV)");
    shape(a64_reg_use(0x9AC624A4u), {}, isa::shape_shift_register, "lsr x4, x5, x6 (LSRV)");
    shape(a64_reg_use(0x9AC30C41u), {}, 0, "sdiv x1, x2, x3");
    shape(a64_reg_use(0x93C32041u), {}, isa::shape_extract, "extr x1, x2, x3, #8");
    shape(a32_reg_use(0xE0821003u), {}, 0, "add r1, r2, r3");
    shape(a32_reg_use(0xE0854101u), {1}, 0, "add r4, r5, r1, lsl #2");
    shape(a32_reg_use(0xE0821413u), {3, 4}, isa::shape_shift_register, "add r1, r2, r3, lsl r4");
    shape(a32_reg_use(0xE1A00061u), {1}, 0, "rrx r0, r1 (ROR #0)");
    shape(t32_reg_use(0x0088u, false), {1}, 0, "lsls r0, r1, #2");
    shape(t32_reg_use(0x0008u, false), {}, 0, "movs r0, r1 (LSL #0)");
    shape(t32_reg_use(0x4088u, false), {0, 1}, isa::shape_shift_register, "lsls r0, r1");
    shape(t32_reg_use(0xEB0100C2u, true), {2}, 0, "add.w r0, r1, r2, lsl #3");
    shape(t32_reg_use(0xEB010002u, true), {}, 0, "add.w r0, r1, r2");
    shape(t32_reg_use(0xFA01F002u, true), {1, 2}, isa::shape_shift_register, "lsl.w r0, r1, r2");
    // The shift amount's register (RegUse::amount): A32 Rs (11:8), T16 Rm (5:3), T32 Rm (3:0), A64 Rm (20:16).
    EXPECT_EQ(a32_reg_use(0xE0821413u).amount, regs({4})) << "add r1, r2, r3, lsl r4";
    EXPECT_EQ(a32_reg_use(0xE0854101u).amount, 0u) << "add r4, r5, r1, lsl #2";
    EXPECT_EQ(t32_reg_use(0x4088u, false).amount, regs({1})) << "lsls r0, r1";
    EXPECT_EQ(t32_reg_use(0xFA01F002u, true).amount, regs({2})) << "lsl.w r0, r1, r2";
    EXPECT_EQ(a64_reg_use(0x9AC32041u).amount, regs({3})) << "lsl x1, x2, x3 (LSLV)";
    // What a multiply multiplies (RegUse::mul_ops, A32): Rm and Rs, never the accumulator; SMMUL is not marked.
    EXPECT_EQ(a32_reg_use(0xE0040591u).mul_ops, regs({1, 5})) << "mul r4, r1, r5";
    EXPECT_EQ(a32_reg_use(0xE0241695u).mul_ops, regs({5, 6})) << "mla r4, r5, r6, r1";
    EXPECT_EQ(a32_reg_use(0xE0810392u).mul_ops, regs({2, 3})) << "umull r0, r1, r2, r3";
    EXPECT_EQ(a32_reg_use(0xE1640581u).mul_ops, regs({1, 5})) << "smulbb r4, r1, r5";
    EXPECT_EQ(a32_reg_use(0xE700F211u).mul_ops, regs({1, 2})) << "smuad r0, r1, r2";
    EXPECT_EQ(a32_reg_use(0xE750F211u).mul_ops, 0u) << "smmul r0, r1, r2";
    EXPECT_EQ(a32_reg_use(0xE0821003u).mul_ops, 0u) << "add r1, r2, r3";
}

// T32 multiplies (DDI 0406C A8.8), hand-assembled from their encodings: A6.3.16's hw1 1111 1011 0 op1 Rn, hw2 Ra Rd
// 00 op2 Rm (Ra 1111: no accumulator); A6.3.17's hw1 1111 1011 1 op1 Rn, hw2 RdLo RdHi op2 Rm; T1 MUL (A8.8.114)
// 0100 0011 01 Rn Rdm. What they multiply (RegUse::mul_ops) is Rn and Rm, never the accumulator; the high half
// (RegUse::mul_hi) RdHi. SMMUL (op1 101) and the divides are not marked, as in A32.
TEST(RegUse, T32Multiplies) {
    using isa::t32_reg_use;
    struct Case {
        uint32_t insn;
        bool is32;
        uint32_t ops, hi, src;
        const char* text;
    };
    const Case cases[] = {
        {0xFB01F002u, true, regs({1, 2}), 0, regs({1, 2}), "mul.w r0, r1, r2 (op1 000, Ra 1111)"},
        {0xFB013002u, true, regs({1, 2}), 0, regs({1, 2, 3}), "mla r0, r1, r2, r3 (op1 000, op2 00)"},
        {0xFB013012u, true, regs({1, 2}), 0, regs({1, 2, 3}), "mls r0, r1, r2, r3 (op1 000, op2 01)"},
        {0xFB11F002u, true, regs({1, 2}), 0, regs({1, 2}), "smulbb r0, r1, r2 (op1 001)"},
        {0xFB113002u, true, regs({1, 2}), 0, regs({1, 2, 3}), "smlabb r0, r1, r2, r3"},
        {0xFB21F002u, true, regs({1, 2}), 0, regs({1, 2}), "smuad r0, r1, r2 (op1 010)"},
        {0xFB213002u, true, regs({1, 2}), 0, regs({1, 2, 3}), "smlad r0, r1, r2, r3"},
        {0xFB31F002u, true, regs({1, 2}), 0, regs({1, 2}), "smulwb r0, r1, r2 (op1 011)"},
        {0xFB41F002u, true, regs({1, 2}), 0, regs({1, 2}), "smusd r0, r1, r2 (op1 100)"},
        {0xFB51F002u, true, 0, 0, regs({1, 2}), "smmul r0, r1, r2 (op1 101: not marked)"},
        {0xFB09F80Au, true, regs({9, 10}), 0, regs({9, 10}), "mul.w r8, r9, r10"},
        {0xFBA20103u, true, regs({2, 3}), regs({1}), regs({2, 3}), "umull r0, r1, r2, r3 (op1 010)"},
        {0xFB820103u, true, regs({2, 3}), regs({1}), regs({2, 3}), "smull r0, r1, r2, r3 (op1 000)"},
        {0xFBC20103u, true, regs({2, 3}), regs({1}), regs({0, 1, 2, 3}), "smlal r0, r1, r2, r3 (op1 100)"},
        {0xFBE20103u, true, regs({2, 3}), regs({1}), regs({0, 1, 2, 3}), "umlal r0, r1, r2, r3 (op1 110)"},
        {0xFBC20183u, true, regs({2, 3}), regs({1}), regs({0, 1, 2, 3}), "smlalbb r0, r1, r2, r3 (op1 100, op2 10NM)"},
        {0xFBE20163u, true, regs({2, 3}), regs({1}), regs({0, 1, 2, 3}), "umaal r0, r1, r2, r3 (op1 110, op2 0110)"},
        {0xFB91F0F2u, true, 0, 0, regs({1, 2}), "sdiv r0, r1, r2 (not a multiply)"},
        {0x4348u, false, regs({0, 1}), 0, regs({0, 1}), "muls r0, r1, r0 (T1)"},
        {0x4048u, false, 0, 0, regs({0, 1}), "eors r0, r1 (T1 data processing, op 0001: not a multiply)"},
    };
    for (const Case& c : cases) {
        const isa::RegUse u = t32_reg_use(c.insn, c.is32);
        EXPECT_EQ(u.mul_ops, c.ops) << c.text;
        EXPECT_EQ(u.mul_hi, c.hi) << c.text;
        EXPECT_EQ(u.src & ~isa::flags_bit, c.src) << c.text;
    }
}

// The register an extend rotates (RegUse::rotated): Rm, not the Rn an accumulating form adds; none for REV.
TEST(RegUse, ExtendsMarkTheRotatedRegister) {
    using isa::a32_reg_use;
    using isa::t32_reg_use;
    EXPECT_EQ(a32_reg_use(0xE6FF4071u).rotated, regs({1})) << "uxth r4, r1";
    EXPECT_EQ(a32_reg_use(0xE6FF4071u).src, regs({1})) << "uxth r4, r1";
    EXPECT_EQ(a32_reg_use(0xE6F54071u).rotated, regs({1})) << "uxtah r4, r5, r1";
    EXPECT_EQ(a32_reg_use(0xE6F54071u).src, regs({1, 5})) << "uxtah r4, r5, r1";
    EXPECT_EQ(a32_reg_use(0xE68F4471u).rotated, regs({1})) << "sxtb16 r4, r1, ror #8";
    EXPECT_EQ(a32_reg_use(0xE6BF4F31u).rotated, 0u) << "rev r4, r1";
    EXPECT_EQ(a32_reg_use(0xE0854081u).rotated, 0u) << "add r4, r5, r1, lsl #1 (shifted, not rotated)";
    EXPECT_EQ(t32_reg_use(0xB28Cu, false).rotated, regs({1})) << "uxth r4, r1 (T16)";
    EXPECT_EQ(t32_reg_use(0xFA15F481u, true).rotated, regs({1})) << "uxtah r4, r5, r1 (T32)";
    EXPECT_EQ(t32_reg_use(0xFA1FF481u, true).rotated, regs({1})) << "uxth.w r4, r1";
}

TEST(RegUse, T32) {
    using isa::t32_reg_use;
    auto t16 = [](uint32_t h) { return t32_reg_use(h, false); };
    auto t32 = [](uint32_t w) { return t32_reg_use(w, true); };
    expect_mem(t16(0x6851u), {1}, {2}, {2}, "ldr r1, [r2, #4]");
    expect_mem(t16(0x58D1u), {1}, {2, 3}, {2, 3}, "ldr r1, [r2, r3]");
    expect_mem(t16(0x9801u), {0}, {13}, {13}, "ldr r0, [sp, #4]");
    expect_use(t16(0x18D1u), {1}, {2, 3}, "adds r1, r2, r3");
    expect_use(t16(0x2105u), {1}, {}, "movs r1, #5");
    expect_use(t16(0x2905u), {}, {1}, "cmp r1, #5");
    expect_use(t16(0x4011u), {1}, {1, 2}, "ands r1, r2");
    expect_use(t16(0x4351u), {1}, {1, 2}, "muls r1, r2");
    expect_use(t16(0x4688u), {8}, {1}, "mov r8, r1");
    expect_use(t16(0xA802u), {0}, {13}, "add r0, sp, #8");
    expect_mem(t16(0xB530u), {}, {4, 5, 14, 13}, {13}, "push {r4, r5, lr}");
    expect_mem(t16(0xBD10u), {4}, {13}, {13}, "pop {r4, pc}");
    expect_use(t16(0xB123u), {}, {3}, "cbz r3");
    expect_use(t16(0x4770u), {}, {14}, "bx lr");
    expect_use(t16(0x4798u), {14}, {3}, "blx r3");
    expect_mem(t32(0xF8D21004u), {1}, {2}, {2}, "ldr.w r1, [r2, #4]");
    expect_mem(t32(0xF8521023u), {1}, {2, 3}, {2, 3}, "ldr.w r1, [r2, r3, lsl #2]");
    expect_mem(t32(0xF84D1D04u), {}, {1, 13}, {13}, "str.w r1, [sp, #-4]!");
    expect_use(t32(0xEB020103u), {1}, {2, 3}, "add.w r1, r2, r3");
    expect_use(t32(0xF1020101u), {1}, {2}, "add.w r1, r2, #1");
    expect_use(t32(0xF2020101u), {1}, {2}, "addw r1, r2, #1");
    expect_use(t32(0xF2412134u), {1}, {}, "movw r1, #0x1234");
    expect_use(t32(0xF2C12134u), {1}, {1}, "movt r1, #0x1234");
    expect_use(t32(0xEBB10F02u), {}, {1, 2}, "cmp.w r1, r2");
    expect_use(t32(0xFB02F103u), {1}, {2, 3}, "mul r1, r2, r3");
    expect_use(t32(0xFB024103u), {1}, {2, 3, 4}, "mla r1, r2, r3, r4");
    expect_use(t32(0xFBA20103u), {0, 1}, {2, 3}, "umull r0, r1, r2, r3");
    expect_use(t32(0xFBC20103u), {0, 1}, {0, 1, 2, 3}, "smlal r0, r1, r2, r3");
    expect_use(t32(0xFB91F0F2u), {0}, {1, 2}, "sdiv r0, r1, r2");
    expect_use(t32(0xF36201C6u), {1}, {1, 2}, "bfi r1, r2, #3, #4");
    expect_mem(t32(0xE9D02302u), {2, 3}, {0}, {0}, "ldrd r2, r3, [r0, #8]");
    expect_mem(t32(0xE8900070u), {4, 5, 6}, {0}, {0}, "ldmia.w r0, {r4, r5, r6}");
    expect_mem(t32(0xE92D41F0u), {}, {4, 5, 6, 7, 8, 14, 13}, {13}, "push.w {r4-r8, lr}");
    expect_mem(t32(0xE8D0F001u), {}, {0, 1}, {0, 1}, "tbb [r0, r1]");
    expect_mem(t32(0xE8501F00u), {1}, {0}, {0}, "ldrex r1, [r0]");
    expect_mem(t32(0xE8401200u), {2}, {1, 0}, {0}, "strex r2, r1, [r0]: the status register is written");
    expect_use(t32(0xF7FFFFD3u), {14}, {}, "bl");
    expect_use(t32(0xEE192F1Cu), {2}, {}, "mrc p15, 0, r2, c9, c12, 0");
}

TEST(TimingModel, DependencyChainStallsOnResultLatency) {
    TimingParams p;
    p.result_latency[static_cast<size_t>(isa::InsnClass::load)] = 3;
    TimingModel m(p);
    EventBatch b;
    auto with = [](isa::InsnClass c, uint8_t dst, uint8_t src) {
        isa::RetiredInsn i = insn(c);
        i.regs.dst = isa::reg_bit(dst);
        i.regs.src = isa::reg_bit(src);
        return i;
    };
    // ldr x1, [x0]; add x2, x1, #1; add x3, x2, #1: the first add waits 2 cycles for the load (issued at 0,
    // ready at 3); the second follows its ALU producer without a stall. 3 + 2 = 5 cycles.
    uint64_t chain = m.step(with(isa::InsnClass::load, 1, 0), 0x100, 4, 0x104, nullptr, 0, b);
    chain += m.step(with(isa::InsnClass::alu, 2, 1), 0x104, 4, 0x108, nullptr, 0, b);
    chain += m.step(with(isa::InsnClass::alu, 3, 2), 0x108, 4, 0x10C, nullptr, 0, b);
    EXPECT_EQ(chain, 5u);
    // ldr x1; two independent adds; then the use of x1, three cycles after the load: no stall. 4 cycles.
    uint64_t spaced = m.step(with(isa::InsnClass::load, 1, 0), 0x200, 4, 0x204, nullptr, 0, b);
    spaced += m.step(with(isa::InsnClass::alu, 4, 5), 0x204, 4, 0x208, nullptr, 0, b);
    spaced += m.step(with(isa::InsnClass::alu, 6, 7), 0x208, 4, 0x20C, nullptr, 0, b);
    spaced += m.step(with(isa::InsnClass::alu, 8, 1), 0x20C, 4, 0x210, nullptr, 0, b);
    EXPECT_EQ(spaced, 4u);
    // One independent instruction between: the use comes 2 cycles after the load and stalls 1.
    uint64_t one_gap = m.step(with(isa::InsnClass::load, 1, 0), 0x300, 4, 0x304, nullptr, 0, b);
    one_gap += m.step(with(isa::InsnClass::alu, 4, 5), 0x304, 4, 0x308, nullptr, 0, b);
    one_gap += m.step(with(isa::InsnClass::alu, 8, 1), 0x308, 4, 0x30C, nullptr, 0, b);
    EXPECT_EQ(one_gap, 4u);
}

namespace {

isa::RetiredInsn op(isa::InsnClass c, uint8_t dst, uint8_t src, uint8_t branch = 0) {
    isa::RetiredInsn i = insn(c, branch);
    i.regs.dst = isa::reg_bit(dst);
    i.regs.src = isa::reg_bit(src);
    return i;
}

uint64_t run(TimingModel& m, const std::vector<isa::RetiredInsn>& stream) {
    EventBatch b;
    uint64_t cycles = 0, pc = 0x1000;
    for (const auto& i : stream) {
        cycles += m.step(i, pc, 4, pc + 4, nullptr, 0, b);
        pc += 4;
    }
    return cycles;
}

TimingParams dual() {
    TimingParams p;
    p.dual_issue = true;
    p.predictor.direction = PredictorConfig::Direction::btfn;
    return p;
}

}  // namespace

TEST(TimingModel, DualIssuePairsIndependentInstructions) {
    using C = isa::InsnClass;
    {
        TimingModel m(dual());  // four independent ALU operations: two pairs
        EXPECT_EQ(run(m, {op(C::alu, 1, 10), op(C::alu, 2, 11), op(C::alu, 3, 12), op(C::alu, 4, 13)}), 2u);
    }
    {
        TimingModel m(dual());  // a chain: each reads the one before, nothing pairs
        EXPECT_EQ(run(m, {op(C::alu, 1, 0), op(C::alu, 2, 1), op(C::alu, 3, 2), op(C::alu, 4, 3)}), 4u);
    }
    {
        TimingModel m(dual());  // load + ALU twice: two pairs
        EXPECT_EQ(run(m, {op(C::load, 1, 10), op(C::alu, 2, 11), op(C::load, 3, 12), op(C::alu, 4, 13)}), 2u);
    }
    {
        TimingModel m(dual());  // load then store: one load/store unit, no pair; a multiply pair neither
        EXPECT_EQ(run(m, {op(C::load, 1, 10), op(C::store, isa::no_reg, 11)}), 2u);
        TimingModel m2(dual());
        EXPECT_EQ(run(m2, {op(C::mul, 1, 10), op(C::mul, 2, 11)}), 2u);
    }
    {
        TimingModel m(dual());  // a divide issues alone
        EXPECT_EQ(run(m, {op(C::div, 1, 10), op(C::alu, 2, 11)}), 2u);
    }
    {
        // A taken branch ends the group: the instruction at its target issues in the next cycle. (The branch at
        // 0x1000 goes to 0x1004 here, which the model takes as taken from the flag alone.)
        TimingModel m(dual());
        EXPECT_EQ(run(m, {op(C::branch, isa::no_reg, 10, isa::br_immediate | isa::br_taken), op(C::alu, 2, 11)}), 2u);
    }
    {
        // With a 3-cycle load latency: ldr x1 pairs with an independent add; the use of x1 right after waits
        // until cycle 3: 1 (pair) + 2 (stall) + 1 = cycles 0..3, so 4 in all.
        TimingParams p = dual();
        p.result_latency[static_cast<size_t>(C::load)] = 3;
        TimingModel m(p);
        EXPECT_EQ(run(m, {op(C::load, 1, 10), op(C::alu, 2, 11), op(C::alu, 3, 1)}), 4u);
    }
}

TEST(TimingModel, StallCyclesByCause) {
    TimingParams p;
    p.l1i = small_cache();
    p.l1i_refill_penalty = 20;
    p.mispredict_penalty = 3;
    p.predictor.direction = PredictorConfig::Direction::btfn;
    p.class_extra[static_cast<size_t>(isa::InsnClass::div)] = 5;
    p.ev_stall_frontend = 0x23;
    p.ev_stall_backend = 0x24;
    p.ev_fetch_stall = 0x01;
    TimingModel m(p);
    EventBatch b;
    // An ALU op whose fetch misses (front end 20), a divide in the same line (back end 5), and a backward branch
    // taken as BTFN predicts (no penalty): 3 + 20 + 5 = 28 cycles.
    uint64_t cycles = m.step(insn(isa::InsnClass::alu), 0x1000, 4, 0x1004, nullptr, 0, b);
    cycles += m.step(insn(isa::InsnClass::div), 0x1004, 4, 0x1008, nullptr, 0, b);
    const isa::RetiredInsn br = insn(isa::InsnClass::branch, isa::br_immediate | isa::br_conditional);
    // On a second model: the branch taken once (its fetch misses: 20), then falling through, against BTFN's
    // backward-taken prediction: 1 + 3 cycles, all 23 in the front end.
    EventBatch warm;
    TimingModel m2(p);
    isa::RetiredInsn taken = br;
    taken.branch |= isa::br_taken;
    m2.step(taken, 0x1008, 4, 0x1000, nullptr, 0, warm);
    EXPECT_EQ(m2.step(br, 0x1008, 4, 0x100C, nullptr, 0, warm), 1u + 3);
    cycles += m.step(taken, 0x1008, 4, 0x1000, nullptr, 0, b);
    EXPECT_EQ(cycles, 3u + 20 + 5);
    EXPECT_EQ(b.count(0x01), 20u);
    EXPECT_EQ(b.count(0x23), 20u);
    EXPECT_EQ(b.count(0x24), 5u);
    EXPECT_EQ(warm.count(0x23), 20u + 3);
}

// The ARM11 interlocks, on the ARM1176 TRM's own examples (16.2 Table 16-3; 16.7 Table 16-10): LDR has a result
// latency of 3 and needs its base register as an Early Reg (a cycle before the others), ADD a latency of 1, MUL
// takes 2 cycles with a latency of 4. Caches, TLBs and prediction are left out so that only the pipeline counts.
TEST(TimingModel, Arm11InterlocksMatchTheTrmExamples) {
    TimingParams p = *platform_timing("arm1176");
    p.l1i.reset();
    p.l1d.reset();
    p.itlb_entries = p.dtlb_entries = 0;
    auto sequence = [&](std::initializer_list<uint32_t> words, uint64_t* dep_stall) {
        TimingModel m(p);
        EventBatch b;
        uint64_t cycles = 0, pc = 0x8000;
        for (uint32_t w : words) {
            isa::RetiredInsn i = isa::arm::classify_a32(w);
            i.regs = isa::a32_reg_use(w);
            cycles += m.step(i, pc, 4, pc + 4, nullptr, 0, b);
            pc += 4;
        }
        *dep_stall = b.count(0x02);  // DDEP_STALL
        return cycles;
    };
    uint64_t dep = 0;
    EXPECT_EQ(sequence({0xE5921000u, 0xE0856004u}, &dep), 2u) << "ldr r1, [r2]; add r6, r5, r4: independent";
    EXPECT_EQ(dep, 0u);
    EXPECT_EQ(sequence({0xE0821003u, 0xE0869001u}, &dep), 2u) << "add r1, r2, r3; add r9, r6, r1";
    EXPECT_EQ(dep, 0u);
    EXPECT_EQ(sequence({0xE5921000u, 0xE0856001u}, &dep), 4u) << "ldr r1, [r2]; add r6, r5, r1";
    EXPECT_EQ(dep, 2u);
    EXPECT_EQ(sequence({0xE0851006u, 0xE5912000u}, &dep), 3u) << "add r1, r5, r6; ldr r2, [r1]: an Early Reg";
    EXPECT_EQ(dep, 1u);
    EXPECT_EQ(sequence({0xE5921000u, 0xE5915000u}, &dep), 5u) << "ldr r1, [r2]; ldr r5, [r1]";
    EXPECT_EQ(dep, 3u);
    EXPECT_EQ(sequence({0xE0010392u, 0xE0814005u}, &dep), 5u) << "mul r1, r2, r3 (2 cycles); add r4, r1, r5";
    EXPECT_EQ(dep, 2u);
    // A store's data is a Late Reg: ldr r1, [r2]; str r1, [r3] waits one cycle, not two.
    EXPECT_EQ(sequence({0xE5921000u, 0xE5831000u}, &dep), 3u) << "ldr r1, [r2]; str r1, [r3]";
    EXPECT_EQ(dep, 1u);
}

namespace {

// A32 words replayed on a built-in platform with its caches and TLBs left out, so that only the issue rules count:
// the cycles of the whole sequence. A load or store multiple gets one 4-byte access per register it moves.
// The cycles of `words` in `mode` (A32 or A64), decoded as the replay decodes them, without caches or TLBs.
// `size` is each word's size: 2 for a sequence of T16 halfwords (decoded in mode t32; one access a load or store).
uint64_t arm_cycles(TimingParams p, isa::DecodeMode mode, const std::vector<uint32_t>& words, uint8_t size = 4) {
    p.l1i.reset();
    p.l1d.reset();
    p.l2.reset();
    p.itlb_entries = p.dtlb_entries = 0;
    TimingModel m(p);
    EventBatch b;
    uint64_t cycles = 0, pc = 0x8000;
    for (uint32_t w : words) {
        const isa::RetiredInsn i = isa::decode_arm(w, mode, size).insn;
        std::vector<MemRef> mem;
        if (i.cls == isa::InsnClass::load || i.cls == isa::InsnClass::store) {
            const unsigned n = i.multiple && size == 4 ? static_cast<unsigned>(__builtin_popcount(w & 0xFFFFu)) : 1u;
            for (unsigned k = 0; k < n; ++k) mem.push_back(MemRef{0x20000 + 4 * k, i.cls == isa::InsnClass::store, 4});
        }
        cycles += m.step(i, pc, size, pc + size, mem.data(), static_cast<unsigned>(mem.size()), b);
        pc += size;
    }
    return cycles;
}
uint64_t a32_cycles(TimingParams p, const std::vector<uint32_t>& words) {
    return arm_cycles(std::move(p), isa::DecodeMode::a32, words);
}
uint64_t a64_cycles(TimingParams p, const std::vector<uint32_t>& words) {
    return arm_cycles(std::move(p), isa::DecodeMode::a64, words);
}
uint64_t t16_cycles(TimingParams p, const std::vector<uint32_t>& halfwords) {
    return arm_cycles(std::move(p), isa::DecodeMode::t32, halfwords, 2);
}

// A32 sequences on the ARM1176 and the cycles each takes (a32_cycles), worked out from its TRM.
struct A32Case {
    std::vector<uint32_t> words;
    uint64_t cycles;
    const char* what;
};
void expect_arm1176_cycles(std::initializer_list<A32Case> cases) {
    const TimingParams p = *platform_timing("arm1176");
    for (const A32Case& c : cases) EXPECT_EQ(a32_cycles(p, c.words), c.cycles) << c.what;
}

}  // namespace

// ARM1176 TRM 16.12, Table 16-18: LDMIA Rx, {R1, R2, R3, R4} (first address 64-bit aligned) issues in one cycle and
// moves two registers a memory cycle; R1 and R2 have a result latency of 3, R3 and R4 of 4. An ADD after it that
// reads R1 issues 3 cycles after the LDM (cycles 0, then 3: 4 in all); one that reads R4, 4 after (5 in all); an
// independent one right behind it (2 in all).
TEST(TimingModel, Arm11LoadMultipleBringsTwoRegistersACycle) {
    const TimingParams p = *platform_timing("arm1176");
    EXPECT_EQ(a32_cycles(p, {0xE890001Eu, 0xE0856001u}), 4u) << "ldmia r0, {r1-r4}; add r6, r5, r1";
    EXPECT_EQ(a32_cycles(p, {0xE890001Eu, 0xE0856004u}), 5u) << "ldmia r0, {r1-r4}; add r6, r5, r4";
    EXPECT_EQ(a32_cycles(p, {0xE890001Eu, 0xE0876008u}), 2u) << "ldmia r0, {r1-r4}; add r6, r7, r8";
}

// ARM1176 TRM 16.12.2: an LDM that loads the PC loads it first and the other registers a cycle later than the same
// LDM without the PC (Table 16-18's 3 for the first register, 4 here). POP {r4, pc} in cycle 0 (its successor taken as
// the next word here: no branch cost), an ADD reading r4 issues in cycle 4 (5 in all); LDMIA sp!, {r4, r5} in cycle 0,
// the same ADD in cycle 3 (4 in all).
TEST(TimingModel, Arm11LoadMultipleOfThePcLoadsItFirst) {
    expect_arm1176_cycles({{{0xE8BD8010u, 0xE0856004u}, 5, "pop {r4, pc}; add r6, r5, r4"},
                           {{0xE8BD0030u, 0xE0856004u}, 4, "pop {r4, r5}; add r6, r5, r4"}});
}

// ARM1176 TRM 16.7, Table 16-10, long and flag-setting multiplies (caches off, cycles from the table):
// - UMULL r0, r1, r2, r3 takes 3 cycles; RdLo (r0) has a result latency of 4, RdHi (r1) 5: an ADD reading r0 issues in
//   cycle 4 (5 in all), one reading r1 in cycle 5 (6 in all);
// - MULS r4, r1, r5 takes 5 cycles, UMULLS r0, r1, r2, r3 6 ("cycles if sets flags");
// - SMLALBB r0, r1, r2, r3 takes 2 cycles, RdLo 3, RdHi 4: an ADD reading r1 issues in cycle 4 (5 in all).
TEST(TimingModel, Arm11LongAndFlagSettingMultiplies) {
    expect_arm1176_cycles({{{0xE0810392u}, 3, "umull r0, r1, r2, r3"},
                           {{0xE0810392u, 0xE0804005u}, 5, "umull r0, r1, r2, r3; add r4, r0, r5"},
                           {{0xE0810392u, 0xE0814005u}, 6, "umull r0, r1, r2, r3; add r4, r1, r5"},
                           {{0xE0140591u}, 5, "muls r4, r1, r5"},
                           {{0xE0910392u}, 6, "umulls r0, r1, r2, r3"},
                           {{0xE1410382u}, 2, "smlalbb r0, r1, r2, r3"},
                           {{0xE1410382u, 0xE0814005u}, 5, "smlalbb r0, r1, r2, r3; add r4, r1, r5"}});
    // The decoder marks the high half (RegUse::mul_hi): RdHi, 19:16.
    EXPECT_EQ(isa::a32_reg_use(0xE0810392u).mul_hi, 1u << 1) << "umull r0, r1, r2, r3";
    EXPECT_EQ(isa::a32_reg_use(0xE1410382u).mul_hi, 1u << 1) << "smlalbb r0, r1, r2, r3";
    EXPECT_EQ(isa::a32_reg_use(0xE0040591u).mul_hi, 0u) << "mul r4, r1, r5";
}

// ARM1176 TRM 16.12.3's example: STMIA R0, {R1-R7}; ADD R6, R10, R11 takes five cycles, because R6 has a register
// lock latency of four cycles (Table 16-18: 1, 2, 2, 3, 3, 4, 4 for R1 to R7). An ADD writing R1 (lock 1) or reading
// R6 (a lock holds writes back only) issues right behind the STM (2 in all); one writing R3 (lock 2) a cycle later (3).
TEST(TimingModel, Arm11StoreMultipleLocksItsRegisters) {
    expect_arm1176_cycles({{{0xE88000FEu, 0xE08A600Bu}, 5, "stmia r0, {r1-r7}; add r6, r10, r11"},
                           {{0xE88000FEu, 0xE08A100Bu}, 2, "stmia r0, {r1-r7}; add r1, r10, r11"},
                           {{0xE88000FEu, 0xE086A00Bu}, 2, "stmia r0, {r1-r7}; add r10, r6, r11"},
                           {{0xE88000FEu, 0xE08A300Bu}, 3, "stmia r0, {r1-r7}; add r3, r10, r11"}});
}

// ARM1176 TRM 16.12: a load or store multiple issues in one cycle and then holds the load/store unit for its memory
// cycles, two registers a cycle (Table 16-18: four registers, 2 memory cycles); "non-dependent, non-memory
// instructions" go on meanwhile. STMDB sp!, {r4-r7} in cycle 0: an independent ADD issues in cycle 1 (2 in all), an
// independent LDR waits for the unit until cycle 2 (3 in all); behind a one-register LDM (1 memory cycle) it does not.
TEST(TimingModel, Arm11MultipleHoldsTheLoadStoreUnit) {
    const TimingParams p = *platform_timing("arm1176");
    EXPECT_EQ(a32_cycles(p, {0xE92D00F0u, 0xE0879008u}), 2u) << "push {r4-r7}; add r9, r7, r8";
    EXPECT_EQ(a32_cycles(p, {0xE92D00F0u, 0xE5921000u}), 3u) << "push {r4-r7}; ldr r1, [r2]";
    EXPECT_EQ(a32_cycles(p, {0xE8900002u, 0xE5923000u}), 2u) << "ldmia r0, {r1}; ldr r3, [r2]";
}

// ARM1176 TRM 16.3, Table 16-4 (ADD r1 has a result latency of 1: ready in cycle 1). A register shifted by an
// immediate is an Early Reg: add r4, r5, r1, lsl #1 right behind it issues in cycle 2 (3 in all), while one that
// reads r1 unshifted issues in cycle 1 (2 in all; the TRM's interlock examples, Cortex-R4 TRM 14.3.3 the same). A
// shift by a register takes two issue cycles, its amount Rs an Early Reg: add r4, r2, r4, lsl r1 issues in cycle 2
// and takes cycles 2 and 3 (4 in all).
TEST(TimingModel, Arm11ShifterOperandsAreEarlyRegs) {
    const TimingParams p = *platform_timing("arm1176");
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE0854081u}), 3u) << "add r1, r2, r3; add r4, r5, r1, lsl #1";
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE0814089u}), 2u) << "add r1, r2, r3; add r4, r1, r9, lsl #1";
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE0824114u}), 4u) << "add r1, r2, r3; add r4, r2, r4, lsl r1";
}

// An extend rotates its Rm in the shifter: an Early Reg, as a shifted operand is (extend_in_shifter; GCC's
// arm1136jfs.md and LLVM's ARMScheduleV6.td, made from the ARM1136 and ARM1176 TRMs: platforms/timing_params.cpp).
// ADD r1 in cycle 0 has r1 ready in cycle 1 (result latency 1), for an Early Reg in cycle 2:
// - uxth r4, r1 (Rm r1) issues in cycle 2: 3 cycles in all, as ADD r1; ADD r4, r5, r1, LSL #1 (TRM 16.3);
// - uxtah r4, r5, r1 (Rm r1) the same: 3;
// - uxtah r4, r1, r5 (r1 the Rn it adds, read with the other sources) issues in cycle 1: 2;
// - rev r4, r1 (no extend) issues in cycle 1: 2;
// - Thumb: adds r1, r2, r3; uxth r4, r1: 3, as in A32.
// Without the rule every one of them takes 2 cycles.
TEST(TimingModel, Arm11ExtendOperandIsAnEarlyReg) {
    TimingParams p = *platform_timing("arm1176");
    for (const bool rule : {true, false}) {  // the platform's rule, then the rule off
        if (!rule) p.extend_in_shifter = false;
        const uint64_t early = rule ? 3u : 2u;
        EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE6FF4071u}), early) << "add r1, r2, r3; uxth r4, r1";
        EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE6F54071u}), early) << "add r1, r2, r3; uxtah r4, r5, r1";
        EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE6F14075u}), 2u) << "add r1, r2, r3; uxtah r4, r1, r5";
        EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE6BF4F31u}), 2u) << "add r1, r2, r3; rev r4, r1";
        EXPECT_EQ(t16_cycles(p, {0x18D1u, 0xB28Cu}), early) << "adds r1, r2, r3; uxth r4, r1";
    }
}

// ARM1176 TRM 16.7, Table 16-10: a multiply's multiplicand and multiplier (Rm, Rs) are Early Regs; MUL takes two
// cycles; SMULxy one, with a result latency of 3. ADD r1 in cycle 0 has r1 ready in cycle 1:
// - mul r4, r1, r5 reads r1 a cycle early: it issues in cycle 2 and takes 2 and 3 (4 in all);
// - mla r4, r5, r6, r1 reads r1 as its accumulator, not early: it issues in cycle 1 and takes 1 and 2 (3 in all);
// - smulbb r4, r1, r5 issues in cycle 2 (r1 early), its r4 ready in cycle 5: add r6, r4, r7 issues in cycle 5 (6 in
//   all); with no producer before it, smulbb then add take cycles 0 and 3 (4 in all).
TEST(TimingModel, Arm11MultiplyOperandsAreEarlyRegs) {
    const TimingParams p = *platform_timing("arm1176");
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE0040591u}), 4u) << "add r1, r2, r3; mul r4, r1, r5";
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE0241695u}), 3u) << "add r1, r2, r3; mla r4, r5, r6, r1";
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE1640581u, 0xE0846007u}), 6u) << "add r1, r2, r3; smulbb r4, r1, r5; add r6, r4, r7";
    EXPECT_EQ(a32_cycles(p, {0xE1640581u, 0xE0846007u}), 4u) << "smulbb r4, r1, r5; add r6, r4, r7";
}

// ARM1176 TRM Table 16-4, ADD <Rd>, <Rn>, <Rm>, LSL <Rs>: Rs sampled in the first issue cycle, Rm shifted in the
// second (so needed at the first, as a shifted operand a cycle early), Rn a Late Reg, the result latency 2. LDR r1
// in cycle 0 has r1 ready in cycle 3 (latency 3):
// - r1 as Rm: the ADD issues in cycle 3 and takes 3 and 4 (5 in all);
// - r1 as Rn, needed in the second cycle: the ADD issues in cycle 2 and takes 2 and 3 (4 in all);
// - an ADD with a register shift in cycle 0, its r4 ready in cycle 2, read as a shifted operand (a cycle early) by
//   the next: that one issues in cycle 3 (4 in all).
TEST(TimingModel, Arm11RegisterControlledShiftTakesTwoCycles) {
    const TimingParams p = *platform_timing("arm1176");
    EXPECT_EQ(a32_cycles(p, {0xE5921000u, 0xE0854611u}), 5u) << "ldr r1, [r2]; add r4, r5, r1, lsl r6";
    EXPECT_EQ(a32_cycles(p, {0xE5921000u, 0xE0814615u}), 4u) << "ldr r1, [r2]; add r4, r1, r5, lsl r6";
    EXPECT_EQ(a32_cycles(p, {0xE0824513u, 0xE0887084u}), 4u) << "add r4, r2, r3, lsl r5; add r7, r8, r4, lsl #1";
    EXPECT_EQ(a32_cycles(p, {0xE0824513u, 0xE0876008u}), 3u) << "add r4, r2, r3, lsl r5; add r6, r7, r8";
}

// ARM1176 TRM 16.8, Table 16-11, with prediction on: BL seen for the first time, predicted taken by the static rule
// (4 cycles: "correct taken static prediction"); BX R14 the return stack predicts takes 4 cycles, one it predicts
// wrong (the stack held another address) 7, one from an empty stack 5 (a misprediction, 1 + 4). Each sequence ends
// with a MOV (1 cycle) at the return's target.
TEST(TimingModel, Arm11ReturnsCostWhatTheTrmSays) {
    TimingParams p = *platform_timing("arm1176");
    p.l1i.reset();
    p.l1d.reset();
    p.itlb_entries = p.dtlb_entries = 0;
    p.predictor.enabled = true;
    struct Step {
        uint32_t word;
        uint64_t pc, next;
    };
    auto cycles = [&](std::initializer_list<Step> steps) {
        TimingModel m(p);
        EventBatch b;
        uint64_t c = 0;
        for (const Step& s : steps) {
            isa::RetiredInsn i = isa::arm::classify_a32(s.word);
            i.regs = isa::a32_reg_use(s.word);
            if (i.branch && s.next != s.pc + 4) i.branch |= isa::br_taken;
            c += m.step(i, s.pc, 4, s.next, nullptr, 0, b);
        }
        return c;
    };
    const uint32_t bl = 0xEB00003Eu, bx_lr = 0xE12FFF1Eu, mov = 0xE3A00001u;  // bl 0x8100; bx lr; mov r0, #1
    EXPECT_EQ(cycles({{bl, 0x8000, 0x8100}, {bx_lr, 0x8100, 0x8004}, {mov, 0x8004, 0x8008}}), 4u + 4 + 1);
    EXPECT_EQ(cycles({{bl, 0x8000, 0x8100}, {bx_lr, 0x8100, 0x9000}, {mov, 0x9000, 0x9004}}), 4u + 7 + 1);
    EXPECT_EQ(cycles({{bx_lr, 0x8100, 0x9000}, {mov, 0x9000, 0x9004}}), 5u + 1);
}

namespace {

// One A32 instruction of a hand-made ARM1176 trace: its word, address and successor (taken when not the next word).
struct A32Step {
    uint32_t word;
    uint64_t pc, next;
};

// The ARM1176 with prediction on (start-state=linux), its caches and TLBs left out: the cycles of `steps` and the
// BR_MISPREDICT (0x06) count.
// The BTAC's reach (btac_reach) is left out unless `reach` says (Arm11BranchTooSoonAfterABranchGoesStatic).
uint64_t arm1176_branch_cycles(std::initializer_list<A32Step> steps, uint64_t* mispredicts = nullptr, unsigned reach = 0) {
    TimingParams p = *platform_timing("arm1176");
    p.l1i.reset();
    p.l1d.reset();
    p.itlb_entries = p.dtlb_entries = 0;
    p.predictor.enabled = true;
    p.predictor.btac_reach = reach;
    TimingModel m(p);
    EventBatch b;
    uint64_t c = 0;
    for (const A32Step& s : steps) {
        isa::RetiredInsn i = isa::arm::classify_a32(s.word);
        i.regs = isa::a32_reg_use(s.word);
        if (i.branch && s.next != s.pc + 4) i.branch |= isa::br_taken;
        if (i.branch && s.next == s.pc + 4 && (i.branch & isa::br_conditional)) i.cond_failed = true;
        c += m.step(i, s.pc, 4, s.next, nullptr, 0, b);
    }
    if (mispredicts) *mispredicts = b.count(0x06);
    return c;
}

// A32 B, BL and BX to and from the addresses the tests use (the offset is (target - pc - 8) / 4).
constexpr uint32_t a32_branch(uint32_t base, uint64_t pc, uint64_t target) {
    return base | (static_cast<uint32_t>((target - pc - 8) >> 2) & 0xFFFFFFu);
}
constexpr uint32_t a32_b(uint64_t pc, uint64_t target) { return a32_branch(0xEA000000u, pc, target); }
constexpr uint32_t a32_bl(uint64_t pc, uint64_t target) { return a32_branch(0xEB000000u, pc, target); }

}  // namespace

// ARM1176 TRM Table 16-11, direct branches, each cycle counted from the table: a taken B predicted by the static rule
// (the BTAC does not hold it yet; 5.2.3: an unconditional branch is taken) costs 4 cycles; the same B again, a BTAC
// hit predicting it taken, is folded (0 cycles, "folded dynamic prediction", 5.2.4); a MOV 1.
TEST(TimingModel, Arm11DirectBranchesStaticTakenFourFoldedZero) {
    const uint32_t mov = 0xE3A00001u;
    // b 0x8100 (4); mov (1); b 0x8000 at 0x8104, backward, static taken (4); b 0x8100 again, a hit, folded (0); mov (1).
    EXPECT_EQ(arm1176_branch_cycles({{a32_b(0x8000, 0x8100), 0x8000, 0x8100},
                                     {mov, 0x8100, 0x8104},
                                     {a32_b(0x8104, 0x8000), 0x8104, 0x8000},
                                     {a32_b(0x8000, 0x8100), 0x8000, 0x8100},
                                     {mov, 0x8100, 0x8104}}),
              4u + 1 + 4 + 0 + 1);
    // A BL is never folded (5.2.4: its link would be lost): a hit costs 1 ("not-folded dynamic prediction"). bl (static
    // taken, 4); bx lr (the return stack's, 4); b 0x8000 (backward, static taken, 4); bl again, a hit (1); bx lr (4).
    const uint32_t bx_lr = 0xE12FFF1Eu;
    EXPECT_EQ(arm1176_branch_cycles({{a32_bl(0x8000, 0x8100), 0x8000, 0x8100},
                                     {bx_lr, 0x8100, 0x8004},
                                     {a32_b(0x8004, 0x8000), 0x8004, 0x8000},
                                     {a32_bl(0x8000, 0x8100), 0x8000, 0x8100},
                                     {bx_lr, 0x8100, 0x8004}}),
              4u + 4 + 4 + 1 + 4);
}

// ARM1176 TRM 5.2.3 (btac_reach 2; the platform leaves it out, docs/accuracy.md): a branch with fewer than 2
// instructions between it and the branch before it goes by the static rule, though the BTAC holds it, and is not folded. First pass: b 0x8100 (static taken,
// 4), two MOVs (1 each), b 0x8000 two instructions on (a BTAC miss: static taken, 4). Second pass: b 0x8100 right at
// the last branch's target: a BTAC hit, but too soon: static taken again, 4 (with the reach left out: folded, 0); two
// MOVs; b 0x8000, a hit 2 instructions on: folded, 0.
TEST(TimingModel, Arm11BranchTooSoonAfterABranchGoesStatic) {
    const uint32_t mov = 0xE3A00001u;
    const std::initializer_list<A32Step> loop = {{a32_b(0x8000, 0x8100), 0x8000, 0x8100}, {mov, 0x8100, 0x8104},
                                                 {mov, 0x8104, 0x8108},  {a32_b(0x8108, 0x8000), 0x8108, 0x8000},
                                                 {a32_b(0x8000, 0x8100), 0x8000, 0x8100}, {mov, 0x8100, 0x8104},
                                                 {mov, 0x8104, 0x8108},  {a32_b(0x8108, 0x8000), 0x8108, 0x8000}};
    EXPECT_EQ(arm1176_branch_cycles(loop, nullptr, 2), 4u + 1 + 1 + 4 + 4 + 1 + 1 + 0);
    EXPECT_EQ(arm1176_branch_cycles(loop, nullptr, 0), 4u + 1 + 1 + 4 + 0 + 1 + 1 + 0);
    // A conditional branch the BTAC predicts taken, too soon after a branch: forward, so the static rule says not
    // taken; taken, it is a misprediction (5 cycles, the flags set long before). b 0x8100 (4); beq 0x8200 at 0x8100
    // (forward: static not taken, taken: 5, mispredicted); mov; b 0x8100 back (backward: static taken, 4); beq again,
    // right at the last branch's target: the BTAC holds it taken, but the static rule decides: 5 again, mispredicted.
    const uint32_t beq = 0x0A00003Eu;  // beq 0x8200 from 0x8100
    uint64_t mis = 0;
    EXPECT_EQ(arm1176_branch_cycles({{a32_b(0x8000, 0x8100), 0x8000, 0x8100}, {beq, 0x8100, 0x8200},
                                     {mov, 0x8200, 0x8204}, {a32_b(0x8204, 0x8100), 0x8204, 0x8100},
                                     {beq, 0x8100, 0x8200}},
                                    &mis, 2),
              4u + 5 + 1 + 4 + 5);
    EXPECT_EQ(mis, 2u);
    // A branch not taken counts as the branch before: mov, mov, bne 0x8100 not taken (forward: static not taken, 1), b
    // 0x8000 right behind it (a miss: static taken, 4); again: the bne a hit predicted not taken (1), the b a hit
    // predicted taken but right behind the bne: static taken, 4 (with the reach left out: folded, 0).
    const uint32_t bne = a32_branch(0x1A000000u, 0x8008, 0x8100), back = a32_b(0x800C, 0x8000);
    const std::initializer_list<A32Step> behind = {{mov, 0x8000, 0x8004}, {mov, 0x8004, 0x8008}, {bne, 0x8008, 0x800C},
                                                   {back, 0x800C, 0x8000}, {mov, 0x8000, 0x8004}, {mov, 0x8004, 0x8008},
                                                   {bne, 0x8008, 0x800C},  {back, 0x800C, 0x8000}};
    EXPECT_EQ(arm1176_branch_cycles(behind, nullptr, 2), 1u + 1 + 1 + 4 + 1 + 1 + 1 + 4);
    EXPECT_EQ(arm1176_branch_cycles(behind, nullptr, 0), 1u + 1 + 1 + 4 + 1 + 1 + 1 + 0);
}

// ARM1176 TRM 16.12.2, Table 16-19: LDMIA sp!, {..., pc} takes 4 cycles when the return stack predicts it, 9 when it
// predicts it wrong or is empty, 9 a conditional one (taken). bl 0x8100 (static taken, 4); pop {r4, pc} back to 0x8004
// (4) or elsewhere (9); a MOV at the target (1). Alone, from an empty stack: 9 + 1.
TEST(TimingModel, Arm11ReturnsByLoadMultiple) {
    const uint32_t mov = 0xE3A00001u, pop = 0xE8BD8010u, popne = 0x18BD8010u;  // pop{ne} {r4, pc}
    const uint32_t bl = a32_bl(0x8000, 0x8100);
    EXPECT_EQ(arm1176_branch_cycles({{bl, 0x8000, 0x8100}, {pop, 0x8100, 0x8004}, {mov, 0x8004, 0x8008}}), 4u + 4 + 1);
    EXPECT_EQ(arm1176_branch_cycles({{bl, 0x8000, 0x8100}, {pop, 0x8100, 0x9000}, {mov, 0x9000, 0x9004}}), 4u + 9 + 1);
    EXPECT_EQ(arm1176_branch_cycles({{pop, 0x8100, 0x9000}, {mov, 0x9000, 0x9004}}), 9u + 1);
    EXPECT_EQ(arm1176_branch_cycles({{bl, 0x8000, 0x8100}, {popne, 0x8100, 0x8004}, {mov, 0x8004, 0x8008}}), 4u + 9 + 1);
}

// ARM1176 TRM 5.3: the return stack pops for "LDR pc, [sp...]", whatever the addressing mode, not only the
// post-indexed `ldr pc, [sp], #4`. bl 0x8100 (static taken, 4); `ldr pc, [sp, #8]` back to 0x8004, predicted by the
// stack as BX R14 is (Table 16-11: 4); a MOV there (1). From another base (`ldr pc, [r3, #8]`) it is no return: not
// predicted, a misprediction's 5 cycles (Table 16-11, the flags far away), with one BR_MISPREDICT.
TEST(TimingModel, Arm11LoadOfThePcFromSpIsAReturn) {
    const uint32_t mov = 0xE3A00001u, ldr_sp = 0xE59DF008u, ldr_r3 = 0xE593F008u;
    const uint32_t bl = a32_bl(0x8000, 0x8100);
    uint64_t mis = 0;
    EXPECT_EQ(arm1176_branch_cycles({{bl, 0x8000, 0x8100}, {ldr_sp, 0x8100, 0x8004}, {mov, 0x8004, 0x8008}}, &mis),
              4u + 4 + 1);
    EXPECT_EQ(mis, 0u);
    EXPECT_EQ(arm1176_branch_cycles({{bl, 0x8000, 0x8100}, {ldr_r3, 0x8100, 0x8004}, {mov, 0x8004, 0x8008}}, &mis),
              4u + 5 + 1);
    EXPECT_EQ(mis, 1u);
}

// ARM1176 TRM 16.12.2, Table 16-19: LDMIA rx, {..., pc} with a base other than SP is no return (the return stack
// predicts only LDMs from R13): 8 cycles, whatever the stack holds. ldm r0, {r4, pc} to 0x9000 (8), a MOV there (1);
// after bl 0x8100 (static taken, 4), the same LDM back to the BL's return address is still 8, a misprediction each.
TEST(TimingModel, Arm11LoadMultipleOfThePcFromAnotherBase) {
    const uint32_t mov = 0xE3A00001u, ldm = 0xE8908010u;  // ldm r0, {r4, pc}
    uint64_t mis = 0;
    EXPECT_EQ(arm1176_branch_cycles({{ldm, 0x8100, 0x9000}, {mov, 0x9000, 0x9004}}, &mis), 8u + 1);
    EXPECT_EQ(mis, 1u);
    EXPECT_EQ(arm1176_branch_cycles({{a32_bl(0x8000, 0x8100), 0x8000, 0x8100}, {ldm, 0x8100, 0x8004}, {mov, 0x8004, 0x8008}}),
              4u + 8 + 1);
}

// TRM 5.2.4: a predicted branch onto a branch is not folded. b1 at 0x8000 goes to b2 at 0x8100, which goes to a MOV at
// 0x8200; b3 at 0x8204 back to b1. First pass: b1, b2, b3 static taken (4 each), the MOV 1. Second pass: b1 and b2
// both BTAC hits; b1 lands on a branch, not folded (1); b2 lands on the MOV, folded (0); the MOV 1.
TEST(TimingModel, Arm11BranchOntoABranchIsNotFolded) {
    const uint32_t mov = 0xE3A00001u;
    EXPECT_EQ(arm1176_branch_cycles({{a32_b(0x8000, 0x8100), 0x8000, 0x8100},
                                     {a32_b(0x8100, 0x8200), 0x8100, 0x8200},
                                     {mov, 0x8200, 0x8204},
                                     {a32_b(0x8204, 0x8000), 0x8204, 0x8000},
                                     {a32_b(0x8000, 0x8100), 0x8000, 0x8100},
                                     {a32_b(0x8100, 0x8200), 0x8100, 0x8200},
                                     {mov, 0x8200, 0x8204}}),
              4u + 4 + 1 + 4 + 1 + 0 + 1);
}

// TRM Table 16-11: a forward conditional branch not taken, predicted so by the static rule, 1 cycle (CMP 1, BNE 1);
// BX<cond> <reg> is not predicted: taken it costs a misprediction's 5-7 cycles every time (7 right behind the CMP
// that set its flags), however often it was seen, and counts as BR_MISPREDICT (0x06) each time.
TEST(TimingModel, Arm11ConditionalBranchesByTheTable) {
    const uint32_t cmp = 0xE3500000u, bxne_r3 = 0x112FFF13u;
    EXPECT_EQ(arm1176_branch_cycles({{cmp, 0x8000, 0x8004}, {0x1A00003Eu, 0x8004, 0x8008}}), 1u + 1) << "cmp; bne 0x8100";
    uint64_t mis = 0;
    EXPECT_EQ(arm1176_branch_cycles({{cmp, 0x8000, 0x8004},
                                     {bxne_r3, 0x8004, 0x8000},
                                     {cmp, 0x8000, 0x8004},
                                     {bxne_r3, 0x8004, 0x8000}},
                                    &mis),
              1u + 7 + 1 + 7);
    EXPECT_EQ(mis, 2u);
}

// The condition flags as a register (isa::flags_bit): CMP and SUBS write them, a conditional instruction reads them
// (A32 A5.2; A64 C4.1: SUBS (immediate), B.cond). A Cortex-A7 branch waits 2 cycles for them (GCC's
// cortex-a7.md forwards ALU results early to no branch): subs r0, r0, #1 in cycle 0, bne (not taken) in cycle 2,
// 3 cycles in all. On a Cortex-A53 (the same file's bypass 0 from ALU to branch) SUBS and B.NE pair: 1 cycle.
TEST(TimingModel, FlagsAreADependency) {
    EXPECT_TRUE(isa::a32_reg_use(0xE3510000u).dst & isa::flags_bit) << "cmp r1, #0";
    EXPECT_TRUE(isa::a32_reg_use(0x12822001u).src & isa::flags_bit) << "addne r2, r2, #1";
    EXPECT_FALSE(isa::a32_reg_use(0xE2822001u).src & isa::flags_bit) << "add r2, r2, #1";
    EXPECT_FALSE(isa::a32_reg_use(0xE2822001u).dst & isa::flags_bit) << "add r2, r2, #1";
    EXPECT_TRUE(isa::a64_reg_use(0xF1000400u).dst & isa::flags_bit) << "subs x0, x0, #1";
    EXPECT_TRUE(isa::a64_reg_use(0x54000001u).src & isa::flags_bit) << "b.ne";
    EXPECT_EQ(a32_cycles(*platform_timing("cortex-a7"), {0xE2500001u, 0x1AFFFFFDu}), 3u) << "subs r0, r0, #1; bne";
    TimingParams p = *platform_timing("cortex-a53");
    p.l1i.reset();
    p.l1d.reset();
    p.l2.reset();
    p.itlb_entries = p.dtlb_entries = 0;
    TimingModel m(p);
    EventBatch b;
    isa::RetiredInsn subs = isa::arm::classify_a64(0xF1000400u), bne = isa::arm::classify_a64(0x54000001u);
    subs.regs = isa::a64_reg_use(0xF1000400u);
    bne.regs = isa::a64_reg_use(0x54000001u);
    uint64_t c = m.step(subs, 0x1000, 4, 0x1004, nullptr, 0, b);
    c += m.step(bne, 0x1004, 4, 0x1008, nullptr, 0, b);
    EXPECT_EQ(c, 1u) << "subs x0, x0, #1; b.ne (not taken)";
}

// ARM1176 TRM Table 16-11: a mispredicted branch takes MAX(7 - FlagCycleDistance, 5) cycles. With prediction off
// every taken branch mispredicts: BNE right behind CMP 7 cycles (1 + 1 + 4 + 2 = 8 with the CMP), one MOV between
// them 6 (1 + 1 + 6), two MOVs 5 (1 + 1 + 1 + 5): 8 in all each time; an unconditional B reads no flags: 5.
TEST(TimingModel, Arm11MispredictionByFlagDistance) {
    TimingParams p = *platform_timing("arm1176");
    p.l1i.reset();
    p.l1d.reset();
    p.itlb_entries = p.dtlb_entries = 0;
    auto cycles = [&](std::initializer_list<uint32_t> words) {
        TimingModel m(p);
        EventBatch b;
        uint64_t c = 0, pc = 0x8000;
        for (uint32_t w : words) {
            isa::RetiredInsn i = isa::arm::classify_a32(w);
            i.regs = isa::a32_reg_use(w);
            const bool branch = i.branch != 0;
            if (branch) i.branch |= isa::br_taken;
            c += m.step(i, pc, 4, branch ? 0x9000 : pc + 4, nullptr, 0, b);
            pc += 4;
        }
        return c;
    };
    const uint32_t cmp = 0xE3500000u, mov = 0xE3A01001u, bne = 0x1A0003FEu, b = 0xEA0003FEu;  // bne/b 0x9000 from 0x8000
    EXPECT_EQ(cycles({cmp, bne}), 8u) << "cmp r0, #0; bne";
    EXPECT_EQ(cycles({cmp, mov, bne}), 8u) << "cmp r0, #0; mov r1, #1; bne";
    EXPECT_EQ(cycles({cmp, mov, mov, bne}), 8u) << "cmp r0, #0; mov r1, #1; mov r1, #1; bne";
    EXPECT_EQ(cycles({b}), 5u) << "b";
}

// The Cortex-A7's partial dual issue (GCC's cortex-a7.md, contributed by Arm): the younger of a pair must be a
// move or an ALU instruction with an immediate operand (or a branch); the older may be an ALU instruction or a load
// or store; a multiply takes both slots. Each line: two independent instructions, 1 cycle when they pair, 2 when
// not.
TEST(TimingModel, CortexA7PairsOnlyAnImmediateSecond) {
    const TimingParams p = *platform_timing("cortex-a7");
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE2854001u}), 1u) << "add r1, r2, r3; add r4, r5, #1";
    EXPECT_EQ(a32_cycles(p, {0xE2854001u, 0xE0821003u}), 2u) << "add r4, r5, #1; add r1, r2, r3";
    EXPECT_EQ(a32_cycles(p, {0xE5921000u, 0xE3A04001u}), 1u) << "ldr r1, [r2]; mov r4, #1";
    EXPECT_EQ(a32_cycles(p, {0xE3A04001u, 0xE5921000u}), 2u) << "mov r4, #1; ldr r1, [r2]";
    EXPECT_EQ(a32_cycles(p, {0xE0010392u, 0xE3A04001u}), 2u) << "mul r1, r2, r3; mov r4, #1";
    // A load's result 2 cycles after it (1 cycle of stall for an ALU consumer right behind).
    EXPECT_EQ(a32_cycles(p, {0xE5921000u, 0xE0856001u}), 3u) << "ldr r1, [r2]; add r6, r5, r1";
}

// A Cortex-A7 LDM of four registers (16 bytes at 8 a cycle, GCC's cortex-a7.md load4: both slots for two cycles)
// issues over 2 cycles and pairs with nothing: an independent MOV after it issues in cycle 2 (3 in all). Its last
// two registers come a cycle after the first two (load4's latency 3 against a load's 2): an ADD of R4 issues in
// cycle 0 + 2 + 1 = 3 (4 in all).
TEST(TimingModel, CortexA7LoadMultipleIssuesOverItsMemoryCycles) {
    const TimingParams p = *platform_timing("cortex-a7");
    EXPECT_EQ(a32_cycles(p, {0xE890001Eu, 0xE3A06001u}), 3u) << "ldmia r0, {r1-r4}; mov r6, #1";
    EXPECT_EQ(a32_cycles(p, {0xE890001Eu, 0xE0856004u}), 4u) << "ldmia r0, {r1-r4}; add r6, r5, r4";
    EXPECT_EQ(a32_cycles(p, {0xE890001Eu, 0xE0856001u}), 3u) << "ldmia r0, {r1-r4}; add r6, r5, r1";
}

// The Cortex-A53's shifted and extended operands (GCC's cortex-a53.md, LLVM's AArch64SchedA53.td): read a cycle
// before the other sources. An ALU result is ready 1 cycle after its producer issues, a load's 2: a consumer that
// reads it unshifted issues 1 (2) cycles after the producer, one that shifts or extends it 2 (3). Each line: the
// producer's cycle plus the consumer's.
TEST(TimingModel, CortexA53ShiftedOperandIsNeededACycleEarly) {
    const TimingParams p = *platform_timing("cortex-a53");
    EXPECT_EQ(a64_cycles(p, {0x8B030041u, 0x8B0100A4u}), 2u) << "add x1, x2, x3; add x4, x5, x1";
    EXPECT_EQ(a64_cycles(p, {0x8B030041u, 0x8B0108A4u}), 3u) << "add x1, x2, x3; add x4, x5, x1, lsl #2";
    EXPECT_EQ(a64_cycles(p, {0x8B030041u, 0x8B050824u}), 2u) << "add x1, x2, x3; add x4, x1, x5, lsl #2";
    EXPECT_EQ(a64_cycles(p, {0x8B030041u, 0x8B2140A4u}), 3u) << "add x1, x2, x3; add x4, x5, w1, uxtw";
    EXPECT_EQ(a64_cycles(p, {0x8B030041u, 0x8B2160A4u}), 2u) << "add x1, x2, x3; add x4, x5, x1, uxtx (no extension)";
    EXPECT_EQ(a64_cycles(p, {0xF9400041u, 0x8B0100A4u}), 3u) << "ldr x1, [x2]; add x4, x5, x1";
    EXPECT_EQ(a64_cycles(p, {0xF9400041u, 0x8B0108A4u}), 4u) << "ldr x1, [x2]; add x4, x5, x1, lsl #2";
    // A32 in AArch32 state: the same rule, the register-shifted register's two registers both shifted.
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE0854101u}), 3u) << "add r1, r2, r3; add r4, r5, r1, lsl #2";
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE0814105u}), 2u) << "add r1, r2, r3; add r4, r1, r5, lsl #2";
}

// The Cortex-A8 reads a shifted operand in E1, a cycle before its other sources' E2 (GCC's cortex-a8.md: an ALU
// result to an ALU instruction 1 cycle, to one that shifts it 2; a load's 2 and 3). The two never pair (the younger
// reads the older's result). Each line: the producer's cycle plus the consumer's, issued 1, 2 or 3 cycles after it.
TEST(TimingModel, CortexA8ShiftedOperandIsNeededInE1) {
    const TimingParams p = *platform_timing("cortex-a8");
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE0854001u}), 2u) << "add r1, r2, r3; add r4, r5, r1";
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE0854101u}), 3u) << "add r1, r2, r3; add r4, r5, r1, lsl #2";
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE0814105u}), 2u) << "add r1, r2, r3; add r4, r1, r5, lsl #2";
    EXPECT_EQ(a32_cycles(p, {0xE5921000u, 0xE0854001u}), 3u) << "ldr r1, [r2]; add r4, r5, r1";
    EXPECT_EQ(a32_cycles(p, {0xE5921000u, 0xE0854101u}), 4u) << "ldr r1, [r2]; add r4, r5, r1, lsl #2";
}

// A Cortex-A8 load whose register offset is shifted by anything but LSL #2 takes a cycle more, its result a cycle
// later (TRM 16.8, Example 16-6; GCC's cortex-a8.md). `ldr r1, [r2, r3, lsl #2]` in cycle 0, its result 2 cycles
// later: `add r4, r5, r1` in cycle 2 (3 in all); with LSL #3 or LSR #2 the load issues over cycles 0 and 1 and its
// result is ready at 3: the ADD in cycle 3 (4 in all).
TEST(TimingModel, CortexA8ShiftedRegisterOffsetTakesACycleMore) {
    const TimingParams p = *platform_timing("cortex-a8");
    EXPECT_EQ(a32_cycles(p, {0xE7921103u, 0xE0854001u}), 3u) << "ldr r1, [r2, r3, lsl #2]; add r4, r5, r1";
    EXPECT_EQ(a32_cycles(p, {0xE7921183u, 0xE0854001u}), 4u) << "ldr r1, [r2, r3, lsl #3]; add r4, r5, r1";
    EXPECT_EQ(a32_cycles(p, {0xE7921123u, 0xE0854001u}), 4u) << "ldr r1, [r2, r3, lsr #2]; add r4, r5, r1";
    EXPECT_EQ(platform_timing("cortex-a7")->offset_shift_extra, 0u);
}

// The Cortex-A8 TRM's own example of a data source hazard (16.3, Table 16.12): ADD r1, r2, r3 in cycle 1, ADD r4, r1,
// r6 in cycle 2 ("wait for r1"), LDR r7, [r4] in cycle 4 ("wait two cycles for r4": an ALU result in E2, an address
// read in E1): 4 cycles. And its load/store resource hazard: LDR r5, [r6] in cycle 1, STR r7, [r8] and MOV r9, r10
// together in cycle 2.
TEST(TimingModel, CortexA8TrmIssueExamples) {
    const TimingParams p = *platform_timing("cortex-a8");
    EXPECT_EQ(a32_cycles(p, {0xE0821003u, 0xE0814006u, 0xE5947000u}), 4u)
        << "add r1, r2, r3; add r4, r1, r6; ldr r7, [r4]";
    EXPECT_EQ(a32_cycles(p, {0xE5965000u, 0xE5887000u, 0xE1A0900Au}), 2u) << "ldr r5, [r6]; str r7, [r8]; mov r9, r10";
}

// The Cortex-A53's one shift by a register a cycle (GCC's cortex_a53_hazard unit) and EXTR only as the younger of a
// pair or alone (cortex_a53_alu_extr). Independent instructions: 1 cycle when they pair, 2 when not.
TEST(TimingModel, CortexA53ShiftByRegisterAndExtractSlots) {
    const TimingParams p = *platform_timing("cortex-a53");
    EXPECT_EQ(a64_cycles(p, {0x9AC32041u, 0x9AC624A4u}), 2u) << "lsl x1, x2, x3; lsr x4, x5, x6";
    EXPECT_EQ(a64_cycles(p, {0x9AC32041u, 0x8B0600A4u}), 1u) << "lsl x1, x2, x3; add x4, x5, x6";
    EXPECT_EQ(a32_cycles(p, {0xE0821413u, 0xE0865817u}), 2u) << "add r1, r2, r3, lsl r4; add r5, r6, r7, lsl r8";
    EXPECT_EQ(a32_cycles(p, {0xE0821413u, 0xE0865007u}), 1u) << "add r1, r2, r3, lsl r4; add r5, r6, r7";
    EXPECT_EQ(a64_cycles(p, {0x93C32041u, 0x8B0600A4u}), 2u) << "extr x1, x2, x3, #8; add x4, x5, x6";
    EXPECT_EQ(a64_cycles(p, {0x8B0600A4u, 0x93C32041u}), 1u) << "add x4, x5, x6; extr x1, x2, x3, #8";
}

// Cortex-A53 loads and stores of several registers or of a Q register, as QEMU traces them (each 128-bit access split
// in two 8-byte accesses, no sizes): the bytes come from the encoding. GCC's cortex-a53.md: LDP of X registers
// (cortex_a53_load2), LDR and LDP of Q registers (cortex_a53_f_load_many) issue single in their first cycle and hold
// slot 0 alone in their second, the load pipeline both; STP of Q registers 32 bytes at 16 a cycle (f_store_many: 2
// cycles, slot 0 in the second); STR of a Q register and LDR of an X register one cycle. Each line, with an
// independent add x4, x5, x6 behind: it issues in slot 1 of the second cycle, 2 cycles in all, or beside a one-cycle
// access, 1 in all; a load behind waits for the load pipeline (2 + 1 = 3). An LDP's second register comes a cycle
// after the first (8 bytes a cycle): add x4, x5, x2 issues at 2 + 1 = 3 (4 in all), add x4, x5, x1 at 2 (3 in all).
// Without the 2-cycle limit LDP of Q registers takes 32 / 8 = 4 cycles (4 in all, the add beside the last); without
// the free slot the add issues after the LDP (3 in all).
TEST(TimingModel, CortexA53WideLoadsAndStoresTakeTwoCycles) {
    auto cycles = [](TimingParams p, uint32_t first, unsigned accesses, uint32_t second) {
        p.l1i.reset();
        p.l1d.reset();
        p.l2.reset();
        p.itlb_entries = p.dtlb_entries = 0;
        TimingModel m(p);
        EventBatch b;
        const isa::RetiredInsn a = isa::decode_arm(first, isa::DecodeMode::a64, 4).insn;
        const isa::RetiredInsn c = isa::decode_arm(second, isa::DecodeMode::a64, 4).insn;
        std::vector<MemRef> mem;
        for (unsigned k = 0; k < accesses; ++k) mem.push_back(MemRef{0x20000 + 8 * k, a.cls == isa::InsnClass::store, 0});
        return m.step(a, 0x8000, 4, 0x8004, mem.data(), accesses, b) + m.step(c, 0x8004, 4, 0x8008, nullptr, 0, b);
    };
    const TimingParams p = *platform_timing("cortex-a53");
    const uint32_t add = 0x8B0600A4u;  // add x4, x5, x6
    EXPECT_EQ(cycles(p, 0xA9400801u, 2, add), 2u) << "ldp x1, x2, [x0]";
    EXPECT_EQ(cycles(p, 0x3DC00000u, 2, add), 2u) << "ldr q0, [x0]";
    EXPECT_EQ(cycles(p, 0xAD400400u, 4, add), 2u) << "ldp q0, q1, [x0]";
    EXPECT_EQ(cycles(p, 0xAD000400u, 4, add), 2u) << "stp q0, q1, [x0]";
    EXPECT_EQ(cycles(p, 0xA9400801u, 2, 0xF94000A4u), 3u) << "ldp x1, x2, [x0]; ldr x4, [x5]";
    EXPECT_EQ(cycles(p, 0x3D800000u, 2, add), 1u) << "str q0, [x0]";
    EXPECT_EQ(cycles(p, 0xF9400041u, 1, add), 1u) << "ldr x1, [x2]";
    EXPECT_EQ(cycles(p, 0xA9400801u, 2, 0x8B0200A4u), 4u) << "ldp x1, x2, [x0]; add x4, x5, x2";
    EXPECT_EQ(cycles(p, 0xA9400801u, 2, 0x8B0100A4u), 3u) << "ldp x1, x2, [x0]; add x4, x5, x1";
    // The base register of a SIMD&FP load is a source (a load's result forms an address 3 cycles after it: the
    // early_address rule): ldr x2, [x0] in cycle 0, ldr q0, [x2] in cycles 3 and 4 (5 in all).
    EXPECT_EQ(cycles(p, 0xF9400002u, 1, 0x3DC00040u), 5u) << "ldr x2, [x0]; ldr q0, [x2]";
    TimingParams q = p;
    q.multiple_max_cycles = 0;
    EXPECT_EQ(cycles(q, 0xAD400400u, 4, add), 4u) << "ldp q0, q1, [x0] without the limit";
    q = p;
    q.multiple_last_slot = false;
    EXPECT_EQ(cycles(q, 0xA9400801u, 2, add), 3u) << "ldp x1, x2, [x0] without the free slot";
}

// A younger instruction pairs only when its sources are ready for the use it makes of them: an address register
// a cycle before the ALU would need it (early_address). add x1 issues in cycle 0 and ldr x10 beside it; add x7 in
// cycle 1; ldr x4, [x1] needs x1 (ready in cycle 1) in cycle 2 as an address, so it cannot pair with add x7 in
// cycle 1: it issues in cycle 2, 3 cycles in all (not 2). The A53's ALU address latency (3) cleared, so that
// early_address alone applies (TimingParams::address_latency 0).
TEST(TimingModel, PairWaitsForAnEarlyAddressRegister) {
    TimingParams p = *platform_timing("cortex-a53");
    p.address_latency = {};
    EXPECT_EQ(a64_cycles(p, {0x8B030041u, 0xF940016Au, 0x8B090107u, 0xF9400024u}), 3u)
        << "add x1, x2, x3; ldr x10, [x11]; add x7, x8, x9; ldr x4, [x1]";
}

// Cortex-A53: a register that forms a load's or store's address is needed 3 cycles after an ALU producer's issue
// (GCC's cortex-a53.md: no bypass from cortex_a53_alu* to an address, the reservation's 3; LLVM's
// AArch64SchedA53.td: ReadAdrBase, no ReadAdvance), and 3 after a load's (a load's result 2 cycles, the address a
// cycle earlier: early_address). add x1 issues in cycle 0 (1 cycle); ldr x4, [x1] in cycle 3: 2 cycles of stall
// and its own, 4 in all (the early_address rule alone: cycle 2, 3 in all). The same for a store's address. A load
// producer: ldr x1, [x2] in cycle 0, ldr x4, [x1] in cycle 3 (4). The ALU result as an ALU operand, and as the data
// a store writes (not an address), 1 cycle: they pair (1 and 2 in all: the store's address x2 is no result).
TEST(TimingModel, CortexA53AluResultToAnAddressTakesThreeCycles) {
    const TimingParams p = *platform_timing("cortex-a53");
    EXPECT_EQ(a64_cycles(p, {0x8B030041u, 0xF9400024u}), 4u) << "add x1, x2, x3; ldr x4, [x1]";
    EXPECT_EQ(a64_cycles(p, {0x8B030041u, 0xF9000024u}), 4u) << "add x1, x2, x3; str x4, [x1]";
    EXPECT_EQ(a64_cycles(p, {0xF9400041u, 0xF9400024u}), 4u) << "ldr x1, [x2]; ldr x4, [x1]";
    EXPECT_EQ(a64_cycles(p, {0x8B030041u, 0x8B050024u}), 2u) << "add x1, x2, x3; add x4, x1, x5";
    EXPECT_EQ(a64_cycles(p, {0x8B030041u, 0xF9000041u}), 2u) << "add x1, x2, x3; str x1, [x2]";
    // Without the A53's address latency: early_address's 2 cycles (3 in all).
    TimingParams q = p;
    q.address_latency = {};
    EXPECT_EQ(a64_cycles(q, {0x8B030041u, 0xF9400024u}), 3u) << "add x1, x2, x3; ldr x4, [x1] (early_address)";
}

namespace {

// A64 instructions of a hand-made trace on a built-in platform without caches or TLBs: the cycles of `steps` (each
// its word, address and successor: a branch whose successor is not the next word was taken); a load reads 8 bytes.
uint64_t a64_step_cycles(TimingParams p, std::initializer_list<A32Step> steps) {
    p.l1i.reset();
    p.l1d.reset();
    p.l2.reset();
    p.itlb_entries = p.dtlb_entries = 0;
    TimingModel m(p);
    EventBatch b;
    uint64_t c = 0;
    for (const A32Step& s : steps) {
        isa::RetiredInsn i = isa::decode_arm(s.word, isa::DecodeMode::a64, 4).insn;
        if (i.branch && s.next != s.pc + 4) i.branch |= isa::br_taken;
        const MemRef load{0x20000, false, 8};
        const bool data = i.cls == isa::InsnClass::load;
        c += m.step(i, s.pc, 4, s.next, data ? &load : nullptr, data ? 1u : 0u, b);
    }
    return c;
}

// A64 B and CBNZ X1 from `pc` to `target`.
constexpr uint32_t a64_b(uint64_t pc, uint64_t target) {
    return 0x14000000u | (static_cast<uint32_t>((target - pc) >> 2) & 0x3FFFFFFu);
}
constexpr uint32_t a64_cbnz_x1(uint64_t pc, uint64_t target) {
    return 0xB5000001u | (static_cast<uint32_t>((target - pc) >> 2) & 0x7FFFFu) << 5;
}

}  // namespace

// The Cortex-A53's taken branches (Chips and Cheese, "ARM's Cortex A53: Tiny But Important", 2023: 3 cycles from a
// taken branch to its target, 2 from the Branch Target Instruction Cache, whose benefit ends at branches 16 bytes
// apart; A53 TRM 2.1: a single entry): a taken branch predicted right takes 2 cycles beyond its own before its
// target issues, 1 on a BTIC hit (the same branch as the last taken one, fewer than 16 bytes after its target).
//  - b 0x8100 at 0x8000 (cycle 0), b 0x8200 at 0x8100 (cycle 3), add at 0x8200 (cycle 6): 7 cycles (3 without the
//    rule: a cycle each).
//  - a loop of add; b back, three times: add and b pair in cycle 0, the b misses the BTIC (2 more: the next add in
//    cycle 3), then hits it twice (1 more: cycles 5 and 7): 7 cycles (9 without the BTIC).
//  - a loop of three adds and b (12 bytes from target to branch), twice: adds in cycles 0, 0, 1, the b beside the
//    third, a miss (next add in cycle 4), then cycles 4, 4, 5 and a hit: 7. With four adds the b lies 16 bytes after
//    its target and never hits: adds 0, 0, 1, 1, b alone in cycle 2 (2 more: cycle 5), then 5, 5, 6, 6, b in 7: 10.
//  - ldr x1, [x2] in cycle 0, cbnz x1 backward (predicted taken: a static backward-taken predictor) waits for x1 until
//    cycle 2 (the load's 2 cycles), and that wait overlaps the bubble: its target's add issues in cycle 4 (5 in all;
//    6 if the wait did not overlap, 4 without the rule).
TEST(TimingModel, CortexA53TakenBranchBubbleAndBtic) {
    const TimingParams p = *platform_timing("cortex-a53");
    const uint32_t add = 0x8B0600A4u;  // add x4, x5, x6
    EXPECT_EQ(a64_step_cycles(p, {{a64_b(0x8000, 0x8100), 0x8000, 0x8100},
                                  {a64_b(0x8100, 0x8200), 0x8100, 0x8200},
                                  {add, 0x8200, 0x8204}}),
              7u)
        << "b; b; add";
    const uint32_t back = a64_b(0x8004, 0x8000);
    const std::initializer_list<A32Step> loop = {{add, 0x8000, 0x8004}, {back, 0x8004, 0x8000}, {add, 0x8000, 0x8004},
                                                 {back, 0x8004, 0x8000}, {add, 0x8000, 0x8004}, {back, 0x8004, 0x8000}};
    EXPECT_EQ(a64_step_cycles(p, loop), 7u) << "(add; b) x 3";
    TimingParams no_btic = p;
    no_btic.btic_bytes = 0;
    EXPECT_EQ(a64_step_cycles(no_btic, loop), 9u) << "(add; b) x 3 without the BTIC";
    const uint32_t back12 = a64_b(0x800C, 0x8000), back16 = a64_b(0x8010, 0x8000);
    EXPECT_EQ(a64_step_cycles(p, {{add, 0x8000, 0x8004}, {add, 0x8004, 0x8008}, {add, 0x8008, 0x800C},
                                  {back12, 0x800C, 0x8000}, {add, 0x8000, 0x8004}, {add, 0x8004, 0x8008},
                                  {add, 0x8008, 0x800C}, {back12, 0x800C, 0x8000}}),
              7u)
        << "(add x 3; b) x 2";
    EXPECT_EQ(a64_step_cycles(p, {{add, 0x8000, 0x8004}, {add, 0x8004, 0x8008}, {add, 0x8008, 0x800C},
                                  {add, 0x800C, 0x8010}, {back16, 0x8010, 0x8000}, {add, 0x8000, 0x8004},
                                  {add, 0x8004, 0x8008}, {add, 0x8008, 0x800C}, {add, 0x800C, 0x8010},
                                  {back16, 0x8010, 0x8000}}),
              10u)
        << "(add x 4; b) x 2";
    TimingParams btfn = p;
    btfn.predictor.direction = PredictorConfig::Direction::btfn;
    EXPECT_EQ(a64_step_cycles(btfn, {{0xF9400041u, 0x8000, 0x8004},
                                     {a64_cbnz_x1(0x8004, 0x7F00), 0x8004, 0x7F00},
                                     {add, 0x7F00, 0x7F04}}),
              5u)
        << "ldr x1, [x2]; cbnz x1 (taken, predicted); add";
}

// A Cortex-A53 load's result to the next load's address: 3 cycles with a simple address, 4 when it is a register
// offset scaled by the access size (Chips and Cheese, "ARM's Cortex A53: Tiny But Important", 2023): the scaled index
// is a shifted operand, needed a cycle before the base (shifted_operand_early). ldr x1, [x2] in cycle 0; ldr x4, [x5,
// x1, lsl #3] in cycle 4 (x1 ready 2, as an address 3, scaled 4): 5 in all; with x1 unscaled (lsl #0, S clear) in
// cycle 3: 4 in all; a byte load's index is never scaled (S set means LSL #0): 4 in all.
TEST(TimingModel, CortexA53ScaledIndexIsNeededACycleEarly) {
    const TimingParams p = *platform_timing("cortex-a53");
    EXPECT_EQ(a64_cycles(p, {0xF9400041u, 0xF86178A4u}), 5u) << "ldr x1, [x2]; ldr x4, [x5, x1, lsl #3]";
    EXPECT_EQ(a64_cycles(p, {0xF9400041u, 0xF86168A4u}), 4u) << "ldr x1, [x2]; ldr x4, [x5, x1]";
    EXPECT_EQ(a64_cycles(p, {0xF9400041u, 0x386178A4u}), 4u) << "ldr x1, [x2]; ldrb w4, [x5, x1, lsl #0]";
    EXPECT_EQ(a64_cycles(p, {0xF9400041u, 0xF82178A4u}), 5u) << "ldr x1, [x2]; str x4, [x5, x1, lsl #3]";
}

// A pair table as a platform file gives it (TimingParams::pair_table): loads may be followed by an ALU
// instruction in the same cycle, nothing else pairs; a younger ALU instruction with two register operands does
// not pair where pair_max_src allows one.
TEST(TimingModel, PairTableIsData) {
    using C = isa::InsnClass;
    TimingParams p = dual();
    p.pair_table = true;
    p.pair_with[static_cast<size_t>(C::load)] = 1u << static_cast<unsigned>(C::alu);
    TimingModel m(p);
    EXPECT_EQ(run(m, {op(C::load, 1, 10), op(C::alu, 2, 11)}), 1u);
    TimingModel m2(p);
    EXPECT_EQ(run(m2, {op(C::alu, 2, 11), op(C::load, 1, 10)}), 2u);
    TimingModel m3(p);
    EXPECT_EQ(run(m3, {op(C::alu, 2, 11), op(C::alu, 3, 12)}), 2u);
    p.pair_with[static_cast<size_t>(C::alu)] = 1u << static_cast<unsigned>(C::alu);
    p.pair_max_src[static_cast<size_t>(C::alu)] = 1;
    isa::RetiredInsn two = op(C::alu, 3, 12);
    two.regs.src |= isa::reg_bit(13);
    TimingModel m4(p);
    EXPECT_EQ(run(m4, {op(C::alu, 2, 11), op(C::alu, 3, 12)}), 1u);
    TimingModel m5(p);
    EXPECT_EQ(run(m5, {op(C::alu, 2, 11), two}), 2u);
}

namespace {

// VeeR EL2's D-bus buffer as the model follows it (TimingModel::dbus_access), worked out by hand from its rules:
// a read command 2 cycles after the load issues; a buffered store pushed out by a bus access 2 or more cycles
// behind it, its command at that access's read time (before the load's), or on its timer 11 cycles after it.
TimingParams veer_dbus() {
    TimingParams p;
    p.local_data = TimingParams::Region{0xF0040000u, 64 * 1024};
    p.bus_load_latency = 5;
    p.ev_bus_access = 43;
    p.dbus_queue = true;
    p.dbus_read_cmd = 2;
    p.ibuf_merge_window = 7;
    p.ibuf_timeout = 11;
    return p;
}

// A store to `store_addr`, `gap - 1` independent ALU instructions, a load of `load_addr` into x5 and an instruction
// that uses x5: the user's cycles (1 + its wait) and the bus transactions.
std::pair<uint64_t, uint64_t> store_gap_load(unsigned gap, uint64_t store_addr, uint64_t load_addr) {
    TimingModel m(veer_dbus());
    EventBatch b;
    using C = isa::InsnClass;
    uint64_t pc = 0x1000;
    auto step = [&](const isa::RetiredInsn& i, const MemRef* r) {
        const uint64_t c = m.step(i, pc, 4, pc + 4, r, r ? 1 : 0, b);
        pc += 4;
        return c;
    };
    const MemRef st{store_addr, true, 4}, ld{load_addr, false, 4};
    step(op(C::store, 0, 6), &st);
    for (unsigned k = 1; k < gap; ++k) step(op(C::alu, 7, 7), nullptr);
    step(op(C::load, 5, 6), &ld);
    const uint64_t use = step(op(C::alu, 8, 5), nullptr);
    return {use, b.count(43)};
}

}  // namespace

TEST(TimingModel, VeerLoadBehindABufferedStore) {
    // Right behind the store: the store stays in the buffer, the read goes first: 1 + 4 cycles of wait.
    EXPECT_EQ(store_gap_load(1, 0x80100000, 0x80100020), std::make_pair(uint64_t{5}, uint64_t{2}));
    // 2 to 9 cycles behind: the load pushes the store out and its read goes a cycle after the write.
    for (unsigned gap = 2; gap <= 9; ++gap)
        EXPECT_EQ(store_gap_load(gap, 0x80100000, 0x80100020), std::make_pair(uint64_t{6}, uint64_t{2})) << gap;
    // 10 behind: the timer sent the store at 11, the read goes at 12 as it would.
    EXPECT_EQ(store_gap_load(10, 0x80100000, 0x80100020), std::make_pair(uint64_t{5}, uint64_t{2}));
    // The word just stored: its bytes come from the buffer, no read, no wait.
    for (unsigned gap : {1u, 4u, 10u})
        EXPECT_EQ(store_gap_load(gap, 0x80100000, 0x80100000), std::make_pair(uint64_t{1}, uint64_t{1})) << gap;
}

TEST(TimingModel, VeerStoresJoinAndLoadsShareTheirBeat) {
    TimingModel m(veer_dbus());
    EventBatch b;
    using C = isa::InsnClass;
    const MemRef bytes[] = {{0x80100100, true, 1}, {0x80100101, true, 1}, {0x80100102, true, 1}, {0x80100103, true, 1},
                            {0x80100104, true, 1}};
    uint64_t pc = 0x1000;
    auto at = [&](const isa::RetiredInsn& i, const MemRef& r) {
        m.step(i, pc, 4, pc + 4, &r, 1, b);
        pc += 4;
    };
    for (const MemRef& r : bytes) at(op(C::store, 0, 6), r);
    EXPECT_EQ(b.count(43), 2u);  // four bytes of one word, then the next word
    // A store after a load does not join the store before the load.
    const MemRef ld{0x80100200, false, 4}, st{0x80100104, true, 1};
    at(op(C::load, 5, 6), ld);
    at(op(C::store, 0, 6), st);
    EXPECT_EQ(b.count(43), 4u);
    // Two word loads of one 8-byte beat, one right after the other: one read; two cycles apart: two.
    for (unsigned apart : {1u, 2u}) {
        TimingModel n(veer_dbus());
        EventBatch c;
        const MemRef lo{0x80100300, false, 4}, hi{0x80100304, false, 4};
        n.step(op(C::load, 5, 6), 0x1000, 4, 0x1004, &lo, 1, c);
        if (apart == 2) n.step(op(C::alu, 7, 7), 0x1004, 4, 0x1008, nullptr, 0, c);
        n.step(op(C::load, 8, 6), 0x1008, 4, 0x100C, &hi, 1, c);
        EXPECT_EQ(c.count(43), apart) << apart;
    }
}

// VeeR EL2 (tests/veer-rtl/splitma, misaligned): only an access across a 32-bit word splits (split_bytes 4,
// el2_lsu.sv ldst_dual); the testbench's memory takes a read or a write every 2 cycles (dbus_cmd_gap), so the second
// command of a split access across two 64-bit beats waits a cycle (event 48), as does a read right behind another.
TEST(TimingModel, VeerOnlyAccessesAcrossAWordSplitAndBackToBackReadsWait) {
    TimingParams p = veer_dbus();
    p.split_bytes = 4;
    p.dbus_beat = 8;
    p.dbus_cmd_gap = 2;
    p.ev_dbus_busy = 48;
    p.ev_bus_misaligned = 44;
    p.bus_misaligned_load_penalty = 1;
    p.bus_misaligned_store_penalty = 0;
    TimingModel m(p);
    EventBatch b;
    using C = isa::InsnClass;
    auto step = [&](const isa::RetiredInsn& in, uint64_t addr, unsigned size, bool unaligned) {
        isa::RetiredInsn i = in;
        i.unaligned = unaligned;
        const MemRef r{addr, in.cls == C::store, size};
        return m.step(i, 0x200, 4, 0x204, &r, 1, b);
    };
    EXPECT_EQ(step(op(C::load, 5, 6), 0x80100001, 2, true), 1u);  // inside a word: one access, no hold
    EXPECT_EQ(b.count(44), 0u);
    // Nothing holds a split access (veer_dbus has no bus buffer: nothing waits at decode either); a split load's
    // value comes bus_misaligned_load_penalty (1) later per 64-bit beat it reads: its user issues 5 + 1 cycles after
    // it inside a beat, 5 + 2 across two.
    EXPECT_EQ(step(op(C::load, 5, 6), 0x80100003, 2, true), 1u);  // across a word, inside a beat
    EXPECT_EQ(m.step(op(C::alu, 8, 5), 0x200, 4, 0x204, nullptr, 0, b), 6u);
    EXPECT_EQ(b.count(48), 0u);                                    // one command (the halves merged)
    EXPECT_EQ(step(op(C::load, 5, 6), 0x80100007, 2, true), 1u);  // across two beats: two reads
    EXPECT_EQ(m.step(op(C::alu, 8, 5), 0x200, 4, 0x204, nullptr, 0, b), 7u);
    EXPECT_EQ(b.count(48), 1u);
    EXPECT_EQ(step(op(C::store, isa::no_reg, 6), 0x80100006, 4, true), 1u);  // two writes, nothing more
    EXPECT_EQ(b.count(48), 2u);
    EXPECT_EQ(b.count(44), 3u);
    // Two aligned loads of different beats a cycle apart: the second's read waits a cycle, and its value with it
    // (5 cycles of result latency and 1): its user issues 6 cycles after it.
    EXPECT_EQ(step(op(C::load, 5, 6), 0x80100100, 4, false), 1u);
    EXPECT_EQ(step(op(C::load, 7, 6), 0x80100108, 4, false), 1u);
    EXPECT_EQ(m.step(op(C::alu, 8, 7), 0x200, 4, 0x204, nullptr, 0, b), 6u);
    EXPECT_EQ(b.count(48), 3u);
    // The I-bus: a refill's 8 read commands one a cycle, each after the first waits a cycle (event 47).
    TimingParams q;
    q.l1i = small_cache();
    q.ibus_beat = 8;
    q.ibus_read_gap = 2;
    q.ev_ibus_busy = 47;
    TimingModel f(q);
    EventBatch fb;
    f.step(insn(C::alu), 0x1000, 4, 0x1004, nullptr, 0, fb);
    EXPECT_EQ(fb.count(47), 7u);
}

// VeeR EL2 (tests/veer-rtl/irq, hello_world): a store to a side-effect region over the bus gets no late-data slack
// (late_store_data_side_effect false). A bus load's value is ready 5 cycles after it issues (bus_load_latency); a
// store of it to cacheable memory needs it a cycle later (late_store_data 1) and takes 4 cycles (3 waiting), one to
// the side-effect mailbox (mrac: region 0xD side effect) 5.
TEST(TimingModel, VeerSideEffectStoresWaitForTheirData) {
    using C = isa::InsnClass;
    auto store_cycles = [](bool slack_for_side_effect, uint64_t store_addr) {
        TimingParams p;
        p.local_data = TimingParams::Region{0xF0040000u, 64 * 1024};
        p.bus_load_latency = 5;
        p.late_store_data = 1;
        p.late_store_data_side_effect = slack_for_side_effect;
        TimingModel m(p);
        m.set_mrac(0x1u << 16 | 0x2u << 26);  // region 8 cacheable, region 0xD side effect, the rest neither
        EventBatch b;
        const MemRef ld{0x80100000, false, 4}, st{store_addr, true, 4};
        m.step(op(C::load, 5, 6), 0x1000, 4, 0x1004, &ld, 1, b);
        return m.step(op(C::store, isa::no_reg, 5), 0x1004, 4, 0x1008, &st, 1, b);
    };
    EXPECT_EQ(store_cycles(false, 0x80100040), 4u);  // cacheable: the slack
    EXPECT_EQ(store_cycles(false, 0xD0580000), 5u);  // the mailbox: none
    EXPECT_EQ(store_cycles(true, 0xD0580000), 4u);   // the parameter's default keeps the slack
}

// VeeR EL2 (tests/veer-rtl/irq's first window): a taken branch back into the line still being refilled waits for the
// refill. A load at 0x4C0 misses (1 + 10 cycles), committing at cycle C; the branch after it (predicted taken:
// backward) 1 cycle; the load again, the branch's target, commits no sooner than C + 16 (fill_redirect_commit): at
// C + 1 it would commit at C + 2, so it waits 14 (15 cycles). The next time round the refill is long done: 1 cycle.
TEST(TimingModel, VeerRedirectIntoTheLineBeingRefilledWaits) {
    using C = isa::InsnClass;
    auto loop = [](unsigned wait) {
        TimingParams p;
        p.l1i = small_cache();  // 64-byte lines
        p.l1i_refill_penalty = 10;
        p.predictor.direction = PredictorConfig::Direction::btfn;
        p.fill_redirect_commit = wait;
        TimingModel m(p);
        EventBatch b;
        const uint8_t back = isa::br_immediate | isa::br_conditional | isa::br_taken;
        std::vector<uint64_t> v;
        for (int k = 0; k < 3; ++k) {
            v.push_back(m.step(op(C::load, 5, 6), 0x4C0, 4, 0x4C4, nullptr, 0, b));
            v.push_back(m.step(op(C::branch, isa::no_reg, 5, back), 0x4C4, 4, 0x4C0, nullptr, 0, b));
        }
        return v;
    };
    EXPECT_EQ(loop(16), (std::vector<uint64_t>{11, 1, 15, 1, 1, 1}));
    EXPECT_EQ(loop(0), (std::vector<uint64_t>{11, 1, 1, 1, 1, 1}));
}

// VeeR EL2 (tests/veer-rtl/bytecopy and splitma, fetch_trace.sh): a loop that starts in the line before the one being
// refilled and branches back from it enters the refilling line again sequentially, and waits for the refill as a
// redirect into it does (el2_ifu_mem_ctl.sv: the taken branch takes miss_state from STREAM to HIT_U_MISS, the fetch
// back into imb_ff's line misses there, ic_ignore_2nd_miss_f, and STALL_SCND_MISS holds it until the last beat).
// 0x4FC misses line 0x4C0 (1 + 10); 0x500 misses line 0x500 (1 + 10), committing at C; the branch at 0x504
// (backward, predicted taken) 1; 0x4FC hits (1); 0x500, one instruction later than the load again of
// VeerRedirectIntoTheLineBeingRefilledWaits, commits no sooner than C + 16: at C + 2 it would commit at C + 3, so it
// waits 13 (14 cycles). The next time round the refill is long done: 1 cycle each.
TEST(TimingModel, VeerSequentialReentryIntoTheLineBeingRefilledWaits) {
    using C = isa::InsnClass;
    auto loop = [](unsigned wait) {
        TimingParams p;
        p.l1i = small_cache();  // 64-byte lines
        p.l1i_refill_penalty = 10;
        p.predictor.direction = PredictorConfig::Direction::btfn;
        p.fill_redirect_commit = wait;
        TimingModel m(p);
        EventBatch b;
        const uint8_t back = isa::br_immediate | isa::br_conditional | isa::br_taken;
        std::vector<uint64_t> v;
        for (int k = 0; k < 2; ++k) {
            v.push_back(m.step(op(C::alu, 5, 6), 0x4FC, 4, 0x500, nullptr, 0, b));
            v.push_back(m.step(op(C::alu, 5, 6), 0x500, 4, 0x504, nullptr, 0, b));
            v.push_back(m.step(op(C::branch, isa::no_reg, 5, back), 0x504, 4, 0x4FC, nullptr, 0, b));
        }
        v.push_back(m.step(op(C::alu, 5, 6), 0x4FC, 4, 0x500, nullptr, 0, b));
        v.push_back(m.step(op(C::alu, 5, 6), 0x500, 4, 0x504, nullptr, 0, b));
        return v;
    };
    EXPECT_EQ(loop(16), (std::vector<uint64_t>{11, 11, 1, 1, 14, 1, 1, 1}));
    EXPECT_EQ(loop(0), (std::vector<uint64_t>{11, 11, 1, 1, 1, 1, 1, 1}));
}

// VeeR EL2 (tests/veer-rtl/unpred, fetch_trace.sh): the wait of a fetch entering the line being refilled anew counts
// from the commit of the instruction that refilled it, not its issue: unpred's c.j at 0x80001b32 misses behind the
// last refill (fill_next_miss: its critical word at cycle 193, 17 after the last one's) and commits at 195; its target
// 0x80001b34, in the same line, waits in WFM until the line is written and commits at 211, 16 after the c.j.
// Here: 0x4F8 misses line 0x4C0 (1 + 3, committing at A); 0x4FC hits (1, A + 1); 0x500 misses line 0x500 and waits
// for the last refill: commits at A + 17 (16 cycles); the branch at 0x504 back to 0x500 (predicted taken) 1; 0x500
// again commits no sooner than A + 17 + 16: 15 cycles. Counted from 0x500's issue (A + 1) the wait would be over.
TEST(TimingModel, VeerReentryWaitCountsFromTheRefillingCommit) {
    using C = isa::InsnClass;
    TimingParams p;
    p.l1i = small_cache();  // 64-byte lines
    p.l1i_refill_penalty = 3;
    p.predictor.direction = PredictorConfig::Direction::btfn;
    p.fill_next_miss = 17;
    p.fill_redirect_commit = 16;
    TimingModel m(p);
    EventBatch b;
    const uint8_t back = isa::br_immediate | isa::br_conditional | isa::br_taken;
    std::vector<uint64_t> v;
    for (uint64_t pc : {0x4F8u, 0x4FCu, 0x500u}) v.push_back(m.step(op(C::alu, 5, 6), pc, 4, pc + 4, nullptr, 0, b));
    v.push_back(m.step(op(C::branch, isa::no_reg, 5, back), 0x504, 4, 0x500, nullptr, 0, b));
    v.push_back(m.step(op(C::alu, 5, 6), 0x500, 4, 0x504, nullptr, 0, b));
    EXPECT_EQ(v, (std::vector<uint64_t>{4, 1, 16, 1, 15}));
}

// VeeR EL2's fetch buffer full holds the instruction back (tests/veer-rtl/splitma on fetch_trace.sh's copy of the RTL:
// the loop `sh` at 0x8000047e, `c.add`, `c.addi`, `bne` at 0x80000486 back to 0x8000047e, 5 cycles an iteration).
// Here the same shape: a 32-bit ALU instruction at 0x43e (the line's last halfword: fetched alone after the
// redirect, its upper half in the 0x440 fetch), 16-bit ones at 0x442 and 0x444, a 32-bit branch at 0x446 (its upper
// half in the 0x448 fetch) back to 0x43e, predicted taken: four fetches an iteration, 0x43e, 0x440, 0x444, 0x448,
// into 3 entries. Worked by hand, with the branch committing at E: the 0x444 and 0x448 entries are consumed at E,
// so the next 0x440 fetch comes no sooner than E and the instruction at 0x43e commits at E + 2; the 16-bit one at
// E + 3; 0x444 is fetched at E + 1 (its room, the 0x448 entry, made at E), the one there commits at E + 4; 0x448 is
// fetched at E + 2 (room: 0x43e's entry, consumed at E + 2), the branch commits at E + 5: 2, 1, 1, 1. Without the
// full buffer holding the instruction back, 1, 1, 1, 1. The same loop aligned (a 32-bit instruction at 0x43c, the
// branch at 0x444) is three fetches an iteration: 1, 1, 1, 1 either way.
TEST(TimingModel, VeerFullFetchBufferHoldsTheInstructionBack) {
    using C = isa::InsnClass;
    auto loop = [](uint64_t at) {
        TimingParams p;
        p.l1i = small_cache();  // 64-byte lines
        p.predictor.direction = PredictorConfig::Direction::btfn;
        p.fetch_bytes = 4;
        p.fetch_queue = 3;
        p.fetch_keeps_halfword = true;
        TimingModel m(p);
        EventBatch b;
        const uint8_t back = isa::br_immediate | isa::br_conditional | isa::br_taken;
        isa::RetiredInsn c16 = op(C::alu, 7, 8);
        c16.compressed = true;
        const uint64_t c1 = at + 4, c2 = at + 6, br = at + 8;
        std::vector<uint64_t> v;
        for (int k = 0; k < 6; ++k) {
            const uint64_t a = m.step(op(C::alu, 5, 6), at, 4, c1, nullptr, 0, b);
            const uint64_t x = m.step(c16, c1, 2, c2, nullptr, 0, b);
            const uint64_t y = m.step(c16, c2, 2, br, nullptr, 0, b);
            const uint64_t z = m.step(op(C::branch, isa::no_reg, 5, back), br, 4, at, nullptr, 0, b);
            if (k >= 3) v.insert(v.end(), {a, x, y, z});
        }
        return v;
    };
    EXPECT_EQ(loop(0x43e), (std::vector<uint64_t>{2, 1, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1}));
    EXPECT_EQ(loop(0x43c), (std::vector<uint64_t>{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
}

// VeeR EL2, the fetch buffer followed: an instruction that waits for its fetch goes to decode when its data come,
// and its result is that much later (the shared hello_world exec.log: the loop's `lb`, back into the line being
// refilled, commits 5 cycles after the `bne` before it and the `sb` of its byte 5 after it, waiting 4 at decode).
// A load at 0x1000 misses (1 + 3, issuing when its data come, 3 cycles in); its result 3 cycles after that; the ALU
// instruction using it, 4 cycles after the load began, waits 2 (3 cycles). Without the fetch buffer the load's
// result counts from its slot before the miss: ready by then, 1 cycle.
TEST(TimingModel, VeerInstructionWaitingForItsFetchHasItsResultLater) {
    using C = isa::InsnClass;
    auto run = [](unsigned queue) {
        TimingParams p;
        p.l1i = small_cache();  // 64-byte lines
        p.l1i_refill_penalty = 3;
        p.fetch_queue = queue;
        p.result_latency[static_cast<size_t>(C::load)] = 3;
        TimingModel m(p);
        EventBatch b;
        std::vector<uint64_t> v;
        v.push_back(m.step(op(C::load, 5, 6), 0x1000, 4, 0x1004, nullptr, 0, b));
        v.push_back(m.step(op(C::alu, 7, 5), 0x1004, 4, 0x1008, nullptr, 0, b));
        return v;
    };
    EXPECT_EQ(run(3), (std::vector<uint64_t>{4, 3}));
    EXPECT_EQ(run(0), (std::vector<uint64_t>{4, 1}));
}

// VeeR EL2 (tests/veer-rtl/irqpair, fetch_trace.sh): a miss while a refill's beats are still coming waits for them
// (el2_ifu_mem_ctl.sv, SCND_MISS). An ALU instruction at 0x4F8 misses (1 + 10 cycles), committing at T; the next at
// 0x4FC hits (1, T + 1); the one at 0x500 misses the next line: 1 + 10 would commit it at T + 12, fill_next_miss 17
// holds it to T + 17: 16 cycles. Without the rule 11.
TEST(TimingModel, VeerMissWhileARefillIsUnderWayWaitsForIt) {
    using C = isa::InsnClass;
    auto run = [](unsigned next_miss) {
        TimingParams p;
        p.l1i = small_cache();  // 64-byte lines
        p.l1i_refill_penalty = 10;
        p.fill_next_miss = next_miss;
        TimingModel m(p);
        EventBatch b;
        std::vector<uint64_t> v;
        for (uint64_t pc : {0x4F8u, 0x4FCu, 0x500u, 0x504u}) v.push_back(m.step(op(C::alu, 5, 6), pc, 4, pc + 4, nullptr, 0, b));
        return v;
    };
    EXPECT_EQ(run(17), (std::vector<uint64_t>{11, 1, 16, 1}));
    EXPECT_EQ(run(0), (std::vector<uint64_t>{11, 1, 11, 1}));
}

// VeeR EL2: an I-cache miss starts when the fetch reaches the line, as soon as the fetch buffer has room, not when the
// instruction before it commits (el2_ifu_ifc_ctl.sv: fetch goes on while fb_full_f is clear; tests/veer-rtl/ic_trap_u's
// first window). Worked by hand with the buffer's rules (3 entries, an entry free when its instruction goes to decode,
// a fetch a cycle after the last): alu 0x4F0 misses line 0x4C0 (1 + 10: decode at 10, fetched 8); alu 0x4F4 (decode
// 11, fetched 9); a mul of 1 + extra cycles at 0x4F8 (decode 12, fetched 10); alu 0x4FC (decode 12 + 1 + extra,
// fetched 11, the entry of 0x4F0 free at 10). 0x500 is fetched at 12 (the entry of 0x4F4 free at 11): its data
// comes at 22 and it goes to decode no sooner than 24. Behind a mul of 21 cycles (0x4FC at decode at 33) the miss is
// hidden (1 cycle); behind one of 6 (0x4FC at 18) 5 of its 10 cycles are (decode at 24: 6 cycles). Event 28 counts
// the 10 cycles the fetch waits for the line either way (WFM). Without the fetch buffer the miss costs 1 + 10.
TEST(TimingModel, VeerMissStartsWhenTheFetchReachesTheLine) {
    using C = isa::InsnClass;
    auto run = [](uint16_t mul_extra, unsigned queue, uint64_t* stalls) {
        TimingParams p;
        p.l1i = small_cache();  // 64-byte lines
        p.l1i_refill_penalty = 10;
        p.fetch_bytes = 4;
        p.fetch_queue = queue;
        p.ev_fetch_stall = 28;
        p.class_extra[static_cast<size_t>(C::mul)] = mul_extra;
        TimingModel m(p);
        std::vector<uint64_t> v;
        const std::pair<uint64_t, C> insns[] = {{0x4F0, C::alu}, {0x4F4, C::alu}, {0x4F8, C::mul}, {0x4FC, C::alu}, {0x500, C::alu}};
        for (const auto& [pc, cls] : insns) {
            EventBatch b;
            v.push_back(m.step(op(cls, 5, 6), pc, 4, pc + 4, nullptr, 0, b));
            *stalls = b.count(28);
        }
        return v;
    };
    uint64_t stalls = 0;
    EXPECT_EQ(run(20, 3, &stalls), (std::vector<uint64_t>{11, 1, 21, 1, 1}));
    EXPECT_EQ(stalls, 10u);
    EXPECT_EQ(run(5, 3, &stalls), (std::vector<uint64_t>{11, 1, 6, 1, 6}));
    EXPECT_EQ(stalls, 10u);
    EXPECT_EQ(run(20, 0, &stalls), (std::vector<uint64_t>{11, 1, 21, 1, 11}));
}

// VeeR EL2: a 32-bit instruction at a line's last halfword needs the next line too (el2_ifu_aln_ctl.sv takes its
// upper half from the next fetch): its miss is that instruction's. A compressed one at 0x4FC misses (1 + 10); the
// 32-bit one at 0x4FE misses line 0x500 (1 + 10); the one at 0x502 lies in a line already fetched (1). Event 3 counts
// a refill at each of the first two. Where fetch granules are not followed (fetch_bytes 0) the miss falls on 0x502.
TEST(TimingModel, VeerInstructionAcrossALineFetchesBothLines) {
    using C = isa::InsnClass;
    auto run = [](unsigned fetch_bytes, std::vector<uint64_t>* refills) {
        TimingParams p;
        p.l1i = small_cache();  // 64-byte lines
        p.l1i_refill_penalty = 10;
        p.fetch_bytes = fetch_bytes;
        p.ev_l1i_refill = 3;
        TimingModel m(p);
        std::vector<uint64_t> v;
        const std::pair<uint64_t, unsigned> insns[] = {{0x4FC, 2}, {0x4FE, 4}, {0x502, 4}};
        for (const auto& [pc, size] : insns) {
            EventBatch b;
            v.push_back(m.step(op(C::alu, 5, 6), pc, size, pc + size, nullptr, 0, b));
            refills->push_back(b.count(3));
        }
        return v;
    };
    std::vector<uint64_t> refills;
    EXPECT_EQ(run(4, &refills), (std::vector<uint64_t>{11, 11, 1}));
    EXPECT_EQ(refills, (std::vector<uint64_t>{1, 1, 0}));
    refills.clear();
    EXPECT_EQ(run(0, &refills), (std::vector<uint64_t>{11, 1, 11}));
    EXPECT_EQ(refills, (std::vector<uint64_t>{1, 0, 1}));
}

// The block timing's groups of predictions (TimingModel::predict_body) are keyed by where the branches go as well as
// by the predictor's state: from one state, a body whose tail jumps elsewhere than the BTB says, or whose last
// branch goes elsewhere (set_after), is predicted anew, as the reference (the predictor without its memo) predicts
// it. The jumps are direct JALs (VeeR EL2's kind "jump"): one to another target than its BTB entry's is a branch
// error (BranchPredictor::veer), a flush and a misprediction (event 25).
TEST(BlockTiming, PredictionGroupsAreKeyedByWhereTheBranchesGo) {
    const auto params = platform_timing("veer-el2");
    ASSERT_TRUE(params.has_value());
    isa::RetiredInsn alu, jal;
    jal.cls = isa::InsnClass::jump;
    jal.branch = isa::br_immediate | isa::br_taken;
    const uint8_t n_mem[3] = {0, 0, 0};
    auto mispredicts_after = [&](TimingModel& tm, BlockMemo& m, const BlockTail* t) {
        EventBatch b;
        if (t) tm.step_block(m, nullptr, n_mem, *t, b);
        else tm.step_block(m, nullptr, n_mem, b);
        return b.count(params->ev_mispredict);
    };
    // A body of two ALU instructions with a JAL as its tail, to 0x2000 until the last execution, to 0x3000 then.
    {
        BlockMemo m({alu, alu}, {0x1000, 0x1004}, {4, 4});
        m.set_tail(jal, 0x1008, 4);
        TimingModel tm(*params);
        tm.predictor().set_memo(true);
        const BlockTail to_2000{&jal, 0x1008, 4, 0x2000, nullptr, 0}, to_3000{&jal, 0x1008, 4, 0x3000, nullptr, 0};
        for (int i = 0; i < 6; ++i) mispredicts_after(tm, m, &to_2000);
        TimingModel again = tm, reference = tm;
        reference.predictor().set_memo(false);
        EXPECT_EQ(mispredicts_after(tm, m, &to_2000), 0u);  // in the BTB with this target: a group kept for the state
        EXPECT_EQ(mispredicts_after(reference, m, &to_3000), 1u);
        EXPECT_EQ(mispredicts_after(again, m, &to_3000), 1u);
        EXPECT_TRUE(again.predictor().same_state(reference.predictor()));
    }
    // A body of an ALU instruction and a JAL that ends it (no tail), the JAL going where set_after says.
    {
        BlockMemo m({alu, jal}, {0x1000, 0x1004}, {4, 4});
        m.set_after(0x2000);
        TimingModel tm(*params);
        tm.predictor().set_memo(true);
        for (int i = 0; i < 6; ++i) mispredicts_after(tm, m, nullptr);
        TimingModel again = tm, reference = tm;
        reference.predictor().set_memo(false);
        EXPECT_EQ(mispredicts_after(tm, m, nullptr), 0u);
        m.set_after(0x3000);
        EXPECT_EQ(mispredicts_after(reference, m, nullptr), 1u);
        EXPECT_EQ(mispredicts_after(again, m, nullptr), 1u);
        EXPECT_TRUE(again.predictor().same_state(reference.predictor()));
    }
}

// A random instruction stream (the tests of repeated stretches below): each instruction with its accesses, its
// address and its successor's.
struct RandomStream {
    std::vector<std::pair<isa::RetiredInsn, std::vector<MemRef>>> insns;
    std::vector<uint64_t> pcs, next;
    // `i` at `pc`, a conditional branch taken 2 times in 3 to one of 256 instructions from `code`; `pc` becomes
    // its successor's.
    template <class Rnd>
    void add(isa::RetiredInsn i, std::vector<MemRef> mem, uint64_t& pc, uint64_t code, Rnd& rnd) {
        uint64_t to = pc + 4;
        if (i.cls == isa::InsnClass::branch) {
            const bool taken = rnd(3) != 0;
            i.branch = static_cast<uint8_t>(isa::br_immediate | isa::br_conditional | (taken ? isa::br_taken : 0));
            if (taken) to = code + 4 * rnd(256);
        }
        insns.emplace_back(i, std::move(mem));
        pcs.push_back(pc);
        next.push_back(to);
        pc = to;
    }
};

// A model moved on in time by skip_loop (repeated stretches, model/timing/loop_state.cpp) must time what follows as
// the model it was copied from, shifted: the same cycles and events for every instruction, and the same state words
// after each. Random streams (ALU, multiplies, divisions, fences and CSR accesses, loads and stores near and far,
// branches taken and not, register dependences) on every platform with a timing model, moved on by a million cycles at points where the
// state can be put in words; a time field the walk leaves out, or judges differently when moving it, fails it.
TEST(TimingModel, StateMovedOnInTimeTimesTheSameShifted) {
    using C = isa::InsnClass;
    for (const char* platform : {"veer-el2", "cortex-a53", "cortex-a7", "arm1176"}) {
        const auto params = platform_timing(platform);
        ASSERT_TRUE(params) << platform;
        std::mt19937 rng(7);
        auto rnd = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
        const uint64_t code = std::string(platform) == "veer-el2" ? 0x80000000u : 0x10000u;
        const uint64_t data = std::string(platform) == "veer-el2" ? 0xF0040000u : 0x20000000u;
        TimingModel a(*params);
        uint64_t pc = code;
        unsigned moved = 0;
        for (unsigned round = 0; round < 40; ++round) {
            // A stretch on the original alone, then a copy moved on, then both through the same instructions.
            RandomStream stream;
            for (unsigned k = 0; k < 400; ++k) {
                isa::RetiredInsn i;
                const uint32_t r = rnd(100);
                i.cls = r < 40   ? C::alu
                        : r < 55 ? C::load
                        : r < 65 ? C::store
                        : r < 70 ? C::mul
                        : r < 73 ? C::div
                        : r < 75 ? C::fence
                        : r < 77 ? C::csr_write
                        : r < 78 ? C::csr_read
                        : r < 79 ? C::csr_read_write
                                 : C::branch;
                i.regs.src = (1u << (1 + rnd(8))) | (rnd(2) ? 1u << (1 + rnd(8)) : 0u);
                i.regs.dst = i.cls == C::store || i.cls == C::branch || i.cls == C::fence ? 0u : 1u << (1 + rnd(8));
                std::vector<MemRef> mem;
                if (i.cls == C::load || i.cls == C::store) {
                    i.regs.addr = 1u << (1 + rnd(8));
                    i.regs.src |= i.regs.addr;
                    mem.push_back({data + 4 * rnd(rnd(10) ? 64 : 4096) + (rnd(20) ? 0u : 0x10000000u), i.cls == C::store, 4});
                }
                stream.add(i, std::move(mem), pc, code, rnd);
            }
            EventBatch ea, eb;
            auto step = [&](TimingModel& m, size_t k, EventBatch& b) {
                const auto& [i, mem] = stream.insns[k];
                return m.step(i, stream.pcs[k], 4, stream.next[k], mem.data(), static_cast<unsigned>(mem.size()), b);
            };
            for (size_t k = 0; k < 200; ++k) step(a, k, ea);
            std::vector<uint64_t> words;
            if (!a.loop_state(words)) continue;  // the D-bus buffer holds a store, say: no move here
            ++moved;
            TimingModel b = a;
            TimingModel::LoopMarks from = a.loop_marks(), to = from;
            to.now += 1000003;
            b.skip_loop(from, to);
            std::vector<uint64_t> wb;
            ASSERT_TRUE(b.loop_state(wb)) << platform;
            EXPECT_EQ(words, wb) << platform << " round " << round;
            for (size_t k = 200; k < stream.insns.size(); ++k) {
                EventBatch xa, xb;
                ASSERT_EQ(step(a, k, xa), step(b, k, xb)) << platform << " round " << round << " instruction " << k;
                auto counts = [](const EventBatch& e) {
                    std::vector<std::pair<uint32_t, uint64_t>> v;
                    for (const auto& c : e.events) v.emplace_back(c.event, c.count);
                    return v;
                };
                EXPECT_EQ(counts(xa), counts(xb)) << platform << " round " << round << " instruction " << k;
                std::vector<uint64_t> sa, sb;
                const bool ka = a.loop_state(sa), kb = b.loop_state(sb);
                ASSERT_EQ(ka, kb) << platform << " round " << round << " instruction " << k;
                if (ka) {
                    ASSERT_EQ(sa, sb) << platform << " round " << round << " instruction " << k;
                }
            }
        }
        EXPECT_GT(moved, 10u) << platform;
    }
}

// A stretch that walks through memory (TimingModel::shift_invariant, loop_state's addresses, skip_loop's shift):
// on VeeR EL2, which has no data cache, a copy moved on in time whose data addresses are moved by d must time a
// stream whose addresses are moved by d as the original times the stream itself, and give the same state words with
// the addresses moved by d. Random streams as above, DCCM and bus accesses mixed, d a multiple of 16 that keeps
// every address's kind; a rule of step() that reads an address beyond what the shift keeps (a word's bits 1:0,
// the beat, the region), or an address the walk leaves unmoved, fails it.
TEST(TimingModel, StateWithAddressesMovedTimesTheSameMovedStream) {
    using C = isa::InsnClass;
    const auto params = platform_timing("veer-el2");
    ASSERT_TRUE(params);
    const uint64_t code = 0x80000000u, dccm = 0xF0040000u, bus = 0x20000000u;
    TimingModel a(*params);
    ASSERT_TRUE(a.shift_invariant());
    EXPECT_FALSE(TimingModel(*platform_timing("cortex-a53")).shift_invariant());  // a data cache: addresses matter
    std::mt19937 rng(11);
    auto rnd = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
    uint64_t pc = code;
    unsigned moved = 0, with_addresses = 0;
    for (unsigned round = 0; round < 60; ++round) {
        RandomStream stream;
        for (unsigned k = 0; k < 300; ++k) {
            isa::RetiredInsn i;
            const uint32_t r = rnd(100);
            i.cls = r < 35 ? C::alu : r < 60 ? C::load : r < 85 ? C::store : r < 90 ? C::mul : C::branch;
            i.regs.src = (1u << (1 + rnd(8))) | (rnd(2) ? 1u << (1 + rnd(8)) : 0u);
            i.regs.dst = i.cls == C::store || i.cls == C::branch ? 0u : 1u << (1 + rnd(8));
            std::vector<MemRef> mem;
            if (i.cls == C::load || i.cls == C::store) {
                i.regs.addr = 1u << (1 + rnd(8));
                i.regs.src |= i.regs.addr;
                // Words and halfwords, a few words apart (the LSU buffers' words and banks, the D-bus's beats).
                const unsigned size = rnd(4) ? 4u : 2u;
                const uint64_t at = (rnd(2) ? dccm : bus) + 0x100 + size * rnd(12);
                mem.push_back({at, i.cls == C::store, static_cast<uint8_t>(size)});
            }
            stream.add(i, std::move(mem), pc, code, rnd);
        }
        EventBatch ea;
        auto step = [&](TimingModel& m, size_t k, uint64_t d, EventBatch& b) {
            auto mem = stream.insns[k].second;
            for (MemRef& x : mem) x.addr += d;
            return m.step(stream.insns[k].first, stream.pcs[k], 4, stream.next[k], mem.data(), static_cast<unsigned>(mem.size()), b);
        };
        // Moved at the first instruction from the 150th where the state can be put in words (not while the D-bus
        // buffer holds a store, say).
        size_t split = 0;
        for (; split < 150; ++split) step(a, split, 0, ea);
        std::vector<uint64_t> words, addrs;
        for (; split < 250 && !a.loop_state(words, &addrs); ++split) {
            words.clear();
            addrs.clear();
            step(a, split, 0, ea);
        }
        if (split == 250) continue;
        ++moved;
        with_addresses += !addrs.empty();
        const uint64_t d = TimingModel::loop_shift_unit * (1 + rnd(64));
        TimingModel b = a;
        TimingModel::LoopMarks from = a.loop_marks(), to = from;
        to.now += 1000003;
        b.skip_loop(from, to, d);
        std::vector<uint64_t> wb, ab;
        ASSERT_TRUE(b.loop_state(wb, &ab));
        EXPECT_EQ(words, wb) << "round " << round;
        ASSERT_EQ(addrs.size(), ab.size()) << "round " << round;
        for (size_t j = 0; j < addrs.size(); ++j) EXPECT_EQ(ab[j], addrs[j] + d) << "round " << round;
        for (size_t k = split; k < stream.insns.size(); ++k) {
            EventBatch xa, xb;
            ASSERT_EQ(step(a, k, 0, xa), step(b, k, d, xb)) << "round " << round << " instruction " << k;
            auto counts = [](const EventBatch& e) {
                std::vector<std::pair<uint32_t, uint64_t>> v;
                for (const auto& c : e.events) v.emplace_back(c.event, c.count);
                return v;
            };
            EXPECT_EQ(counts(xa), counts(xb)) << "round " << round << " instruction " << k;
            std::vector<uint64_t> sa, sb, aa, abb;
            const bool ka = a.loop_state(sa, &aa), kb = b.loop_state(sb, &abb);
            ASSERT_EQ(ka, kb) << "round " << round << " instruction " << k;
            if (ka) {
                ASSERT_EQ(sa, sb) << "round " << round << " instruction " << k;
                ASSERT_EQ(aa.size(), abb.size()) << "round " << round << " instruction " << k;
                for (size_t j = 0; j < aa.size(); ++j) ASSERT_EQ(abb[j], aa[j] + d) << "round " << round << " instruction " << k;
            }
        }
    }
    EXPECT_GT(moved, 10u);
    EXPECT_GT(with_addresses, 5u);  // states that hold addresses were moved, not only empty buffers
}

// One state, one list of its fields (STYLE.md 12): PipelineState::visit names every member of the state and of its
// nested structs once, each array element once. A member added without a visit() line changes member_count and
// fails here; the visitor counts what visit() names.
namespace {
struct FieldCounter {
    size_t fields = 0, nested_fields = 0;
    template <class T>
    void operator()(const T&, timing::FieldKind, bool) {
        ++fields;
    }
    template <class N>
    void nested(const N& n) {
        N::visit(n, [&](const auto&, timing::FieldKind, bool) { ++nested_fields; });
        ++fields;
    }
};
struct AllLive {
    bool ready(uint64_t) const { return true; }
    bool addr(uint64_t) const { return true; }
    bool divider(uint64_t) const { return true; }
    bool postsync(uint64_t) const { return true; }
    bool lsu_busy(uint64_t) const { return true; }
    bool stm_lock(uint64_t) const { return true; }
    bool csr_write(uint64_t) const { return true; }
    bool fill_at(uint64_t) const { return true; }
    bool fill_start(uint64_t) const { return true; }
    bool fill_data(uint64_t) const { return true; }
    bool mie_on(uint64_t) const { return true; }
    bool queue() const { return true; }
    bool fetched(uint64_t) const { return true; }
    bool lsu_followed() const { return true; }
};
}  // namespace

TEST(PipelineState, VisitNamesEveryField) {
    PipelineState s;
    FieldCounter c;
    PipelineState::visit(s, c, AllLive{});
    // The arrays are visited element by element: ready (32), addr_ready (32) and fetched (4) count as one member
    // each.
    EXPECT_EQ(c.fields - (s.ready.size() - 1) - (s.addr_ready.size() - 1) - (s.fetched.size() - 1), member_count<PipelineState>());
    EXPECT_EQ(c.nested_fields, member_count<DbusState>() + member_count<StepInputs>());
    // The counts themselves, worked out from the struct declarations: a member_count that counted wrong would
    // let both sides agree on nothing.
    EXPECT_EQ(member_count<DbusState>(), 11u);
    EXPECT_EQ(member_count<StepInputs>(), 10u);  // resume, killed_kind, killed_size, killed_next: an interrupt entry
}

// The ARM rules' parameters (ArmRuleParams): visit() names each member once (23, counted from the declaration),
// each under a key of its own, and a model picks the kernel with the ARM rules (needs_arm_rules) as soon as any one of
// them leaves its default, one array element alone included: VeeR EL2's parameters, which set none of them (its
// platform's timing, timing_params.cpp), take the kernel without them, and each one set on top of them takes the one
// with them. The fields are set by visiting, so a parameter added to the group is tried here too.
namespace {
// Sets the `target`-th value visit() names (an array's elements one by one) off its default; counts the values.
struct SetOneValue {
    explicit SetOneValue(size_t t) : target(t) {}
    size_t target, seen = 0;
    std::string key;
    void operator()(const char* k, unsigned& v, unsigned = 0) { hit(k, [&] { v += 1; }); }
    void operator()(const char* k, bool& v) { hit(k, [&] { v = !v; }); }
    template <class A>
    void per_class(const char* k, A& a) {
        for (auto& x : a) hit(k, [&] { x = static_cast<std::decay_t<decltype(x)>>(x + 1); });
    }
    // An optional is one value: present or not (a region of 0 bytes at 0 where there was none).
    template <class T, class F>
    void optional(const char* k, std::optional<T>& o, F) {
        hit(k, [&] { o = o ? std::optional<T>{} : std::optional<T>{T{}}; });
    }
    template <class F>
    void hit(const char* k, F set) {
        if (seen++ == target) {
            set();
            key = k;
        }
    }
};
// Hands each field a parameter group's visit() names, and its key, to f.
struct GroupNames {
    std::function<void(const char*, const void*)> f;
    void operator()(const char* k, const unsigned& v, unsigned = 0) { f(k, &v); }
    void operator()(const char* k, const bool& v) { f(k, &v); }
    template <class A>
    void per_class(const char* k, const A& a) {
        f(k, &a);
    }
    template <class T, class F>
    void optional(const char* k, const std::optional<T>& o, F) {
        f(k, &o);
    }
};
// The group G's visit() names each of its `members` members once, each under a key of its own.
template <class G>
void expect_visit_names_each_member_once(size_t members) {
    G p;
    std::set<const void*> fields;
    std::set<std::string> keys;
    size_t n = 0;
    G::visit(p, GroupNames{[&](const char* k, const void* f) { ++n, fields.insert(f), keys.insert(k); }});
    EXPECT_EQ(member_count<G>(), members);
    EXPECT_EQ(n, member_count<G>());
    EXPECT_EQ(fields.size(), n);
    EXPECT_EQ(keys.size(), n);
}
// The group G's `values` values (SetOneValue's), each set off its default on `base` alone, make `needs` true.
template <class G, class Needs>
void expect_each_value_turns_on(const TimingParams& base, Needs needs, size_t values) {
    SetOneValue count(~size_t{0});
    TimingParams t = base;
    G::visit(t, count);
    ASSERT_EQ(count.seen, values);
    for (size_t k = 0; k < count.seen; ++k) {
        TimingParams p = base;
        SetOneValue one(k);
        G::visit(p, one);
        EXPECT_TRUE(needs(p)) << one.key << " (value " << k << ")";
    }
}
}  // namespace

TEST(ArmRuleParams, VisitNamesEveryField) { expect_visit_names_each_member_once<ArmRuleParams>(23); }

TEST(ArmRuleParams, EachTurnsTheArmKernelOn) {
    const TimingParams veer = *platform_timing("veer-el2");
    EXPECT_FALSE(TimingModel::needs_arm_rules(veer));
    EXPECT_FALSE(TimingModel::needs_arm_rules(TimingParams{}));
    EXPECT_TRUE(TimingModel::needs_arm_rules(*platform_timing("arm1176")));  // early_address 1 (ARM1176 Early Regs)
    // 22 scalars and address_latency's element per class.
    expect_each_value_turns_on<ArmRuleParams>(veer, TimingModel::needs_arm_rules, 22u + class_count);
}

// The ARM rules' kernels (model/timing/arm_rules.hpp, TimingModel::arm_kernel): each ArmRuleParams value, set alone
// off its default (on no core, on the Cortex-A53's and on VeeR EL2's parameters), turns on the rule that reads it
// (the table below, from the rules in step_issue.hpp and step.cpp), and the model takes a kernel that holds every
// rule its parameters turn on. The Cortex-A53 and A7 take the Cortex kernel, without the ARM11's and Cortex-A8's
// rules; ARM11 and the Cortex-A8 the kernel with all; VeeR EL2 none.
TEST(ArmRules, EachParameterTurnsItsRuleOn) {
    const std::map<std::string, ArmRule> rule_of = {
        {"address_latency", rule_early_address},     {"early_address", rule_early_address},
        {"late_store_data", rule_late_store},        {"dual_issue", rule_dual_issue},
        {"shifted_operand_early", rule_shifted_early}, {"extend_in_shifter", rule_shifted_early},
        {"single_shift_register", rule_dual_issue},  {"shift_register_extra", rule_shift_register},
        {"extract_second_slot", rule_dual_issue},    {"mul_operand_early", rule_mul_early},
        {"short_mul_latency", rule_mul_cycles},      {"long_mul_extra", rule_mul_cycles},
        {"mul_hi_latency", rule_mul_cycles},         {"mul_flags_extra", rule_mul_cycles},
        {"offset_shift_extra", rule_offset_shift},   {"load_multiple_bytes", rule_multiple_cycles},
        {"store_multiple_bytes", rule_multiple_cycles}, {"multiple_last_slot", rule_multiple_cycles},
        {"multiple_holds_lsu", rule_holds_lsu},      {"multiple_write_lock", rule_write_lock},
        {"load_pc_latency_extra", rule_load_pc},     {"mispredict_flag_window", rule_flag_window},
        {"taken_extra", rule_taken_bubble},
    };
    const TimingParams a53 = *platform_timing("cortex-a53"), veer = *platform_timing("veer-el2");
    for (const TimingParams* base : {&a53, &veer}) {
        SetOneValue count(~size_t{0});
        TimingParams t = *base;
        ArmRuleParams::visit(t, count);
        ASSERT_EQ(count.seen, 22u + class_count);
        for (size_t k = 0; k < count.seen; ++k) {
            TimingParams p = TimingParams{}, q = *base;
            SetOneValue one(k), same(k);
            ArmRuleParams::visit(p, one);
            ArmRuleParams::visit(q, same);
            ASSERT_EQ(rule_of.count(one.key), 1u) << one.key;
            const ArmRule r = rule_of.at(one.key);
            EXPECT_EQ(arm_rules_used(p), static_cast<ArmRules>(r)) << one.key;
            EXPECT_TRUE(has_rule(TimingModel::arm_kernel(p), r)) << one.key;
            // On a core's parameters: the kernel holds every rule they turn on, this one's included.
            const ArmRules used = arm_rules_used(q), kernel = TimingModel::arm_kernel(q);
            EXPECT_EQ(used & kernel, used) << one.key;
        }
    }
    auto kernel_of = [](const char* core) { return TimingModel::arm_kernel(*platform_timing(core)); };
    EXPECT_EQ(kernel_of("cortex-a53"), arm_rules_cortex);
    EXPECT_EQ(kernel_of("cortex-a7"), arm_rules_cortex);
    EXPECT_EQ(kernel_of("arm1176"), arm_rules_all);
    EXPECT_EQ(kernel_of("arm1156"), arm_rules_all);
    EXPECT_EQ(kernel_of("cortex-a8"), arm_rules_all);  // offset_shift_extra
    EXPECT_EQ(kernel_of("veer-el2"), arm_rules_none);
    // The Cortex kernel lacks the ARM11's and Cortex-A8's rules: an A53 with any of them takes the kernel with all.
    for (const ArmRule r : {rule_late_store, rule_shift_register, rule_mul_cycles, rule_mul_early, rule_offset_shift,
                            rule_write_lock, rule_holds_lsu, rule_load_pc, rule_flag_window})
        EXPECT_FALSE(has_rule(arm_rules_cortex, r)) << r;
    TimingParams with_lock = a53;
    with_lock.multiple_write_lock = true;
    EXPECT_EQ(TimingModel::arm_kernel(with_lock), arm_rules_all);
}

// VeeR EL2's mechanisms' parameters (FullStepParams): visit() names each member once (17, counted from the
// declaration), each under a key of its own, and a model takes the full step (needs_full_step) as soon as any one of
// them leaves its default: Cortex-A53's parameters, which set none of them (its platform's timing,
// timing_params.cpp), take the lean step, and each one changed on top of them takes the full one, the one default
// that is true (late_store_data_side_effect) set false and a region (local_data, local_code) given where there was
// none. The fields are set by visiting, so a parameter added to the group is tried here too.
TEST(FullStepParams, VisitNamesEveryField) { expect_visit_names_each_member_once<FullStepParams>(17); }

TEST(FullStepParams, EachTurnsTheFullStepOn) {
    const TimingParams a53 = *platform_timing("cortex-a53");
    EXPECT_FALSE(TimingModel::needs_full_step(a53));
    EXPECT_FALSE(TimingModel::needs_full_step(TimingParams{}));
    EXPECT_TRUE(TimingModel::needs_full_step(*platform_timing("veer-el2")));  // its DCCM, ICCM, fetch buffer, ...
    // 15 scalars and the two regions, one value each (present or not).
    expect_each_value_turns_on<FullStepParams>(a53, TimingModel::needs_full_step, 17);
}

// The branch predictor's scalars (BranchPredictor::Scalars): visit() names each member once (13, counted from the
// declaration), and operator==, written from it, tells two states apart by any one of them.
TEST(BranchPredictor, ScalarsVisitNamesEveryField) {
    using Scalars = timing::BranchPredictor::Scalars;
    Scalars s;
    std::set<const void*> seen;
    size_t n = 0;
    Scalars::visit([&](const auto& f) { seen.insert(&f), ++n; }, s);
    EXPECT_EQ(member_count<Scalars>(), 13u);
    EXPECT_EQ(n, member_count<Scalars>());
    EXPECT_EQ(seen.size(), n);
    for (size_t k = 0; k < n; ++k) {
        Scalars a, b;
        size_t i = 0;
        Scalars::visit([&](auto&, auto& y) {
            if (i++ == k) y = !y;  // this field alone differs (0 and ~0 both become another value)
        }, a, b);
        EXPECT_FALSE(a == b) << "field " << k;
        EXPECT_TRUE(a == a);
    }
}

// Every field visit() names (so every member: VisitNamesEveryField) is in body_key_fields, the list of how the block
// timing's key covers the state (body_key_fields.hpp), and every entry of that list is such a field: a field added
// to the state and its visit() but not weighed for the key fails here.
// The place in the state of each field visit() names (a nested struct as one).
struct FieldOffsets {
    const void* base;
    std::vector<size_t> at;
    void add(const void* f) { at.push_back(static_cast<size_t>(static_cast<const char*>(f) - static_cast<const char*>(base))); }
    template <class T>
    void operator()(const T& f, timing::FieldKind, bool) {
        add(&f);
    }
    template <class N>
    void nested(const N& n) {
        add(&n);
    }
};
TEST(BlockTiming, KeyNamesEveryStateField) {
    PipelineState s;
    FieldOffsets v{&s, {}};
    PipelineState::visit(s, v, AllLive{});
    std::vector<unsigned> hits(std::size(timing::body_key_fields), 0);
    for (const size_t off : v.at) {
        size_t i = 0;
        while (i < hits.size() && !(off >= timing::body_key_fields[i].offset &&
                                    off < timing::body_key_fields[i].offset + timing::body_key_fields[i].size))
            ++i;
        ASSERT_LT(i, hits.size()) << "a visited field at offset " << off << " is not in body_key_fields";
        ++hits[i];
    }
    // Each entry once, the arrays once per element: ready and addr_ready 32 each, fetched 4.
    for (size_t i = 0; i < hits.size(); ++i) {
        const timing::KeyedField& k = timing::body_key_fields[i];
        const bool regs = k.offset == offsetof(PipelineState, ready) || k.offset == offsetof(PipelineState, addr_ready);
        EXPECT_EQ(hits[i], regs ? 32u : k.offset == offsetof(PipelineState, fetched) ? 4u : 1u) << k.how;
    }
}

// The block timing's key policy (key_policy.hpp), from its definition: 8 misses in a row, then 16 executions
// stepped without a key; the back-off doubles while the misses go on (16, 32, ... up to 1024), a hit sets it back.
TEST(BlockTiming, KeyPolicyBacksOffWhileRecordingsMiss) {
    KeyPolicy p;
    auto misses_then_skipped = [&](unsigned misses) {
        for (unsigned i = 0; i < misses; ++i) {
            EXPECT_TRUE(p.try_key());
            p.miss();
        }
        unsigned skipped = 0;
        while (!p.try_key()) ++skipped;
        return skipped;
    };
    EXPECT_EQ(misses_then_skipped(7), 0u);  // 7 misses: still keyed
    p.miss();                               // the 8th (the try_key above was the 8th execution)
    unsigned skipped = 0;
    while (!p.try_key()) ++skipped;
    EXPECT_EQ(skipped, 16u);
    EXPECT_EQ(misses_then_skipped(8), 32u);
    EXPECT_EQ(misses_then_skipped(8), 64u);
    p.hit();
    EXPECT_EQ(misses_then_skipped(8), 16u);
    for (int k = 0; k < 10; ++k) misses_then_skipped(8);
    EXPECT_EQ(misses_then_skipped(8), 1024u);
}

// A miss weighs two hits (key_policy.hpp): a body whose executions alternate between a miss and a hit runs up a debt
// of one per pair, 2 after its first miss, 16 after its 15th: then 16 executions stepped, and, the misses still
// outweighing the hits (no hit finds the debt at 0), 32 after the next 15. Three hits per miss keep it keyed.
TEST(BlockTiming, KeyPolicyBacksOffWhereMissesOutweighHits) {
    KeyPolicy p;
    auto alternate_then_skipped = [&](unsigned pairs) {
        for (unsigned i = 0; i < pairs; ++i) {
            EXPECT_TRUE(p.try_key());
            p.miss();
            if (i + 1 < pairs) {
                EXPECT_TRUE(p.try_key());
                p.hit();
            }
        }
        unsigned skipped = 0;
        while (!p.try_key()) ++skipped;
        return skipped;
    };
    EXPECT_EQ(alternate_then_skipped(15), 16u);
    EXPECT_EQ(alternate_then_skipped(15), 32u);
    KeyPolicy q;
    for (int i = 0; i < 1000; ++i) {
        EXPECT_TRUE(q.try_key());
        if (i % 4 == 0) q.miss();
        else q.hit();
    }
}

namespace {
// An A32 body at 0x8000 (its words decoded as the replay decodes them: class, registers) on the ARM1176, timed `runs`
// times by the block timing, every replay checked against step() on a copy (set_check_blocks), and by step() on a
// second model; each execution's cycles compared. `n_mem[i]`: instruction i's accesses, in order in `mem`.
struct Arm11Run {
    BlockMemo memo;
    EventBatch blocks, steps;  // the events of all the executions
};
Arm11Run run_arm1176(std::initializer_list<uint32_t> words, const uint8_t* n_mem, const MemRef* mem, unsigned runs) {
    const auto params = platform_timing("arm1176");
    std::vector<isa::RetiredInsn> insns;
    std::vector<uint64_t> pcs;
    for (uint32_t w : words) {
        isa::RetiredInsn i = isa::arm::classify_a32(w);
        i.regs = isa::a32_reg_use(w);
        insns.push_back(i);
        pcs.push_back(0x8000 + 4 * pcs.size());
    }
    Arm11Run r{BlockMemo(insns, pcs, std::vector<uint8_t>(insns.size(), 4)), {}, {}};
    r.memo.set_after(0x8000 + 4 * insns.size());
    TimingModel blocks(*params), steps(*params);
    blocks.set_check_blocks(true);
    for (unsigned e = 0; e < runs; ++e) {
        const uint64_t c = blocks.step_block(r.memo, mem, n_mem, r.blocks);
        uint64_t s = 0;
        for (size_t i = 0, at = 0; i < insns.size(); at += n_mem[i], ++i)
            s += steps.step(insns[i], pcs[i], 4, pcs[i] + 4, mem + at, n_mem[i], r.steps);
        EXPECT_EQ(c, s) << "execution " << e;
        if (c != s) break;
    }
    return r;
}
}  // namespace

// A body whose data addresses are new at every execution (its recording's lookups miss: stepped),
// then the same at every execution (recorded and replayed again): cycles and events per execution exactly those of
// step() per instruction on a second model, and every replay checked against step() on a copy (set_check_blocks).
// An ARM1176 body whose STM holds the load/store unit for the LDR behind it (multiple_holds_lsu): replayed bodies,
// checked against step() (set_check_blocks), give what step() gives, the unit's wait included.
TEST(BlockTiming, Arm11MultipleHoldIsReplayedAsStepped) {
    // push {r4-r7}; ldr r1, [r2]; add r6, r7, r8
    const uint8_t n_mem[3] = {4, 1, 0};
    const MemRef mem[5] = {{0x20000, true, 4}, {0x20004, true, 4}, {0x20008, true, 4}, {0x2000C, true, 4}, {0x30000, false, 4}};
    const Arm11Run r = run_arm1176({0xE92D00F0u, 0xE5921000u, 0xE0876008u}, n_mem, mem, 200);
    EXPECT_GT(r.memo.replayed, 100u);
}

// The data lookups a replay makes (TimingModel::data_lookups, over BlockMemo's accesses one by one) on an ARM1176:
// an access in the line of its instruction's previous access makes no DTLB lookup and is not counted (AN195 §7: an
// LDM within one line counts once), the same line reached by the next instruction's first access is. The body:
// ldmia r2, {r4-r6} (0x20000 and 0x20008 in one 32-byte line, 0x20020 in the next), add r7, r4, r8, ldr r1, [r3]
// (0x20024, the line of the LDM's last access). Per execution 3 DTLB lookups and 3 counted D-cache accesses (of 4
// made): a replay that made a DTLB lookup for the LDM's second access, or none for the LDR's, would leave the DTLB's
// count apart from step()'s (set_check_blocks throws); every execution gives step()'s cycles and events.
TEST(BlockTiming, Arm11LookupsPerAccessAreStepsOnes) {
    const auto params = platform_timing("arm1176");
    ASSERT_TRUE(params.has_value());
    const uint8_t n_mem[3] = {3, 0, 1};
    const MemRef mem[4] = {{0x20000, false, 4}, {0x20008, false, 4}, {0x20020, false, 4}, {0x20024, false, 4}};
    const unsigned runs = 200;
    const Arm11Run r = run_arm1176({0xE8920070u, 0xE0847008u, 0xE5931000u}, n_mem, mem, runs);
    EXPECT_GT(r.memo.replayed, runs / 2);
    EXPECT_EQ(r.blocks.count(params->ev_l1d_access), 3u * runs);
    EXPECT_EQ(r.steps.count(params->ev_l1d_access), 3u * runs);
    for (const auto& e : r.steps.events) EXPECT_EQ(r.blocks.count(e.event), e.count) << "event " << e.event;
}

TEST(BlockTiming, BodiesSteppedWithoutAKeyGiveWhatStepGives) {
    const auto params = platform_timing("cortex-a53");
    ASSERT_TRUE(params.has_value());
    using C = isa::InsnClass;
    const isa::RetiredInsn ld = op(C::load, 1, 2), add = op(C::alu, 3, 1), add2 = op(C::alu, 4, 3);
    BlockMemo m({ld, add, add2}, {0x1000, 0x1004, 0x1008}, {4, 4, 4});
    m.set_after(0x100C);
    TimingModel blocks(*params), steps(*params);
    blocks.set_check_blocks(true);
    const uint8_t n_mem[3] = {1, 0, 0};
    for (unsigned i = 0; i < 3000; ++i) {
        const MemRef r{i < 1000 ? 0x100000 + 4096 * uint64_t{i} : 0x80000, false, 4};
        EventBatch bb, sb;
        const uint64_t c = blocks.step_block(m, &r, n_mem, bb);
        uint64_t s = steps.step(ld, 0x1000, 4, 0x1004, &r, 1, sb);
        s += steps.step(add, 0x1004, 4, 0x1008, nullptr, 0, sb);
        s += steps.step(add2, 0x1008, 4, 0x100C, nullptr, 0, sb);
        ASSERT_EQ(c, s) << "execution " << i;
        for (const auto& e : sb.events) ASSERT_EQ(bb.count(e.event), e.count) << "execution " << i << " event " << e.event;
        ASSERT_EQ(bb.events.size(), sb.events.size()) << "execution " << i;
    }
    EXPECT_GT(m.stepped, 900u);   // the new addresses: stepped (most without a key)
    EXPECT_GT(m.replayed, 1500u); // the repeated one: replayed once the back-off is over
}

// The flushes of a body's branches are keyed four to a word (TimingModel::key_inner_flushes): a body of an ALU
// instruction and seven conditional branches that fall through has its fifth to seventh in the key's second word.
// Between executions taken branches are stepped twice each at the addresses of some of those three (a bimodal
// predictor: one 2-bit counter per address, which two taken ones move to predict taken, the body's execution back), in a
// pattern that changes every other execution, so that they mispredict in some executions and not in others while
// the first four, never disturbed, predict right from the third execution on. A recording whose later branches
// mispredicted must not be replayed where they do not: the block model checks every replay against step()
// (set_check_blocks: a wrong one throws) and its cycles and events are compared with a model that only steps.
TEST(BlockTiming, FlushesOfABodysLaterBranchesAreKeyed) {
    auto params = platform_timing("cortex-a53");
    ASSERT_TRUE(params.has_value());
    params->predictor.direction = PredictorConfig::Direction::bimodal;
    params->predictor.history_bits = 0;
    using C = isa::InsnClass;
    const uint8_t fall = isa::br_immediate | isa::br_conditional, taken = fall | isa::br_taken;
    std::vector<isa::RetiredInsn> insns{op(C::alu, 1, 2)};
    std::vector<uint64_t> pcs{0x1000};
    for (unsigned k = 0; k < 7; ++k) {
        insns.push_back(op(C::branch, isa::no_reg, 1, fall));
        pcs.push_back(0x1004 + 4 * k);
    }
    BlockMemo m(insns, pcs, std::vector<uint8_t>(8, 4));
    m.set_after(0x1020);
    TimingModel blocks(*params), steps(*params);
    blocks.set_check_blocks(true);
    const uint8_t n_mem[8] = {};
    const isa::RetiredInsn jump = op(C::branch, isa::no_reg, 1, taken);
    for (unsigned i = 0; i < 400; ++i) {
        EventBatch bb, sb;
        uint64_t c = blocks.step_block(m, nullptr, n_mem, bb), s = 0;
        for (size_t k = 0; k < insns.size(); ++k)
            s += steps.step(insns[k], pcs[k], 4, k + 1 < pcs.size() ? pcs[k + 1] : 0x1020, nullptr, 0, sb);
        // The disturbance: branches 4 to 6 of the body taken (to 0x3000) as the pattern's bits say.
        const unsigned pattern = (i / 2 * 5) % 8;
        for (unsigned k = 4; k < 7; ++k) {
            if (!(pattern >> (k - 4) & 1u)) continue;
            for (unsigned twice = 0; twice < 2; ++twice) {
                c += blocks.step(jump, pcs[1 + k], 4, 0x3000, nullptr, 0, bb);
                s += steps.step(jump, pcs[1 + k], 4, 0x3000, nullptr, 0, sb);
            }
        }
        ASSERT_EQ(c, s) << "execution " << i;
        for (const auto& e : sb.events) ASSERT_EQ(bb.count(e.event), e.count) << "execution " << i << " event " << e.event;
        ASSERT_EQ(bb.events.size(), sb.events.size()) << "execution " << i;
    }
    EXPECT_GT(m.replayed, 200u);  // most executions replayed, from several recordings
    EXPECT_GT(m.recorded, 2u);
}

// VeeR EL2 (tests/veer-rtl/dhrystone_like, fetch_trace.sh): past a taken branch that flushes, the fetch runs on
// sequentially until the flush lands, and a line it misses there is refilled all the same (el2_ifu_mem_ctl.sv,
// MISS_SM: a flush takes CRIT_BYP_OK or MISS_WAIT to HIT_U_MISS, the last beat still writes the tag). Worked with
// the fetch buffer's rules (3 entries, a fetch a cycle after the last, an entry free when its instruction goes to
// decode): alu 0x4F0 misses line 0x4C0 (1 + 10; fetched 8, decode 10); a mul of 1 + 6 at 0x4F4 (fetched 9, decode
// 11 to 17); alu 0x4F8 (fetched 10, decode 18); a forward branch at 0x4FC taken to 0x540, not predicted (BTFN),
// fetched 11 (the entry of 0x4F0 free at 10), decode 19: its flush lands a cycle before, at 18. The fetch after it,
// 0x500, can go once the entry of 0x4F4 is free, at 17 < 18: it misses line 0x500 and event 3 counts a refill at
// the branch. alu 0x540 misses its own line (1 + 10); a backward jump at 0x544 to 0x500; alu 0x500 then finds its
// line cached: 1 cycle, no refill. Without the rule the wrong path refills nothing and 0x500 misses (1 + 10, event
// 3 there). With the mul only 1 cycle (0x4F4 decode at 11, 0x4F8 at 12, the branch at 13, its flush at 12), the
// fetch after the branch's, at max(12, 11) = 12, is too late: no refill on the wrong path, 0x500 misses.
TEST(TimingModel, VeerWrongPathFetchRefillsTheLineItMisses) {
    using C = isa::InsnClass;
    auto run = [](bool rule, uint16_t mul_extra, std::vector<uint64_t>* refills) {
        TimingParams p;
        p.l1i = small_cache();  // 64-byte lines
        p.l1i_refill_penalty = 10;
        p.fetch_bytes = 4;
        p.fetch_queue = 3;
        p.ev_l1i_refill = 3;
        p.wrong_path_refill = rule;
        p.class_extra[static_cast<size_t>(C::mul)] = mul_extra;
        p.predictor.direction = PredictorConfig::Direction::btfn;
        TimingModel m(p);
        std::vector<uint64_t> v;
        const uint8_t fwd = isa::br_immediate | isa::br_conditional | isa::br_taken;
        const uint8_t jump = isa::br_immediate | isa::br_taken;
        auto step = [&](const isa::RetiredInsn& insn, uint64_t pc, uint64_t next) {
            EventBatch b;
            v.push_back(m.step(insn, pc, 4, next, nullptr, 0, b));
            refills->push_back(b.count(3));
        };
        step(op(C::alu, 5, 6), 0x4F0, 0x4F4);
        step(op(C::mul, 7, 8), 0x4F4, 0x4F8);
        step(op(C::alu, 9, 10), 0x4F8, 0x4FC);
        step(op(C::branch, isa::no_reg, 11, fwd), 0x4FC, 0x540);
        step(op(C::alu, 5, 6), 0x540, 0x544);
        step(op(C::branch, isa::no_reg, isa::no_reg, jump), 0x544, 0x500);
        step(op(C::alu, 5, 6), 0x500, 0x504);
        return v;
    };
    std::vector<uint64_t> with, without, early;
    const auto a = run(true, 6, &with), b = run(false, 6, &without), c = run(true, 0, &early);
    EXPECT_EQ(with, (std::vector<uint64_t>{1, 0, 0, 1, 1, 0, 0}));
    EXPECT_EQ(without, (std::vector<uint64_t>{1, 0, 0, 0, 1, 0, 1}));
    EXPECT_EQ(early, (std::vector<uint64_t>{1, 0, 0, 0, 1, 0, 1}));
    EXPECT_EQ(a[0], 11u);
    EXPECT_EQ(a[1], 7u);
    EXPECT_EQ(a[4], 11u);
    EXPECT_EQ(a[6], 1u);
    EXPECT_EQ(b[6], 11u);
    EXPECT_EQ(c[6], 11u);
}

// The full step comes with and without the ARM cores' issue and result rules (step.cpp, kArm): VeeR EL2 sets none of
// them and takes the kernel without. Turning on one that an RV32 stream never meets (load_pc_latency_extra: a load
// multiple of the PC) makes the same model take the kernel with them: on a stream of every class VeeR EL2 times
// (loads and stores to the DCCM and over the bus, aligned and not, divisions, CSR accesses, branches taken and not,
// traps), both give the same cycles, the same events and the same state (loop_state's words) after every instruction.
TEST(TimingModel, VeerKernelWithoutArmRulesGivesWhatTheFullKernelGives) {
    const auto params = platform_timing("veer-el2");
    ASSERT_TRUE(params.has_value());
    ASSERT_TRUE(params->local_data.has_value());
    TimingParams with_arm = *params;
    with_arm.load_pc_latency_extra = 1;
    TimingModel lean(*params), full(with_arm);
    EventBatch lb, fb;
    using C = isa::InsnClass;
    const C classes[] = {C::alu, C::alu, C::alu, C::mul, C::div, C::load, C::load, C::store, C::store,
                         C::branch, C::jump, C::csr_read, C::csr_write, C::csr_read_write, C::fence, C::ecall, C::mret};
    std::mt19937_64 rng(38);
    const uint64_t dccm = params->local_data->base, bus = 0x80010000;
    uint64_t pc = 0x80000000;
    for (unsigned k = 0; k < 20000; ++k) {
        isa::RetiredInsn in = insn(classes[rng() % (sizeof classes / sizeof classes[0])]);
        in.compressed = rng() % 3 == 0;
        const unsigned size = in.compressed ? 2 : 4;
        in.regs.src = isa::reg_bit(static_cast<uint8_t>(1 + rng() % 31)) | isa::reg_bit(static_cast<uint8_t>(1 + rng() % 31));
        in.regs.dst = in.cls == C::store || in.cls == C::branch ? 0u : isa::reg_bit(static_cast<uint8_t>(1 + rng() % 31));
        MemRef m{};
        unsigned n_mem = 0;
        if (in.cls == C::load || in.cls == C::store) {
            in.regs.addr = in.regs.src & (0u - in.regs.src);  // the lowest source forms the address
            m.size = static_cast<uint8_t>(1u << (rng() % 3));
            m.addr = (rng() % 2 ? dccm : bus) + (rng() % 64) * 4 + (rng() % 4 == 0 ? 1 + rng() % 3 : 0);
            m.write = in.cls == C::store;
            in.unaligned = m.addr % m.size != 0;
            n_mem = 1;
        }
        uint64_t next = pc + size;
        if (in.cls == C::branch && rng() % 2) {
            in.branch = isa::br_taken;
            next = pc - 4 * (rng() % 16);
        } else if (in.cls == C::jump) {
            in.branch = isa::br_taken;
            next = 0x80000000 + (rng() % 256) * 4;
        } else if (in.cls == C::ecall) {
            next = 0x80000800;
        } else if (in.cls == C::mret) {
            next = 0x80000000 + (rng() % 256) * 4;
        }
        StepInputs inputs;
        inputs.csr = in.cls == C::csr_read || in.cls == C::csr_write || in.cls == C::csr_read_write ? 0x7C0 : 0;
        const uint64_t lc = lean.step(in, pc, size, next, n_mem ? &m : nullptr, n_mem, lb, inputs);
        const uint64_t fc = full.step(in, pc, size, next, n_mem ? &m : nullptr, n_mem, fb, inputs);
        ASSERT_EQ(lc, fc) << "instruction " << k;
        std::vector<uint64_t> ls, fs;  // the state as words (loop_state: every field, cycles relative to now)
        ASSERT_EQ(lean.loop_state(ls), full.loop_state(fs));
        ASSERT_EQ(ls, fs) << "instruction " << k;
        pc = next;
    }
    ASSERT_EQ(lb.cycles, fb.cycles);
    ASSERT_EQ(lb.events.size(), fb.events.size());
    for (const auto& e : lb.events) EXPECT_EQ(fb.count(e.event), e.count) << "event " << e.event;
}

// The lean step's kernel with the Cortex rules only (arm_rules_cortex) gives what the kernel with every ARM rule gives
// on the Cortex-A53's and the Cortex-A7's parameters: turning on a rule that the stream never meets
// (load_pc_latency_extra: no load multiple here loads the PC) makes the same core take the kernel with all. The
// stream has every operand shape the rules read, those of the rules the Cortex kernel leaves out too (shifts by a
// register, 64-bit and flag-setting multiplies, shifted load offsets, load and store multiples, stores' data): the
// same cycles and state (loop_state's words) after every instruction, and the same events.
TEST(TimingModel, CortexKernelGivesWhatTheKernelWithEveryRuleGives) {
    using C = isa::InsnClass;
    for (const char* core : {"cortex-a53", "cortex-a7"}) {
        const TimingParams cortex = *platform_timing(core);
        TimingParams every = cortex;
        every.load_pc_latency_extra = 1;
        ASSERT_EQ(TimingModel::arm_kernel(cortex), arm_rules_cortex) << core;
        ASSERT_EQ(TimingModel::arm_kernel(every), arm_rules_all) << core;
        TimingModel a(cortex), b(every);
        EventBatch ba, bb;
        const C classes[] = {C::alu, C::alu, C::alu, C::alu, C::mul, C::div, C::load, C::load, C::store, C::store, C::branch, C::jump};
        std::mt19937_64 rng(39);
        auto reg = [&] { return isa::reg_bit(static_cast<uint8_t>(rng() % 16)); };
        uint64_t pc = 0x10000;
        for (unsigned k = 0; k < 20000; ++k) {
            isa::RetiredInsn in = insn(classes[rng() % (sizeof classes / sizeof classes[0])]);
            in.regs.src = reg() | (rng() % 2 ? reg() : 0u) | (rng() % 8 == 0 ? isa::flags_bit : 0u);
            in.regs.dst = in.cls == C::store || in.cls == C::branch ? 0u : reg() | (rng() % 6 == 0 ? isa::flags_bit : 0u);
            in.regs.shifted = rng() % 4 == 0 ? in.regs.src & ~isa::flags_bit : 0u;
            in.regs.rotated = rng() % 8 == 0 ? in.regs.src & ~isa::flags_bit : 0u;
            if (rng() % 8 == 0) {
                in.regs.shape = isa::shape_shift_register;
                in.regs.amount = in.regs.src & (0u - in.regs.src);
            } else if (rng() % 16 == 0) {
                in.regs.shape = isa::shape_extract;
            }
            if (in.cls == C::mul) {
                in.regs.mul_ops = in.regs.src & ~isa::flags_bit;
                in.regs.mul_hi = rng() % 3 == 0 ? reg() : 0u;
                in.regs.dst |= in.regs.mul_hi;
            }
            if (in.cls == C::alu && rng() % 10 == 0) in.regs.mul_ops = in.regs.src & ~isa::flags_bit;
            in.cond_failed = rng() % 16 == 0;
            MemRef m[4]{};
            unsigned n_mem = 0;
            if (in.cls == C::load || in.cls == C::store) {
                in.regs.addr = in.regs.src & (0u - in.regs.src);  // the lowest source forms the address
                in.offset_shift = in.cls == C::load && rng() % 6 == 0;
                in.multiple = rng() % 4 == 0;
                n_mem = in.multiple ? 1 + static_cast<unsigned>(rng() % 4) : 1;
                const uint64_t at = 0x80000 + (rng() % 4096) * 8;
                for (unsigned j = 0; j < n_mem; ++j) m[j] = MemRef{at + 8 * j, in.cls == C::store, 8};
                if (in.multiple && in.cls == C::load) in.regs.dst |= reg();
                if (rng() % 5 == 0) in.bytes = static_cast<uint8_t>(8u * n_mem);
            }
            uint64_t next = pc + 4;
            if (in.cls == C::branch) {
                in.branch = isa::br_conditional;
                in.regs.src |= isa::flags_bit;
                if (rng() % 2) {
                    in.branch |= isa::br_taken;
                    next = pc - 4 * (rng() % 24);
                }
            } else if (in.cls == C::jump) {
                in.branch = static_cast<uint8_t>(isa::br_taken | (rng() % 3 == 0 ? isa::br_register : 0));
                next = 0x10000 + (rng() % 1024) * 4;
            }
            const uint64_t ca = a.step(in, pc, 4, next, n_mem ? m : nullptr, n_mem, ba);
            const uint64_t cb = b.step(in, pc, 4, next, n_mem ? m : nullptr, n_mem, bb);
            ASSERT_EQ(ca, cb) << core << " instruction " << k;
            std::vector<uint64_t> sa, sb;
            ASSERT_EQ(a.loop_state(sa), b.loop_state(sb));
            ASSERT_EQ(sa, sb) << core << " instruction " << k;
            pc = next;
        }
        ASSERT_EQ(ba.cycles, bb.cycles) << core;
        ASSERT_EQ(ba.events.size(), bb.events.size()) << core;
        for (const auto& e : ba.events) EXPECT_EQ(bb.count(e.event), e.count) << core << " event " << e.event;
    }
}

// VeeR EL2's shape (TimingModel::veer_shape): the platform's parameters take the kernel whose VeeR EL2 tests are
// constants; any other core, a fetch buffer of another depth, no ICCM or no LSU buffers do not. That kernel gives
// what the full step gives: the same program, a loop over the fetch buffer's worst case (splitma's: a store at an
// odd halfword and a taken branch spanning two fetches, tests/veer-rtl/splitma), loads and stores to the DCCM and
// over the D-bus (misaligned too), a division and a postsync CSR write, timed once with veer-el2's parameters and
// once with interrupt_after_enable 0, which only times an interrupt's entry (none here) and takes the full kernel:
// the same cycles at each step and the same count of every event.
TEST(TimingModel, VeerShapeKernelGivesTheFullStepsResults) {
    const TimingParams veer = *platform_timing("veer-el2");
    EXPECT_TRUE(TimingModel::veer_shape(veer));
    EXPECT_FALSE(TimingModel::veer_shape(*platform_timing("cortex-a53")));
    TimingParams other = veer;
    other.fetch_queue = 2;
    EXPECT_FALSE(TimingModel::veer_shape(other));
    other = veer;
    other.local_code.reset();
    EXPECT_FALSE(TimingModel::veer_shape(other));
    other = veer;
    other.store_buffer = 0;
    EXPECT_FALSE(TimingModel::veer_shape(other));
    TimingParams full = veer;
    full.interrupt_after_enable = 0;
    EXPECT_FALSE(TimingModel::veer_shape(full));
    EXPECT_TRUE(TimingModel::needs_full_step(full));
    using C = isa::InsnClass;
    auto with = [](C cls, uint32_t src, uint32_t dst, uint8_t branch = 0) {
        isa::RetiredInsn i = insn(cls, branch);
        i.regs.src = src;
        i.regs.dst = dst;
        return i;
    };
    struct Step {
        isa::RetiredInsn in;
        uint64_t pc;
        unsigned size;
        uint64_t next;
        std::vector<MemRef> mem;
        uint16_t csr;
    };
    isa::RetiredInsn split_store = with(C::store, 0x60u, 0);
    split_store.unaligned = true;
    const std::vector<Step> loop = {
        {split_store, 0x8000047e, 4, 0x80000482, {{0x20000001, true, 2}}, 0},
        {with(C::alu, 0x20u, 0x20u), 0x80000482, 2, 0x80000484, {}, 0},
        {with(C::alu, 0x40u, 0x40u), 0x80000484, 2, 0x80000486, {}, 0},
        {with(C::branch, 0x60u, 0, isa::br_conditional | isa::br_taken), 0x80000486, 4, 0x8000047e, {}, 0},
    };
    const std::vector<Step> rest = {
        {with(C::load, 0x2u, 0x4u), 0x80000500, 4, 0x80000504, {{0xF0040010, false, 4}}, 0},
        {with(C::load, 0x4u, 0x8u), 0x80000504, 4, 0x80000508, {{0x20000102, false, 4}}, 0},
        {with(C::div, 0x8u | 0x4u, 0x10u), 0x80000508, 4, 0x8000050c, {}, 0},
        {with(C::store, 0x10u | 0x2u, 0), 0x8000050c, 2, 0x8000050e, {{0xF0040021, true, 4}}, 0},
        {with(C::csr_write, 0x10u, 0), 0x8000050e, 4, 0x80000512, {}, 0x300},
        {with(C::alu, 0x10u, 0x20u), 0x80000512, 2, 0x8000047e, {}, 0},
    };
    TimingModel a(veer), f(full);
    EventBatch ba, bf;
    for (int rep = 0; rep < 3; ++rep)
        for (const auto* part : {&loop, &loop, &loop, &rest})
            for (const auto& s : *part) {
                StepInputs in;
                in.csr = s.csr;
                in.div_a = 1000;
                in.div_b = 7;
                in.div_known = s.in.cls == C::div;
                const unsigned n = static_cast<unsigned>(s.mem.size());
                EXPECT_EQ(a.step(s.in, s.pc, s.size, s.next, s.mem.data(), n, ba, in),
                          f.step(s.in, s.pc, s.size, s.next, s.mem.data(), n, bf, in))
                    << std::hex << s.pc;
            }
    for (uint32_t e = 0; e < 64; ++e) EXPECT_EQ(ba.count(e), bf.count(e)) << "event " << e;
    // The program reaches what the kernels differ in: I-cache hits and fetch stalls, bus transactions, postsync.
    EXPECT_GT(ba.count(2), 0u);
    EXPECT_GT(ba.count(43), 0u);
    EXPECT_GT(ba.count(31), 0u);
}
