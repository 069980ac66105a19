// Partial replay of a block body (TimingModel::replay_partial, model/timing/block_timing.cpp): where a recording's
// lookup misses, the state the recording saved before the instruction that misses is set and step() goes on from
// there. Each execution is compared with step() per instruction on a second model (the definition), the fast path
// as it runs and, on a third model, with every replay also checked against step() on a copy (set_check_blocks).
// Also the body key's live-ins (KeyTellsWhichLiveInIsLate).
#include <array>
#include <set>

#include "model/timing/body_exit_fields.hpp"
#include "tests/unit/block_test_util.hpp"

namespace {

// The body's instructions and their places, run by the block timing on `fast` and `checked` and by step() on `steps`.
struct Body {
    std::vector<isa::RetiredInsn> insns;
    std::vector<uint64_t> pcs;
    std::vector<uint8_t> n_mem;
    uint64_t after;
    BlockMemo memo() const {
        BlockMemo m(insns, pcs, std::vector<uint8_t>(pcs.size(), 4));
        m.set_after(after);
        return m;
    }
    uint64_t step(TimingModel& tm, const MemRef* mem, EventBatch& b) const {
        uint64_t cycles = 0;
        for (size_t i = 0, at = 0; i < insns.size(); at += n_mem[i], ++i)
            cycles += tm.step(insns[i], pcs[i], 4, i + 1 < pcs.size() ? pcs[i + 1] : after, mem + at, n_mem[i], b);
        return cycles;
    }
};

// The body's 1000 executions, the i-th with mem_of(i)'s accesses (an array), by the block timing on `fast_m` and (every
// replay checked against step() on a copy) `checked_m`, each execution's cycles and events step()'s.
template <class MemOf>
void run_against_step(const Body& body, const TimingParams& params, BlockMemo& fast_m, BlockMemo& checked_m, MemOf mem_of) {
    TimingModel fast(params), checked(params), steps(params);
    checked.set_check_blocks(true);
    for (unsigned i = 0; i < 1000; ++i) {
        const auto mem = mem_of(i);
        EventBatch fb, cb, sb;
        const uint64_t s = body.step(steps, mem.data(), sb);
        ASSERT_EQ(fast.step_block(fast_m, mem.data(), body.n_mem.data(), fb), s) << "execution " << i;
        expect_same_events(fb, sb, i);
        ASSERT_EQ(checked.step_block(checked_m, mem.data(), body.n_mem.data(), cb), s) << "execution " << i;
        expect_same_events(cb, sb, i);
    }
}

}  // namespace

// Cortex-A53 (32 KiB 4-way D-cache, 64-byte lines, 128 sets; 10-entry DTLB). The body: add x3, x4; ldr x1, [x2]
// (always 0x80000); add x6, x7; ldr x5, [x1]; add x8, x5; add x9, x8; ldr x10, [x2] (0x80000 again); add x11, x10.
// Its second load reads 0x90000 (set 0, as the first's) at the first 20 executions and then every other one:
// recorded, then replayed whole. At the others it reads a new page each time (0x100140 + 8 KiB * i: set 5, a new
// DTLB page): that lookup misses (DTLB and D-cache), the first's hits, so the recording's prefix before instruction
// 3 is set and step() times the load, waiting for x1 from the prefix's load. The four instructions after it are then
// a body of their own (BlockMemo::suffix(4)), entered with x5 a miss's latency away each time: recorded at the first
// such execution (its load hits), replayed at the others. Cycles and events are step()'s at every execution.
TEST(BlockTiming, PartialReplayAfterADataMissGivesWhatStepGives) {
    const auto params = platform_timing("cortex-a53");
    ASSERT_TRUE(params.has_value());
    Body body{{op(C::alu, 3, 4), op(C::load, 1, 2), op(C::alu, 6, 7), op(C::load, 5, 1), op(C::alu, 8, 5),
               op(C::alu, 9, 8), op(C::load, 10, 2), op(C::alu, 11, 10)},
              {0x1000, 0x1004, 0x1008, 0x100C, 0x1010, 0x1014, 0x1018, 0x101C},
              {0, 1, 0, 1, 0, 0, 1, 0},
              0x1020};
    BlockMemo fast_m = body.memo(), checked_m = body.memo();
    run_against_step(body, *params, fast_m, checked_m, [](unsigned i) {
        const bool same = i < 20 || i % 2 == 0;
        return std::array<MemRef, 3>{{{0x80000, false, 8}, {same ? 0x90000 : 0x100140 + 8192 * uint64_t{i}, false, 8}, {0x80000, false, 8}}};
    });
    if (HasFatalFailure()) return;
    EXPECT_GT(fast_m.partial, 450u);   // the new pages: replayed in part
    EXPECT_GT(fast_m.replayed, 450u);  // 0x90000: replayed whole
    EXPECT_EQ(checked_m.partial, fast_m.partial);
    ASSERT_NE(fast_m.suffix(4), nullptr);
    EXPECT_EQ(fast_m.suffix(4)->recorded, 1u);
    EXPECT_GT(fast_m.suffix(4)->replayed, 450u);
    ASSERT_NE(checked_m.suffix(4), nullptr);
    EXPECT_EQ(checked_m.suffix(4)->replayed, fast_m.suffix(4)->replayed);
}

// The same with the miss on the body's last instruction, a load of two accesses right after a load that hits:
// add x3, x4; ldr x1, [x2] (0x80000); then a load of two (x5, x6) at 0x80040 and, at the first 20 executions and
// then every other one, 0x90040 (both set 1 of the D-cache, so the two lines take turns in front of it and the first
// access's hit moves its line: a change to undo), at the others 0x100040 + 8 KiB * i (set 1, a new DTLB page each
// time: a miss). claim_body keeps the data lookups of the instructions before the missing one (the ldr's), and
// undoes those of the missing one made before its miss (the first access's, DTLB and D-cache), which step() then
// makes itself; the prefix before instruction 2 is set. A boundary one lookup late (the first access's claim kept)
// or one instruction early (the ldr's undone) leaves the caches' lines or counts other than step()'s: the check
// hook (set_check_blocks) compares them at every partial replay and throws. 490 executions (the odd ones from 21)
// miss, each replayed in part; the others are replayed whole once recorded.
TEST(BlockTiming, PartialReplayAfterADataMissOnTheLastInstructionGivesWhatStepGives) {
    const auto params = platform_timing("cortex-a53");
    ASSERT_TRUE(params.has_value());
    const Body body{{op(C::alu, 3, 4), op(C::load, 1, 2), op(C::load, 5, 6)}, {0x1000, 0x1004, 0x1008}, {0, 1, 2}, 0x100C};
    BlockMemo fast_m = body.memo(), checked_m = body.memo();
    run_against_step(body, *params, fast_m, checked_m, [](unsigned i) {
        const bool same = i < 20 || i % 2 == 0;
        return std::array<MemRef, 3>{{{0x80000, false, 8}, {0x80040, false, 8}, {same ? 0x90040 : 0x100040 + 8192 * uint64_t{i}, false, 8}}};
    });
    if (HasFatalFailure()) return;
    EXPECT_EQ(fast_m.partial, 490u);
    EXPECT_GT(fast_m.replayed, 450u);
    EXPECT_EQ(checked_m.partial, 490u);
    EXPECT_EQ(fast_m.suffix(3), nullptr);  // the missed instruction the last: no suffix to time
}

// The same where count_line_once (a later access in its access before's D-cache line makes no DTLB lookup): the
// ldr is a load of two in one line (0x80000, 0x80008: one DTLB lookup, two D-cache lookups), then the load of two of
// the test before (0x80040; 0x90040 or, at the odd executions from 21, a new DTLB page: a miss). claim_body keeps
// the ldr's data touches (one DTLB's, two D-cache's) and undoes the missing load's first access's (one of each); a
// replay that made the ldr's DTLB lookup twice, or kept the missing load's, would leave the DTLB's count other than
// step()'s, which the check hook compares at every partial replay. 490 executions miss, each replayed in part.
TEST(BlockTiming, PartialReplayKeepsTheDtlbTouchesOfALineCountedOnce) {
    auto params = platform_timing("cortex-a53");
    ASSERT_TRUE(params.has_value());
    params->count_line_once = true;
    const Body body{{op(C::alu, 3, 4), op(C::load, 1, 2), op(C::load, 5, 6)}, {0x1000, 0x1004, 0x1008}, {0, 2, 2}, 0x100C};
    BlockMemo fast_m = body.memo(), checked_m = body.memo();
    run_against_step(body, *params, fast_m, checked_m, [](unsigned i) {
        const bool same = i < 20 || i % 2 == 0;
        return std::array<MemRef, 4>{{{0x80000, false, 8},
                                      {0x80008, false, 8},
                                      {0x80040, false, 8},
                                      {same ? 0x90040 : 0x100040 + 8192 * uint64_t{i}, false, 8}}};
    });
    if (HasFatalFailure()) return;
    EXPECT_EQ(fast_m.partial, 490u);
    EXPECT_EQ(checked_m.partial, 490u);
}

// The body key names which live-ins are not yet ready (a word of them) and gives a word only to each of those
// (block_key.cpp, key_live_ins). Cortex-A53: a load (stepped, then add x20, x21) writes x1 at even executions and x2
// at odd ones right before the body add x3, x1; add x4, x3; add x5, x4; add x6, x2, so one of its two live-ins is a
// load's latency away at each entry, the same distance either way, after the same previous instruction. Late x1
// holds up the chain of three adds; late x2 only the last add, which issues later anyway: the two entries time
// differently. Their keys differ only in which register the word belongs to: a key that did not say which (the
// words alone) would replay x1's recording at x2's entries (this test fails so). Cycles and events are step()'s at
// every execution, and both entries are replayed.
TEST(BlockTiming, KeyTellsWhichLiveInIsLate) {
    const auto params = platform_timing("cortex-a53");
    ASSERT_TRUE(params.has_value());
    const Body body{{op(C::alu, 3, 1), op(C::alu, 4, 3), op(C::alu, 5, 4), op(C::alu, 6, 2)},
                    {0x1000, 0x1004, 0x1008, 0x100C},
                    {0, 0, 0, 0},
                    0x1010};
    BlockMemo fast_m = body.memo(), checked_m = body.memo();
    TimingModel fast(*params), checked(*params), steps(*params);
    checked.set_check_blocks(true);
    const MemRef load_mem{0x80000, false, 8};
    const isa::RetiredInsn filler = op(C::alu, 20, 21);  // after the load: the previous instruction the same either way
    uint64_t cycles_by_reg[2] = {0, 0};
    for (unsigned i = 0; i < 400; ++i) {
        const isa::RetiredInsn load = op(C::load, i % 2 ? 2 : 1, 9);
        EventBatch fb, cb, sb;
        uint64_t pre[3];
        EventBatch* batches[3] = {&sb, &fb, &cb};
        TimingModel* models[3] = {&steps, &fast, &checked};
        for (size_t k = 0; k < 3; ++k)
            pre[k] = models[k]->step(load, 0x2000, 4, 0x2004, &load_mem, 1, *batches[k]) +
                     models[k]->step(filler, 0x2004, 4, 0x1000, nullptr, 0, *batches[k]);
        ASSERT_EQ(pre[1], pre[0]) << "execution " << i;
        ASSERT_EQ(pre[2], pre[0]) << "execution " << i;
        const uint64_t s = body.step(steps, nullptr, sb);
        ASSERT_EQ(fast.step_block(fast_m, nullptr, body.n_mem.data(), fb), s) << "execution " << i;
        expect_same_events(fb, sb, i);
        ASSERT_EQ(checked.step_block(checked_m, nullptr, body.n_mem.data(), cb), s) << "execution " << i;
        expect_same_events(cb, sb, i);
        if (i >= 2) cycles_by_reg[i % 2] = s;
    }
    EXPECT_GT(cycles_by_reg[0], cycles_by_reg[1]);  // the two entries do time differently (late x1 holds the chain)
    EXPECT_GT(fast_m.replayed, 380u);
    EXPECT_GT(checked_m.replayed, 380u);
}

namespace {

// Runs `body` (its first instruction at `entry`; with `tail`, a not-taken conditional branch right after it) 1000
// times on three models as the fetch tests below describe, each execution compared with step(); returns the fast
// model's memo's counts through `fast_m`.
void run_fetch_case(const TimingParams& params, const Body& body, const isa::RetiredInsn* tail, uint64_t entry,
                    BlockMemo& fast_m, BlockMemo& checked_m) {
    TimingModel fast(params), checked(params), steps(params);
    checked.set_check_blocks(true);
    const isa::RetiredInsn other = op(isa::InsnClass::alu, 9, 10);
    const uint64_t tail_pc = body.after, next_pc = tail ? tail_pc + 4 : body.after;
    const BlockTail t{tail, tail_pc, 4, next_pc, nullptr, 0};
    for (unsigned i = 0; i < 1000; ++i) {
        const bool evict = i >= 20 && i % 2;
        EventBatch fb, cb, sb;
        for (TimingModel* tm : {&fast, &checked, &steps}) {
            EventBatch b;
            if (evict) {
                tm->step(other, 0x5040, 4, 0x9040, nullptr, 0, b);
                tm->step(other, 0x9040, 4, 0x7000, nullptr, 0, b);
            }
            tm->step(other, 0x7000, 4, 0xB000, nullptr, 0, b);
            tm->step(other, 0xB000, 4, 0x3000, nullptr, 0, b);
            tm->step(other, 0x3000, 4, 0x2000, nullptr, 0, b);
            for (uint64_t pc = 0x2000; pc < 0x2010; pc += 4) tm->step(other, pc, 4, pc + 4, nullptr, 0, b);
            tm->step(other, 0x2010, 4, entry, nullptr, 0, b);
        }
        uint64_t s = body.step(steps, nullptr, sb);
        if (tail) s += steps.step(*tail, tail_pc, 4, next_pc, nullptr, 0, sb);
        const uint64_t f = tail ? fast.step_block(fast_m, nullptr, body.n_mem.data(), t, fb)
                                : fast.step_block(fast_m, nullptr, body.n_mem.data(), fb);
        ASSERT_EQ(f, s) << "execution " << i;
        expect_same_events(fb, sb, i);
        const uint64_t c = tail ? checked.step_block(checked_m, nullptr, body.n_mem.data(), t, cb)
                                : checked.step_block(checked_m, nullptr, body.n_mem.data(), cb);
        ASSERT_EQ(c, s) << "execution " << i;
        expect_same_events(cb, sb, i);
        for (TimingModel* tm : {&fast, &checked, &steps}) {  // the next execution's first instruction after the body's
            EventBatch b;
            tm->step(other, next_pc, 4, i + 1 >= 20 && (i + 1) % 2 ? 0x5040 : 0x7000, nullptr, 0, b);
        }
    }
}

}  // namespace

// The same where an instruction fetch misses: the body lies across two I-cache lines (32 KiB 2-way, 64-byte lines:
// 256 sets, 16 KiB a way), four instructions at 0x1038 to 0x1044 (add, add, mul, add), each reading the register
// the one before wrote, then an ALU instruction at 0x1048. Before each execution ALU instructions at 0x7000, 0xB000
// and 0x3000 (three lines of one set of two ways: each misses, so the last line refilled is 0x3000's at every
// entry), then at 0x2000 to 0x2010; before every other one after the first 20, first two at 0x5040 and 0x9040, which
// evict line 0x1040 from its set. The recording made while both lines are cached hits on 0x1000 and misses on
// 0x1040: its prefix before instruction 2 is set, and step() fetches and times instructions 2 and 3, the mul waiting
// for the add before it.
TEST(BlockTiming, PartialReplayAfterAFetchMissGivesWhatStepGives) {
    const auto params = platform_timing("cortex-a53");
    ASSERT_TRUE(params.has_value());
    const Body body{{op(C::alu, 3, 4), op(C::alu, 5, 3), op(C::mul, 6, 5), op(C::alu, 7, 6)},
                    {0x1038, 0x103C, 0x1040, 0x1044},
                    {0, 0, 0, 0},
                    0x1048};
    BlockMemo fast_m = body.memo(), checked_m = body.memo();
    run_fetch_case(*params, body, nullptr, 0x1038, fast_m, checked_m);
    EXPECT_GT(fast_m.partial, 450u);
    EXPECT_GT(fast_m.replayed, 450u);
    EXPECT_EQ(checked_m.partial, fast_m.partial);
}

// The same with the miss on the block's last instruction, its tail (BlockMemo::set_tail): three ALU instructions at
// 0x1034 to 0x103C, then a conditional branch at 0x1040, not taken. The whole body is the prefix; step() times the
// tail alone, once.
TEST(BlockTiming, PartialReplayAfterATailFetchMissGivesWhatStepGives) {
    const auto params = platform_timing("cortex-a53");
    ASSERT_TRUE(params.has_value());
    const Body body{{op(C::alu, 3, 4), op(C::alu, 5, 3), op(C::alu, 6, 5)}, {0x1034, 0x1038, 0x103C}, {0, 0, 0}, 0x1040};
    isa::RetiredInsn branch;
    branch.cls = C::branch;
    branch.branch = isa::br_immediate | isa::br_conditional;
    BlockMemo fast_m = body.memo(), checked_m = body.memo();
    fast_m.set_tail(branch, 0x1040, 4);
    checked_m.set_tail(branch, 0x1040, 4);
    run_fetch_case(*params, body, &branch, 0x1034, fast_m, checked_m);
    EXPECT_GT(fast_m.partial, 450u);
    EXPECT_GT(fast_m.replayed, 450u);
    EXPECT_EQ(checked_m.partial, fast_m.partial);
}

// A body whose inner branch is taken and predicted right on the Cortex-A53 (taken_extra, its fetch bubble: predict()
// marks it branch_bubble) is keyed and replayed: add x3, x4 at 0x1000; b 0x2000 at 0x1004; add x5, x3 at 0x2000;
// add x6, x5 at 0x2004; then an ALU instruction at 0x2008 back to 0x1000. After the first executions (the predictor
// learning, the BTIC filled) every execution is a replay, each giving step()'s cycles and events, and the bubble is
// in them (the same body with taken_extra and btic_taken_extra 0 is faster).
TEST(BlockTiming, TakenBranchBubbleIsKeyed) {
    auto params = platform_timing("cortex-a53");
    ASSERT_TRUE(params.has_value());
    ASSERT_GT(params->taken_extra, 0u);
    isa::RetiredInsn branch;
    branch.cls = C::branch;
    branch.branch = isa::br_immediate | isa::br_taken;
    const Body body{{op(C::alu, 3, 4), branch, op(C::alu, 5, 3), op(C::alu, 6, 5)},
                    {0x1000, 0x1004, 0x2000, 0x2004},
                    {0, 0, 0, 0},
                    0x2008};
    TimingParams no_bubble = *params;
    no_bubble.taken_extra = no_bubble.btic_taken_extra = 0;
    TimingModel fast(*params), steps(*params), plain(no_bubble);
    BlockMemo fast_m = body.memo();
    const isa::RetiredInsn other = op(C::alu, 9, 10);
    uint64_t with = 0, without = 0;
    for (unsigned i = 0; i < 200; ++i) {
        EventBatch fb, sb, pb;
        const uint64_t s = body.step(steps, nullptr, sb);
        const uint64_t f = fast.step_block(fast_m, nullptr, body.n_mem.data(), fb);
        ASSERT_EQ(f, s) << "execution " << i;
        expect_same_events(fb, sb, i);
        with += s;
        without += body.step(plain, nullptr, pb);
        for (TimingModel* tm : {&fast, &steps, &plain}) {
            EventBatch b;
            tm->step(other, 0x2008, 4, 0x1000, nullptr, 0, b);
        }
    }
    EXPECT_GT(with, without);
    EXPECT_GT(fast_m.replayed, 190u);
}

// The exit a replay sets is written from one list (BlockMemo::Exit::visit); body_exit_fields.hpp names every
// PipelineState member as in that list or not. Each member the list names is marked in_visit there and named once,
// each marked in_visit is in the list, and each Exit member it keeps into is named once: a field dropped from the
// list, or added to it and not marked, fails here (a PipelineState member in neither stops the build).
TEST(BlockTiming, ExitNamesEveryStateField) {
    PipelineState s;
    BlockMemo::Exit e;
    std::vector<size_t> hits(std::size(body_exit_fields), 0);
    std::set<const void*> kept;
    BlockMemo::Exit::visit(s, e, [&](auto& from, auto& to, auto, bool) {
        const size_t off = static_cast<size_t>(reinterpret_cast<const char*>(&from) - reinterpret_cast<const char*>(&s));
        size_t i = 0;
        while (i < hits.size() && body_exit_fields[i].offset != off) ++i;
        ASSERT_LT(i, hits.size()) << "Exit::visit() names a state field at offset " << off << " not in body_exit_fields";
        ++hits[i];
        EXPECT_TRUE(kept.insert(&to).second) << body_exit_fields[i].how << ": its Exit member is named twice";
    });
    size_t in_visit = 0;
    for (size_t i = 0; i < hits.size(); ++i) {
        const ExitField& f = body_exit_fields[i];
        EXPECT_EQ(hits[i], f.in_visit ? 1u : 0u) << "body_exit_fields entry " << i << " (" << f.how << ")";
        in_visit += f.in_visit;
    }
    // prev_issue, divider_free, lsu_free, stm_issue, stm_regs, last_ifetch_line, last_fetch, fill_line, phase_line,
    // fetch_at, prev_dst, prev_shape, prev_cls, pair_open, next_fetch_new, refetch, flushed.
    EXPECT_EQ(in_visit, 17u);
}
