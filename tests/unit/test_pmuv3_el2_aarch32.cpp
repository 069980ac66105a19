// PMUv3 with EL2 (MDCR_EL2.HPMN, HPME, HPMD, HLP, TPM) and the AArch32 view of PMUv3 (issue 18). Expected values
// from the Arm ARM (D17 MDCR_EL2, PMCR_EL0.N, PMOVSCLR_EL0.P<n>) as restated in ../shared/spec/armv8-pmuv3.md
// §2 (AArch32 encodings), §4 (E_eff, HPMD), §5 (LP/HLP) and §6 (the request).
#include <gtest/gtest.h>

#include "tests/unit/pmu_harness.hpp"

namespace pmusim {
namespace {

class El2Test : public ArmPmuTest {
protected:
    El2Test() : ArmPmuTest("cortex-a53") {}
    bool has_code(const AccessRecord& rec, std::string_view code) {
        for (const auto& d : rec.diagnostics)
            if (d.code == code) return true;
        return false;
    }
};

TEST_F(El2Test, HpmnIsWhatEl1Sees) {
    EXPECT_EQ(rd("MDCR_EL2", 2).value_read, 6u);  // HPMN resets to N
    w("MDCR_EL2", 4, 2);
    EXPECT_EQ(rd("PMCR_EL0", 1).value_read, 0x41032000u);  // N reads HPMN = 4 at EL1
    w("PMUSERENR_EL0", 1, 1);
    EXPECT_EQ(rd("PMCR_EL0", 0).value_read & 0xF800, 0x2000u);  // and at EL0
    EXPECT_EQ(rd("PMCR_EL0", 2).value_read, 0x41033000u);  // and N = 6 at EL2
    w("PMCNTENSET_EL0", 0xFFFFFFFF, 1);
    EXPECT_EQ(rd("PMCNTENSET_EL0", 1).value_read, 0x8000000Fu);  // bits [30:HPMN] RAZ/WI at EL1
    EXPECT_EQ(rd("PMCNTENSET_EL0", 2).value_read, 0x8000000Fu);  // the write did not reach counters 4, 5
    w("PMCNTENSET_EL0", 0x30, 2);
    EXPECT_EQ(rd("PMCNTENSET_EL0", 2).value_read, 0x8000003Fu);
    EXPECT_EQ(rd("PMCNTENSET_EL0", 1).value_read, 0x8000000Fu);
    w("PMCNTENCLR_EL0", 0xFFFFFFFF, 1);                          // EL1 cannot disable EL2's counters
    EXPECT_EQ(rd("PMCNTENSET_EL0", 2).value_read, 0x30u);
    EXPECT_TRUE(rd("PMEVCNTR4_EL0", 1).trapped());               // n >= HPMN: as n >= N to EL1
    EXPECT_FALSE(rd("PMEVCNTR4_EL0", 2).trapped());
    w("PMSELR_EL0", 5, 1);
    EXPECT_TRUE(rd("PMXEVCNTR_EL0", 1).trapped());
    EXPECT_TRUE(rd("MDCR_EL2", 1).trapped());                    // an EL2 register
}

TEST_F(El2Test, HpmeEnablesTheCountersReservedForEl2) {
    w("MDCR_EL2", 4, 2);
    w("PMEVTYPER0_EL0", 0x08000008, 2);  // INST_RETIRED, NSH
    w("PMEVTYPER4_EL0", 0x08000008, 2);
    w("PMCNTENSET_EL0", 0x11, 2);
    w("PMCR_EL0", 0x1, 2);
    run(20, {{0x08, 10}});
    EXPECT_EQ(rd("PMEVCNTR0_EL0", 2).value_read, 10u);
    EXPECT_EQ(rd("PMEVCNTR4_EL0", 2).value_read, 0u);  // PMCR.E does not enable counter 4 >= HPMN
    w("MDCR_EL2", 0x84, 2);                             // HPME
    w("PMCR_EL0", 0x0, 2);
    run(20, {{0x08, 10}});
    EXPECT_EQ(rd("PMEVCNTR0_EL0", 2).value_read, 10u);
    EXPECT_EQ(rd("PMEVCNTR4_EL0", 2).value_read, 10u);
}

TEST_F(El2Test, RequestOfAReservedCounterFollowsHpme) {
    w("MDCR_EL2", 4, 2);
    w("PMINTENSET_EL1", 0x10, 2);
    w("PMOVSSET_EL0", 0x10, 2);
    w("PMCR_EL0", 0x1, 2);
    EXPECT_FALSE(pmu->irq());  // E_eff(4) = HPME = 0
    w("MDCR_EL2", 0x84, 2);
    EXPECT_TRUE(pmu->irq());
    w("PMCR_EL0", 0x0, 2);
    EXPECT_TRUE(pmu->irq());  // PMCR.E does not gate counter 4
}

TEST_F(El2Test, PmcrPFromEl1ResetsOnlyItsCounters) {
    w("MDCR_EL2", 4, 2);
    w("PMEVCNTR1_EL0", 7, 2);
    w("PMEVCNTR5_EL0", 7, 2);
    w("PMCR_EL0", 0x2, 1);
    EXPECT_EQ(rd("PMEVCNTR1_EL0", 2).value_read, 0u);
    EXPECT_EQ(rd("PMEVCNTR5_EL0", 2).value_read, 7u);
    w("PMCR_EL0", 0x2, 2);  // at EL2 every counter
    EXPECT_EQ(rd("PMEVCNTR5_EL0", 2).value_read, 0u);
}

TEST_F(El2Test, HpmdProhibitsGuestCountersAtEl2) {
    make("cortex-a53", {{"version", "v3p1"}});
    w("MDCR_EL2", (1u << 17) | 0x80 | 4, 2);  // HPMD, HPME, HPMN = 4
    w("PMEVTYPER0_EL0", 0x08000008, 2);
    w("PMEVTYPER4_EL0", 0x08000008, 2);
    w("PMCCFILTR_EL0", 0x08000000, 2);  // NSH: PMCCNTR counts at EL2
    w("PMCNTENSET_EL0", 0x80000011, 2);
    w("PMCR_EL0", 0x1, 2);
    pmu->set_exec_context({2, false});
    run(5, {{0x08, 5}});
    EXPECT_EQ(rd("PMEVCNTR0_EL0", 2).value_read, 0u);  // below HPMN: prohibited at EL2
    EXPECT_EQ(rd("PMEVCNTR4_EL0", 2).value_read, 5u);  // reserved for EL2: counts
    EXPECT_EQ(rd("PMCCNTR_EL0", 2).value_read, 5u);    // PMCCNTR stops only with PMCR.DP
    w("PMCR_EL0", 0x21, 2);                             // DP
    run(5, {{0x08, 5}});
    EXPECT_EQ(rd("PMCCNTR_EL0", 2).value_read, 5u);
    pmu->set_exec_context({1, false});
    run(5, {{0x08, 5}});
    EXPECT_EQ(rd("PMEVCNTR0_EL0", 2).value_read, 5u);  // EL1 is not affected
}

TEST_F(El2Test, HlpGivesTheReservedCountersTheirOverflowBit) {
    make("armv8-generic");  // PMUv3p5
    w("MDCR_EL2", (1u << 26) | 0x80 | 2, 2);  // HLP, HPME, HPMN = 2
    for (const char* t : {"PMEVTYPER0_EL0", "PMEVTYPER2_EL0"}) w(t, 0x08000008, 2);
    w("PMEVTYPER3_EL0", 0x0800001E, 2);  // CHAIN on the odd neighbour of counter 2
    w("PMCNTENSET_EL0", 0xD, 2);
    w("PMCR_EL0", 0x1, 2);  // LP = 0 for counters 0, 1
    w("PMEVCNTR0_EL0", 0xFFFFFFFF, 2);
    w("PMEVCNTR2_EL0", 0xFFFFFFFF, 2);
    run(1, {{0x08, 1}});
    EXPECT_EQ(rd("PMOVSSET_EL0", 2).value_read, 0x1u);  // counter 0 overflows at bit 31, counter 2 (HLP) does not
    EXPECT_EQ(rd("PMEVCNTR2_EL0", 2).value_read, 0x100000000u);
    w("PMEVCNTR2_EL0", 0xFFFFFFFFFFFFFFFFu, 2);
    run(1, {{0x08, 1}});
    EXPECT_EQ(rd("PMOVSSET_EL0", 2).value_read, 0x5u);
    EXPECT_EQ(rd("PMEVCNTR3_EL0", 2).value_read, 0u);  // a bit-63 overflow is no CHAIN event
}

TEST_F(El2Test, TpmTrapsGuestAccessesToEl2) {
    w("MDCR_EL2", 0x40 | 6, 2);
    const auto rec = rd("PMCR_EL0", 1);
    EXPECT_TRUE(rec.trapped());
    EXPECT_TRUE(has_code(rec, diag::trap));
    EXPECT_FALSE(rd("PMCR_EL0", 2).trapped());
    w("MDCR_EL2", 0x20 | 6, 2);  // TPMCR: PMCR only
    EXPECT_TRUE(rd("PMCR_EL0", 1).trapped());
    EXPECT_FALSE(rd("PMCNTENSET_EL0", 1).trapped());
}

TEST_F(El2Test, NoMdcrWithoutEl2OrInArmv7) {
    make("cortex-a7");
    EXPECT_EQ(pmu->bank().find("MDCR_EL2"), nullptr);
}

// The AArch32 view: CP15 encodings onto the same state (armv8-pmuv3.md §2).
class Aarch32View : public El2Test {
protected:
    Register* cp15(unsigned opc1, unsigned crn, unsigned crm, unsigned opc2) {
        return pmu->bank().find(EncodingSpace::cp15, cp15_key(opc1, crn, crm, opc2));
    }
    uint64_t rd15(Register* r, unsigned el = 1) {
        AccessContext c;
        c.privilege = el;
        return pmu->read(*r, c).value_read;
    }
    AccessRecord wr15(Register* r, uint64_t v, unsigned el = 1) {
        AccessContext c;
        c.privilege = el;
        return pmu->write(*r, v, c);
    }
};

TEST_F(Aarch32View, Cp15EncodingsMapOntoTheAarch64State) {
    Register* pmcr = cp15(0, 9, 12, 0);
    ASSERT_NE(pmcr, nullptr);
    EXPECT_EQ(pmcr->name, "PMCR");
    EXPECT_EQ(rd15(pmcr), 0x41033000u);
    wr15(pmcr, 0x1);
    EXPECT_EQ(val("PMCR_EL0"), 0x41033001u);
    wr15(cp15(0, 9, 12, 1), 0x80000008);  // PMCNTENSET
    EXPECT_EQ(val("PMCNTENSET_EL0"), 0x80000008u);
    wr15(cp15(0, 14, 12, 3), 0x11);  // PMEVTYPER3: p15, 0, c14, c12, 3
    EXPECT_EQ(val("PMEVTYPER3_EL0"), 0x11u);
    wr15(cp15(0, 14, 8, 3), 42);  // PMEVCNTR3: p15, 0, c14, c8, 3
    EXPECT_EQ(val("PMEVCNTR3_EL0"), 42u);
    wr15(cp15(0, 9, 12, 5), 3);  // PMSELR, then PMXEVCNTR
    EXPECT_EQ(rd15(cp15(0, 9, 13, 2)), 42u);
    EXPECT_EQ(rd15(cp15(0, 14, 15, 7)), 0u);  // PMCCFILTR
    EXPECT_EQ(cp15(0, 9, 12, 6)->name, "PMCEID0");
    EXPECT_EQ(rd15(cp15(0, 9, 12, 6)), 0x63FFFFFFu);
}

TEST_F(Aarch32View, ThirtyTwoBitViewOfTheCycleCounter) {
    // MRC reads PMCCNTR[31:0]; MCR writes [31:0] and leaves [63:32] unchanged (§2 notes).
    w("PMCCNTR_EL0", 0x123456789u);
    Register* ccnt = cp15(0, 9, 13, 0);
    EXPECT_EQ(rd15(ccnt), 0x23456789u);
    wr15(ccnt, 0xFFFFFFFF);
    EXPECT_EQ(val("PMCCNTR_EL0"), 0x1FFFFFFFFu);
}

TEST_F(Aarch32View, Pmceid2And3AreTheUpperHalvesFromV3p1) {
    EXPECT_EQ(cp15(0, 9, 14, 4), nullptr);  // PMUv3: no PMCEID2
    make("cortex-a53", {{"version", "v3p1"}, {"pmceid0", "0x500000001"}, {"pmceid1", "0x200000000"}});
    EXPECT_EQ(rd15(cp15(0, 9, 12, 6)), 0x1u);  // PMCEID0
    EXPECT_EQ(rd15(cp15(0, 9, 14, 4)), 0x5u);  // PMCEID2 = PMCEID0_EL0[63:32]
    EXPECT_EQ(rd15(cp15(0, 9, 14, 5)), 0x2u);  // PMCEID3 = PMCEID1_EL0[63:32]
}

TEST_F(Aarch32View, HdcrIsMdcrEl2AndHpmnAppliesToTheAarch32Guest) {
    Register* hdcr = cp15(4, 1, 1, 1);  // HDCR: p15, 4, c1, c1, 1
    ASSERT_NE(hdcr, nullptr);
    wr15(hdcr, 4, 2);
    EXPECT_EQ(rd("MDCR_EL2", 2).value_read, 4u);
    EXPECT_EQ(rd15(cp15(0, 9, 12, 0), 1) & 0xF800, 0x2000u);  // PMCR.N reads HPMN at PL1
    EXPECT_TRUE(wr15(hdcr, 6, 1).trapped());
}

TEST_F(Aarch32View, UserAccessRefusedIsUndefined) {
    const auto rec = wr15(cp15(0, 9, 12, 0), 1, 0);  // PMUSERENR.EN = 0
    EXPECT_TRUE(rec.trapped());
    EXPECT_TRUE(has_code(rec, diag::undefined));
}

TEST_F(Aarch32View, NoAarch32NoCp15View) {
    make("armv8-generic");  // AArch32 not supported
    EXPECT_EQ(cp15(0, 9, 12, 0), nullptr);
}

}  // namespace
}  // namespace pmusim
