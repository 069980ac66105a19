// ARMv7 CP15 PMU rules, each from ../shared/spec/armv7-cp15-pmu.md (section in the comment).
#include <gtest/gtest.h>

#include "isa/a32_coproc.hpp"
#include "tests/unit/pmu_harness.hpp"

namespace pmusim {
namespace {

class PmuV7 : public ArmPmuTest {
protected:
    PmuV7() : ArmPmuTest("cortex-a7") {}
};

TEST_F(PmuV7, ResetValuesPerCore) {
    // §3.1: A7 0x41072000, A8 0x41002000, A9 0x41093000; issue 4: A15 0x410F3000.
    const std::pair<const char*, uint64_t> cores[] = {
        {"cortex-a7", 0x41072000}, {"cortex-a8", 0x41002000}, {"cortex-a9", 0x41093000}, {"cortex-a15", 0x410F3000}};
    for (const auto& [name, pmcr] : cores) {
        make(name);
        EXPECT_EQ(val("PMCR"), pmcr) << name;
    }
}

TEST_F(PmuV7, PmcrWrite0x17ReadsBack0x41072011) {
    // programming-sequences.md §4.1 M2: E, P, C, X; P and C read 0.
    w("PMXEVCNTR0", 5);
    w("PMCCNTR", 6);
    w("PMCR", 0x17);
    EXPECT_EQ(val("PMCR"), 0x41072011u);
    EXPECT_EQ(val("PMXEVCNTR0"), 0u);
    EXPECT_EQ(val("PMCCNTR"), 0u);
    w("PMCR", 0x3F);  // DP, X, D, E stored; [10:6] SBZP
    EXPECT_EQ(val("PMCR"), 0x41072039u);
    EXPECT_TRUE(w("PMCR", 0x40).has(diag::sbz_violation));
}

TEST_F(PmuV7, BitmapsAreRazWiAboveN) {
    w("PMCNTENSET", 0xFFFFFFFF);
    EXPECT_EQ(val("PMCNTENSET"), 0x8000000Fu);
    w("PMCNTENCLR", 0x80000001);
    EXPECT_EQ(val("PMCNTENCLR"), 0x0000000Eu);
    w("PMINTENSET", 0xFFFFFFFF);
    EXPECT_EQ(val("PMINTENSET"), 0x8000000Fu);
    w("PMINTENCLR", 0xFFFFFFFF);
    EXPECT_EQ(val("PMINTENSET"), 0u);
}

TEST_F(PmuV7, PmovsrIsWriteOneToClear) {
    w("PMOVSSET", 0x80000005);  // A7 has PMOVSSET (Virtualization Extensions)
    EXPECT_EQ(val("PMOVSR"), 0x80000005u);
    w("PMOVSR", 0x80000001);
    EXPECT_EQ(val("PMOVSR"), 0x4u);
    make("cortex-a8");
    EXPECT_EQ(pmu->bank().find("PMOVSSET"), nullptr);  // PMUv1: no PMOVSSET (§1)
}

TEST_F(PmuV7, ThirtyTwoBitCountersOverflowAndInterrupt) {
    w("PMCCNTR", 0xFFFFFFFE);
    w("PMCNTENSET", 0x80000000);
    w("PMINTENSET", 0x80000000);
    w("PMCR", 0x1);
    run(1);
    EXPECT_FALSE(pmu->irq());
    run(1);
    EXPECT_EQ(val("PMCCNTR"), 0u);  // 32-bit: wraps to 0 (§3.6)
    EXPECT_EQ(val("PMOVSR"), 0x80000000u);
    EXPECT_TRUE(pmu->irq());
    w("PMCR", 0x0);  // overflow IRQs only while E = 1 (§4)
    EXPECT_FALSE(pmu->irq());
    w("PMCR", 0x1);
    w("PMOVSR", 0x80000000);
    EXPECT_FALSE(pmu->irq());
}

TEST_F(PmuV7, DividerCountsEvery64thCycle) {
    w("PMCNTENSET", 0x80000000);
    w("PMCR", 0xD);
    run(127);
    EXPECT_EQ(val("PMCCNTR"), 1u);
    run(1);
    EXPECT_EQ(val("PMCCNTR"), 2u);
}

TEST_F(PmuV7, EventSelectionThroughPmselr) {
    // §4.2: PMSELR = 0, PMXEVTYPER = 0x11 (CPU_CYCLES), counts at PL0 and PL1.
    w("PMSELR", 0);
    w("PMXEVTYPER", 0x11);
    EXPECT_EQ(val("PMXEVTYPER0"), 0x11u);
    w("PMCNTENSET", 0x1);
    w("PMCR", 0x1);
    run(50);
    EXPECT_EQ(val("PMXEVCNTR"), 50u);
    pmu->set_exec_context({0, false});
    run(50);
    EXPECT_EQ(val("PMXEVCNTR"), 100u);
    w("PMXEVTYPER", 0x100 | 0x11);  // evtCount is 8 bits: bit 8 is SBZP
    EXPECT_EQ(val("PMXEVTYPER0"), 0x11u);
}

TEST_F(PmuV7, PmuV2FiltersAndCycleFilter) {
    w("PMSELR", 0);
    w("PMXEVTYPER", 0x80000011);  // P = 1: not at PL1
    w("PMSELR", 31);
    w("PMXEVTYPER", 0x40000000);  // cycle filter U = 1: not at PL0
    EXPECT_EQ(val("PMXEVTYPER31"), 0x40000000u);
    w("PMCNTENSET", 0x80000001);
    w("PMCR", 0x1);
    pmu->set_exec_context({1, false});
    run(10);
    EXPECT_EQ(val("PMXEVCNTR0"), 0u);
    EXPECT_EQ(val("PMCCNTR"), 10u);
    pmu->set_exec_context({0, false});
    run(10);
    EXPECT_EQ(val("PMXEVCNTR0"), 10u);
    EXPECT_EQ(val("PMCCNTR"), 10u);
}

TEST_F(PmuV7, PmuV1HasNoFiltersAndNoCycleFilter) {
    make("cortex-a8");
    w("PMSELR", 0);
    w("PMXEVTYPER", 0xC0000011);  // bits [31:8] SBZP: no filter
    EXPECT_EQ(val("PMXEVTYPER0"), 0x11u);
    w("PMCNTENSET", 0x1);
    w("PMCR", 0x1);
    run(5);
    EXPECT_EQ(val("PMXEVCNTR0"), 5u);
    EXPECT_EQ(pmu->bank().find("PMXEVTYPER31"), nullptr);
    w("PMSELR", 31);
    EXPECT_TRUE(rd("PMXEVTYPER").trapped());  // SEL = 31 without a cycle filter: UNPREDICTABLE -> UNDEFINED
}

TEST_F(PmuV7, SelectingAnUnimplementedCounterIsUnpredictable) {
    w("PMSELR", 4);
    auto rec = rd("PMXEVCNTR");
    EXPECT_TRUE(rec.trapped());
    EXPECT_TRUE(rec.has(diag::unpredictable));
    make("cortex-a7", {{"unpredictable", "raz-wi"}});
    w("PMSELR", 4);
    rec = w("PMXEVCNTR", 7);
    EXPECT_FALSE(rec.trapped());
    EXPECT_EQ(rd("PMXEVCNTR").value_read, 0u);
}

TEST_F(PmuV7, SoftwareIncrementAndUnsupportedEvents) {
    w("PMXEVTYPER1", 0x00);
    w("PMCNTENSET", 0x2);
    w("PMCR", 0x1);
    w("PMSWINC", 0x2);
    EXPECT_EQ(val("PMXEVCNTR1"), 1u);
    EXPECT_TRUE(w("PMXEVTYPER2", 0x1A).has(diag::reserved_event));  // 0x1A: not in the A7's list
    EXPECT_FALSE(w("PMXEVTYPER2", 0xC9).has(diag::reserved_event));  // IMPLEMENTATION DEFINED on the A7
    EXPECT_TRUE(w("PMXEVTYPER2", 0x1E).has(diag::reserved_event));  // no CHAIN in ARMv7
}

TEST_F(PmuV7, NoCountingInDebugState) {
    w("PMCNTENSET", 0x80000000);
    w("PMCR", 0x1);
    pmu->set_state(CoreState::debug);
    run(100);
    EXPECT_EQ(val("PMCCNTR"), 0u);
}

TEST_F(PmuV7, UserModeWithoutEnIsUndefinedExceptReadingPmuserenr) {
    const char* regs[] = {"PMCR", "PMCNTENSET", "PMCNTENCLR", "PMOVSR", "PMSELR", "PMCEID0", "PMCEID1", "PMCCNTR",
                          "PMXEVTYPER", "PMXEVCNTR", "PMINTENSET", "PMINTENCLR", "PMOVSSET"};
    for (const char* r : regs) {
        EXPECT_TRUE(rd(r, 0).trapped()) << r;
        if (std::string(r) != "PMCEID0" && std::string(r) != "PMCEID1") {
            const auto rec = w(r, 0, 0);
            EXPECT_TRUE(rec.trapped()) << r;
            EXPECT_TRUE(rec.has(diag::undefined)) << r;
        }
    }
    EXPECT_TRUE(w("PMSWINC", 1, 0).trapped());
    EXPECT_FALSE(rd("PMUSERENR", 0).trapped());
    EXPECT_TRUE(w("PMUSERENR", 1, 0).trapped());
}

TEST_F(PmuV7, UserModeWithEnAllowsAllButInterruptEnablesAndPmuserenrWrites) {
    w("PMUSERENR", 0xFFFFFFFF);
    EXPECT_EQ(val("PMUSERENR"), 0x1u);  // only EN exists in ARMv7 (§3.7)
    for (const char* r : {"PMCR", "PMCNTENSET", "PMCNTENCLR", "PMOVSR", "PMSELR", "PMCCNTR", "PMXEVTYPER", "PMXEVCNTR",
                          "PMOVSSET"}) {
        EXPECT_FALSE(rd(r, 0).trapped()) << r;
        EXPECT_FALSE(w(r, 0, 0).trapped()) << r;
    }
    EXPECT_FALSE(rd("PMCEID0", 0).trapped());
    EXPECT_FALSE(w("PMSWINC", 1, 0).trapped());
    EXPECT_TRUE(rd("PMINTENSET", 0).trapped());
    EXPECT_TRUE(w("PMINTENCLR", 1, 0).trapped());
    EXPECT_TRUE(w("PMUSERENR", 0, 0).trapped());
    EXPECT_EQ(val("PMUSERENR"), 0x1u);
}

TEST_F(PmuV7, EveryMemoryMappedOffset) {
    // §6 table, Cortex-A7 (N = 4).
    for (unsigned n = 0; n < 4; ++n) {
        ext_wr(4 * n, 0x100 + n);
        EXPECT_EQ(val("PMXEVCNTR" + std::to_string(n)), 0x100u + n);
        ext_wr(0x400 + 4 * n, 0x10 + n);
        EXPECT_EQ(val("PMXEVTYPER" + std::to_string(n)), 0x10u + n);
        EXPECT_EQ(ext_rd(4 * n).value_read, 0x100u + n);
    }
    ext_wr(0x07C, 0xCAFE);
    EXPECT_EQ(val("PMCCNTR"), 0xCAFEu);
    ext_wr(0x47C, 0x80000000);
    EXPECT_EQ(val("PMXEVTYPER31"), 0x80000000u);
    ext_wr(0xC00, 0x80000003);
    EXPECT_EQ(val("PMCNTENSET"), 0x80000003u);
    ext_wr(0xC20, 0x1);
    EXPECT_EQ(val("PMCNTENSET"), 0x80000002u);
    ext_wr(0xC40, 0x4);
    EXPECT_EQ(val("PMINTENSET"), 0x4u);
    ext_wr(0xC60, 0x4);
    EXPECT_EQ(val("PMINTENSET"), 0x0u);
    w("PMOVSSET", 0x3);
    ext_wr(0xC80, 0x1);
    EXPECT_EQ(val("PMOVSR"), 0x2u);
    w("PMCR", 0x1);
    w("PMXEVTYPER1", 0x0);
    ext_wr(0xCA0, 0x2);  // PMSWINC: counter 1 counts SW_INCR and is enabled
    EXPECT_EQ(val("PMXEVCNTR1"), 0x102u);
    EXPECT_EQ(ext_rd(0xCA0).value_read, 0u);  // write-only: reads 0 externally
    EXPECT_EQ(ext_rd(0xE00).value_read, 4u | (31u << 8) | (1u << 14) | (1u << 15) | (1u << 16) | (1u << 19));
    EXPECT_EQ(ext_rd(0xE04).value_read, 0x41072001u);
    ext_wr(0xE08, 0x1);
    EXPECT_EQ(val("PMUSERENR"), 0x1u);
    EXPECT_EQ(ext_rd(0xE20).value_read, 0x23FFFFFFu);
    EXPECT_EQ(ext_rd(0xE24).value_read, 0u);
    EXPECT_EQ(ext_rd(0xF00).value_read, 0u);
    EXPECT_EQ(ext_rd(0xFA0).value_read, 0xFFu);  // implemented claim tags
    ext_wr(0xFA0, 0x5);
    EXPECT_EQ(ext_rd(0xFA4).value_read, 0x5u);
    ext_wr(0xFA4, 0x1);
    EXPECT_EQ(ext_rd(0xFA4).value_read, 0x4u);
    EXPECT_EQ(ext_rd(0xFB0).value_read, 0u);  // PMLAR: write-only
    EXPECT_EQ(ext_rd(0xFB4).value_read, 0x3u);  // SLI = 1, SLK = 1 out of reset
    EXPECT_EQ(ext_rd(0xFB8).value_read, 0xAFu);  // NS invasive/non-invasive enabled; Secure disabled
    EXPECT_EQ(ext_rd(0xFCC).value_read, 0x16u);
    for (unsigned off = 0xFD0; off <= 0xFEC; off += 4) EXPECT_EQ(ext_rd(off).value_read, 0u) << off;
    EXPECT_EQ(ext_rd(0xFF0).value_read, 0x0Du);
    EXPECT_EQ(ext_rd(0xFF4).value_read, 0x90u);
    EXPECT_EQ(ext_rd(0xFF8).value_read, 0x05u);
    EXPECT_EQ(ext_rd(0xFFC).value_read, 0xB1u);
    // Reserved offsets are unmapped.
    for (unsigned off : {0x010u, 0x078u, 0x080u, 0x410u, 0x480u, 0xC04u, 0xCC0u, 0xE0Cu, 0xE28u})
        EXPECT_TRUE(ext_rd(off).trapped()) << off;
}

TEST_F(PmuV7, SoftwareLockIgnoresSoftwareWritesOnly) {
    auto rec = ext_wr(0xE04, 0x1, AccessOrigin::memory_mapped);
    EXPECT_TRUE(rec.has(diag::no_effect));
    EXPECT_EQ(val("PMCR"), 0x41072000u);
    ext_wr(0xE04, 0x1);  // the external debugger is not subject to the lock
    EXPECT_EQ(val("PMCR"), 0x41072001u);
    ext_wr(0xFB0, 0xC5ACCE55, AccessOrigin::memory_mapped);
    EXPECT_EQ(ext_rd(0xFB4).value_read, 0x1u);
    ext_wr(0xE04, 0x0, AccessOrigin::memory_mapped);
    EXPECT_EQ(val("PMCR"), 0x41072000u);
    ext_wr(0xFB0, 0x0, AccessOrigin::memory_mapped);  // any other key locks again
    EXPECT_EQ(ext_rd(0xFB4).value_read, 0x3u);
    EXPECT_TRUE(arm->software_locked());
}

TEST_F(PmuV7, Cortex15HasSixCountersAndPmovsset) {
    make("cortex-a15");
    w("PMCNTENSET", 0xFFFFFFFF);
    EXPECT_EQ(val("PMCNTENSET"), 0x8000003Fu);
    AccessContext c;
    c.origin = AccessOrigin::external_debug;
    EXPECT_FALSE(pmu->read_offset(0x014, c).trapped());  // PMXEVCNTR5
    EXPECT_NE(pmu->bank().find("PMOVSSET"), nullptr);
}

TEST(A32Coproc, KnownEncodings) {
    // mrc p15, 0, r0, c9, c12, 0 = 0xee190f1c; mcr p15, 0, r2, c9, c12, 0 = 0xee092f1c.
    EXPECT_EQ(isa::a32::encode_a32({true, 15, 0, 9, 12, 0, 0}), 0xEE190F1Cu);
    EXPECT_EQ(isa::a32::encode_a32({false, 15, 0, 9, 12, 0, 2}), 0xEE092F1Cu);
    // mrc p15, 0, r1, c9, c13, 0 (PMCCNTR) = 0xee191f1d; mcr p15, 0, r0, c9, c14, 2 (PMINTENCLR) = 0xee090f5e.
    EXPECT_EQ(isa::a32::encode_a32({true, 15, 0, 9, 13, 0, 1}), 0xEE191F1Du);
    EXPECT_EQ(isa::a32::encode_a32({false, 15, 0, 9, 14, 2, 0}), 0xEE090F5Eu);
    // Conditional form: mrceq p15, 0, r0, c9, c12, 0.
    EXPECT_EQ(isa::a32::encode_a32({true, 15, 0, 9, 12, 0, 0, 0x0}), 0x0E190F1Cu);
    EXPECT_FALSE(isa::a32::decode_a32(0xFE190F1C).has_value());  // MRC2 (unconditional space)
    EXPECT_FALSE(isa::a32::decode_a32(0xE1A00000).has_value());  // mov r0, r0
    EXPECT_FALSE(isa::a32::decode_t32(0xFE190F1C).has_value());  // T2 encoding: MRC2
    EXPECT_EQ(isa::a32::encode_t32({true, 15, 0, 9, 12, 0, 0, 0x3}), 0xEE190F1Cu);  // T32 has no cond field
}

TEST(A32Coproc, RoundTripOverEveryCp15PmuRegister) {
    for (const char* platform : {"cortex-a7", "cortex-a8"}) {
        auto pmu = find_platform(platform)->make({});
        unsigned checked = 0;
        for (const auto& r : pmu->bank().all()) {
            for (const auto& [space, key] : r->encodings) {
                ASSERT_EQ(space, EncodingSpace::cp15);
                for (bool read : {true, false}) {
                    for (unsigned rt : {0u, 7u, 14u}) {
                        isa::a32::CoprocMove m{read, 15, key >> 11, (key >> 7) & 15u, (key >> 3) & 15u, key & 7u, rt};
                        for (auto d : {isa::a32::decode_a32(isa::a32::encode_a32(m)),
                                       isa::a32::decode_t32(isa::a32::encode_t32(m))}) {
                            ASSERT_TRUE(d.has_value()) << r->name;
                            EXPECT_EQ(d->is_read, read);
                            EXPECT_EQ(d->rt, rt);
                            EXPECT_EQ(d->coproc, 15u);
                            EXPECT_EQ(pmu->bank().find(EncodingSpace::cp15, isa::a32::cp15_key(*d)), r.get());
                        }
                    }
                }
                ++checked;
            }
        }
        // 15 CP15 registers with PMOVSSET (A7), 14 without (A8).
        EXPECT_EQ(checked, std::string(platform) == "cortex-a7" ? 15u : 14u) << platform;
    }
}

}  // namespace
}  // namespace pmusim
