// ARMv8 PMUv3 rules, each from ../shared/spec/armv8-pmuv3.md (section in the test name or comment).
#include <gtest/gtest.h>

#include "tests/unit/pmu_harness.hpp"

namespace pmusim {
namespace {

class PmuV3 : public ArmPmuTest {
protected:
    PmuV3() : ArmPmuTest("cortex-a53") {}
};

TEST_F(PmuV3, ResetValuesOfCortexA53) {
    EXPECT_EQ(val("PMCR_EL0"), 0x41033000u);  // IMP 0x41, IDCODE 0x03, N = 6
    EXPECT_EQ(val("PMCEID0_EL0"), 0x63FFFFFFu);
    EXPECT_EQ(val("PMCEID1_EL0"), 0x00000001u);
    EXPECT_EQ(val("PMCNTENSET_EL0"), 0u);
    EXPECT_FALSE(pmu->irq());
}

TEST_F(PmuV3, Vector1And2SetClearShareOneWordAndRazWi) {
    w("PMCNTENSET_EL0", 0xFFFFFFFF);
    EXPECT_EQ(val("PMCNTENSET_EL0"), 0x8000003Fu);  // bits [30:6] RAZ/WI with N = 6
    w("PMCNTENCLR_EL0", 0x1);
    EXPECT_EQ(val("PMCNTENSET_EL0"), 0x8000003Eu);
    EXPECT_EQ(val("PMCNTENCLR_EL0"), 0x8000003Eu);
}

TEST_F(PmuV3, BitmapRegistersAllRazWiAboveN) {
    for (const char* set : {"PMINTENSET_EL1", "PMOVSSET_EL0"}) {
        w(set, 0xFFFFFFFF);
        EXPECT_EQ(val(set), 0x8000003Fu) << set;
    }
    w("PMOVSCLR_EL0", 0xFFFFFFFF);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0u);
    w("PMINTENCLR_EL1", 0x80000000);
    EXPECT_EQ(val("PMINTENSET_EL1"), 0x3Fu);
}

TEST_F(PmuV3, Vector3PAndCAreWriteOnlyActions) {
    w("PMEVCNTR2_EL0", 1234);
    w("PMCCNTR_EL0", 99);
    w("PMOVSSET_EL0", 0x80000004);
    w("PMCR_EL0", 0x7);
    EXPECT_EQ(val("PMCR_EL0"), 0x41033001u);  // E = 1, P and C read 0
    EXPECT_EQ(val("PMEVCNTR2_EL0"), 0u);
    EXPECT_EQ(val("PMCCNTR_EL0"), 0u);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x80000004u);  // flags unchanged
}

TEST_F(PmuV3, PResetsEventCountersOnlyCResetsCycleCounterOnly) {
    w("PMEVCNTR0_EL0", 7);
    w("PMCCNTR_EL0", 9);
    w("PMCR_EL0", 0x2);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0u);
    EXPECT_EQ(val("PMCCNTR_EL0"), 9u);
    w("PMEVCNTR0_EL0", 7);
    w("PMCR_EL0", 0x4);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 7u);
    EXPECT_EQ(val("PMCCNTR_EL0"), 0u);
}

TEST_F(PmuV3, IdFieldsAreReadOnly) {
    w("PMCR_EL0", 0xFFFFFFFF);
    // IMP/IDCODE/N kept; LP RES0 (v3); LC, DP, X, D, E set; P and C read 0; [10:8] RES0.
    EXPECT_EQ(val("PMCR_EL0"), 0x41033000u | 0x79u);
    EXPECT_TRUE(w("PMCEID0_EL0", 0).trapped());  // RO register: MSR is UNDEFINED (v8 §3.8)
    EXPECT_TRUE(rd("PMSWINC_EL0").trapped());    // WO register: MRS is UNDEFINED (v8 §3.5)
}

TEST_F(PmuV3, Vector4And5XevtyperIndirection) {
    w("PMSELR_EL0", 31);
    w("PMXEVTYPER_EL0", 0x80000000);
    EXPECT_EQ(val("PMCCFILTR_EL0"), 0x80000000u);
    w("PMSELR_EL0", 2);
    w("PMXEVTYPER_EL0", 0x80000011);
    EXPECT_EQ(val("PMEVTYPER2_EL0"), 0x80000011u);
    w("PMXEVCNTR_EL0", 0xABCD);
    EXPECT_EQ(val("PMEVCNTR2_EL0"), 0xABCDu);
    EXPECT_EQ(val("PMXEVCNTR_EL0"), 0xABCDu);
}

TEST_F(PmuV3, Vector6And7SoftwareIncrementOverflowAndIrq) {
    w("PMEVCNTR0_EL0", 0xFFFFFFFF);
    w("PMEVTYPER0_EL0", 0x0);
    w("PMCNTENSET_EL0", 0x1);
    w("PMINTENSET_EL1", 0x1);
    w("PMCR_EL0", 0x1);
    w("PMSWINC_EL0", 0x1);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0u);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x1u);
    EXPECT_TRUE(pmu->irq());
    w("PMOVSCLR_EL0", 0x1);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0u);
    EXPECT_FALSE(pmu->irq());
}

TEST_F(PmuV3, SoftwareIncrementNeedsEnableAndSwIncrEvent) {
    w("PMEVTYPER0_EL0", 0x0);
    w("PMEVTYPER1_EL0", 0x8);  // INST_RETIRED: PMSWINC does not count it
    w("PMCNTENSET_EL0", 0x3);
    w("PMSWINC_EL0", 0x3);  // PMCR.E = 0: nothing
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0u);
    w("PMCR_EL0", 0x1);
    w("PMSWINC_EL0", 0x3);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 1u);
    EXPECT_EQ(val("PMEVCNTR1_EL0"), 0u);
    w("PMCNTENCLR_EL0", 0x1);
    w("PMSWINC_EL0", 0x1);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 1u);
}

TEST_F(PmuV3, Vector8And9CycleCounterLcChoosesTheOverflowBit) {
    w("PMCCNTR_EL0", 0xFFFFFFFF);
    w("PMCNTENSET_EL0", 0x80000000);
    w("PMCR_EL0", 0x1);
    run(1);
    EXPECT_EQ(val("PMCCNTR_EL0"), 0x100000000u);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x80000000u);
    w("PMOVSCLR_EL0", 0x80000000);
    w("PMCCNTR_EL0", 0xFFFFFFFF);
    w("PMCR_EL0", 0x41);  // LC = 1
    run(1);
    EXPECT_EQ(val("PMCCNTR_EL0"), 0x100000000u);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0u);
    w("PMCCNTR_EL0", 0xFFFFFFFFFFFFFFFF);
    run(1);
    EXPECT_EQ(val("PMCCNTR_EL0"), 0u);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x80000000u);
}

TEST_F(PmuV3, Vector10ChainCountsOverflowsOfTheEvenCounter) {
    w("PMEVTYPER1_EL0", 0x1E);
    w("PMEVTYPER0_EL0", 0x08);
    w("PMCNTENSET_EL0", 0x3);
    w("PMEVCNTR0_EL0", 0xFFFFFFFF);
    w("PMEVCNTR1_EL0", 5);
    w("PMCR_EL0", 0x1);
    run(0, {{0x08, 1}});
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0u);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x1u);
    EXPECT_EQ(val("PMEVCNTR1_EL0"), 6u);
}

TEST_F(PmuV3, ChainAcrossOneBulkAdvanceWithSeveralOverflows) {
    w("PMEVTYPER0_EL0", 0x11);  // CPU_CYCLES
    w("PMEVTYPER1_EL0", 0x1E);
    w("PMCNTENSET_EL0", 0x3);
    w("PMEVCNTR0_EL0", 0xFFFFFF00);
    w("PMCR_EL0", 0x1);
    run((uint64_t{3} << 32));  // 0xFFFFFF00 + 3*2^32 crosses 2^32, 2^33, 2^34 ... three times
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0xFFFFFF00u);
    EXPECT_EQ(val("PMEVCNTR1_EL0"), 3u);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x1u);
}

TEST_F(PmuV3, ChainOnEvenCounterCountsNothing) {
    const auto rec = w("PMEVTYPER2_EL0", 0x1E);
    EXPECT_TRUE(rec.has(diag::no_effect));
    w("PMEVTYPER1_EL0", 0x11);
    w("PMEVCNTR1_EL0", 0xFFFFFFFF);
    w("PMCNTENSET_EL0", 0x6);
    w("PMCR_EL0", 0x1);
    run(10);
    EXPECT_EQ(val("PMEVCNTR2_EL0"), 0u);
}

TEST_F(PmuV3, OverflowAtTheExactCycleWithinABulkAdvance) {
    w("PMCCNTR_EL0", 0xFFFFFFFFu - 999);  // 2^32 - 1000
    w("PMCNTENSET_EL0", 0x80000000);
    w("PMINTENSET_EL1", 0x80000000);
    w("PMCR_EL0", 0x1);
    const AdvanceResult r = run(5000);
    EXPECT_TRUE(r.irq_rose);
    EXPECT_EQ(r.irq_cycle, 1000u);
}

TEST_F(PmuV3, EventOverflowPlacedWithinTheBatch) {
    w("PMEVTYPER0_EL0", 0x11);
    w("PMEVCNTR0_EL0", 0xFFFFFFFFu - 9);  // overflows on the 10th cycle
    w("PMCNTENSET_EL0", 0x1);
    w("PMINTENSET_EL1", 0x1);
    w("PMCR_EL0", 0x1);
    const AdvanceResult r = run(100);
    EXPECT_TRUE(r.irq_rose);
    EXPECT_EQ(r.irq_cycle, 10u);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 90u);
}

TEST_F(PmuV3, DividerWithAdvancesThatAreNotMultiplesOf64) {
    w("PMCNTENSET_EL0", 0x80000000);
    w("PMCR_EL0", 0xD);  // E, C, D
    run(63);
    EXPECT_EQ(val("PMCCNTR_EL0"), 0u);
    run(1);
    EXPECT_EQ(val("PMCCNTR_EL0"), 1u);
    run(100);  // 100 = 64 + 36
    EXPECT_EQ(val("PMCCNTR_EL0"), 2u);
    run(27);
    EXPECT_EQ(val("PMCCNTR_EL0"), 2u);
    run(1);  // 36 + 28 = 64
    EXPECT_EQ(val("PMCCNTR_EL0"), 3u);
    EXPECT_EQ(arm->prescaler_phase(), 0u);
}

TEST_F(PmuV3, DividerIgnoredWhenLcIsSet) {
    w("PMCNTENSET_EL0", 0x80000000);
    w("PMCR_EL0", 0x4D);  // E, C, D, LC
    run(100);
    EXPECT_EQ(val("PMCCNTR_EL0"), 100u);
}

TEST_F(PmuV3, GenericPlatformWithoutAArch32HasLcRes1AndDRes0) {
    make("armv8-generic");
    EXPECT_EQ(val("PMCR_EL0"), 0x4100F840u);  // N = 31 (0xF800), LC reads 1
    w("PMCR_EL0", 0x9);                       // E and D: D is RES0
    EXPECT_EQ(val("PMCR_EL0"), 0x4100F841u);
    w("PMCNTENSET_EL0", 0x80000000);
    run(100);
    EXPECT_EQ(val("PMCCNTR_EL0"), 100u);
}

TEST_F(PmuV3, V3p5EventCountersAre64BitWithLp) {
    make("armv8-generic");
    w("PMEVTYPER30_EL0", 0x11);
    w("PMEVCNTR30_EL0", 0xFFFFFFFF);
    w("PMCNTENSET_EL0", 0x40000000);
    w("PMCR_EL0", 0x1);
    run(1);
    EXPECT_EQ(val("PMEVCNTR30_EL0"), 0x100000000u);  // LP = 0: flag at bit 31, carry kept
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x40000000u);
    w("PMOVSCLR_EL0", 0x40000000);
    w("PMCR_EL0", 0x81);  // LP = 1
    run(1);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0u);
    w("PMEVCNTR30_EL0", 0xFFFFFFFFFFFFFFFF);
    run(1);
    EXPECT_EQ(val("PMEVCNTR30_EL0"), 0u);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x40000000u);
}

TEST_F(PmuV3, FilterRulesPerExceptionLevel) {
    // v8 §4 quick reference; EL3 implemented, EL2 implemented.
    EXPECT_FALSE(arm->filtered(0x00000000, 0, false));
    EXPECT_FALSE(arm->filtered(0x00000000, 1, false));
    EXPECT_TRUE(arm->filtered(0x00000000, 2, false));   // NSH = 0
    EXPECT_FALSE(arm->filtered(0x00000000, 3, true));
    EXPECT_FALSE(arm->filtered(0x08000000, 2, false));  // NSH = 1 counts at EL2
    // 0x80000000 (P): EL0 only.
    EXPECT_FALSE(arm->filtered(0x80000000, 0, false));
    EXPECT_TRUE(arm->filtered(0x80000000, 1, false));
    EXPECT_TRUE(arm->filtered(0x80000000, 1, true));
    EXPECT_TRUE(arm->filtered(0x80000000, 2, false));
    EXPECT_TRUE(arm->filtered(0x80000000, 3, true));
    // 0x40000000 (U): EL1 and EL3, not EL0 or EL2.
    EXPECT_TRUE(arm->filtered(0x40000000, 0, false));
    EXPECT_FALSE(arm->filtered(0x40000000, 1, false));
    EXPECT_FALSE(arm->filtered(0x40000000, 3, true));
    // NSK = P counts Non-secure EL1; Secure EL1 follows P alone.
    EXPECT_FALSE(arm->filtered(0xA0000000, 1, false));
    EXPECT_TRUE(arm->filtered(0xA0000000, 1, true));
    // NSU != U filters Non-secure EL0 only.
    EXPECT_TRUE(arm->filtered(0x10000000, 0, false));
    EXPECT_FALSE(arm->filtered(0x10000000, 0, true));
    // M != P filters EL3.
    EXPECT_TRUE(arm->filtered(0x04000000, 3, true));
}

TEST_F(PmuV3, FilteredCounterDoesNotCountAtThatLevel) {
    w("PMEVTYPER0_EL0", 0x80000008);  // INST_RETIRED at EL0 only
    w("PMCNTENSET_EL0", 0x1);
    w("PMCR_EL0", 0x1);
    pmu->set_exec_context({1, false});
    run(0, {{0x08, 5}});
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0u);
    pmu->set_exec_context({0, false});
    run(0, {{0x08, 5}});
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 5u);
}

TEST_F(PmuV3, NothingCountsInDebugState) {
    w("PMEVTYPER0_EL0", 0x11);
    w("PMCNTENSET_EL0", 0x80000001);
    w("PMCR_EL0", 0x1);
    pmu->set_state(CoreState::debug);
    run(100, {{0x11, 3}});
    EXPECT_EQ(val("PMCCNTR_EL0"), 0u);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0u);
    pmu->set_state(CoreState::run);
    run(100);
    EXPECT_EQ(val("PMCCNTR_EL0"), 100u);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 100u);
}

TEST_F(PmuV3, DpStopsTheCycleCounterWhereCountingIsProhibited) {
    // Secure state without Secure non-invasive debug (platform default) prohibits event counting (v8 §7).
    w("PMEVTYPER0_EL0", 0x11);
    w("PMCNTENSET_EL0", 0x80000001);
    w("PMCR_EL0", 0x1);
    pmu->set_exec_context({3, true});
    run(10);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0u);
    EXPECT_EQ(val("PMCCNTR_EL0"), 10u);  // DP = 0: the cycle counter keeps counting
    w("PMCR_EL0", 0x21);                 // DP = 1
    run(10);
    EXPECT_EQ(val("PMCCNTR_EL0"), 10u);
    make("cortex-a53", {{"secure-counting", "1"}});
    w("PMEVTYPER0_EL0", 0x11);
    w("PMCNTENSET_EL0", 0x1);
    w("PMCR_EL0", 0x1);
    pmu->set_exec_context({3, true});
    run(10);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 10u);
}

TEST_F(PmuV3, InterruptIsALevelOfEAndFlagsAndEnables) {
    w("PMOVSSET_EL0", 0x2);  // forced flag on a disabled counter still requests (v8 §6)
    EXPECT_FALSE(pmu->irq());  // E = 0
    w("PMINTENSET_EL1", 0x2);
    EXPECT_FALSE(pmu->irq());
    w("PMCR_EL0", 0x1);
    EXPECT_TRUE(pmu->irq());
    w("PMCR_EL0", 0x0);
    EXPECT_FALSE(pmu->irq());
    w("PMCR_EL0", 0x1);
    w("PMINTENCLR_EL1", 0x2);
    EXPECT_FALSE(pmu->irq());
}

TEST_F(PmuV3, UnsupportedEventReadsBackAndCountsNothing) {
    const auto rec = w("PMEVTYPER0_EL0", 0x1F);  // L1D_CACHE_ALLOCATE: not in the A53's PMCEID0
    EXPECT_TRUE(rec.has(diag::reserved_event));
    EXPECT_EQ(val("PMEVTYPER0_EL0"), 0x1Fu);
    w("PMCNTENSET_EL0", 0x1);
    w("PMCR_EL0", 0x1);
    run(10, {{0x1F, 10}});
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0u);
    EXPECT_FALSE(w("PMEVTYPER0_EL0", 0x20).has(diag::reserved_event));  // L2D_CACHE_ALLOCATE: PMCEID1[0]
}

TEST_F(PmuV3, EvtCountIs10BitsBeforeV3p1) {
    w("PMEVTYPER0_EL0", 0xFFFF);
    EXPECT_EQ(val("PMEVTYPER0_EL0"), 0x3FFu);
    make("armv8-generic");
    w("PMEVTYPER0_EL0", 0xFFFF);
    EXPECT_EQ(val("PMEVTYPER0_EL0"), 0xFFFFu);
}

TEST_F(PmuV3, CounterAboveNIsUndefinedByDefault) {
    auto rec = rd("PMEVCNTR6_EL0");
    EXPECT_TRUE(rec.trapped());
    EXPECT_TRUE(rec.has(diag::unpredictable));
    w("PMSELR_EL0", 7);
    rec = rd("PMXEVCNTR_EL0");
    EXPECT_TRUE(rec.trapped());
    EXPECT_EQ(val("PMSELR_EL0"), 7u);  // SEL reads back as written
    w("PMSELR_EL0", 31);
    rec = w("PMXEVCNTR_EL0", 5);  // SEL = 31 does not alias PMCCNTR
    EXPECT_TRUE(rec.trapped());
    EXPECT_EQ(val("PMCCNTR_EL0"), 0u);
}

TEST_F(PmuV3, CounterAboveNIsRazWiWithTheOption) {
    make("cortex-a53", {{"unpredictable", "raz-wi"}});
    auto rec = w("PMEVCNTR6_EL0", 5);
    EXPECT_FALSE(rec.trapped());
    EXPECT_TRUE(rec.has(diag::unpredictable));
    rec = rd("PMEVCNTR6_EL0");
    EXPECT_EQ(rec.value_read, 0u);
    w("PMSELR_EL0", 31);
    EXPECT_EQ(rd("PMXEVCNTR_EL0").value_read, 0u);
    EXPECT_THROW(find_platform("cortex-a53")->make({{"unpredictable", "nope"}}), std::invalid_argument);
    EXPECT_THROW(find_platform("cortex-a53")->make({{"colour", "1"}}), std::invalid_argument);
}

// v8 §3.13: the EL0 access table, row by row, for each PMUSERENR setting.
struct El0Case {
    const char* reg;
    bool write;
    bool en, er, cr, sw, none;  // allowed with EN; with ER only; CR only; SW only; all zero
};

TEST_F(PmuV3, El0AccessTable) {
    const El0Case cases[] = {
        {"PMCR_EL0", false, true, false, false, false, false},
        {"PMCR_EL0", true, true, false, false, false, false},
        {"PMCNTENSET_EL0", true, true, false, false, false, false},
        {"PMCNTENCLR_EL0", false, true, false, false, false, false},
        {"PMOVSSET_EL0", true, true, false, false, false, false},
        {"PMOVSCLR_EL0", false, true, false, false, false, false},
        {"PMSWINC_EL0", true, true, false, false, true, false},
        {"PMSELR_EL0", false, true, true, false, false, false},
        {"PMSELR_EL0", true, true, true, false, false, false},
        {"PMCEID0_EL0", false, true, false, false, false, false},
        {"PMCEID1_EL0", false, true, false, false, false, false},
        {"PMCCNTR_EL0", false, true, false, true, false, false},
        {"PMCCNTR_EL0", true, true, false, false, false, false},
        {"PMXEVCNTR_EL0", false, true, true, false, false, false},
        {"PMXEVCNTR_EL0", true, true, false, false, false, false},
        {"PMEVCNTR0_EL0", false, true, true, false, false, false},
        {"PMEVCNTR0_EL0", true, true, false, false, false, false},
        {"PMXEVTYPER_EL0", true, true, false, false, false, false},
        {"PMEVTYPER0_EL0", false, true, false, false, false, false},
        {"PMCCFILTR_EL0", true, true, false, false, false, false},
        {"PMUSERENR_EL0", false, true, true, true, true, true},
        {"PMUSERENR_EL0", true, false, false, false, false, false},
        {"PMINTENSET_EL1", false, false, false, false, false, false},
        {"PMINTENCLR_EL1", true, false, false, false, false, false},
    };
    const uint64_t settings[] = {0x1, 0x8, 0x4, 0x2, 0x0};
    for (const auto& c : cases) {
        const bool allowed[] = {c.en, c.er, c.cr, c.sw, c.none};
        for (int s = 0; s < 5; ++s) {
            make();
            w("PMSELR_EL0", 0);
            w("PMUSERENR_EL0", settings[s]);
            const AccessRecord rec = c.write ? w(c.reg, 0, 0) : rd(c.reg, 0);
            EXPECT_EQ(!rec.trapped(), allowed[s])
                << c.reg << (c.write ? " write" : " read") << " with PMUSERENR = " << settings[s];
        }
    }
}

TEST_F(PmuV3, TrappedAccessChangesNothing) {
    w("PMUSERENR_EL0", 0x0);
    const auto rec = w("PMCR_EL0", 0x7, 0);
    EXPECT_TRUE(rec.trapped());
    EXPECT_TRUE(rec.has(diag::trap));
    EXPECT_EQ(val("PMCR_EL0"), 0x41033000u);
}

TEST_F(PmuV3, Vector11And12El0Rows) {
    w("PMUSERENR_EL0", 0x4);
    EXPECT_FALSE(rd("PMCCNTR_EL0", 0).trapped());
    EXPECT_TRUE(w("PMCCNTR_EL0", 1, 0).trapped());
    EXPECT_TRUE(rd("PMEVCNTR0_EL0", 0).trapped());
    w("PMUSERENR_EL0", 0x8);
    EXPECT_FALSE(w("PMSELR_EL0", 1, 0).trapped());
    EXPECT_FALSE(rd("PMXEVCNTR_EL0", 0).trapped());
    EXPECT_TRUE(w("PMXEVTYPER_EL0", 0x11, 0).trapped());
}

TEST_F(PmuV3, ExternalViewOffsets) {
    AccessContext dbg;
    dbg.origin = AccessOrigin::external_debug;
    EXPECT_EQ(pmu->read_offset(0xE04, dbg).value_read, 0x41033000u);
    EXPECT_EQ(pmu->read_offset(0xE20, dbg).value_read, 0x63FFFFFFu);
    EXPECT_EQ(pmu->read_offset(0xE24, dbg).value_read, 0x1u);
    pmu->write_offset(0xC00, 0x80000001, dbg);
    EXPECT_EQ(val("PMCNTENSET_EL0"), 0x80000001u);
    pmu->write_offset(0xC20, 0x1, dbg);
    EXPECT_EQ(val("PMCNTENSET_EL0"), 0x80000000u);
    pmu->write_offset(0xC40, 0x4, dbg);  // PMINTENSET: accessible externally
    EXPECT_EQ(val("PMINTENSET_EL1"), 0x4u);
    pmu->write_offset(0xC60, 0x4, dbg);
    EXPECT_EQ(val("PMINTENSET_EL1"), 0x0u);
    pmu->write_offset(0xCC0, 0x2, dbg);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x2u);
    pmu->write_offset(0xC80, 0x2, dbg);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x0u);
    pmu->write_offset(0x018, 0x1234, dbg);  // PMEVCNTR3 at 0x000 + 8*3
    EXPECT_EQ(val("PMEVCNTR3_EL0"), 0x1234u);
    pmu->write_offset(0x40C, 0x11, dbg);  // PMEVTYPER3 at 0x400 + 4*3
    EXPECT_EQ(val("PMEVTYPER3_EL0"), 0x11u);
    pmu->write_offset(0x47C, 0x40000000, dbg);
    EXPECT_EQ(val("PMCCFILTR_EL0"), 0x40000000u);
    pmu->write_offset(0x0F8, 0x89ABCDEF, dbg);  // PMCCNTR low and high halves
    pmu->write_offset(0x0FC, 0x01234567, dbg);
    EXPECT_EQ(val("PMCCNTR_EL0"), 0x0123456789ABCDEFu);
    EXPECT_EQ(pmu->read_offset(0x0FC, dbg).value_read, 0x01234567u);
    EXPECT_EQ(pmu->read_offset(0xE00, dbg).value_read, 0x6u | (63u << 8) | (1u << 14) | (1u << 15) | (1u << 16));
    EXPECT_EQ(pmu->read_offset(0xCA0, dbg).value_read, 0u);  // PMSWINC: write-only reads 0 externally
    EXPECT_TRUE(pmu->read_offset(0x030, dbg).trapped());     // PMEVCNTR6: not implemented, unmapped
    EXPECT_TRUE(pmu->read_offset(0xE08, dbg).trapped());     // no external PMUSERENR in ARMv8
}

}  // namespace
}  // namespace pmusim
