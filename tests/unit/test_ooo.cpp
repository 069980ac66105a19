// The out-of-order approximation (model/timing/ooo.hpp) on hand-made streams, every cycle worked out on paper
// from its rules: fetch a block a cycle, dispatch in order into a window, execute when the sources and a pipeline
// are ready, complete after the class's latency, retire in order.
#include <gtest/gtest.h>

#include <vector>

#include "isa/arm_classify.hpp"
#include "isa/reg_use.hpp"
#include "model/timing/ooo.hpp"
#include "model/timing/timing_model.hpp"
#include "platforms/platform_json.hpp"
#include "platforms/timing_params.hpp"

using namespace pmusim;
using namespace pmusim::timing;
using C = isa::InsnClass;

namespace {

// 2 wide, a window of 16, a refill of 5; two ALU pipelines and one each of multi-cycle, branch, load and store;
// ALU 1 cycle, multiply 3, load 4; 16-byte fetch blocks (4 instructions).
OooConfig small() {
    OooConfig c;
    c.dispatch_width = c.retire_width = 2;
    c.window = 16;
    c.refill = 5;
    c.fetch_bytes = 16;
    c.mem_bytes = 8;
    c.pipes = {2, 1, 1, 1, 1};
    auto kind = [&](C cls, PipeKind k) { c.pipe[static_cast<size_t>(cls)] = static_cast<uint8_t>(k); };
    kind(C::mul, PipeKind::multi);
    kind(C::branch, PipeKind::branch);
    kind(C::load, PipeKind::load);
    kind(C::store, PipeKind::store);
    c.latency[static_cast<size_t>(C::mul)] = 3;
    c.latency[static_cast<size_t>(C::load)] = 4;
    return c;
}

OooInsn op(C cls, uint64_t pc, uint32_t dst = 0, uint32_t src = 0) {
    OooInsn in;
    in.cls = cls;
    in.pc = pc;
    in.dst = dst;
    in.src = src;
    return in;
}
constexpr uint32_t r(unsigned n) { return uint32_t{1} << n; }

// The core starts at cycle 100, every register ready.
struct Core {
    OooCore core;
    std::array<uint64_t, 32> ready{};
    explicit Core(const OooConfig& c = small()) : core(c, 100) {}
    OooTiming step(const OooInsn& in) { return core.step(in, ready); }
};

}  // namespace

// Independent ALU instructions: instruction i dispatches at 100 + i/2 (2 a cycle), executes a cycle later on one of
// the two ALU pipelines, completes and retires a cycle after that: 102 + i/2. Twenty take 11 cycles: 2 for the
// first pair, 1 for each of the other nine.
TEST(OutOfOrder, IndependentInstructionsRetireDispatchWidthACycle) {
    Core c;
    uint64_t cycles = 0;
    for (unsigned i = 0; i < 20; ++i) {
        const OooTiming t = c.step(op(C::alu, 0x1000 + 4 * i, r(i % 8)));
        EXPECT_EQ(t.dispatch, 100 + i / 2) << i;
        EXPECT_EQ(t.retire, 102 + i / 2) << i;
        EXPECT_EQ(t.frontend_stall + t.backend_stall, 0u) << i;
        cycles += t.cycles;
    }
    EXPECT_EQ(cycles, 11u);
}

// A chain of multiplies through r1: each executes when the one before completes, 3 cycles later; the first at 101
// (the cycle after its dispatch). The k-th completes and retires at 104 + 3k: ten take 131 - 100 = 31 cycles.
TEST(OutOfOrder, DependentChainRunsAtItsLatency) {
    Core c;
    uint64_t cycles = 0;
    for (unsigned k = 0; k < 10; ++k) {
        const OooTiming t = c.step(op(C::mul, 0x1000 + 4 * k, r(1), r(1)));
        EXPECT_EQ(t.exec, 101 + 3 * k) << k;
        EXPECT_EQ(t.retire, 104 + 3 * k) << k;
        cycles += t.cycles;
    }
    EXPECT_EQ(cycles, 31u);
}

// A window of 4: a load that misses for 50 cycles (completes at 101 + 4 + 50 = 155) holds the three ALU
// instructions behind it from retiring (155, 155, then 156, 156: 2 a cycle); the fifth instruction needs the
// load's place in the window, free the cycle after it retires: it dispatches at 156 instead of 102, after 54
// cycles without a dispatch (101 was the last), which count as back-end stalls; it retires at 158.
TEST(OutOfOrder, FullWindowHoldsDispatch) {
    OooConfig cfg = small();
    cfg.window = 4;
    Core c(cfg);
    OooInsn load = op(C::load, 0x1000, r(2), r(3));
    load.mem_delay = 50;
    EXPECT_EQ(c.step(load).retire, 155u);
    EXPECT_EQ(c.step(op(C::alu, 0x1004, r(4))).retire, 155u);
    EXPECT_EQ(c.step(op(C::alu, 0x1008, r(5))).retire, 156u);
    EXPECT_EQ(c.step(op(C::alu, 0x100C, r(6))).retire, 156u);
    const OooTiming t = c.step(op(C::alu, 0x1010, r(7)));
    EXPECT_EQ(t.dispatch, 156u);
    EXPECT_EQ(t.backend_stall, 54u);
    EXPECT_EQ(t.frontend_stall, 0u);
    EXPECT_EQ(t.retire, 158u);
    // With room in the window (16) the same instruction dispatches at 102 and retires behind the others (157).
    Core wide;
    wide.step(load);
    for (unsigned i = 1; i < 4; ++i) wide.step(op(C::alu, 0x1000 + 4 * i, r(3 + i)));
    const OooTiming u = wide.step(op(C::alu, 0x1010, r(7)));
    EXPECT_EQ(u.dispatch, 102u);
    EXPECT_EQ(u.retire, 157u);
}

// A mispredicted branch dispatched at 100 executes at 101 and completes at 102; 2 x (102 - 100) = 4 wrong-path
// instructions dispatched meanwhile; the right path's first block comes 5 cycles (the refill) after: its first
// instruction dispatches at 107, after 6 cycles without a dispatch, all the front end's, and retires at 109: 9 cycles
// for the two. Predicted right, the target (a new block after the taken branch) dispatches at 101: 3 cycles.
TEST(OutOfOrder, MispredictionRefillsAfterTheBranchResolves) {
    Core c;
    OooInsn br = op(C::branch, 0x1000);
    br.taken = true;
    br.mispredicted = true;
    const OooTiming b = c.step(br);
    EXPECT_EQ(b.complete, 102u);
    EXPECT_EQ(b.wrong_path, 4u);
    const OooTiming t = c.step(op(C::alu, 0x2000, r(1)));
    EXPECT_EQ(t.dispatch, 107u);
    EXPECT_EQ(t.frontend_stall, 6u);
    EXPECT_EQ(t.backend_stall, 0u);
    EXPECT_EQ(b.cycles + t.cycles, 9u);

    Core right;
    br.mispredicted = false;
    EXPECT_EQ(right.step(br).wrong_path, 0u);
    const OooTiming u = right.step(op(C::alu, 0x2000, r(1)));
    EXPECT_EQ(u.dispatch, 101u);
    EXPECT_EQ(u.retire, 103u);
}

// The Cortex-A9's misprediction costs 8 cycles (LLVM's ARMScheduleA9.td, MispredictPenalty 8). Its OooConfig from
// the platform: a taken branch dispatched at 100 executes at 101 and completes at 102 (latency 1). Predicted right,
// its target comes in the next fetch block, a cycle late (taken_bubble 1), and dispatches at 102; mispredicted, the
// refill (8) brings it at 102 + 8 = 110: 8 cycles later.
TEST(OutOfOrder, CortexA9MispredictionCostsEightCycles) {
    const auto p = platform_timing("cortex-a9");
    ASSERT_TRUE(p.has_value() && p->ooo.has_value());
    for (bool wrong : {false, true}) {
        Core c(*p->ooo);
        OooInsn br = op(C::branch, 0x1000);
        br.taken = true;
        br.mispredicted = wrong;
        EXPECT_EQ(c.step(br).complete, 102u) << wrong;
        EXPECT_EQ(c.step(op(C::alu, 0x2000, r(1))).dispatch, wrong ? 110u : 102u) << wrong;
    }
}

// 8-byte fetch blocks (2 instructions): the instruction after a taken branch comes in the next cycle's block even
// when the dispatch had room; after an untaken one, in the same block, with it.
TEST(OutOfOrder, TakenBranchEndsItsFetchBlock) {
    OooConfig cfg = small();
    cfg.fetch_bytes = 8;
    for (bool taken : {true, false}) {
        Core c(cfg);
        OooInsn br = op(C::branch, 0x1000);
        br.taken = taken;
        EXPECT_EQ(c.step(br).dispatch, 100u);
        EXPECT_EQ(c.step(op(C::alu, taken ? 0x3000 : 0x1004, r(1))).dispatch, taken ? 101u : 100u) << taken;
    }
}

// Execution out of order: a multiply waiting for r1 (ready at 104) books the multi-cycle pipeline at 104; an
// independent one dispatched after it takes the pipeline at 102, before it, and retires in order behind it (107).
TEST(OutOfOrder, YoungerInstructionPassesAWaitingOne) {
    Core c;
    EXPECT_EQ(c.step(op(C::mul, 0x1000, r(1))).complete, 104u);
    EXPECT_EQ(c.step(op(C::mul, 0x1004, r(2), r(1))).exec, 104u);
    const OooTiming t = c.step(op(C::mul, 0x1008, r(3), r(4)));
    EXPECT_EQ(t.exec, 102u);
    EXPECT_EQ(t.complete, 105u);
    EXPECT_EQ(t.retire, 107u);
}

// A conditional branch on the flags waits for the instruction before it (the compare): a compare of r1 (a
// multiply's result, ready at 104) completes at 105, so the branch executes at 105, not 102.
TEST(OutOfOrder, FlagsComeFromThePreviousInstruction) {
    for (bool flags : {true, false}) {
        Core c;
        c.step(op(C::mul, 0x1000, r(1)));
        EXPECT_EQ(c.step(op(C::alu, 0x1004, 0, r(1))).complete, 105u);
        OooInsn br = op(C::branch, 0x1008);
        br.flags_from_previous = flags;
        EXPECT_EQ(c.step(br).exec, flags ? 105u : 102u) << flags;
    }
}

// A load of several registers holds the load pipeline a cycle per 8 bytes: 24 bytes, 3 cycles (101-103); its
// last register is ready 4 cycles after its last cycle (107); the next load waits for the pipeline (104).
TEST(OutOfOrder, LoadOfSeveralRegistersHoldsItsPipeline) {
    Core c;
    OooInsn ldm = op(C::load, 0x1000, r(1) | r(2) | r(3), r(4));
    ldm.mem_bytes = 24;
    const OooTiming t = c.step(ldm);
    EXPECT_EQ(t.exec, 101u);
    EXPECT_EQ(t.complete, 107u);
    EXPECT_EQ(c.step(op(C::load, 0x1004, r(5), r(6))).exec, 104u);
}

// A pool of 2 renaming registers: a multiply (r1: completes and retires at 104) and an ALU instruction (r2: retires
// behind it at 104) take both at 100. The next write (r3) needs the one 2 writes older, the multiply's, retired:
// it dispatches at 105 (4 cycles without a dispatch: the back end's), executes at 106 and retires at 107; the
// write after it (r4) needs the ALU instruction's register (retired at 104) and dispatches beside it at 105.
// Without the pool r3 dispatches at 101 and retires at 105 (its place in the second retirement cycle).
TEST(OutOfOrder, RenamingRegistersLimitTheWritesInFlight) {
    for (unsigned pool : {2u, 0u}) {
        OooConfig cfg = small();
        cfg.rename_regs = pool;
        Core c(cfg);
        EXPECT_EQ(c.step(op(C::mul, 0x1000, r(1))).retire, 104u);
        EXPECT_EQ(c.step(op(C::alu, 0x1004, r(2))).retire, 104u);
        const OooTiming t3 = c.step(op(C::alu, 0x1008, r(3)));
        const OooTiming t4 = c.step(op(C::alu, 0x100C, r(4)));
        if (pool) {
            EXPECT_EQ(t3.dispatch, 105u);
            EXPECT_EQ(t3.backend_stall, 4u);
            EXPECT_EQ(t3.retire, 107u);
            EXPECT_EQ(t4.dispatch, 105u);
        } else {
            EXPECT_EQ(t3.dispatch, 101u);
            EXPECT_EQ(t3.retire, 105u);
        }
    }
}

// The flags have a pool of their own (isa::flags_bit): with one renaming register for them, a compare (writing only
// the flags) waits for the flag-setting multiply before it to retire (104): it dispatches at 105. An instruction
// writing r3 after it is not held by the flags' pool and dispatches beside it; the general pool (no limit) holds
// nothing.
TEST(OutOfOrder, FlagsHaveARenamingPoolOfTheirOwn) {
    OooConfig cfg = small();
    cfg.rename_flags = 1;
    Core c(cfg);
    EXPECT_EQ(c.step(op(C::mul, 0x1000, r(1) | isa::flags_bit)).retire, 104u);
    EXPECT_EQ(c.step(op(C::alu, 0x1004, isa::flags_bit, r(2))).dispatch, 105u);
    EXPECT_EQ(c.step(op(C::alu, 0x1008, r(3))).dispatch, 105u);
    // An instruction that writes no flags is never held by their pool.
    Core d(cfg);
    d.step(op(C::mul, 0x1000, r(1) | isa::flags_bit));
    EXPECT_EQ(d.step(op(C::alu, 0x1004, r(2))).dispatch, 100u);
}

// mem_align (Cortex-A9 TRM, Table B-3): a load's pipeline cycles count from its address's offset in 8 bytes. Four
// registers (16 bytes) from an aligned address: 2 cycles (101-102), complete at 101 + 1 + 4 = 106; from an address
// 4 bytes in: 3 cycles, complete at 107, and the next load finds the pipeline at 104. LDRD (8 bytes) 4 bytes in:
// 2 cycles; one word 4 bytes in: 1.
TEST(OutOfOrder, AlignedLoadMultipleTakesFewerCycles) {
    OooConfig cfg = small();
    cfg.mem_align = true;
    for (uint64_t addr : {0x2000u, 0x2004u}) {
        Core c(cfg);
        OooInsn ldm = op(C::load, 0x1000, r(1) | r(2) | r(3) | r(4), r(5));
        ldm.mem_bytes = 16;
        ldm.mem_addr = addr;
        EXPECT_EQ(c.step(ldm).complete, addr == 0x2000 ? 106u : 107u) << addr;
        EXPECT_EQ(c.step(op(C::load, 0x1004, r(6), r(7))).exec, addr == 0x2000 ? 103u : 104u) << addr;
    }
    Core c(cfg);
    OooInsn ldrd = op(C::load, 0x1000, r(1) | r(2), r(5));
    ldrd.mem_bytes = 8;
    ldrd.mem_addr = 0x2004;
    EXPECT_EQ(c.step(ldrd).complete, 101u + 1 + 4);
    OooInsn ldr = op(C::load, 0x1004, r(3), r(5));
    ldr.mem_bytes = 4;
    ldr.mem_addr = 0x2004;
    EXPECT_EQ(c.step(ldr).exec, 103u);
    EXPECT_EQ(c.step(ldr).exec, 104u);
    // Without mem_align the offset is not counted: 16 bytes 4 bytes in hold the pipeline 2 cycles.
    Core u;
    OooInsn ldm = op(C::load, 0x1000, r(1) | r(2) | r(3) | r(4), r(5));
    ldm.mem_bytes = 16;
    ldm.mem_addr = 0x2004;
    EXPECT_EQ(u.step(ldm).complete, 106u);
}

// A byte load holding its pipeline 2 cycles (subword_load_busy, the Cortex-A9 TRM's Table B-2: LDRB 2 AGU cycles):
// dispatched at 100, it executes at 101 and 102 and completes at 102 + 4 (the load latency) = 106; the next load
// finds the pipeline free at 103. A word load is not held: it completes at 101 + 4 = 105 and the next executes at
// 102. Without subword_load_busy the byte load times as the word load.
TEST(OutOfOrder, ByteLoadHoldsItsPipelineASecondCycle) {
    for (unsigned extra : {2u, 0u}) {
        OooConfig cfg = small();
        cfg.subword_load_busy = extra;
        for (unsigned bytes : {1u, 2u, 4u}) {
            Core c(cfg);
            OooInsn ld = op(C::load, 0x1000, r(1), r(2));
            ld.mem_bytes = bytes;
            ld.mem_addr = 0x2000;
            ld.subword = bytes < 4;
            const bool held = extra && bytes < 4;
            EXPECT_EQ(c.step(ld).complete, held ? 106u : 105u) << bytes << " " << extra;
            EXPECT_EQ(c.step(op(C::load, 0x1004, r(3), r(4))).exec, held ? 103u : 102u) << bytes << " " << extra;
        }
    }
}

// load_forward 1: a load (dispatched at 100, executing at 101, r1 ready at 105) reaches an ALU instruction without
// a shift (forward_use) a cycle sooner: it executes at 104 (its dispatch, 100, beside the load). Not when the load
// sign-extends, nor for an instruction that is not forward_use, nor with load_forward 0: 105.
TEST(OutOfOrder, LoadResultForwardsEarlyToAnUnshiftedAluInstruction) {
    for (unsigned fwd : {1u, 0u})
        for (bool sign : {false, true})
            for (bool use : {true, false}) {
                OooConfig cfg = small();
                cfg.load_forward = fwd;
                Core c(cfg);
                OooInsn ld = op(C::load, 0x1000, r(1), r(2));
                ld.mem_bytes = 1;
                ld.subword = true;  // subword_load_busy 0 here: no second cycle
                ld.sign_extend = sign;
                EXPECT_EQ(c.step(ld).complete, 105u);
                OooInsn add = op(C::alu, 0x1004, r(3), r(1));
                add.forward_use = use;
                EXPECT_EQ(c.step(add).exec, fwd && !sign && use ? 104u : 105u) << fwd << sign << use;
            }
    // A register the load wrote and a multiply wrote after it (dispatched at 100, executing at 101, r1 ready at
    // 104) comes from the multiply: its reader (dispatched at 101) executes at 104, not 103.
    OooConfig cfg = small();
    cfg.load_forward = 1;
    Core c(cfg);
    c.step(op(C::load, 0x1000, r(1), r(2)));
    c.step(op(C::mul, 0x1004, r(1), r(5)));
    OooInsn add = op(C::alu, 0x1008, r(3), r(1));
    add.forward_use = true;
    EXPECT_EQ(c.step(add).exec, 104u);
}

TEST(OutOfOrder, ConfigurationsOutOfRangeAreRefused) {
    EXPECT_EQ(OooCore::invalid(small()), "");
    OooConfig c = small();
    c.window = 0;
    EXPECT_NE(OooCore::invalid(c), "");
    c = small();
    c.pipes[static_cast<size_t>(PipeKind::load)] = 0;  // loads have no pipeline
    EXPECT_NE(OooCore::invalid(c), "");
    c = small();
    c.rename_regs = 65;
    EXPECT_NE(OooCore::invalid(c), "");
    c = small();
    c.fetch_bytes = 12;
    EXPECT_NE(OooCore::invalid(c), "");
    EXPECT_THROW(OooCore(c, 0), std::invalid_argument);
}

// A platform file's out-of-order core is checked before any replay: an error naming the file and the key.
TEST(OutOfOrder, PlatformFileWindowOutOfRangeIsNamed) {
    TimingParams p = *platform_timing("cortex-a9");
    EXPECT_NO_THROW(check_timing(p, "my-core.json"));
    p.ooo->window = 129;
    try {
        check_timing(p, "my-core.json");
        FAIL() << "a window of 129 was accepted";
    } catch (const PlatformFileError& e) {
        EXPECT_NE(std::string(e.what()).find("my-core.json: key 'timing.ooo'"), std::string::npos) << e.what();
    }
}

// OooState::visit names every field once (the arrays element by element).
TEST(OutOfOrder, StateVisitNamesEveryField) {
    OooState s;
    size_t fields = 0;
    OooState::visit(s, [&](const auto&, timing::FieldKind, bool) { ++fields; });
    const size_t pool = 1 + s.regs.retire_at.size();  // a pool's fields
    EXPECT_EQ(fields - (s.retire_at.size() - 1) - (2 * s.pipes.size() - 1) - 2 * (pool - 1) - (s.block_out.size() - 1),
              member_count<OooState>());
    EXPECT_EQ(member_count<OooState>(), 18u);
    EXPECT_EQ(member_count<PipeSlots>(), 2u);
    EXPECT_EQ(member_count<RenamePool>(), 2u);
}

namespace {

// A platform's core without caches or TLBs (their misses aside): the out-of-order core alone.
TimingModel bare_core(const char* platform) {
    TimingParams p = *platform_timing(platform);
    p.l1i.reset();
    p.l1d.reset();
    p.l2.reset();
    p.itlb_entries = p.dtlb_entries = p.main_tlb_entries = 0;
    return TimingModel(p);
}

isa::RetiredInsn insn(C cls, uint32_t dst, uint32_t src, uint8_t branch = 0) {
    isa::RetiredInsn i;
    i.cls = cls;
    i.regs.dst = dst;
    i.regs.src = src;
    i.branch = branch;
    return i;
}

}  // namespace

// Cortex-A57 (3 wide, two ALU pipelines, one load pipeline, load to use 4): ten groups of two independent ALU
// instructions and a load dispatch a group a cycle from 256 (the model's first cycle); group g's load executes at
// 257 + g and completes at 261 + g, and each group retires behind its load, 3 a cycle: the last at 270, 14 cycles
// for 30 instructions. No cycle goes without a dispatch: no stall events.
TEST(OutOfOrder, CortexA57IssuesThreeACycle) {
    TimingModel m = bare_core("cortex-a57");
    EventBatch b;
    uint64_t cycles = 0;
    for (unsigned g = 0; g < 10; ++g)
        for (unsigned j = 0; j < 3; ++j) {
            const uint64_t pc = 0x400000 + 12 * g + 4 * j;
            cycles += m.step(insn(j == 2 ? C::load : C::alu, r(j + 1), j == 2 ? r(10) : 0), pc, 4, pc + 4, nullptr, 0, b);
        }
    EXPECT_EQ(cycles, 14u);
    EXPECT_EQ(b.count(0x23), 0u);  // STALL_FRONTEND
    EXPECT_EQ(b.count(0x24), 0u);  // STALL_BACKEND
}

// Cortex-A57: a compare (256: executes 257, completes 258), a taken B.cond the predictor has not seen (its counter
// starts weakly not taken: mispredicted), which waits for the compare's flags (executes 258, completes 259), and
// its target. 3 x (259 - 256) = 9 instructions down the wrong path (INST_SPEC); the target's block comes 12 cycles
// (the refill) after the branch completes: it dispatches at 271, after 14 cycles without a dispatch
// (STALL_FRONTEND), and retires at 273: 17 cycles in all.
TEST(OutOfOrder, CortexA57MispredictionEvents) {
    TimingModel m = bare_core("cortex-a57");
    EventBatch b;
    uint64_t cycles = m.step(insn(C::alu, 0, r(1)), 0x400000, 4, 0x400004, nullptr, 0, b);
    const auto bcond = insn(C::branch, 0, 0, isa::br_conditional | isa::br_immediate | isa::br_taken);
    cycles += m.step(bcond, 0x400004, 4, 0x401000, nullptr, 0, b);
    cycles += m.step(insn(C::alu, r(2), 0), 0x401000, 4, 0x401004, nullptr, 0, b);
    EXPECT_EQ(b.count(0x10), 1u);  // BR_MIS_PRED
    EXPECT_EQ(b.count(0x1B), 9u);  // INST_SPEC: the wrong path (retire() adds the retired ones)
    EXPECT_EQ(b.count(0x23), 14u);
    EXPECT_EQ(b.count(0x24), 0u);
    EXPECT_EQ(cycles, 17u);
}

// The flags as A64 gives them (isa::flags_bit): a SUBS (256: executes 257, completes 258), a load (completes 261)
// and a taken B.cond reading flags_bit, mispredicted. The branch waits for the SUBS's flags, not for the load before
// it: it executes at 258 and completes at 259; its target dispatches 12 cycles later (271) and retires at 273:
// 17 cycles. A conditional branch that reads no register (T32's, whose decoder gives no flags) is taken to test the
// flags of the instruction before it, the load: it executes at 261, its target retires at 276: 20 cycles.
TEST(OutOfOrder, FlagsAsARegisterAreNotTakenFromThePreviousInstruction) {
    for (bool a64 : {true, false}) {
        TimingModel m = bare_core("cortex-a57");
        EventBatch b;
        uint64_t cycles = m.step(insn(C::alu, r(1) | isa::flags_bit, r(1)), 0x400000, 4, 0x400004, nullptr, 0, b);
        cycles += m.step(insn(C::load, r(2), r(3)), 0x400004, 4, 0x400008, nullptr, 0, b);
        const auto bcond = insn(C::branch, 0, a64 ? isa::flags_bit : 0u,
                                isa::br_conditional | isa::br_immediate | isa::br_taken);
        cycles += m.step(bcond, 0x400008, 4, 0x401000, nullptr, 0, b);
        cycles += m.step(insn(C::alu, r(4), 0), 0x401000, 4, 0x401004, nullptr, 0, b);
        EXPECT_EQ(b.count(0x10), 1u) << a64;  // BR_MIS_PRED
        EXPECT_EQ(cycles, a64 ? 17u : 20u) << a64;
    }
}

namespace {

// An A32 instruction as the replay decodes it: its class and flags, and its registers.
isa::RetiredInsn a32(uint32_t enc) {
    isa::RetiredInsn i = isa::arm::classify_a32(enc);
    i.regs = isa::a32_reg_use(enc);
    return i;
}

// The cycles of `first` and then `second` (by default `add r4, r1, r5`, 0xE0814005, unshifted: the fast path's kind
// of consumer), both in the 8-byte fetch block at 0x8000, on the Cortex-A9.
uint64_t a9_pair(uint32_t first, uint32_t second = 0xE0814005) {
    TimingModel m = bare_core("cortex-a9");
    EventBatch b;
    return m.step(a32(first), 0x8000, 4, 0x8004, nullptr, 0, b) + m.step(a32(second), 0x8004, 4, 0x8008, nullptr, 0, b);
}

}  // namespace

// The Cortex-A9's load-to-use fast path leaves out a conditional load (its TRM, B.3). Both instructions dispatch
// in the first cycle, c; the load executes at c+1 and its result comes at c+4 (Table B-2: result latency 3).
// `ldr r1, [r2]` (0xE5921000) forwards to the ADD a cycle sooner: the ADD executes at c+3 and completes at c+4,
// with the load: 4 cycles. `ldreq r1, [r2]` (0x05921000, its condition passing) does not: the ADD executes at c+4
// and completes at c+5: 5 cycles.
TEST(OutOfOrder, CortexA9ConditionalLoadTakesNoFastPath) {
    EXPECT_EQ(a9_pair(0xE5921000), 4u);
    EXPECT_EQ(a9_pair(0x05921000), 5u);
}

// A register offset shifted by anything but LSL #2 gives the load's result a cycle later (the Cortex-A9 TRM,
// Table B-2: fast-forward latency 3 where LDR [reg, reg, LSL #2] has 2). As above: unshifted and LSL #2, the ADD
// completes at c+4 (4 cycles); LSL #3, LSR #2 and RRX at c+5 (5 cycles).
TEST(OutOfOrder, CortexA9ShiftedRegisterOffsetIsACycleLater) {
    EXPECT_EQ(a9_pair(0xE7921003), 4u);  // ldr r1, [r2, r3]
    EXPECT_EQ(a9_pair(0xE7921103), 4u);  // ldr r1, [r2, r3, lsl #2]
    EXPECT_EQ(a9_pair(0xE7921183), 5u);  // ldr r1, [r2, r3, lsl #3]
    EXPECT_EQ(a9_pair(0xE7921123), 5u);  // ldr r1, [r2, r3, lsr #2]
    EXPECT_EQ(a9_pair(0xE7921063), 5u);  // ldr r1, [r2, r3, rrx]
}

// A data-processing instruction through the shifter gives its result a cycle later on the Cortex-A9 (GCC's
// cortex-a9.md: cortex_a9_dp_shift bypasses after 2 cycles, cortex_a9_dp after 1; a MOV with a shift is a dp).
// `add r1, r2, r3` executes at c+1 and completes at c+2; the ADD that reads r1 executes at c+2 and completes at
// c+3: 3 cycles. `add r1, r2, r3, lsl #2` (and `add r1, r2, r3, lsl r6`) completes at c+3, its reader at c+4: 4.
// `mov r1, r3, lsl #2`: 3. The Cortex-A15's documentation gives no such stage: 3 there (its pipelines as above).
TEST(OutOfOrder, CortexA9ShifterResultIsACycleLater) {
    EXPECT_EQ(a9_pair(0xE0821003), 3u);  // add r1, r2, r3
    EXPECT_EQ(a9_pair(0xE0821103), 4u);  // add r1, r2, r3, lsl #2
    EXPECT_EQ(a9_pair(0xE0821613), 4u);  // add r1, r2, r3, lsl r6
    EXPECT_EQ(a9_pair(0xE1A01103), 3u);  // lsl r1, r3, #2 (mov)
    EXPECT_EQ(platform_timing("cortex-a15")->ooo->shifter_latency, 0u);
    EXPECT_EQ(platform_timing("cortex-a57")->ooo->shifter_latency, 0u);
}

// An extend goes down the shifter's E1 as a shifted operand does (GCC's cortex-a9.md: type "extend" is
// cortex_a9_dp_shift's, bypassed after 2 cycles): `uxtb r1, r3` (0xE6EF1073) executes at c+1 and completes at c+3;
// the ADD that reads r1 executes at c+3 and completes at c+4: 4 cycles (3 as an unshifted ALU instruction). The
// same with `sxtah r1, r2, r3` (0xE6B21073).
TEST(OutOfOrder, CortexA9ExtendResultIsACycleLater) {
    EXPECT_EQ(a9_pair(0xE6EF1073), 4u);  // uxtb r1, r3
    EXPECT_EQ(a9_pair(0xE6B21073), 4u);  // sxtah r1, r2, r3
    EXPECT_EQ(a9_pair(0xE6BF1F33), 3u);  // rev r1, r3: no extend
}

// An extend is neither arithmetic nor logical: a load's result reaches it by no fast path (the Cortex-A9 TRM, B.3).
// `ldr r1, [r2]` executes at c+1, its result at c+4 (Table B-2: 3); `uxtb r4, r1` (0xE6EF4071) executes at c+4 and
// completes at c+6 (through the shifter): 6 cycles. `add r4, r5, r1` takes the fast path: it executes at c+3 and
// completes at c+4: 4 cycles.
TEST(OutOfOrder, CortexA9ExtendTakesNoLoadFastPath) {
    EXPECT_EQ(a9_pair(0xE5921000, 0xE6EF4071), 6u);  // ldr r1, [r2]; uxtb r4, r1
    EXPECT_EQ(a9_pair(0xE5921000, 0xE0854001), 4u);  // ldr r1, [r2]; add r4, r5, r1
}

// writeback_alu: a load that writes its base back takes an ALU pipeline a cycle too. `add r1` (dispatched at 100,
// executing at 101, r1 ready at 102), `ldr r4, [r1], #4` (its address waits for r1: it executes at 102, its
// write-back takes an ALU pipeline at 102), `add r5, r1, r6` (dispatched at 101, executes at 102 on the other ALU
// pipeline), `add r7, r1, r8`: both ALU pipelines are taken at 102, so it executes at 103; without the rule (or
// without the write-back) at 102.
TEST(OutOfOrder, BaseWriteBackTakesAnAluPipeline) {
    for (bool rule : {true, false})
        for (bool wb : {true, false}) {
            OooConfig cfg = small();
            cfg.writeback_alu = rule;
            Core c(cfg);
            c.step(op(C::alu, 0x1000, r(1), r(2)));
            OooInsn ld = op(C::load, 0x1004, r(4), r(1));
            ld.writeback = wb;
            EXPECT_EQ(c.step(ld).exec, 102u);
            EXPECT_EQ(c.step(op(C::alu, 0x1008, r(5), r(1) | r(6))).exec, 102u);
            EXPECT_EQ(c.step(op(C::alu, 0x100C, r(7), r(1) | r(8))).exec, rule && wb ? 103u : 102u) << rule << wb;
        }
    EXPECT_TRUE(platform_timing("cortex-a9")->ooo->writeback_alu);
    EXPECT_FALSE(platform_timing("cortex-a15")->ooo->writeback_alu);
}

// A call dispatches alone where call_alone (GCC's cortex-a9.md, cortex_a9_call: "make sure dual issue doesn't happen
// i.e the next instruction starts at the next cycle"): `add r1, r2` dispatches at 100; `bl` (0x1004, the same fetch
// block) could go beside it at 100, but takes cycle 101 of its own; its target's `add r3, r4` (a new block, fetched
// for 101) could go beside the call at 101, but waits for 102. Without the rule: 100, 100 and 101.
TEST(OutOfOrder, CallDispatchesAlone) {
    for (bool rule : {true, false}) {
        OooConfig cfg = small();
        cfg.call_alone = rule;
        Core c(cfg);
        EXPECT_EQ(c.step(op(C::alu, 0x1000, r(1), r(2))).dispatch, 100u);
        OooInsn bl = op(C::branch, 0x1004, r(14));
        bl.taken = bl.call = true;
        EXPECT_EQ(c.step(bl).dispatch, rule ? 101u : 100u) << rule;
        EXPECT_EQ(c.step(op(C::alu, 0x2000, r(3), r(4))).dispatch, rule ? 102u : 101u) << rule;
    }
    EXPECT_TRUE(platform_timing("cortex-a9")->ooo->call_alone);
    EXPECT_FALSE(platform_timing("cortex-a15")->ooo->call_alone);
}

// A multiply holds the first ALU pipeline where mul_alu (the Cortex-A9 TRM's figure 2-1: one "ALU/MUL" pipeline
// beside one "ALU"): `mul r1` (busy 2) dispatches at 100 and executes at 101 and 102, `add r4` beside it at 101 on
// the second ALU; `add r6` and `add r8` dispatch at 101 and could both execute at 102, but with the first ALU held
// by the multiply only one of them can: the second goes at 103. Without the rule both go at 102.
TEST(OutOfOrder, MultiplyHoldsTheFirstAluPipeline) {
    for (bool rule : {true, false}) {
        OooConfig cfg = small();
        cfg.busy[static_cast<size_t>(C::mul)] = 2;
        cfg.mul_alu = rule;
        Core c(cfg);
        EXPECT_EQ(c.step(op(C::mul, 0x1000, r(1), r(2) | r(3))).exec, 101u);
        EXPECT_EQ(c.step(op(C::alu, 0x1004, r(4), r(5))).exec, 101u);
        EXPECT_EQ(c.step(op(C::alu, 0x1008, r(6), r(7))).exec, 102u);
        EXPECT_EQ(c.step(op(C::alu, 0x100C, r(8), r(9))).exec, rule ? 103u : 102u) << rule;
    }
    // The multiply waits for the first ALU pipeline: `add r1` and `add r2`, each holding its ALU 3 cycles, take both
    // from 101 to 103; `mul r3` (dispatched at 101) finds its multiplier free at 102 but the first ALU only at 104
    // (without the rule: 102).
    OooConfig cfg = small();
    cfg.mul_alu = true;
    cfg.busy[static_cast<size_t>(C::alu)] = 3;  // each ALU instruction holds its pipeline 101-103
    Core c(cfg);
    c.step(op(C::alu, 0x1000, r(1), r(5)));
    c.step(op(C::alu, 0x1004, r(2), r(5)));
    EXPECT_EQ(c.step(op(C::mul, 0x1008, r(3), r(6))).exec, 104u);
    EXPECT_TRUE(platform_timing("cortex-a9")->ooo->mul_alu);
    EXPECT_FALSE(platform_timing("cortex-a15")->ooo->mul_alu);
}

// At most issue_width instructions start execution a cycle (the Cortex-A9: 2, LLVM's ARMScheduleA9.td A9_Issue0 and
// A9_Issue1): `ldr r1` dispatches at 100, executes at 101 and gives r1 at 105 (latency 4); `add r2, r1`, a
// not-taken branch on r1 and `str r1` (dispatched at 100, 101, 101) wait for it, each in a pipeline of its own
// kind, and all three could start at 105; with 2 issue slots the store goes at 106.
TEST(OutOfOrder, IssueWidthLimitsTheInstructionsStartingACycle) {
    for (unsigned width : {2u, 0u}) {
        OooConfig cfg = small();
        cfg.issue_width = width;
        Core c(cfg);
        EXPECT_EQ(c.step(op(C::load, 0x1000, r(1), r(9))).exec, 101u);
        EXPECT_EQ(c.step(op(C::alu, 0x1004, r(2), r(1))).exec, 105u);
        EXPECT_EQ(c.step(op(C::branch, 0x1008, 0, r(1))).exec, 105u);
        EXPECT_EQ(c.step(op(C::store, 0x100C, 0, r(1))).exec, width ? 106u : 105u) << width;
    }
    EXPECT_EQ(platform_timing("cortex-a9")->ooo->issue_width, 2u);
    EXPECT_EQ(platform_timing("cortex-a15")->ooo->issue_width, 0u);
    OooConfig too_many = small();  // 6 pipelines and 3 issue slots: more than 8
    too_many.issue_width = 3;
    EXPECT_NE(OooCore::invalid(too_many), "");
}

// The loads and stores that write their base back (cortex-a9.md: through an ALU pipeline's E2), encodings from GNU as.
TEST(OutOfOrder, DecodersMarkBaseWriteBack) {
    EXPECT_TRUE(isa::arm::classify_a32(0xE4921004).writeback);   // ldr r1, [r2], #4
    EXPECT_TRUE(isa::arm::classify_a32(0xE5B21004).writeback);   // ldr r1, [r2, #4]!
    EXPECT_FALSE(isa::arm::classify_a32(0xE5921004).writeback);  // ldr r1, [r2, #4]
    EXPECT_TRUE(isa::arm::classify_a32(0xE92D4010).writeback);   // push {r4, lr}
    EXPECT_FALSE(isa::arm::classify_a32(0xE8920003).writeback);  // ldm r2, {r0, r1}
    EXPECT_TRUE(isa::arm::classify_t32(0xB510, false).writeback);  // push {r4, lr}
    EXPECT_TRUE(isa::arm::classify_t32(0xF8521B04, true).writeback);   // ldr.w r1, [r2], #4
    EXPECT_FALSE(isa::arm::classify_t32(0xF8D21004, true).writeback);  // ldr.w r1, [r2, #4]
}

// A load's result forms a later load's or store's address load_address_latency cycles after it is ready (the
// Cortex-A9: 1, 7-cpu.com's 4-cycle pointer chase against the TRM's result latency of 3). With small()'s load latency
// of 4 and e extra cycles: `ldr r1, [r1]` three times executes at 101, 105 + e and 109 + 2e (each waits for the
// last's r1 as its address) and completes at 113 + 2e; `add r2, r1` (not an address) executes at 113 + 2e and
// completes at 114 + 2e; `str r1, [r4]` (r1 its data, not its address) at 113 + 2e; `ldr r5, [r2]` (r2 an ALU
// result) at 114 + 2e.
TEST(OutOfOrder, LoadResultFormsAnAddressACycleLater) {
    for (unsigned e : {1u, 0u}) {
        OooConfig cfg = small();
        cfg.load_address_latency = e;
        Core c(cfg);
        OooInsn chase = op(C::load, 0x1000, r(1), r(1));
        chase.addr = r(1);
        EXPECT_EQ(c.step(chase).exec, 101u) << e;
        chase.pc = 0x1004;
        EXPECT_EQ(c.step(chase).exec, 105u + e) << e;
        chase.pc = 0x1008;
        EXPECT_EQ(c.step(chase).exec, 109u + 2 * e) << e;
        EXPECT_EQ(c.step(op(C::alu, 0x100C, r(2), r(1))).exec, 113u + 2 * e) << e;
        OooInsn st = op(C::store, 0x1010, 0, r(1) | r(4));
        st.addr = r(4);
        EXPECT_EQ(c.step(st).exec, 113u + 2 * e) << e;
        OooInsn ld = op(C::load, 0x1014, r(5), r(2));
        ld.addr = r(2);
        EXPECT_EQ(c.step(ld).exec, 114u + 2 * e) << e;
    }
    EXPECT_EQ(platform_timing("cortex-a9")->ooo->load_address_latency, 1u);
    EXPECT_EQ(platform_timing("cortex-a15")->ooo->load_address_latency, 0u);
    EXPECT_EQ(platform_timing("cortex-a57")->ooo->load_address_latency, 0u);
    // The decoder's address registers reach the core: `ldr r1, [r2, r3]` forms its address with r2 and r3.
    EXPECT_EQ(OooInsn(a32(0xE7921003), 0x1000).addr, r(2) | r(3));
    // On the Cortex-A9: `ldr r1, [r2]` (0xE5921000) and `ldr r3, [r1]` (0xE5913000) dispatch at c; the first executes
    // at c+1, its r1 ready at c+4 (latency 3), for an address at c+5; the second executes then and completes at c+8:
    // 8 cycles (7 without the rule).
    EXPECT_EQ(a9_pair(0xE5921000, 0xE5913000), 8u);
    // `add r4, r1, r5` after the load takes the fast path still (TRM B.3): executes at c+3, completes with the load.
    EXPECT_EQ(a9_pair(0xE5921000), 4u);
}

// A taken branch costs taken_bubble fetch cycles (the Cortex-A9: 1, its prediction over two fetch stages): `b` at
// 0x1000 dispatches at 100 (its block the first); its target's block comes 1 + e cycles after: `add r1` at 0x2000
// dispatches at 101 + e and `add r2` beside it (the same 8-byte block), and `add r3` at 0x2008, the next block
// (not after a taken branch: no bubble), at 102 + e. Without the branch taken (a fall-through to 0x1004) the
// sequence takes no bubble whatever e.
TEST(OutOfOrder, TakenBranchLosesFetchCycles) {
    for (unsigned e : {1u, 0u}) {
        OooConfig cfg = small();
        cfg.fetch_bytes = 8;
        cfg.taken_bubble = e;
        Core c(cfg);
        OooInsn b = op(C::branch, 0x1000);
        b.taken = true;
        EXPECT_EQ(c.step(b).dispatch, 100u) << e;
        const OooTiming t = c.step(op(C::alu, 0x2000, r(1)));
        EXPECT_EQ(t.dispatch, 101u + e) << e;
        EXPECT_EQ(t.frontend_stall, e) << e;
        EXPECT_EQ(c.step(op(C::alu, 0x2004, r(2))).dispatch, 101u + e) << e;
        EXPECT_EQ(c.step(op(C::alu, 0x2008, r(3))).dispatch, 102u + e) << e;
        Core fall(cfg);
        b.taken = false;
        EXPECT_EQ(fall.step(b).dispatch, 100u) << e;
        EXPECT_EQ(fall.step(op(C::alu, 0x1004, r(1))).dispatch, 100u) << e;
        EXPECT_EQ(fall.step(op(C::alu, 0x1008, r(2))).dispatch, 101u) << e;
    }
    EXPECT_EQ(platform_timing("cortex-a9")->ooo->taken_bubble, 1u);
    EXPECT_EQ(platform_timing("cortex-a15")->ooo->taken_bubble, 0u);
    EXPECT_EQ(platform_timing("cortex-a72")->ooo->taken_bubble, 0u);
}

// A load or store of several registers dispatches a micro-operation per cycle it holds its pipeline where
// multiple_uops (the Cortex-A9: LLVM's ARMBaseInstrInfo::getNumMicroOps, an LDM or STM of n registers is n/2
// micro-operations and one more for an odd n or an address not 64-bit aligned, its TRM's Table B-3 AGU cycles; its
// CortexA9Model dispatches 2 micro-operations a cycle). `add r9` at 0x1000 dispatches at 100; `stm` of 4 registers
// (16 bytes) from 0x8004, not 8-byte aligned, holds the store pipeline (4 + 16) / 8 rounded up = 3 cycles: 3
// micro-operations, in the second slot of 100 and both of 101; `add r1` (the same 16-byte fetch block) waits for
// 102. Without the rule the STM takes one slot: 100, 100, 101. Aligned at 0x8000, 2 cycles and micro-operations
// (100 and 101): `add r1` goes beside the second at 101.
TEST(OutOfOrder, MultipleDispatchesAMicroOpPerPipelineCycle) {
    for (bool rule : {true, false})
        for (uint64_t addr : {0x8004u, 0x8000u}) {
            OooConfig cfg = small();
            cfg.mem_align = true;
            cfg.multiple_uops = rule;
            Core c(cfg);
            EXPECT_EQ(c.step(op(C::alu, 0x1000, r(9), r(10))).dispatch, 100u);
            OooInsn stm = op(C::store, 0x1004, 0, r(4) | r(5) | r(6) | r(7) | r(13));
            stm.multiple = true;
            stm.mem_bytes = 16;
            stm.mem_addr = addr;
            EXPECT_EQ(c.step(stm).dispatch, 100u) << rule << addr;
            const uint64_t next = !rule ? 101u : addr == 0x8004u ? 102u : 101u;
            EXPECT_EQ(c.step(op(C::alu, 0x1008, r(1), r(2))).dispatch, next) << rule << addr;
        }
    // The decoders' LDM, STM, PUSH and POP are multiple; a single load is not.
    EXPECT_TRUE(OooInsn(a32(0xE92D41F0), 0x1000).multiple);   // push {r4-r8, lr}
    EXPECT_FALSE(OooInsn(a32(0xE5921000), 0x1000).multiple);  // ldr r1, [r2]
    EXPECT_TRUE(platform_timing("cortex-a9")->ooo->multiple_uops);
    EXPECT_FALSE(platform_timing("cortex-a15")->ooo->multiple_uops);
}

// An instruction across two fetch blocks comes with the second where fetch_spans (the Cortex-A9's 64-bit
// instruction-cache accesses, its TRM 7.3: a 32-bit T32 instruction at offset 6 of its 8 bytes needs two). `b`
// at 0x1000, taken, dispatches at 100; its target, a 32-bit instruction at 0x2006, needs the block at 0x2000, which
// comes at 101, and the one at 0x2008, at 102: it dispatches at 102; the 16-bit ones at 0x200A and 0x200C are in
// the second block: 102 (beside it) and 103. Without the rule the target comes with its first block: 101, then
// 102 and 102 (the second block).
TEST(OutOfOrder, InstructionAcrossFetchBlocksComesWithTheSecond) {
    for (bool rule : {true, false}) {
        OooConfig cfg = small();
        cfg.fetch_bytes = 8;
        cfg.fetch_spans = rule;
        Core c(cfg);
        OooInsn b = op(C::branch, 0x1000);
        b.taken = true;
        EXPECT_EQ(c.step(b).dispatch, 100u);
        EXPECT_EQ(c.step(op(C::alu, 0x2006, r(1))).dispatch, rule ? 102u : 101u) << rule;
        OooInsn t16 = op(C::alu, 0x200A, r(2));
        t16.size = 2;
        EXPECT_EQ(c.step(t16).dispatch, 102u) << rule;
        t16.pc = 0x200C;
        EXPECT_EQ(c.step(t16).dispatch, rule ? 103u : 102u) << rule;
    }
    isa::RetiredInsn t16;
    t16.compressed = true;
    EXPECT_EQ(OooInsn(t16, 0x2000).size, 2u);
    EXPECT_EQ(OooInsn(a32(0xE0814005), 0x2000).size, 4u);
    EXPECT_TRUE(platform_timing("cortex-a9")->ooo->fetch_spans);
    EXPECT_FALSE(platform_timing("cortex-a15")->ooo->fetch_spans);
}

// The front end holds fetch_queue blocks between fetch and dispatch (the Cortex-A9's instruction queue: 8 of its
// 64-bit fetches): a block comes no sooner than the cycle after the last instruction of the block fetch_queue older
// dispatched. 8-byte blocks, a pool of one renaming register. The load of r1 at 0x1000 (block 1) misses: dispatched
// at 100, it completes and retires at 101 + 4 + 20 = 125; the ALU instruction beside it writes r2 and waits for the
// register r1 took, dispatching at 126. The taken branches at 0x1008 (block 2), 0x2000 (block 3) and 0x3000 (block
// 4) and the instruction at 0x4000 (block 5) are a block each, fetched at 101, 102, 103, 104 without a queue: at
// 126 the first branch takes the second slot, the others dispatch two a cycle, 127, 127, 128. With a queue of 2:
// block 3 waits for block 1 (126): 127; block 4 for block 2 (126) and for its fetch a cycle after block 3: 128;
// block 5 for block 3 (127) and its fetch: 129. After the stall the front end gives a block a cycle, one
// instruction here, where without the queue it had fetched them all during the stall.
TEST(OutOfOrder, FetchQueueHoldsTheFrontEndBehindDispatch) {
    for (unsigned queue : {0u, 2u}) {
        OooConfig cfg = small();
        cfg.fetch_bytes = 8;
        cfg.rename_regs = 1;
        cfg.fetch_queue = queue;
        Core c(cfg);
        OooInsn load = op(C::load, 0x1000, r(1), r(5));
        load.mem_delay = 20;
        load.mem_bytes = 4;
        const OooTiming l = c.step(load);
        EXPECT_EQ(l.dispatch, 100u);
        EXPECT_EQ(l.retire, 125u);
        EXPECT_EQ(c.step(op(C::alu, 0x1004, r(2))).dispatch, 126u);
        std::vector<uint64_t> at;
        for (uint64_t pc : {0x1008, 0x2000, 0x3000}) {
            OooInsn b = op(C::branch, pc);
            b.taken = true;
            at.push_back(c.step(b).dispatch);
        }
        at.push_back(c.step(op(C::alu, 0x4000)).dispatch);
        EXPECT_EQ(at, (queue ? std::vector<uint64_t>{126, 127, 128, 129} : std::vector<uint64_t>{126, 127, 127, 128}))
            << queue;
    }
    OooConfig one = small();
    one.fetch_queue = 1;
    EXPECT_FALSE(OooCore::invalid(one).empty());
    EXPECT_EQ(platform_timing("cortex-a9")->ooo->fetch_queue, 8u);
    EXPECT_EQ(platform_timing("cortex-a15")->ooo->fetch_queue, 0u);
    EXPECT_EQ(platform_timing("cortex-a72")->ooo->fetch_queue, 0u);
}

// The Cortex-A9's memory system below the pipeline (platforms/timing_params.cpp, cortex_a9_core): 32-entry micro
// TLBs (its TRM, 6.2.1), and 7-cpu.com's pointer chase on a Samsung Exynos 4210 for the costs: 4 cycles a load
// hitting L1 and the micro TLB, 19 more from the L2, 7 more for a micro TLB miss the main TLB holds, 7 more for a
// main TLB miss. Replayed here as that chase: `ldr r1, [r1]` (0xE5911000) again and again, its instruction side
// left out; each load's address is the last one's result, ready 3 cycles after that load starts (Table B-2) and a
// cycle later for an address (load_address_latency): a load takes 4 cycles plus its misses, as its step's cycles.
// Pages of 4 KiB from 0x100000 (main TLB sets page % 64: the pages below never share one):
//  - pages 0 to 32 at their first line: each misses the micro TLB, the main TLB and L1: 4 + 7 + 7 + 19 = 37;
//  - page 0 at its second line (0x20): the 33rd page evicted it from the micro TLB (LRU), the main TLB holds it:
//    4 + 7 + 19 = 30; the same line again: 4;
//  - page 2 at its second line: the micro TLB holds pages 2 to 32 and 0 (32 entries): 4 + 19 = 23;
//  - page 100: 37 again.
// L1D_TLB_REFILL (0x05): 33 + 1 + 1 = 35. With the 10 entries, refill 2, walk 20 and L1 refill 12 that came before:
// 38 each for the first pages, 18, 4, 18 for page 2 (a micro TLB miss), 38; 36 refills.
TEST(OutOfOrder, CortexA9MemorySystemAsItsPointerChaseMeasures) {
    TimingParams p = *platform_timing("cortex-a9");
    p.l1i.reset();
    p.itlb_entries = 0;
    TimingModel m(p);
    EventBatch b;
    uint64_t pc = 0x8000;
    auto chase = [&](uint64_t addr) {
        const MemRef ref{addr, false};
        const uint64_t cycles = m.step(a32(0xE5911000), pc, 4, pc + 4, &ref, 1, b);
        pc += 4;
        return cycles;
    };
    constexpr uint64_t page0 = 0x100000, page = 4096;
    for (uint64_t k = 0; k <= 32; ++k) EXPECT_EQ(chase(page0 + k * page), 37u) << k;
    EXPECT_EQ(chase(page0 + 0x20), 30u);
    EXPECT_EQ(chase(page0 + 0x20), 4u);
    EXPECT_EQ(chase(page0 + 2 * page + 0x20), 23u);
    EXPECT_EQ(chase(page0 + 100 * page), 37u);
    EXPECT_EQ(b.count(0x05), 35u);
    EXPECT_EQ(platform_timing("cortex-a9")->itlb_entries, 32u);  // the instruction side's too (TRM 6.2.1)
}

// The Cortex-A9's multiplier (platforms/timing_params.cpp, cortex_a9: GCC's cortex-a9.md and LLVM's
// ARMScheduleA9.td), on its own OooConfig, instructions in 8-byte fetch blocks from 0x8000 (a block a cycle from
// 100, two dispatched a cycle). Long multiplies back to back: `umull r0, r1, r2, r3` dispatches at 100, executes at
// 101 and holds the multiplier (and the first ALU pipeline) 101-103, 3 cycles; RdLo r0 comes at 105 (latency 4),
// RdHi r1 a cycle later, 106, its completion. `umull r4, r5, r6, r7` (dispatched at 100) finds the multiplier free
// at 104: r4 at 108, r5 at 109. `add r8, r0, r9` (dispatched at 101) executes at 105 on the second ALU pipeline
// (the first is held by the second UMULL 104-106); `add r10, r1, r9` at 106, when r1 comes. Before the rules: the
// multiplier held 2 cycles and both halves after 4: the second UMULL at 103, both ADDs at 105.
TEST(OutOfOrder, CortexA9LongMultipliesHoldTheMultiplierThreeCyclesTheirHighHalfLater) {
    Core c(*platform_timing("cortex-a9")->ooo);
    const OooTiming m0 = c.step(OooInsn(a32(0xE0810392), 0x8000));  // umull r0, r1, r2, r3
    EXPECT_EQ(m0.dispatch, 100u);
    EXPECT_EQ(m0.exec, 101u);
    EXPECT_EQ(c.ready[0], 105u);
    EXPECT_EQ(c.ready[1], 106u);
    EXPECT_EQ(m0.complete, 106u);
    const OooTiming m1 = c.step(OooInsn(a32(0xE0854796), 0x8004));  // umull r4, r5, r6, r7
    EXPECT_EQ(m1.dispatch, 100u);
    EXPECT_EQ(m1.exec, 104u);
    EXPECT_EQ(c.ready[4], 108u);
    EXPECT_EQ(c.ready[5], 109u);
    EXPECT_EQ(c.step(OooInsn(a32(0xE0808009), 0x8008)).exec, 105u);  // add r8, r0, r9
    EXPECT_EQ(c.step(OooInsn(a32(0xE081A009), 0x800C)).exec, 106u);  // add r10, r1, r9
}

// A multiply-accumulate chain: `mla r0, r2, r3, r0` dispatches at 100, executes at 101 and holds the multiplier and
// both ALU pipelines 101-102 (cortex-a9.md's cortex_a9_mac: the register read ports); r0 at 105. `mla r0, r4, r5, r0`
// reads it as its accumulator, no sooner (no accumulator forwarding on the A9): it executes at 105, r0 at 109, a
// link every 4 cycles. `add r6, r7, r8` and `add r9, r7, r8` (dispatched at 101) find both ALU pipelines held at
// 102: both execute at 103 (before the rule: the first at 102 on the second ALU pipeline, the other at 103).
TEST(OutOfOrder, CortexA9MultiplyAccumulateHoldsBothAluPipelines) {
    Core c(*platform_timing("cortex-a9")->ooo);
    const OooTiming a0 = c.step(OooInsn(a32(0xE0200392), 0x8000));  // mla r0, r2, r3, r0
    EXPECT_EQ(a0.exec, 101u);
    EXPECT_EQ(c.ready[0], 105u);
    const OooTiming a1 = c.step(OooInsn(a32(0xE0200594), 0x8004));  // mla r0, r4, r5, r0
    EXPECT_EQ(a1.exec, 105u);
    EXPECT_EQ(c.ready[0], 109u);
    EXPECT_EQ(c.step(OooInsn(a32(0xE0876008), 0x8008)).exec, 103u);  // add r6, r7, r8
    EXPECT_EQ(c.step(OooInsn(a32(0xE0879008), 0x800C)).exec, 103u);  // add r9, r7, r8
}

// A halfword multiply, which the decoders class as an ALU instruction, goes through the multiplier a cycle with a
// result latency of 3 (cortex-a9.md's cortex_a9_mult16): `smulbb r1, r2, r3` dispatches at 100, executes at 101,
// r1 at 104; `add r4, r1, r5` executes at 104. Before the rule: an ALU instruction's 1, r1 at 102.
TEST(OutOfOrder, CortexA9HalfwordMultiplyTakesThreeCycles) {
    Core c(*platform_timing("cortex-a9")->ooo);
    EXPECT_EQ(c.step(OooInsn(a32(0xE1610382), 0x8000)).exec, 101u);  // smulbb r1, r2, r3
    EXPECT_EQ(c.ready[1], 104u);
    EXPECT_EQ(c.step(OooInsn(a32(0xE0814005), 0x8004)).exec, 104u);  // add r4, r1, r5
    // The other out-of-order cores keep no such rules.
    for (const char* core : {"cortex-a15", "cortex-a57", "cortex-a72"}) {
        const OooConfig o = *platform_timing(core)->ooo;
        EXPECT_EQ(o.short_mul_latency + o.long_mul_extra + o.mul_hi_latency, 0u) << core;
        EXPECT_FALSE(o.mac_alus) << core;
    }
}
