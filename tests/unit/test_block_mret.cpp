// An mret among a VeeR EL2 body's branches (BlockMemo::inner_): the block timing predicts a body's branches before
// it times the body (TimingModel::predict_inner; with the predictor's memo on, predict_grouped), and hands VeeR's
// plain branches to BranchPredictor::veer() itself (veer_predicted_directly); an mret is no branch the predictor
// sees and goes through predict_other, which step() uses (the definition). The replay never puts an mret inside a
// body (replay/block_runner.cpp, make_block: a block ends at one), so only a direct caller of step_block meets it.
#include "isa/decode.hpp"
#include "tests/unit/block_test_util.hpp"

namespace {

// An RV32 instruction as the replay hands it to the timing (isa::decode_rv), taken when `taken`.
isa::RetiredInsn rv32(uint32_t encoding, bool taken = false) {
    isa::RetiredInsn i = isa::decode_rv(encoding, false).insn;
    if (taken) i.branch = static_cast<uint8_t>(i.branch | isa::br_taken);
    return i;
}

}  // namespace

// The end of a handler and the loop it returns to, run 40 times (RISC-V unprivileged and privileged encodings):
//   0x80000100  addi a0, a0, 1     0x00150513
//   0x80000104  mret               0x30200073   to mepc, 0x80000200
//   0x80000200  addi a1, a1, 1     0x00158593
//   0x80000204  addi a2, a2, 1     0x00160613
//   0x80000208  jal  x0, -0x108    0xEF9FF06F   back to 0x80000100 (the body's tail)
// The body (the first four) on the block timing (its recordings checked against step(): set_check_blocks), with the
// predictor's memo off (the reference stepper's) and on (the block engine's), against step() on a second model, the
// definition: the same cycles and events at every execution, and the same predictor state after.
//
// By hand, from the rules the platform's figures come from (platforms/timing_params.cpp, veer(); step.cpp):
//  - the mret is no branch to VeeR's predictor (el2_dec_decode_ctl.sv: pcall, pja and pret are JAL and JALR forms;
//    mret is the TLU's, whose flush, dec_tlu_flush_lower_wb, redirects fetch to mepc): never mispredicted, so event
//    25 (branches mispredicted) counts nothing in the body, at any execution (predict_exc_return off: "traps: mret
//    is no misprediction"); the jal, a taken jump the BTB misses, is mispredicted at the first execution alone;
//  - once the loop is warm (its lines in the I-cache, the jal in the BTB) an execution takes 8 cycles: addi 1, the
//    mret 1 after it, its target 4 after the mret (tests/veer-rtl/traps, irq: "each mret 1 cycle, the next 4"), the
//    next addi 1, the jal 1; of the target's 4, 2 are the mret's postsync wait (event 31: 2 a postsync instruction);
//  - event 2 (I-cache hits, a 4-byte fetch each) counts 7 an execution: the 5 instructions' fetches and 2 on the
//    wrong path past the mret. Its flush lands a cycle after it commits at E (dec_tlu_flush_lower_wb; a branch's
//    lands a cycle before it commits: exu_flush_final). The fetch runs a cycle ahead of need after the redirect to
//    the target (fetched at its commit - 2, the fetches after it a cycle apart, each once the entry 3 fetches
//    before it is consumed at its instruction's commit), so the mret is fetched at E - 2 and 0x80000108 and
//    0x8000010C at E - 1 and E; the next (E + 1) is too late. As a branch's flush (a cycle before E), none would be.
TEST(BlockMret, AnMretInsideAVeerBodyIsTheSteppersFlushNotAPrediction) {
    auto p = platform_timing("veer-el2");
    ASSERT_TRUE(p.has_value());
    ASSERT_EQ(p->ev_mispredict, 25u);
    const std::vector<isa::RetiredInsn> body = {rv32(0x00150513u), rv32(0x30200073u, true), rv32(0x00158593u),
                                                rv32(0x00160613u)};
    ASSERT_EQ(body[1].cls, C::mret);
    ASSERT_TRUE(body[1].branch & isa::br_exc_return);
    const std::vector<uint64_t> pcs = {0x80000100, 0x80000104, 0x80000200, 0x80000204};
    const std::vector<uint8_t> sizes(body.size(), 4);
    const isa::RetiredInsn jal = rv32(0xEF9FF06Fu, true);
    ASSERT_EQ(jal.cls, C::jump);
    const uint64_t jal_pc = 0x80000208;
    const std::vector<uint8_t> n_mem(body.size(), 0);
    for (const bool memo : {false, true}) {
        SCOPED_TRACE(memo ? "predictor memo on" : "predictor memo off");
        BlockMemo m(body, pcs, sizes);
        m.set_after(jal_pc);
        m.set_tail(jal, jal_pc, 4);
        TimingModel blocks(*p), steps(*p);
        blocks.set_check_blocks(true);
        blocks.predictor().set_memo(memo);
        const unsigned n = 40;
        for (unsigned e = 0; e < n; ++e) {
            EventBatch bb, sb;
            const BlockTail tail{&jal, jal_pc, 4, pcs[0], nullptr, 0};
            const uint64_t c = blocks.step_block(m, nullptr, n_mem.data(), tail, bb);
            uint64_t body_cycles = 0;
            for (size_t i = 0; i < body.size(); ++i)
                body_cycles += steps.step(body[i], pcs[i], sizes[i], i + 1 < pcs.size() ? pcs[i + 1] : jal_pc, nullptr, 0, sb);
            EXPECT_EQ(sb.count(25), 0u) << "execution " << e;  // the body's one control transfer is the mret
            const uint64_t s = body_cycles + steps.step(jal, jal_pc, 4, pcs[0], nullptr, 0, sb);
            ASSERT_EQ(c, s) << "execution " << e;
            expect_same_events(bb, sb, e);
            EXPECT_EQ(bb.count(25), e == 0 ? 1u : 0u) << "execution " << e;
            if (e >= 4) {
                EXPECT_EQ(body_cycles, 7u) << "execution " << e;
                EXPECT_EQ(c, 8u) << "execution " << e;
                EXPECT_EQ(bb.count(31), 2u) << "execution " << e;
                EXPECT_EQ(bb.count(2), 7u) << "execution " << e;
            }
        }
        EXPECT_TRUE(blocks.predictor().same_state(steps.predictor()));
    }
}
