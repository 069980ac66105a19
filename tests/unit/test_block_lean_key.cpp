// The block timing's lean key (TimingModel::body_key on a core with none of VeeR EL2's fetch, D-bus or LSU
// mechanisms: model/timing/block_key.cpp): the body's branches' flushes keyed whole, two to a word. Each execution
// is run by the block timing with every replay checked against step() on a copy (set_check_blocks: a recording
// applied to an entry state it does not fit throws) and compared with step() per instruction on a second model, the
// definition.
#include "tests/unit/block_test_util.hpp"

// Cortex-A53 with a misprediction of 9000 cycles (the flush's cycles then 2^13 or more), and two bodies run in
// turn, each an ALU instruction, a conditional branch to the next instruction and another ALU instruction: A's
// branch at 0x1004 taken, B's at 0x2004 not taken. Both share the bimodal predictor's counter (index: address bits
// from bit 2 up, 10 bits), which A's outcome moves up and B's down between weakly not taken and weakly taken: every
// prediction is wrong, every execution's flush 9000 cycles and more. The packed flush (16 bits, cycles below 2^13)
// left such bodies unkeyed, stepped at every execution; whole, they are keyed and replayed once the entry states
// repeat.
TEST(BlockLeanKey, FlushOfTwoToTheThirteenCyclesIsReplayed) {
    auto p = platform_timing("cortex-a53");
    ASSERT_TRUE(p.has_value());
    p->mispredict_penalty = 9000;
    auto insns = [](bool taken) {
        isa::RetiredInsn br = op(C::branch, 0, 0);
        br.regs = {};
        br.branch = static_cast<uint8_t>(isa::br_immediate | isa::br_conditional | (taken ? isa::br_taken : 0));
        return std::vector<isa::RetiredInsn>{op(C::alu, 1, 2), br, op(C::alu, 3, 4)};
    };
    const std::vector<isa::RetiredInsn> ia = insns(true), ib = insns(false);
    BlockMemo a(ia, {0x1000, 0x1004, 0x1008}, {4, 4, 4}), b(ib, {0x2000, 0x2004, 0x2008}, {4, 4, 4});
    a.set_after(0x100C);
    b.set_after(0x200C);
    TimingModel blocks(*p), steps(*p);
    blocks.set_check_blocks(true);
    const std::vector<uint8_t> n_mem(3, 0);
    isa::RetiredInsn jump = op(C::jump, 0, 0);
    jump.regs = {};
    jump.branch = isa::br_immediate | isa::br_taken;
    const unsigned n = 200;
    for (unsigned e = 0; e < 2 * n; ++e) {
        BlockMemo& m = e % 2 ? b : a;
        const std::vector<isa::RetiredInsn>& in = e % 2 ? ib : ia;
        const uint64_t base = e % 2 ? 0x2000 : 0x1000, next = e % 2 ? 0x1000 : 0x2000;
        EventBatch bb, sb;
        const uint64_t c = blocks.step_block(m, nullptr, n_mem.data(), bb);
        uint64_t s = 0;
        for (size_t i = 0; i < 3; ++i)
            s += steps.step(in[i], base + 4 * i, 4, base + 4 * (i + 1), nullptr, 0, sb);
        ASSERT_EQ(c, s) << "execution " << e;
        if (e >= 8) {
            ASSERT_GE(c, 9000u) << "execution " << e << ": the branch predicted right";
        }
        // The block's last instruction: a jump to the other body.
        const uint64_t jc = blocks.step(jump, base + 12, 4, next, nullptr, 0, bb);
        ASSERT_EQ(jc, steps.step(jump, base + 12, 4, next, nullptr, 0, sb)) << "execution " << e;
        expect_same_events(bb, sb, e);
    }
    EXPECT_GE(a.replayed + b.replayed, 2 * n - 16);
}
