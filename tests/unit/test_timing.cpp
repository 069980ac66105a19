// Timing-model components on hand-made streams whose counts are worked out on paper (docs/accuracy.md).
#include <gtest/gtest.h>

#include "model/timing/branch_predictor.hpp"
#include "model/timing/cache.hpp"
#include "model/timing/timing_model.hpp"

using namespace pmusim;
using namespace pmusim::timing;

namespace {

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

TEST(Cache, GeometryFromConfig) {
    EXPECT_EQ(Cache(small_cache()).sets(), 32u);
    CacheConfig a53;  // 32 KiB, 4 ways, 64 B: 128 sets
    EXPECT_EQ(Cache(a53).sets(), 128u);
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

TEST(Cache, DirtyLinesAreWrittenBackWhenEvicted) {
    // 2 KiB stored by lines: 32 dirty lines, one per set. 4 KiB read elsewhere: 2 lines per set, the second of
    // which evicts the dirty line (least recently used): 32 write-backs, 32 + 64 refills.
    Cache c(small_cache());
    sweep(c, 0, 2048, 64, true);
    sweep(c, 0x100000, 4096, 64, false);
    EXPECT_EQ(c.writebacks(), 32u);
    EXPECT_EQ(c.refills(), 96u);
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

TEST(BranchPredictor, PredictionOffMispredictsEveryTakenBranch) {
    PredictorConfig c;
    c.enabled = false;
    EXPECT_EQ(loop_mispredicts(c), 90u);
    BranchPredictor bp(c);
    EXPECT_TRUE(bp.indirect(0x100, 0x200, false));
    EXPECT_TRUE(bp.indirect(0x100, 0x200, false));
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

TEST(TimingModel, L2CatchesWhatTheL1Thrashes) {
    TimingParams p;
    p.l1d = small_cache();  // 4 KiB, 2-way
    p.l1d_refill_penalty = 10;
    CacheConfig l2;
    l2.size = 16 * 1024;
    l2.ways = 4;
    l2.line = 64;
    p.l2 = l2;
    p.l2_refill_penalty = 50;
    p.ev_l1d_refill = 0x03;
    p.ev_l2_access = 0x16;
    p.ev_l2_refill = 0x17;
    p.ev_l2_writeback = 0x18;
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
    TimingParams p;
    p.l1d = small_cache();
    CacheConfig l2;
    l2.size = 16 * 1024;
    l2.ways = 4;
    l2.line = 64;
    p.l2 = l2;
    p.ev_l1d_writeback = 0x15;
    p.ev_l2_access = 0x16;
    p.ev_l2_refill = 0x17;
    p.ev_l2_writeback = 0x18;
    TimingModel m(p);
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
