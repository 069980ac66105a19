// The VeeR exec.log reader's faster paths (traces/veer_reader.cpp, docs/performance.md "Text readers"): lines in
// the RTL testbench's own columns read at fixed places, any other spacing read word by word, with the same records;
// one decode per distinct encoding, whatever the PC and however many encodings a trace has.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/unit/trace_test_util.hpp"
#include "traces/reader.hpp"

using namespace pmusim;
using trace::TraceRecord;

namespace {

// One instruction line as the RTL testbench prints it: "%10d : %8s 0 %h %h%13s %14s ; %s" (FORMATS.md §4b).
std::string rtl(uint64_t cycle, unsigned n, uint32_t pc, uint32_t insn, const std::string& gpr, const std::string& csr,
                const std::string& dasm) {
    return fmt::format("{:10} : {:>8} 0 {:08x} {:08x}{:>13} {:>14} ; {}\n", cycle, fmt::format("#{}", n), pc, insn, gpr, csr, dasm);
}

// The same line with other white space, a "0x" prefix on the PC and no leading zeros: read word by word.
std::string loose(uint64_t cycle, unsigned n, uint32_t pc, uint32_t insn, const std::string& gpr, const std::string& csr,
                  const std::string& dasm) {
    return fmt::format("\t{} :\t#{} 0 0x{:x} {:x} {} {}\t;  {} \n", cycle, n, pc, insn, gpr, csr, dasm);
}

std::vector<TraceRecord> read_text(const std::string& name, const std::string& text, bool all = true) {
    trace::ReaderOptions o;
    o.replay_all = all;
    return testutil::read_all(testutil::temp_file(name, text), "veer", o);
}

void expect_same(const TraceRecord& a, const TraceRecord& b, size_t i) {
    EXPECT_EQ(a.pc, b.pc) << i;
    EXPECT_EQ(a.encoding, b.encoding) << i;
    EXPECT_EQ(a.size, b.size) << i;
    EXPECT_EQ(a.time, b.time) << i;
    EXPECT_EQ(a.line, b.line) << i;
    EXPECT_EQ(a.privilege, b.privilege) << i;
    EXPECT_EQ(a.interrupt, b.interrupt) << i;
    EXPECT_EQ(a.trapped, b.trapped) << i;
    ASSERT_EQ(a.n_regs, b.n_regs) << i;
    for (unsigned k = 0; k < a.n_regs; ++k) {
        EXPECT_EQ(a.regs[k].kind, b.regs[k].kind) << i << " reg " << k;
        EXPECT_EQ(a.regs[k].index, b.regs[k].index) << i << " reg " << k;
        EXPECT_EQ(a.regs[k].value, b.regs[k].value) << i << " reg " << k;
        EXPECT_EQ(a.regs[k].before, b.regs[k].before) << i << " reg " << k;
    }
    ASSERT_EQ(a.n_mem, b.n_mem) << i;
    for (unsigned k = 0; k < a.n_mem; ++k) {
        EXPECT_EQ(a.mem[k].addr, b.mem[k].addr) << i;
        EXPECT_EQ(a.mem[k].size, b.mem[k].size) << i;
        EXPECT_EQ(a.mem[k].is_write, b.mem[k].is_write) << i;
        EXPECT_EQ(a.mem[k].data, b.mem[k].data) << i;
        EXPECT_EQ(a.mem[k].data_known, b.mem[k].data_known) << i;
    }
}

// RISC-V unprivileged spec ch. 2: the S-type and I-type formats.
uint32_t s_type(unsigned f3, unsigned rs1, unsigned rs2, uint32_t imm) {
    return ((imm >> 5) & 0x7Fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (imm & 0x1Fu) << 7 | 0x23u;
}
uint32_t i_type(uint32_t opcode, unsigned f3, unsigned rd, unsigned rs1, uint32_t imm) {
    return (imm & 0xFFFu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opcode;
}

}  // namespace

// Every kind of column, in the RTL's layout and with other spacing: the same records, with the values worked out
// from the encodings (RISC-V unprivileged spec ch. 2, 16) and the columns.
TEST(VeerColumns, RtlLayoutAndOtherSpacingGiveTheSameRecords) {
    using Line = std::string (*)(uint64_t, unsigned, uint32_t, uint32_t, const std::string&, const std::string&, const std::string&);
    const auto text = [](Line line, const std::string& late) {
        std::string t = "//   Cycle : #inst    0    pc    opcode    reg=value    csr=value     ; mnemonic\n";
        t += line(10, 1, 0x80000000, 0x00150513, "a0=12345678", "", "addi    a0,a0,1");
        t += line(11, 2, 0x80000004, 0x10000593, "a1=00000100", "", "li      a1,256");
        t += line(12, 3, 0x80000008, 0x0085A503, "a0=cafef00d", "", "lw      a0,8(a1) [00000108]");
        t += line(13, 4, 0x8000000C, 0x00A59323, "", "", "sh      a0,6(a1) [00000106]");
        t += line(14, 5, 0x80000010, 0x0000C1C8, "", "", "c.sw    a0,4(a1) [00000104]");
        t += line(15, 6, 0x80000012, 0x34051073, "", "c340=cafef00d", "csrrw   zero,mscratch,a0");
        t += line(16, 7, 0x80000016, 0x34001673, "a2=cafef00d", "c340=00000000", "csrrw   a2,mscratch,zero");
        t += late;
        t += line(1234567890, 8, 0x8000001A, 0x00000013, "", "", "nop");
        t += line(1234567891, 9, 0x8000001E, 0x0085A503, "a0=CAFEF00E", "", "lw      a0,8(a1) [0000010C]");
        t += line(1234567892, 10, 0x80000022, 0x00150D13, "s10=00000011", "", "addi    s10,a0,1");
        // A CSR write in the register column (where a GPR write would be): read as a CSR all the same.
        t += line(1234567893, 11, 0x80000026, 0x07C51073, "c7c=00000012", "", "csrrw   zero,0x7c,a0");
        return t;
    };
    const auto fixed = read_text("columns_rtl.exec.log", text(rtl, "        17 :                               a3=00000007                ; nbL\n"));
    const auto free = read_text("columns_loose.exec.log", text(loose, "17 : a3=7 ; nbL\n"));
    ASSERT_EQ(fixed.size(), 11u);
    ASSERT_EQ(free.size(), 11u);
    for (size_t i = 0; i < fixed.size(); ++i) expect_same(fixed[i], free[i], i);

    const auto& v = fixed;
    EXPECT_EQ(v[0].time, 10u);
    EXPECT_EQ(v[0].line, 2u);
    ASSERT_EQ(v[0].n_regs, 1u);
    EXPECT_EQ(v[0].regs[0].index, 10u);  // a0
    EXPECT_EQ(v[0].regs[0].value, 0x12345678u);
    // lw a0,8(a1): a 4-byte read at the bracketed address.
    ASSERT_EQ(v[2].n_mem, 1u);
    EXPECT_EQ(v[2].mem[0].addr, 0x108u);
    EXPECT_EQ(v[2].mem[0].size, 4u);
    EXPECT_FALSE(v[2].mem[0].is_write);
    // sh a0,6(a1): two bytes of a0 (0xcafef00d, from the lw before it).
    ASSERT_EQ(v[3].n_mem, 1u);
    EXPECT_EQ(v[3].mem[0].addr, 0x106u);
    EXPECT_EQ(v[3].mem[0].size, 2u);
    EXPECT_TRUE(v[3].mem[0].is_write);
    EXPECT_EQ(v[3].mem[0].data, 0xF00Du);
    // c.sw a0,4(a1): 16 bits, four bytes of a0.
    EXPECT_EQ(v[4].size, 2u);
    ASSERT_EQ(v[4].n_mem, 1u);
    EXPECT_EQ(v[4].mem[0].size, 4u);
    EXPECT_EQ(v[4].mem[0].data, 0xCAFEF00Du);
    // The CSR column alone, then both columns.
    ASSERT_EQ(v[5].n_regs, 1u);
    EXPECT_EQ(v[5].regs[0].kind, trace::RegKind::csr);
    EXPECT_EQ(v[5].regs[0].index, 0x340u);
    EXPECT_EQ(v[5].regs[0].value, 0xCAFEF00Du);
    ASSERT_EQ(v[6].n_regs, 2u);
    EXPECT_EQ(v[6].regs[0].kind, trace::RegKind::gpr);
    EXPECT_EQ(v[6].regs[0].index, 12u);  // a2
    EXPECT_EQ(v[6].regs[1].kind, trace::RegKind::csr);
    EXPECT_EQ(v[6].regs[1].value, 0u);
    // The late writeback lands before the nop (line 10), whose cycle has ten digits.
    EXPECT_EQ(v[7].time, 1234567890u);
    EXPECT_EQ(v[7].line, 10u);
    ASSERT_EQ(v[7].n_regs, 1u);
    EXPECT_TRUE(v[7].regs[0].before);
    EXPECT_EQ(v[7].regs[0].index, 13u);  // a3
    EXPECT_EQ(v[7].regs[0].value, 7u);
    // Upper-case hex digits.
    EXPECT_EQ(v[8].pc, 0x8000001Eu);
    EXPECT_EQ(v[8].regs[0].value, 0xCAFEF00Eu);
    EXPECT_EQ(v[8].mem[0].addr, 0x10Cu);
    ASSERT_EQ(v[9].n_regs, 1u);
    EXPECT_EQ(v[9].regs[0].index, 26u);  // s10 = x26
    EXPECT_EQ(v[9].regs[0].value, 0x11u);
    ASSERT_EQ(v[10].n_regs, 1u);
    EXPECT_EQ(v[10].regs[0].kind, trace::RegKind::csr);
    EXPECT_EQ(v[10].regs[0].index, 0x7Cu);
    EXPECT_EQ(v[10].regs[0].value, 0x12u);
}

// A line in the RTL's columns with a bad register column: the same error as any other line (file, line, what was
// expected), and a skipped line when bad lines are skipped.
TEST(VeerColumns, BadWriteInTheRtlLayoutNamesFileAndLine) {
    const std::string text = rtl(10, 1, 0x80000000, 0x00150513, "a0=00000001", "", "addi    a0,a0,1") +
                             rtl(11, 2, 0x80000004, 0x00150513, "q0=00000002", "", "addi    a0,a0,1") +
                             rtl(12, 3, 0x80000008, 0x00150513, "a0=00000003", "", "addi    a0,a0,1");
    const std::string path = testutil::temp_file("columns_bad.exec.log", text);
    try {
        testutil::read_all(path, "veer");
        ADD_FAILURE() << "no error";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("columns_bad.exec.log:2: expected '<abi register>=<hex>' or 'c<csr hex>=<hex>' before ';'"),
                  std::string::npos)
            << e.what();
    }
    trace::ReaderOptions skip;
    skip.skip_bad_lines = true;
    auto r = trace::open_reader(path, "veer", skip);
    TraceRecord rec;
    std::vector<uint64_t> pcs;
    while (r->next(rec)) pcs.push_back(rec.pc);
    EXPECT_EQ(pcs, (std::vector<uint64_t>{0x80000000u, 0x80000008u}));
    EXPECT_EQ(r->skipped_lines(), 1u);
}

// One encoding at two PCs: where a branch or jump may go is worked out per record from its PC (and for a JALR from
// the register's value), not kept with the encoding. A line shown twice at the same PC is kept when the first can
// go to the second (a branch or jump to itself), and dropped as the RTL's duplicate otherwise.
TEST(VeerDecode, OneEncodingAtTwoPcs) {
    std::string t;
    unsigned n = 0;
    uint64_t cycle = 10;
    const auto add = [&](uint32_t pc, uint32_t insn, const std::string& gpr, const std::string& dasm) {
        t += rtl(cycle++, ++n, pc, insn, gpr, "", dasm);
    };
    add(0x80000000, 0x00B50063, "", "beq     a0,a1,0x80000000");  // taken: to itself
    add(0x80000000, 0x00B50063, "", "beq     a0,a1,0x80000000");  // not taken
    add(0x80000004, 0x0FC0006F, "", "jal     zero,0x80000100");
    add(0x80000100, 0x00B50063, "", "beq     a0,a1,0x80000100");  // the same encoding: to itself
    add(0x80000100, 0x00B50063, "", "beq     a0,a1,0x80000100");
    add(0x80000104, 0x00000097, "ra=80000104", "auipc   ra,0x0");
    add(0x80000108, 0x00808093, "ra=8000010c", "addi    ra,ra,8");
    add(0x8000010C, 0x00008082, "", "c.jr    ra");  // to itself (ra = its PC)
    add(0x8000010C, 0x00008082, "", "c.jr    ra");
    add(0x80000110, 0x00000099, "ra=80000112", "c.addi  ra,6");  // (no trap vector known: no interrupt inferred)
    add(0x80000112, 0x00008082, "", "c.jr    ra");  // the same encoding, another register value: to itself
    add(0x80000112, 0x00008082, "", "c.jr    ra");
    add(0x80000114, 0x00000013, "", "nop");
    add(0x80000114, 0x00000013, "", "nop");  // cannot follow the first: the RTL's duplicate, dropped
    add(0x80000118, 0x00000013, "", "nop");
    trace::ReaderOptions o;
    o.replay_all = true;
    auto r = trace::open_reader(testutil::temp_file("two_pcs.exec.log", t), "veer", o);
    TraceRecord rec;
    std::vector<uint64_t> pcs;
    while (r->next(rec)) pcs.push_back(rec.pc);
    EXPECT_EQ(pcs, (std::vector<uint64_t>{0x80000000u, 0x80000000u, 0x80000004u, 0x80000100u, 0x80000100u, 0x80000104u,
                                          0x80000108u, 0x8000010Cu, 0x8000010Cu, 0x80000110u, 0x80000112u, 0x80000112u,
                                          0x80000114u, 0x80000118u}));
    EXPECT_EQ(r->end_note(), "1 instruction shown twice at an interrupt entry retired once");
}

// More distinct encodings than the decode table holds (it is emptied and filled again), twice over: every load and
// store has the size, direction and data its encoding says (funct3: 0 byte, 1 halfword, 2 word).
TEST(VeerDecode, ThousandsOfDistinctEncodings) {
    constexpr unsigned a0 = 10, a1 = 11, a2 = 12;
    constexpr unsigned distinct = 3 * 2048;
    std::string t = rtl(10, 1, 0x80000000, i_type(0x03, 2, a0, a1, 0), "a0=cafef00d", "", "lw      a0,0(a1) [00001000]");
    unsigned n = 1;
    for (unsigned round = 0; round < 2; ++round)
        for (unsigned k = 0; k < distinct; ++k) {
            const unsigned f3 = k % 3;
            const uint32_t imm = k / 3;  // 0-2047: 2048 immediates per size
            const bool store = (k / 3) % 2 == 0;
            const uint32_t insn = store ? s_type(f3, a1, a0, imm) : i_type(0x03, f3, a2, a1, imm);
            ++n;
            t += rtl(10 + n, n, 0x80000000u + 4 * (n - 1), insn, store ? "" : "a2=00000001", "",
                     fmt::format("{} [{:08x}]", store ? "s" : "l", 0x1000 + imm));
        }
    const auto v = read_text("distinct.exec.log", t);
    ASSERT_EQ(v.size(), 1u + 2 * distinct);
    for (size_t i = 1; i < v.size(); ++i) {
        const unsigned k = static_cast<unsigned>((i - 1) % distinct), f3 = k % 3;
        const bool store = (k / 3) % 2 == 0;
        ASSERT_EQ(v[i].n_mem, 1u) << i;
        const auto& m = v[i].mem[0];
        ASSERT_EQ(m.addr, 0x1000u + k / 3) << i;
        ASSERT_EQ(m.size, 1u << f3) << i;
        ASSERT_EQ(m.is_write, store) << i;
        ASSERT_EQ(m.data_known, store) << i;
        if (store) {
            ASSERT_EQ(m.data, (f3 == 0 ? 0x0Du : f3 == 1 ? 0xF00Du : 0xCAFEF00Du)) << i;
        }
    }
}

namespace {

// The testbench's disassembler (testbench/dasm.svi, dasm16_cl) takes bits 6:5 of c.lw and c.sw as offset bits 7:6;
// the ISA has bit 6 as offset bit 2 (RISC-V unprivileged spec, "Compressed Register-Based Loads and Stores").
// Lines from tests/veer-rtl/busmix, whose RTL read the word at a5 + 4 (0x80100028) where the line says
// 0x801000a4 (a5 = 0x80100024).
TEST(VeerAddress, CompressedLoadStoreOffsetMisprintedByTheTestbenchIsMended) {
    const std::string text = rtl(10, 1, 0x800003b4, 0x43d0, "", "", "c.lw    a2,128(a5) [801000a4]") +   // lw a2,4(a5)
                             rtl(11, 2, 0x800003b6, 0x43d0, "", "", "c.lw    a2,4(a5) [80100028]") +     // printed right
                             rtl(12, 3, 0x800003ba, 0x439c, "", "", "c.lw    a5,0(a5) [80100024]") +     // bit 6 clear
                             rtl(13, 4, 0x800003bc, 0xc3d0, "", "", "c.sw    a2,128(a5) [801000a4]") +   // sw a2,4(a5)
                             rtl(14, 5, 0x800003be, 0x4bd0, "", "", "c.lw    a2,144(a5) [801000b4]");    // lw a2,20(a5)
    const auto r = read_text("tb_offset.log", text);
    ASSERT_EQ(r.size(), 5u);
    const uint64_t want[] = {0x80100028, 0x80100028, 0x80100024, 0x80100028, 0x80100038};
    for (size_t i = 0; i < 5; ++i) {
        ASSERT_EQ(r[i].n_mem, 1u) << i;
        EXPECT_EQ(r[i].mem[0].addr, want[i]) << i;
    }
    EXPECT_TRUE(r[3].mem[0].is_write);
}

}  // namespace

// An interrupt entry (tests/veer-rtl/irq's third window, t=29855): the trace port prints the c.beqz at mepc before
// the handler, the interrupt killed it after execute, and it runs again after the mret. The reader drops the first
// print and gives the entry the write of mepc, the killed branch's encoding and where its run after the mret went
// (trace::flushed_encoding_csr, flushed_next_csr: taken back to the lw at 0x80000492), which the native formats carry.
TEST(VeerReader, EntryCarriesTheBranchItKilled) {
    std::string t;
    unsigned n = 0;
    uint64_t cycle = 10;
    const auto add = [&](uint32_t pc, uint32_t insn, const std::string& gpr, const std::string& csr, const std::string& dasm) {
        t += rtl(cycle++, ++n, pc, insn, gpr, csr, dasm);
    };
    add(0x8000048E, 0x30579073, "", "c305=800003a0", "csrrw   zero,csr_305,a5");
    add(0x80000492, 0x4D87A703, "a4=00000000", "", "lw      a4,1240(a5) [f00404d8]");
    add(0x80000496, 0x0000DF75, "", "", "c.beqz  a4,0x80000492");  // killed by the entry
    add(0x800003A0, 0x00001141, "sp=f00414a0", "", "c.addi  sp,-16");
    add(0x800003A2, 0x30200073, "", "", "");
    add(0x80000496, 0x0000DF75, "", "", "c.beqz  a4,0x80000492");
    add(0x80000492, 0x4D87A703, "a4=00000001", "", "lw      a4,1240(a5) [f00404d8]");
    add(0x80000496, 0x0000DF75, "", "", "c.beqz  a4,0x80000492");
    add(0x80000498, 0x48300693, "a3=00000483", "", "addi    a3,zero,1155");
    const std::vector<TraceRecord> v = testutil::read_all(testutil::temp_file("killed.exec.log", t), "veer");
    std::vector<uint64_t> pcs;
    for (const TraceRecord& r : v) pcs.push_back(r.pc);
    EXPECT_EQ(pcs, (std::vector<uint64_t>{0x8000048Eu, 0x80000492u, 0x800003A0u, 0x800003A2u, 0x80000496u, 0x80000492u,
                                          0x80000496u, 0x80000498u}));
    ASSERT_EQ(v.size(), 8u);
    EXPECT_TRUE(v[2].interrupt);
    std::vector<std::pair<uint16_t, uint64_t>> csrs;
    for (unsigned i = 0; i < v[2].n_regs; ++i)
        if (v[2].regs[i].kind == trace::RegKind::csr) csrs.emplace_back(v[2].regs[i].index, v[2].regs[i].value);
    EXPECT_EQ(csrs, (std::vector<std::pair<uint16_t, uint64_t>>{
                        {0x341, 0x80000496u}, {trace::flushed_encoding_csr, 0xDF75u}, {trace::flushed_next_csr, 0x80000492u}}));
}
