// VeeR EL2 counters, from ../shared/spec/veer-el2-mhpm.md ("veer §n"), and the RV32IMC decoder.
#include <gtest/gtest.h>

#include "isa/rv32.hpp"
#include "model/pmu/veer_pmu.hpp"
#include "tests/unit/pmu_harness.hpp"

namespace pmusim {
namespace {

bool legal_event(unsigned v) {
    // veer §3: legal stored values 0-28, 30-32, 34-50, 54-56, 512-516.
    return v <= 28 || (v >= 30 && v <= 32) || (v >= 34 && v <= 50) || (v >= 54 && v <= 56) || (v >= 512 && v <= 516);
}

class Veer : public ::testing::Test, public PmuHarness {
protected:
    void make(PlatformOptions o = {}) {
        build("veer-el2", std::move(o));
        veer = static_cast<VeerPmu*>(pmu.get());
    }
    void SetUp() override { make(); }
    // RISC-V privilege: M = 3 (the default here), U = 0.
    AccessRecord w(const std::string& reg, uint64_t v, unsigned priv = 3) { return PmuHarness::w(reg, v, priv); }
    AccessRecord rd(const std::string& reg, unsigned priv = 3) { return PmuHarness::rd(reg, priv); }
    uint64_t val(const std::string& reg) { return rd(reg).value_read; }
    VeerPmu* veer = nullptr;
};

TEST_F(Veer, WarlRuleOverTheWholeTenBitRangeAndAbove) {
    for (unsigned v = 0; v < 1024; ++v) {
        EXPECT_EQ(VeerPmu::legalise_event(v), legal_event(v) ? v : 0u) << v;
        const auto rec = w("mhpmevent3", v);
        EXPECT_EQ(val("mhpmevent3"), legal_event(v) ? v : 0u) << v;
        EXPECT_EQ(rec.has(diag::warl_legalized), !legal_event(v)) << v;
    }
    for (uint64_t v : {1024ull, 0x404ull, 0x10000004ull, 0x80000001ull, 0xFFFFFFFFull}) {
        w("mhpmevent6", v);
        EXPECT_EQ(val("mhpmevent6"), 0u) << v;  // bits [31:10] != 0 or > 516: 0
    }
}

// The reason names the range each illegal value falls in (VeeR EL2 PRM Table 8.1: 29, 33, 51-53 and 57-511
// reserved, numbers end at 516; the RTL zeroes any value with bits [31:10] set), and is empty for a legal one.
TEST(VeerReason, NamesTheReservedRange) {
    EXPECT_EQ(VeerPmu::event_legalisation_reason(29), "event 29 is reserved: the selector reads 0");
    EXPECT_EQ(VeerPmu::event_legalisation_reason(33), "event 33 is reserved: the selector reads 0");
    EXPECT_EQ(VeerPmu::event_legalisation_reason(52), "events 51-53 are reserved: the selector reads 0");
    EXPECT_EQ(VeerPmu::event_legalisation_reason(57), "events 57-511 are reserved: the selector reads 0");
    EXPECT_EQ(VeerPmu::event_legalisation_reason(511), "events 57-511 are reserved: the selector reads 0");
    EXPECT_EQ(VeerPmu::event_legalisation_reason(517), "events above 516 do not exist: the selector reads 0");
    EXPECT_EQ(VeerPmu::event_legalisation_reason(0x404), "bits [31:10] are not zero: the selector reads 0");
    for (uint64_t v : {1u, 28u, 30u, 50u, 56u, 512u, 516u}) EXPECT_EQ(VeerPmu::event_legalisation_reason(v), "") << v;
    // One reason for every value the legaliser changes, none for the ones it keeps.
    for (uint64_t v = 1; v < 1100; ++v)
        EXPECT_EQ(VeerPmu::event_legalisation_reason(v).empty(), VeerPmu::legalise_event(v) == v) << v;
}

TEST_F(Veer, LegalisedWriteSaysWhy) {
    const auto rec = w("mhpmevent4", 29);
    ASSERT_EQ(rec.fields.size(), 1u);
    EXPECT_EQ(rec.fields[0].effect, "legalised 0x1d -> 0x0: event 29 is reserved: the selector reads 0");
    EXPECT_TRUE(rec.fields[0].event_selector);
}

TEST_F(Veer, CountersSevenToThirtyOneAreHardwiredZero) {
    for (unsigned n = 7; n <= 31; ++n) {
        const std::string c = "mhpmcounter" + std::to_string(n), e = "mhpmevent" + std::to_string(n);
        w(c, 5);
        w(c + "h", 5);
        w(e, 4);
        EXPECT_EQ(val(c), 0u);
        EXPECT_EQ(val(c + "h"), 0u);
        EXPECT_EQ(val(e), 0u);
    }
}

TEST_F(Veer, MountinhibitWritableBits) {
    w("mcountinhibit", 0xFFFFFFFF);
    EXPECT_EQ(val("mcountinhibit"), 0x7Du);  // bits 0, 2-6
    w("mcountinhibit", 0x7F);
    EXPECT_EQ(val("mcountinhibit"), 0x7Du);
}

TEST_F(Veer, HalvesShareOneSixtyFourBitCounterWithCarry) {
    w("mhpmevent3", 4);
    w("mhpmcounter3", 0xFFFFFFFF);
    w("mhpmcounter3h", 0x1);
    run(0, {{4, 1}});
    EXPECT_EQ(val("mhpmcounter3"), 0u);
    EXPECT_EQ(val("mhpmcounter3h"), 2u);
    w("mcycle", 0xFFFFFFFE);
    run(3);
    EXPECT_EQ(val("mcycle"), 1u);
    EXPECT_EQ(val("mcycleh"), 1u);
    EXPECT_EQ(veer->mcycle(), 0x100000001u);
}

TEST_F(Veer, RunState) {
    w("mhpmevent3", 1);    // cycles clock active
    w("mhpmevent4", 512);  // cycles in Sleep
    w("mhpmevent5", 513);  // DMA reads
    w("mhpmevent6", 11);   // loads committed
    run(10, {{4, 3}, {513, 2}, {11, 1}});
    EXPECT_EQ(veer->mcycle(), 10u);
    EXPECT_EQ(veer->minstret(), 3u);
    EXPECT_EQ(veer->hpm(3), 10u);
    EXPECT_EQ(veer->hpm(4), 0u);
    EXPECT_EQ(veer->hpm(5), 2u);
    EXPECT_EQ(veer->hpm(6), 1u);
}

TEST_F(Veer, FwHaltAndSleepStopAllButEvents512To516) {
    for (CoreState s : {CoreState::fw_halt, CoreState::sleep}) {
        make();
        w("mhpmevent3", 1);
        w("mhpmevent4", 512);
        w("mhpmevent5", 513);
        w("mhpmevent6", 11);
        pmu->set_state(s);
        run(10, {{4, 3}, {513, 2}, {11, 1}});
        EXPECT_EQ(veer->mcycle(), 0u);
        EXPECT_EQ(veer->minstret(), 0u);
        EXPECT_EQ(veer->hpm(3), 0u);
        EXPECT_EQ(veer->hpm(4), 10u);
        EXPECT_EQ(veer->hpm(5), 2u);
        EXPECT_EQ(veer->hpm(6), 0u);
    }
}

TEST_F(Veer, DebugHaltStopsCountersOnlyWithStopcount) {
    w("mhpmevent3", 1);
    w("mhpmevent4", 513);
    pmu->set_state(CoreState::db_halt);
    run(10, {{4, 1}, {513, 1}});
    EXPECT_EQ(veer->mcycle(), 10u);
    EXPECT_EQ(veer->minstret(), 1u);
    EXPECT_EQ(veer->hpm(3), 10u);
    EXPECT_EQ(veer->hpm(4), 1u);
    w("dcsr", VeerPmu::dcsr_stopcount);
    EXPECT_EQ(val("dcsr"), 0x40000403u);  // xdebugver 4, stopcount, prv 3
    run(10, {{4, 1}, {513, 1}});
    EXPECT_EQ(veer->mcycle(), 10u);
    EXPECT_EQ(veer->minstret(), 1u);
    EXPECT_EQ(veer->hpm(3), 10u);
    EXPECT_EQ(veer->hpm(4), 1u);
}

TEST_F(Veer, DcsrOnlyInDebugMode) {
    EXPECT_TRUE(rd("dcsr").trapped());
    EXPECT_TRUE(w("dcsr", 0x400).trapped());
    pmu->set_state(CoreState::db_halt);
    EXPECT_EQ(rd("dcsr").value_read, 0x40000003u);
    w("dcsr", 0xFFFFFFFF);  // ebreakm, stepie, stopcount, step writable
    EXPECT_EQ(val("dcsr"), 0x40000003u | (1u << 15) | (1u << 11) | (1u << 10) | (1u << 2));
    EXPECT_FALSE(pmu->supports_state(CoreState::debug));
}

TEST_F(Veer, InhibitStopsEachCounter) {
    w("mhpmevent3", 1);
    w("mhpmevent4", 1);
    w("mcountinhibit", 0x11);  // CY and HPM4
    run(10, {{4, 2}});
    EXPECT_EQ(veer->mcycle(), 0u);
    EXPECT_EQ(veer->minstret(), 2u);
    EXPECT_EQ(veer->hpm(3), 10u);
    EXPECT_EQ(veer->hpm(4), 0u);
}

TEST_F(Veer, MpmcHaltEntersFwHaltExceptInDebugMode) {
    EXPECT_EQ(val("mpmc"), 0x2u);  // haltie resets to 1
    w("mpmc", 0x1);
    EXPECT_EQ(pmu->state(), CoreState::fw_halt);
    EXPECT_EQ(val("mpmc"), 0x0u);  // halt reads 0; haltie written 0
    pmu->set_state(CoreState::db_halt);
    w("mpmc", 0x3);
    EXPECT_EQ(pmu->state(), CoreState::db_halt);
}

TEST_F(Veer, UserModeOption) {
    EXPECT_FALSE(pmu->supports_privilege(0));
    EXPECT_EQ(pmu->bank().find("cycle"), nullptr);
    EXPECT_EQ(pmu->bank().find("mcounteren"), nullptr);
    make({{"user_mode", "1"}});
    EXPECT_TRUE(pmu->supports_privilege(0));
    EXPECT_TRUE(rd("cycle", 0).trapped());       // mcounteren = 0
    EXPECT_TRUE(rd("mcycle", 0).trapped());      // an M-mode CSR
    w("mcounteren", 0xFFFFFFFF);
    EXPECT_EQ(val("mcounteren"), 0x7Du);
    w("mcycle", 42);
    EXPECT_EQ(rd("cycle", 0).value_read, 42u);
    EXPECT_FALSE(rd("hpmcounter6h", 0).trapped());
    EXPECT_TRUE(w("cycle", 1).trapped());        // read-only shadow, even in M-mode
    w("mcounteren", 0x1);
    EXPECT_TRUE(rd("instret", 0).trapped());
    EXPECT_FALSE(rd("cycleh", 0).trapped());
}

TEST(Rv32, CsrEncodings) {
    using namespace isa::rv32;
    EXPECT_EQ(encode({CsrOp::rs, false, 10, 0, 0xB00}), 0xB0002573u);  // csrr a0, mcycle
    EXPECT_EQ(encode({CsrOp::rw, false, 0, 5, 0x320}), 0x32029073u);   // csrw mcountinhibit, t0
    EXPECT_EQ(encode({CsrOp::rc, true, 0, 1, 0x7C6}), 0x7C60F073u);    // csrci mpmc, 1
    for (unsigned op = 0; op < 3; ++op)
        for (bool imm : {false, true})
            for (unsigned rd : {0u, 7u})
                for (unsigned src : {0u, 31u}) {
                    const CsrInsn i{static_cast<CsrOp>(op), imm, rd, src, 0xB83};
                    const auto d = decode_csr(encode(i));
                    ASSERT_TRUE(d.has_value());
                    EXPECT_EQ(d->op, i.op);
                    EXPECT_EQ(d->immediate, imm);
                    EXPECT_EQ(d->rd, rd);
                    EXPECT_EQ(d->src, src);
                    EXPECT_EQ(d->csr, 0xB83u);
                    EXPECT_EQ(classify(encode(i)).klass, Klass::csr);
                }
    EXPECT_FALSE(decode_csr(0x00000073).has_value());  // ecall
}

TEST(Rv32, CsrClassesOfSection4_2) {
    using namespace isa::rv32;
    auto cls = [](CsrOp op, bool imm, unsigned rd, unsigned src) { return csr_class({op, imm, rd, src, 0xB03}); };
    EXPECT_EQ(cls(CsrOp::rw, false, 0, 5), CsrClass::write);        // csrw
    EXPECT_EQ(cls(CsrOp::rw, true, 0, 5), CsrClass::write);         // csrwi
    EXPECT_EQ(cls(CsrOp::rw, false, 5, 0), CsrClass::read_write);   // csrrw rd != x0
    EXPECT_EQ(cls(CsrOp::rs, false, 5, 0), CsrClass::read);         // csrr
    EXPECT_EQ(cls(CsrOp::rc, false, 5, 0), CsrClass::read);         // csrrc rd, csr, x0
    EXPECT_EQ(cls(CsrOp::rs, true, 5, 0), CsrClass::read);          // csrrsi rd, csr, 0
    EXPECT_EQ(cls(CsrOp::rc, true, 0, 0), CsrClass::read);          // csrrci x0, csr, 0
    EXPECT_EQ(cls(CsrOp::rs, false, 0, 5), CsrClass::read_write);   // csrs csr, rs
    EXPECT_EQ(cls(CsrOp::rc, false, 0, 5), CsrClass::read_write);   // csrc csr, rs
    EXPECT_EQ(cls(CsrOp::rs, true, 0, 3), CsrClass::read_write);    // csrsi
    EXPECT_EQ(cls(CsrOp::rc, true, 7, 3), CsrClass::read_write);    // csrrci rd, csr, 3
    EXPECT_FALSE(csr_reads({CsrOp::rw, false, 0, 5, 0}));
    EXPECT_FALSE(csr_writes({CsrOp::rs, false, 5, 0, 0}));
}

TEST(Rv32, ClassifiesThirtyTwoBitInstructions) {
    using namespace isa::rv32;
    const std::pair<uint32_t, Klass> cases[] = {
        {0x00000013, Klass::alu},     // addi x0, x0, 0 (nop)
        {0x12345037, Klass::alu},     // lui
        {0x00000017, Klass::alu},     // auipc
        {0x00B50533, Klass::alu},     // add a0, a0, a1
        {0x02B50533, Klass::mul},     // mul a0, a0, a1
        {0x02B53533, Klass::mul},     // mulhu
        {0x02B54533, Klass::div},     // div
        {0x02B57533, Klass::div},     // remu
        {0x00052503, Klass::load},    // lw a0, 0(a0)
        {0x00054503, Klass::load},    // lbu
        {0x00A52023, Klass::store},   // sw a0, 0(a0)
        {0x00B50463, Klass::branch},  // beq
        {0x0080006F, Klass::jal},     // jal x0, 8
        {0x00008067, Klass::jalr},    // ret
        {0x00000073, Klass::ecall},   {0x00100073, Klass::ebreak}, {0x30200073, Klass::mret},
        {0x10500073, Klass::wfi},     {0x0FF0000F, Klass::fence},  {0x0000100F, Klass::fence_i},
        // Zba/Zbb/Zbc/Zbs (Bit-Manipulation 1.0.0 encodings, checked against binutils' disassembly).
        {0x20C5A533, Klass::bitmanip},  // sh1add a0, a1, a2 (funct7 0x10)
        {0x40C5F533, Klass::bitmanip},  // andn a0, a1, a2 (funct7 0x20, funct3 7)
        {0x40C58533, Klass::alu},       // sub a0, a1, a2 (funct7 0x20, funct3 0)
        {0x60059513, Klass::bitmanip},  // clz a0, a1 (OP-IMM funct3 1, funct7 0x30)
        {0x6075D513, Klass::bitmanip},  // rori a0, a1, 7
        {0x6985D513, Klass::bitmanip},  // rev8 a0, a1
        {0x4895D513, Klass::bitmanip},  // bexti a0, a1, 9
        {0x4035D513, Klass::alu},       // srai a0, a1, 3
        {0x0AC59533, Klass::bitmanip},  // clmul a0, a1, a2 (funct7 0x05)
        {0x0805C533, Klass::bitmanip},  // zext.h a0, a1 (funct7 0x04)
        {0x00053503, Klass::illegal},  // ld: RV64 only
        {0x0000302F, Klass::illegal},  // AMO: no A extension
        {0xFFFFFFFF, Klass::illegal},
    };
    for (const auto& [insn, k] : cases) {
        const Info i = classify(insn);
        EXPECT_EQ(i.klass, k) << std::hex << insn;
        EXPECT_FALSE(i.compressed);
        EXPECT_EQ(i.size, 4u);
    }
}

TEST(Rv32, ClassifiesCompressedInstructions) {
    using namespace isa::rv32;
    const std::pair<uint32_t, Klass> cases[] = {
        {0x0001, Klass::alu},     // c.nop
        {0x0000, Klass::illegal},  // all zero: illegal
        {0x0040, Klass::alu},     // c.addi4spn
        {0x4188, Klass::load},    // c.lw a0, 0(a1)
        {0xC188, Klass::store},   // c.sw a0, 0(a1)
        {0x4505, Klass::alu},     // c.li a0, 1
        {0x2001, Klass::jal},     // c.jal
        {0xA001, Klass::jal},     // c.j
        {0xC101, Klass::branch},  // c.beqz
        {0xE101, Klass::branch},  // c.bnez
        {0x8D89, Klass::alu},     // c.sub a1, a0
        {0x4082, Klass::load},    // c.lwsp ra, 0(sp)
        {0xC006, Klass::store},   // c.swsp ra, 0(sp)
        {0x8082, Klass::jalr},    // c.jr ra (ret)
        {0x808A, Klass::alu},     // c.mv ra, sp
        {0x908A, Klass::alu},     // c.add ra, sp
        {0x9082, Klass::jalr},    // c.jalr ra
        {0x9002, Klass::ebreak},  // c.ebreak
        {0x0506, Klass::alu},     // c.slli a0, 1
        {0x2000, Klass::illegal},  // c.fld: no D extension
    };
    for (const auto& [insn, k] : cases) {
        const Info i = classify(insn);
        EXPECT_EQ(i.klass, k) << std::hex << insn;
        EXPECT_TRUE(i.compressed);
        EXPECT_EQ(i.size, 2u);
    }
}

TEST(Rv32, Rv64Forms) {
    using namespace isa::rv32;
    EXPECT_EQ(classify(0x00053503).klass, Klass::illegal);       // ld a0, 0(a0): not RV32
    EXPECT_EQ(classify(0x00053503, true).klass, Klass::load);    // ld on RV64
    EXPECT_EQ(classify(0x00A53023, true).klass, Klass::store);   // sd
    EXPECT_EQ(classify(0x0015051B, true).klass, Klass::alu);     // addiw a0, a0, 1
    EXPECT_EQ(classify(0x02B5053B, true).klass, Klass::mul);     // mulw
    EXPECT_EQ(classify(0x02B5453B, true).klass, Klass::div);     // divw
    EXPECT_EQ(classify(0x6188, true).klass, Klass::load);        // c.ld a0, 0(a1)
    EXPECT_EQ(classify(0xE188, true).klass, Klass::store);       // c.sd a0, 0(a1)
    EXPECT_EQ(mem_op(0x6188)->size, 8u);
    EXPECT_EQ(mem_op(0x00053503)->size, 8u);
    EXPECT_EQ(mem_op(0x00A52023)->size, 4u);                     // sw
}

TEST(Rv32, StandardCounterCsrNames) {
    using isa::rv32::standard_counter_csr;
    EXPECT_EQ(standard_counter_csr("cycle"), 0xC00u);
    EXPECT_EQ(standard_counter_csr("instreth"), 0xC82u);
    EXPECT_EQ(standard_counter_csr("hpmcounter31"), 0xC1Fu);
    EXPECT_EQ(standard_counter_csr("hpmcounter3h"), 0xC83u);
    EXPECT_EQ(standard_counter_csr("mhpmevent3h"), 0x723u);
    EXPECT_FALSE(standard_counter_csr("hpmcounter2").has_value());
    EXPECT_FALSE(standard_counter_csr("hpmcounter32").has_value());
    EXPECT_FALSE(standard_counter_csr("mstatus").has_value());
}

}  // namespace
}  // namespace pmusim
