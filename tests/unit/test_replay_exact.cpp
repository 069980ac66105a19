// Replay exactness (issue 13): where the trace fixes a count or a value, the replay is exact. Each trace here is
// written by hand, and each expected value is worked out from the instructions it lists (comments), never taken
// from pmusim's output.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "replay/replay.hpp"
#include "testbench/report.hpp"
#include "traces/convert.hpp"
#include "traces/reader.hpp"
#include "tests/unit/trace_test_util.hpp"

namespace pmusim {
namespace {

using trace::TraceRecord;

using testutil::event_count;
using testutil::read_all;
using testutil::replay_of;
using testutil::temp_file;

// native-text: a register index is decimal unless written with 0x.
TEST(Exact, NativeTextRegisterIndexIsDecimalUnlessHex) {
    const auto v = read_all(temp_file("idx.txt",
                                      "# pmusim trace 1\n"
                                      "pc=0x1000 enc=0xd503201f size=4 isa=a64 priv=1 gpr=15:0x7 gpr=0x15:0x8 sys=0xdce0:0x9\n"));
    ASSERT_EQ(v.size(), 1u);
    ASSERT_EQ(v[0].n_regs, 3u);
    EXPECT_EQ(v[0].regs[0].index, 15u);    // x15, not 0x15
    EXPECT_EQ(v[0].regs[1].index, 0x15u);  // written with 0x: x21
    EXPECT_EQ(v[0].regs[2].index, 0xDCE0u);
}

// --timing trace needs a timestamp on every record; a record without one is an error naming its line.
TEST(Exact, TraceTimingWithoutTimestampsIsAnError) {
    const std::string path = temp_file("notime.txt",
                                       "# pmusim trace 1\n"
                                       "pc=0x1000 enc=0xd503201f size=4 isa=a64 priv=1 time=5\n"
                                       "pc=0x1004 enc=0xd503201f size=4 isa=a64 priv=1\n");
    try {
        replay_of(path, "cortex-a53", replay::Timing::trace);
        FAIL() << "no error";
    } catch (const trace::TraceError& e) {
        EXPECT_NE(std::string(e.what()).find(path + ":3:"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("no timestamp"), std::string::npos) << e.what();
    }
    // With timestamps on both: 5 cycles to the first (counted from 0), 2 more to the second: 7.
    const auto r = replay_of(temp_file("time.txt",
                                       "# pmusim trace 1\n"
                                       "pc=0x1000 enc=0xd503201f size=4 isa=a64 priv=1 time=5\n"
                                       "pc=0x1004 enc=0xd503201f size=4 isa=a64 priv=1 time=7\n"),
                             "cortex-a53", replay::Timing::trace);
    EXPECT_EQ(r.cycles, 7u);
}

// A read-back is compared at the width the trace shows: MRS X0, PMCR_EL0 (d53b9c00) zero-extends the 32-bit
// PMCR_EL0 into X0 (Arm ARM C5.2.x MRS), so X0 = 0x141033000 is not the reset value 0x41033000 (cortex-a53:
// IMP 0x41, IDCODE 0x03, N = 6: PMCR_EL0 = 0x41033000, A53 TRM 12.4.1).
TEST(Exact, ReadbackComparedAtTheTracedWidth) {
    const auto r = replay_of(temp_file("width.txt",
                                       "# pmusim trace 1\n"
                                       "pc=0x1000 enc=0xd53b9c00 size=4 isa=a64 priv=1 gpr=0:0x141033000\n"
                                       "pc=0x1004 enc=0xd53b9c00 size=4 isa=a64 priv=1 gpr=0:0x41033000\n"),
                             "cortex-a53", replay::Timing::cpi1);
    EXPECT_EQ(r.readbacks_checked, 2u);
    EXPECT_EQ(r.readbacks_matched, 1u);
    ASSERT_EQ(r.mismatches.size(), 1u);
    EXPECT_EQ(r.mismatches[0].line, 2u);
    EXPECT_EQ(r.mismatches[0].traced, 0x141033000u);
    EXPECT_EQ(r.mismatches[0].predicted, 0x41033000u);
    // RV32: csrr a0, minstret (b0202573) as the first instruction reads 0 (nothing retired before it; mcountinhibit
    // is 0 at reset, VeeR EL2 PRM 7.4); a traced a0 of 0x100000000 has a bit no 32-bit register holds.
    const auto v = replay_of(temp_file("width_rv.txt",
                                       "# pmusim trace 1\n"
                                       "pc=0x80000000 enc=0xb0202573 size=4 isa=rv32 priv=3 gpr=10:0x100000000\n"),
                             "veer-el2", replay::Timing::cpi1);
    EXPECT_EQ(v.readbacks_checked, 1u);
    EXPECT_EQ(v.readbacks_matched, 0u);
}

// The JSON lists every mismatch; the table the first eight and how many more.
TEST(Exact, EveryMismatchIsReported) {
    std::string text = "# pmusim trace 1\n";
    for (int i = 0; i < 11; ++i) text += "pc=0x1000 enc=0xd53b9c00 size=4 isa=a64 priv=1 gpr=0:0x1\n";  // 1 != 0x41033000
    const std::string path = temp_file("many.txt", text);
    replay::Options o;
    o.platform = "cortex-a53";
    o.trace = path;
    o.timing = replay::Timing::cpi1;
    const auto r = replay::run(o);
    EXPECT_EQ(r.readbacks_checked, 11u);
    ASSERT_EQ(r.mismatches.size(), 11u);
    EXPECT_EQ(r.mismatches[10].line, 12u);  // the 11th record, on line 12
    std::ostringstream table;
    replay::print(o, *find_platform("cortex-a53"), r, table);
    EXPECT_NE(table.str().find("line 9: PMCR_EL0 traced 0x1"), std::string::npos) << table.str();  // the 8th
    EXPECT_EQ(table.str().find("line 10: PMCR_EL0"), std::string::npos) << table.str();
    EXPECT_NE(table.str().find("and 3 more"), std::string::npos) << table.str();
    o.output = replay::Output::json;
    std::ostringstream js;
    replay::print(o, *find_platform("cortex-a53"), r, js);
    const auto j = nlohmann::json::parse(js.str());
    ASSERT_EQ(j["readbacks"]["mismatches"].size(), 11u);
    EXPECT_EQ(j["readbacks"]["mismatches"][10]["line"], 12);
}

// VeeR EL2: a nop (its fetch brings the I-cache line in), a bus load (outside the DCCM, PRM ch. 2) and a
// consumer of its value. Under --timing cpi1 each instruction takes one cycle, so no cycle is a stall:
// CYCLES_DECODE_STALLED (30) is 0 and cycles = 3.
TEST(Exact, Cpi1HasNoStallCycles) {
    const std::string path = temp_file("stall.txt",
                                       "# pmusim trace 1\n"
                                       "pc=0x80000000 enc=0x00000013 size=4 isa=rv32 priv=3\n"
                                       "pc=0x80000004 enc=0x0005a503 size=4 isa=rv32 priv=3 mem=r:4:0x80100000 gpr=10:0x5\n"
                                       "pc=0x80000008 enc=0x00a50633 size=4 isa=rv32 priv=3 gpr=12:0xa\n");
    const auto c = replay_of(path, "veer-el2", replay::Timing::cpi1);
    EXPECT_EQ(c.cycles, 3u);
    EXPECT_EQ(event_count(c, 30), 0u);
    // The model makes the add wait for the load (so the test above can fail).
    const auto m = replay_of(path, "veer-el2", replay::Timing::model);
    EXPECT_GT(event_count(m, 30), 0u);
}

// VeeR EL2 event 27 (el2_dec_decode_ctl.sv: i0_br_unpred): a JAL beyond the BTB's 12-bit offset (outside
// -4096..4094) or a JALR that is not a return (rd x0, rs1 ra or t0), from the encodings alone: the same count with
// the timing model and without it (--architectural). Hand-assembled:
//   jal x0,+8 (0080006f)         near jump              jal x0,+0x2000 (0000206f)   far: 27
//   jal ra,+8 (008000ef)         near call              jalr x0,0(ra) (00008067)    return
//   jalr x0,0(a5) (00078067)     27                     c.jr a5 (8782)              27
//   c.jalr a5 (9782)             27 (a call, not a return)
//   jal x0,-4096 (801ff06f)      near (the reach's end)  jal x0,+4096 (0000106f)    far: 27
TEST(Exact, VeerUnpredictableJumpsFromTheEncoding) {
    const std::string path = temp_file("unpred.txt",
                                       "# pmusim trace 1\n"
                                       "pc=0x80000000 enc=0x0080006f size=4 isa=rv32 priv=3\n"
                                       "pc=0x80000008 enc=0x0000206f size=4 isa=rv32 priv=3\n"
                                       "pc=0x80002008 enc=0x008000ef size=4 isa=rv32 priv=3\n"
                                       "pc=0x80002010 enc=0x00008067 size=4 isa=rv32 priv=3\n"
                                       "pc=0x8000200c enc=0x00078067 size=4 isa=rv32 priv=3\n"
                                       "pc=0x80003000 enc=0x8782 size=2 isa=rv32 priv=3\n"
                                       "pc=0x80003100 enc=0x9782 size=2 isa=rv32 priv=3\n"
                                       "pc=0x80003200 enc=0x801ff06f size=4 isa=rv32 priv=3\n"
                                       "pc=0x80002200 enc=0x0000106f size=4 isa=rv32 priv=3\n"
                                       "pc=0x80003200 enc=0x00000013 size=4 isa=rv32 priv=3\n");
    const auto m = replay_of(path, "veer-el2", replay::Timing::model);
    EXPECT_EQ(event_count(m, 27), 5u);
    EXPECT_EQ(event_count(m, 24), 9u);
    replay::Options o;
    o.platform = "veer-el2";
    o.trace = path;
    o.timing = replay::Timing::cpi1;
    o.timing_events = false;
    const auto a = replay::run(o);
    EXPECT_EQ(event_count(a, 27), 5u);
}

// VeeR EL2 exec.log: a non-blocking load's value arrives on a later nbL line; the csrw after it writes that value
// (the exec.log's CSR column shows c323=00000002), and the csrr reads it back: 1 checked, 1 matched.
//   lw a1,0(a1) = 0005a583; csrw mhpmevent3,a1 = 32359073; csrr a0,mhpmevent3 = 32302573.
TEST(Exact, VeerLateWritebackReachesTheRegisterFile) {
    const std::string log =
        "//   Cycle : #inst    0    pc    opcode    reg=value    csr=value     ; mnemonic\n"
        "        10 :       #1 0 80000000 0005a583                             ; lw      a1,0(a1) [80100000]\n"
        "        14 :                               a1=00000002                ; nbL\n"
        "        15 :       #2 0 80000004 32359073               c323=00000002 ; csrw    mhpmevent3,a1\n"
        "        16 :       #3 0 80000008 32302573  a0=00000002                ; csrr    a0,mhpmevent3\n";
    const std::string path = temp_file("nbl.exec.log", log);
    const auto v = read_all(path);
    ASSERT_EQ(v.size(), 3u);
    ASSERT_EQ(v[1].n_regs, 2u);  // the writeback (before), then the CSR column
    EXPECT_TRUE(v[1].regs[0].before);
    EXPECT_EQ(v[1].regs[0].index, 11u);
    EXPECT_EQ(v[1].regs[0].value, 2u);
    const auto r = replay_of(path, "veer-el2", replay::Timing::trace);
    EXPECT_EQ(r.readbacks_checked, 1u);
    EXPECT_EQ(r.readbacks_matched, 1u);
    EXPECT_EQ(r.cycles, 16u);
    // The same through the native text form (wb=).
    const auto t = read_all(temp_file("nbl.txt",
                                      "# pmusim trace 1\n"
                                      "pc=0x80000004 enc=0x32359073 size=4 isa=rv32 priv=3 wb=11:0x2 csr=0x323:0x2\n"));
    ASSERT_EQ(t.size(), 1u);
    EXPECT_TRUE(t[0].regs[0].before);
    EXPECT_FALSE(t[0].regs[1].before);
}

// VeeR EL2 exec.log, interrupts (tests/veer-rtl/irq shows each case on the RTL). A spin loop: lw a4 at
// 80000004 (4807a703), bgeu a3,a4 back to it (fee6fee3, taken while a4 <= a3 = 0). The RTL prints the bgeu taken
// at #5 and again at #6 (same PC and encoding, no CSR value: a bgeu that was taken cannot go to itself) before the
// interrupt handler at mtvec (80000100): #6 is not an instruction. The handler reads mcause = 0x80000007 (the
// platform timer: event 38) and returns with mret to 80000004. Retired: #1-#5 and #7-#11, 10 instructions; two
// flushes (the interrupt and the mret: event 40).
TEST(Exact, VeerInterruptEntryPrintedTwiceRetiresOnce) {
    const std::string log =
        "        10 :       #1 0 80000000 30579073               c305=80000100 ; csrw    mtvec,a5\n"
        "        11 :       #2 0 80000004 4807a703  a4=00000000                ; lw      a4,1152(a5) [f0040480]\n"
        "        12 :       #3 0 80000008 fee6fee3                             ; bgeu    a3,a4,0x80000004\n"
        "        13 :       #4 0 80000004 4807a703  a4=00000000                ; lw      a4,1152(a5) [f0040480]\n"
        "        14 :       #5 0 80000008 fee6fee3                             ; bgeu    a3,a4,0x80000004\n"
        "        15 :       #6 0 80000008 fee6fee3                             ; bgeu    a3,a4,0x80000004\n"
        "        18 :       #7 0 80000100 342022f3  t0=80000007                ; csrrs   t0,csr_342,zero\n"
        "        19 :       #8 0 80000104 30200073                             ; \n"
        "        22 :       #9 0 80000004 4807a703  a4=00000001                ; lw      a4,1152(a5) [f0040480]\n"
        "        23 :      #10 0 80000008 fee6fee3                             ; bgeu    a3,a4,0x80000004\n"
        "        24 :      #11 0 8000000c 00000013                             ; nop\n";
    const std::string path = temp_file("irq_dup.exec.log", log);
    const auto v = read_all(path);
    ASSERT_EQ(v.size(), 10u);
    EXPECT_EQ(v[5].pc, 0x80000100u);
    EXPECT_TRUE(v[5].interrupt);
    EXPECT_EQ(v[5].cause, 7u);
    for (size_t i = 0; i < v.size(); ++i) {
        if (i != 5) {
            EXPECT_FALSE(v[i].interrupt) << i;
        }
    }
    const auto r = replay_of(path, "veer-el2", replay::Timing::trace);
    EXPECT_EQ(r.instructions, 10u);
    EXPECT_EQ(event_count(r, 38), 1u);
    EXPECT_EQ(event_count(r, 39), 0u);
    EXPECT_EQ(event_count(r, 40), 2u);
}

// VeeR EL2 exec.log, two interrupts back to back (tests/veer-rtl/irqpair: internal timers 0 and 1 both pending
// when a csrw sets mstatus.MIE). At an entry the trace port shows the instruction in its writeback register: the
// lw at 80000008 that the first entry flushed (#3, no value; it retires after the handlers, #9), and the first
// handler's mret again (#6) before the second entry, which comes right at that mret. Retired: #1, #2, #4, #5, #7,
// #8, #9, #10: 8 instructions; two timer interrupts taken (event 38 counts the internal timers too), causes 29 and
// 28 from the handlers' mcause reads.
TEST(Exact, VeerInterruptRightAfterAnMretRetiresTheMretOnce) {
    const std::string log =
        "        10 :       #1 0 80000000 30579073               c305=80000100 ; csrw    mtvec,a5\n"
        "        11 :       #2 0 80000004 30079073               c300=00001888 ; csrrw   zero,csr_300,a5\n"
        "        14 :       #3 0 80000008 0dc72783                             ; lw      a5,220(a4) [f00400dc]\n"
        "        17 :       #4 0 80000100 342022f3  t0=8000001d                ; csrrs   t0,csr_342,zero\n"
        "        18 :       #5 0 80000104 30200073                             ; \n"
        "        20 :       #6 0 80000104 30200073                             ; \n"
        "        24 :       #7 0 80000100 342022f3  t0=8000001c                ; csrrs   t0,csr_342,zero\n"
        "        25 :       #8 0 80000104 30200073                             ; \n"
        "        29 :       #9 0 80000008 0dc72783  a5=00000002                ; lw      a5,220(a4) [f00400dc]\n"
        "        30 :      #10 0 8000000c 00000013                             ; nop\n";
    const std::string path = temp_file("irq_pair.exec.log", log);
    const auto v = read_all(path);
    ASSERT_EQ(v.size(), 8u);
    const std::vector<uint64_t> pcs = {0x80000000u, 0x80000004u, 0x80000100u, 0x80000104u,
                                       0x80000100u, 0x80000104u, 0x80000008u, 0x8000000Cu};
    for (size_t i = 0; i < v.size(); ++i) {
        EXPECT_EQ(v[i].pc, pcs[i]) << i;
        EXPECT_EQ(v[i].interrupt, i == 2 || i == 4) << i;
    }
    EXPECT_EQ(v[2].cause, 29u);
    EXPECT_EQ(v[4].cause, 28u);
    const auto r = replay_of(path, "veer-el2", replay::Timing::trace);
    EXPECT_EQ(r.instructions, 8u);
    EXPECT_EQ(event_count(r, 38), 2u);
}

// VeeR EL2 fast interrupt redirect: once meivt is set, an external interrupt enters its handler (here 80000200)
// straight from the meivt table, not through mtvec: event 39. The RTL prints the instruction at the address the
// handler returns to (mepc, the bgeu at 8000000c) before the entry although the interrupt flushed it: the mret
// goes back to it, and it retires there. Retired: #1-#5, #7-#12: 11 instructions. Flushes (event 40): the fast
// redirect flushes twice (el2_dec_tlu_ctl.sv: take_ext_int_start, then the interrupt), the mret once.
TEST(Exact, VeerInstructionFlushedByAnInterruptRetiresAfterTheHandler) {
    const std::string log =
        "        10 :       #1 0 80000000 30579073               c305=80000100 ; csrw    mtvec,a5\n"
        "        11 :       #2 0 80000004 bc879073               cbc8=f0040400 ; csrw    meivt,a5\n"
        "        12 :       #3 0 80000008 4807a703  a4=00000000                ; lw      a4,1152(a5) [f0040480]\n"
        "        13 :       #4 0 8000000c fee6fee3                             ; bgeu    a3,a4,0x80000008\n"
        "        14 :       #5 0 80000008 4807a703  a4=00000000                ; lw      a4,1152(a5) [f0040480]\n"
        "        15 :       #6 0 8000000c fee6fee3                             ; bgeu    a3,a4,0x80000008\n"
        "        20 :       #7 0 80000200 00000013                             ; nop\n"
        "        21 :       #8 0 80000204 30200073                             ; \n"
        "        24 :       #9 0 8000000c fee6fee3                             ; bgeu    a3,a4,0x80000008\n"
        "        25 :      #10 0 80000008 4807a703  a4=00000001                ; lw      a4,1152(a5) [f0040480]\n"
        "        26 :      #11 0 8000000c fee6fee3                             ; bgeu    a3,a4,0x80000008\n"
        "        27 :      #12 0 80000010 00000013                             ; nop\n";
    const std::string path = temp_file("irq_flushed.exec.log", log);
    const auto v = read_all(path);
    ASSERT_EQ(v.size(), 11u);
    EXPECT_EQ(v[4].pc, 0x80000008u);  // #5; #6 is gone
    EXPECT_TRUE(v[5].interrupt);
    EXPECT_EQ(v[5].cause, 11u);
    const auto r = replay_of(path, "veer-el2", replay::Timing::trace);
    EXPECT_EQ(r.instructions, 11u);
    // The native forms keep the entry and its cause.
    for (const char* name : {"irq_flushed.pmt", "irq_flushed.txt"}) {
        const std::string out = testing::TempDir() + name;
        trace::convert(path, "auto", trace::ReaderOptions{}, out, std::string(name).find(".txt") != std::string::npos);
        const auto n = read_all(out);
        ASSERT_EQ(n.size(), 11u) << name;
        EXPECT_TRUE(n[5].interrupt) << name;
        EXPECT_EQ(n[5].cause, 11u) << name;
        EXPECT_FALSE(n[4].interrupt) << name;
        EXPECT_EQ(n[4].cause, TraceRecord::unknown_cause) << name;
    }
    EXPECT_EQ(event_count(r, 38), 0u);
    EXPECT_EQ(event_count(r, 39), 1u);
    EXPECT_EQ(event_count(r, 40), 3u);
}

// VeeR EL2 under --timing trace: a csrr of a running mcycle returns the count 3 cycles (csr_read_lead) before
// the csrr commits (the bundled Dhrystone reads 1172 at commit 1175). Counting from 0: the csrr committing at 13
// reads 10, the one committing at 30 reads 27; the commit of the instruction before each (11, 20) is not what is
// read. mcountinhibit is 0 at reset, so mcycle runs.
TEST(Exact, VeerRunningCycleCounterIsReadBeforeCommit) {
    ASSERT_EQ(find_platform("veer-el2")->timing->csr_read_lead, 3u);
    const std::string log =
        "        10 :       #1 0 80000000 00000013                             ; nop\n"
        "        11 :       #2 0 80000004 00000013                             ; nop\n"
        "        13 :       #3 0 80000008 b0002873  a6=0000000a                ; csrrs   a6,csr_b00,zero\n"
        "        20 :       #4 0 8000000c 00000013                             ; nop\n"
        "        30 :       #5 0 80000010 b0002873  a6=0000001b                ; csrrs   a6,csr_b00,zero\n";
    const auto r = replay_of(temp_file("lead.exec.log", log), "veer-el2", replay::Timing::trace);
    EXPECT_EQ(r.readbacks_checked, 2u);
    EXPECT_EQ(r.readbacks_matched, 2u);
    EXPECT_EQ(r.cycles, 30u);  // the reads move no cycles
}

// VeeR EL2 pmu/fw-halt (veer-el2-mhpm.md §5): csrw mpmc,a3 with a3 = 3 (halt, haltie) at cycle 12; the c.li
// already in the pipeline retires at 13; the core then sleeps until an interrupt wakes it (the handler at mtvec,
// cycle 80). mcycle stops while it sleeps: of the 67 cycles from 13 to 80, all but the fw_halt_wake cycles of
// waking and entering pass in fw-halt. Under --timing trace the csrr of mcycle at #7 (commit 84) reads the count
// 3 cycles before its commit (csr_read_lead), at 81, the mret's commit: 10 + 1 + 1 + 1 (to #4) + fw_halt_wake + 1
// (the mret): 14 + fw_halt_wake. Counting goes on after the wake: the
// csrr of minstret at #8 reads 7 (#1-#7, the mret included).
TEST(Exact, VeerFwHaltEndsAtTheInterruptThatWakesTheCore) {
    const std::string log =
        "        10 :       #1 0 80000000 30579073               c305=80000100 ; csrw    mtvec,a5\n"
        "        11 :       #2 0 80000004 0000468d  a3=00000003                ; c.li    a3,3\n"
        "        12 :       #3 0 80000006 7c669073               c7c6=00000003 ; csrw    mpmc,a3\n"
        "        13 :       #4 0 8000000a 00004691  a3=00000004                ; c.li    a3,4\n"
        "        80 :       #5 0 80000100 00000013                             ; nop\n"
        "        81 :       #6 0 80000104 30200073                             ; \n"
        "        84 :       #7 0 8000000c b0002873  a6=%08x                ; csrrs   a6,csr_b00,zero\n"
        "        85 :       #8 0 80000010 b0202873  a6=00000007                ; csrrs   a6,csr_b02,zero\n";
    const unsigned wake = find_platform("veer-el2")->timing->fw_halt_wake;
    char buf[2048];
    std::snprintf(buf, sizeof buf, log.c_str(), 14 + wake);
    const std::string path = temp_file("fwhalt.exec.log", buf);
    const auto v = read_all(path);
    ASSERT_EQ(v.size(), 8u);
    EXPECT_TRUE(v[4].interrupt);
    const auto r = replay_of(path, "veer-el2", replay::Timing::trace);
    EXPECT_EQ(r.readbacks_checked, 2u);
    EXPECT_EQ(r.readbacks_matched, 2u) << (r.mismatches.empty() ? std::string()
                                                                : fmt::format("{} traced {} predicted {}", r.mismatches[0].reg,
                                                                              r.mismatches[0].traced, r.mismatches[0].predicted));
    // Flushes (event 40): the fw-halt, the interrupt and the mret.
    EXPECT_EQ(event_count(r, 40), 3u);
}

// QEMU -d in_asm,exec,nochain under -icount: a store to a device in the middle of a block makes QEMU rewind it
// (cpu_io_recompile) and run the store alone in a new block; the block's instructions before the store retired,
// the rest ran again from the new blocks. movz, str, movz: 3 instructions.
TEST(Exact, QemuRewoundBlockRetiresOnlyItsPrefix) {
    const std::string log =
        "----------------\n"
        "IN: \n"
        "0x40080000:  d2800020  movz     x0, #0x1\n"
        "0x40080004:  b9000041  str      w1, [x2]\n"
        "0x40080008:  d2800040  movz     x0, #0x2\n"
        "\n"
        "Trace 0: 0x7f0000000100 [0000000000000000/0000000040080000/00000121/ff000000] \n"
        "cpu_io_recompile: rewound execution of TB to 0000000040080000\n"
        "----------------\n"
        "IN: \n"
        "0x40080004:  b9000041  str      w1, [x2]\n"
        "\n"
        "Trace 0: 0x7f0000000200 [0000000000000000/0000000040080004/00000121/ff008001] \n"
        "----------------\n"
        "IN: \n"
        "0x40080008:  d2800040  movz     x0, #0x2\n"
        "\n"
        "Trace 0: 0x7f0000000300 [0000000000000000/0000000040080008/00000121/ff000000] \n";
    const auto r = replay_of(temp_file("rewound.log", log), "cortex-a53", replay::Timing::cpi1);
    EXPECT_EQ(r.instructions, 3u);
    EXPECT_EQ(event_count(r, 0x13), 1u);  // MEM_ACCESS: the str once
}

// A block whose instruction budget ran out before it started ("Stopped execution of TB chain before") retires
// nothing; QEMU translates a shorter block at the same pc (listed again: it replaces the old listing, never adds
// to it); the full block (host 0x...100) runs later as it was translated: 0 + 1 + 1 + 2 = 4 instructions.
TEST(Exact, QemuStoppedAndRetranslatedBlocks) {
    const std::string log =
        "----------------\n"
        "IN: \n"
        "0x40080000:  d2800020  movz     x0, #0x1\n"
        "0x40080004:  d2800040  movz     x0, #0x2\n"
        "\n"
        "Trace 0: 0x7f0000000100 [0000000000000000/0000000040080000/00000121/ff000000] \n"
        "Stopped execution of TB chain before 0x7f0000000100 [0000000040080000] \n"
        "----------------\n"
        "IN: \n"
        "0x40080000:  d2800020  movz     x0, #0x1\n"
        "\n"
        "Trace 0: 0x7f0000000200 [0000000000000000/0000000040080000/00000121/ff000001] \n"
        "----------------\n"
        "IN: \n"
        "0x40080004:  d2800040  movz     x0, #0x2\n"
        "\n"
        "Trace 0: 0x7f0000000300 [0000000000000000/0000000040080004/00000121/ff000000] \n"
        "Trace 0: 0x7f0000000100 [0000000000000000/0000000040080000/00000121/ff000000] \n";
    const auto v = read_all(temp_file("stopped.log", log));
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0].pc, 0x40080000u);
    EXPECT_EQ(v[1].pc, 0x40080004u);
    EXPECT_EQ(v[2].pc, 0x40080000u);
    EXPECT_EQ(v[3].pc, 0x40080004u);
}

// QEMU -d in_asm,exec,cpu: every system-register read is checked against the dump, changed or not.
//   block 1: mrs x1, pmcr_el0 (x1 already held 0x41033000): checked from the next dump;
//   block 2: mrs x2, pmcr_el0; movz x5, #1: x2 is not written again in the block: checked;
//   block 3: mrs x3, pmcr_el0; movz x3, #5: x3 is overwritten in the block: the dump does not show the read;
//   block 4: nop. PMCR_EL0 reads its reset value 0x41033000 on cortex-a53 (A53 TRM 12.4.1): 2 checked, 2 matched.
TEST(Exact, QemuEveryReadIsChecked) {
    auto dump = [](uint64_t pc, uint64_t x1, uint64_t x2, uint64_t x3, uint64_t x5) {
        char b[400];
        std::snprintf(b, sizeof b,
                      " PC=%016llx X00=0000000000000000 X01=%016llx\n"
                      "X02=%016llx X03=%016llx X04=0000000000000000\n"
                      "X05=%016llx\n"
                      "PSTATE=400003c5 -Z-- EL1h\n",
                      static_cast<unsigned long long>(pc), static_cast<unsigned long long>(x1), static_cast<unsigned long long>(x2),
                      static_cast<unsigned long long>(x3), static_cast<unsigned long long>(x5));
        return std::string(b);
    };
    const std::string log =
        "IN: \n0x40080000:  d53b9c01  mrs      x1, pmcr_el0\n\n"
        "Trace 0: 0x7f0000000100 [0000000000000000/0000000040080000/00000121/ff000000] \n" +
        dump(0x40080000, 0x41033000, 0, 0, 0) +
        "IN: \n0x40080004:  d53b9c02  mrs      x2, pmcr_el0\n0x40080008:  d2800025  movz     x5, #0x1\n\n"
        "Trace 0: 0x7f0000000200 [0000000000000000/0000000040080004/00000121/ff000000] \n" +
        dump(0x40080004, 0x41033000, 0, 0, 0) +
        "IN: \n0x4008000c:  d53b9c03  mrs      x3, pmcr_el0\n0x40080010:  d28000a3  movz     x3, #0x5\n\n"
        "Trace 0: 0x7f0000000300 [0000000000000000/000000004008000c/00000121/ff000000] \n" +
        dump(0x4008000c, 0x41033000, 0x41033000, 0, 1) +
        "IN: \n0x40080014:  d503201f  nop\n\n"
        "Trace 0: 0x7f0000000400 [0000000000000000/0000000040080014/00000121/ff000000] \n" +
        dump(0x40080014, 0x41033000, 0x41033000, 5, 1);
    const auto r = replay_of(temp_file("reads.log", log), "cortex-a53", replay::Timing::cpi1);
    EXPECT_EQ(r.instructions, 6u);
    EXPECT_EQ(r.readbacks_checked, 2u);
    EXPECT_EQ(r.readbacks_matched, 2u);
}

// `pmusim convert` takes the platform (or instruction set) as `run` does, so every format converts, and the native
// header keeps what the replay needs: a VeeR exec.log starts at reset (mrac 0: every fetch uncached until the
// program writes mrac), has timestamps and register values.
TEST(Exact, ConvertEveryFormatAndKeepTheHeader) {
    const std::string dir = ::testing::TempDir();
    // pmusim convert IN OUT [--platform P | --isa I]: the command maps the platform to its instruction set.
    auto convert = [&](const std::string& in, const std::string& out, std::string& err, trace::IsaState isa = trace::IsaState::unknown) {
        trace::ReaderOptions o;
        o.isa = isa;
        try {
            trace::convert(in, "auto", o, out, out.size() > 4 && out.substr(out.size() - 4) == ".txt");
        } catch (const trace::TraceError& e) {
            err = e.what();
            return 2;
        }
        return 0;
    };
    std::string err;
    // A QEMU execlog (FORMATS.md 3a) does not say its instruction set.
    const std::string execlog = temp_file("c.execlog", "0, 0x40080000, 0xd503201f, \"nop\"\n0, 0x40080004, 0xd503201f, \"nop\"\n");
    EXPECT_EQ(convert(execlog, dir + "c1.txt", err), 2);
    EXPECT_NE(err.find("--platform"), std::string::npos) << err;
    EXPECT_FALSE(std::ifstream(dir + "c1.txt").good());  // nothing written
    ASSERT_EQ(convert(execlog, dir + "c2.txt", err, trace::IsaState::a64), 0) << err;
    auto v = read_all(dir + "c2.txt");
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].isa, trace::IsaState::a64);
    auto h = trace::open_reader(dir + "c2.txt", "auto", {});
    EXPECT_FALSE(h->has_register_values());  // the execlog carries none: the replay says so, as on the original
    EXPECT_FALSE(h->has_time());
    // A QEMU -d in_asm,exec log without register dumps: the instruction set from --isa.
    const std::string dlog = temp_file("c.log", "IN: \n0x40080000:  d503201f  nop\n\nTrace 0: 0x7f0000000100 "
                                                "[0000000000000000/0000000040080000/00000121/ff000000] \n");
    EXPECT_EQ(convert(dlog, dir + "c3.pmt", err), 2);
    EXPECT_NE(err.find("does not say its instruction set"), std::string::npos) << err;
    ASSERT_EQ(convert(dlog, dir + "c4.pmt", err, trace::IsaState::a64), 0) << err;
    v = read_all(dir + "c4.pmt");
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].isa, trace::IsaState::a64);
    // A VeeR exec.log: reset, time and values survive the binary and the text form, with the late writeback.
    const std::string veer = temp_file("c.exec.log",
                                       "        10 :       #1 0 80000000 0005a583                             ; lw      a1,0(a1) [80100000]\n"
                                       "        14 :                               a1=00000002                ; nbL\n"
                                       "        15 :       #2 0 80000004 32359073               c323=00000002 ; csrw    mhpmevent3,a1\n");
    for (const std::string& out : {dir + "c5.pmt", dir + "c5.txt"}) {
        ASSERT_EQ(convert(veer, out, err), 0) << err;
        auto r = trace::open_reader(out, "auto", {});
        EXPECT_TRUE(r->starts_at_reset()) << out;
        EXPECT_TRUE(r->has_register_values()) << out;
        EXPECT_TRUE(r->has_time()) << out;
        const auto w = read_all(out);
        ASSERT_EQ(w.size(), 2u);
        EXPECT_TRUE(w[1].regs[0].before) << out;
        // The replay of the conversion is the replay of the original (the reset mrac makes the fetches uncached).
        const auto a = replay_of(veer, "veer-el2"), b = replay_of(out, "veer-el2");
        EXPECT_EQ(a.cycles, b.cycles) << out;
        EXPECT_EQ(a.counters, b.counters) << out;
    }
}

// VeeR EL2 with user mode (-o user_mode=1): the program sets mtvec and mstatus.MPP = U, mret enters U-mode, and
// csrr a0, cycle traps there (mcounteren resets to 0: VeeR EL2 PRM 2.x, RISC-V privileged spec 3.1.11): the
// exec.log shows it with no a0 value, and the next instruction is at mtvec. The trap is checked (the model refuses
// the read too), the csrr does not retire: 6 instructions of 7 lines.
//   lui a5,0x80000 = 800007b7; addi a5,a5,256 = 10078793; csrw mtvec,a5 = 30579073; csrw mstatus,zero = 30001073;
//   mret = 30200073; csrr a0,cycle = c0002573; csrr a1,mcause = 342025f3.
TEST(Exact, VeerUserModeTrapIsAReadback) {
    const std::string log =
        "        10 :       #1 0 80000000 800007b7  a5=80000000                ; lui     a5,0x80000000\n"
        "        11 :       #2 0 80000004 10078793  a5=80000100                ; addi    a5,a5,256\n"
        "        12 :       #3 0 80000008 30579073               c305=80000100 ; csrrw   zero,csr_305,a5\n"
        "        13 :       #4 0 8000000c 30001073               c300=00000000 ; csrrw   zero,csr_300,zero\n"
        "        14 :       #5 0 80000010 30200073                             ; \n"
        "        20 :       #6 0 80000200 c0002573                             ; csrrs   a0,csr_c00,zero\n"
        "        27 :       #7 0 80000100 342025f3  a1=00000002                ; csrrs   a1,csr_342,zero\n";
    const std::string path = temp_file("user.exec.log", log);
    const auto v = read_all(path);
    ASSERT_EQ(v.size(), 7u);
    EXPECT_EQ(v[4].privilege, 3u);  // the mret runs in M
    EXPECT_EQ(v[5].privilege, 0u);  // the csrr in U
    EXPECT_TRUE(v[5].trapped);
    EXPECT_EQ(v[6].privilege, 3u);  // the handler in M
    const auto r = replay_of(path, "veer-el2", replay::Timing::trace, {{"user_mode", "1"}});
    EXPECT_EQ(r.instructions, 6u);
    EXPECT_EQ(r.readbacks_checked, 1u);
    EXPECT_EQ(r.readbacks_matched, 1u);
}

}  // namespace
}  // namespace pmusim
