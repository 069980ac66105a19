// The block timing's instruction fetches (TimingModel::record_body, fetch_lookups in model/timing/block_timing.cpp):
// a recording holds every I-cache lookup step() makes for the body, so that it is kept and replayed. Each execution
// is run by the block timing with every replay checked against step() on a copy (set_check_blocks: a recording
// applied to an entry state it does not fit throws) and compared with step() per instruction on a second model, the
// definition.
#include "tests/unit/block_test_util.hpp"

// VeeR EL2 (I-cache lines of 64 bytes: platforms/timing_params.cpp) and a body of ALU instructions, compressed ones
// (2 bytes) and last one of 4 bytes at 0x103E, whose last halfword lies in the next line (0x1040): step() looks that
// line up too (the aligner takes the halfword from the next fetch, el2_ifu_aln_ctl.sv), so the body's fetches look
// up two lines, the second at its start, though no instruction of the body starts there. The recording keeps both
// lookups: every execution after the first few (the lines in the cache, the entry state repeated) replays it. A
// recording that expected one lookup was never kept (step() made one more than it expected): the body was stepped
// every time.
TEST(BlockFetch, AnInstructionAcrossTwoLinesIsReplayed) {
    auto p = platform_timing("veer-el2");
    ASSERT_TRUE(p.has_value());
    ASSERT_TRUE(p->l1i.has_value());
    ASSERT_EQ(p->l1i->line, 64u);
    const std::vector<isa::RetiredInsn> insns = {op(C::alu, 1, 2), op(C::alu, 3, 4), op(C::alu, 5, 6), op(C::alu, 7, 8)};
    const std::vector<uint64_t> pcs = {0x1038, 0x103A, 0x103C, 0x103E};
    const std::vector<uint8_t> sizes = {2, 2, 2, 4};
    const uint64_t after = 0x1042;
    BlockMemo m(insns, pcs, sizes);
    m.set_after(after);
    TimingModel blocks(*p), steps(*p);
    blocks.set_check_blocks(true);
    const std::vector<uint8_t> n_mem(insns.size(), 0);
    const unsigned n = 100;
    for (unsigned e = 0; e < n; ++e) {
        EventBatch bb, sb;
        // A jump back to the body's start before each execution (the body entered anew, as a loop runs it).
        const isa::RetiredInsn jump = [] {
            isa::RetiredInsn j = op(C::jump, 0, 0);
            j.branch = isa::br_taken;
            return j;
        }();
        blocks.step(jump, 0x2000, 4, pcs[0], nullptr, 0, bb);
        steps.step(jump, 0x2000, 4, pcs[0], nullptr, 0, sb);
        const uint64_t c = blocks.step_block(m, nullptr, n_mem.data(), bb);
        uint64_t s = 0;
        for (size_t i = 0; i < insns.size(); ++i)
            s += steps.step(insns[i], pcs[i], sizes[i], i + 1 < pcs.size() ? pcs[i + 1] : after, nullptr, 0, sb);
        ASSERT_EQ(c, s) << "execution " << e;
        expect_same_events(bb, sb, e);
    }
    EXPECT_GE(m.replayed, n - 8);
    EXPECT_LE(m.recorded, 4u);
}
