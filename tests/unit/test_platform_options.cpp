// Platform options for the IMPLEMENTATION DEFINED figures (issue 18), the LP/CHAIN rule and requests raised by
// writes. Expected values from ../shared/spec/armv8-pmuv3.md (section in the comments).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tests/unit/pmu_harness.hpp"

namespace pmusim {
namespace {

class PlatformOptionsTest : public ArmPmuTest {
protected:
    PlatformOptionsTest() : ArmPmuTest("cortex-a53") {}
};

bool has_code(const AccessRecord& rec, std::string_view code) {
    for (const auto& d : rec.diagnostics)
        if (d.code == code) return true;
    return false;
}

TEST_F(PlatformOptionsTest, CountersImplementerAndIdcodeMakePmcr) {
    make("cortex-a53", {{"counters", "4"}, {"implementer", "0x51"}, {"idcode", "0x7"}});
    // v8 §3.1: IMP [31:24] = 0x51, IDCODE [23:16] = 0x07, N [15:11] = 4 -> 0x51072000.
    EXPECT_EQ(val("PMCR_EL0"), 0x51072000u);
    w("PMCNTENSET_EL0", 0xFFFFFFFF);
    EXPECT_EQ(val("PMCNTENSET_EL0"), 0x8000000Fu);  // bits [30:4] RAZ/WI with N = 4 (v8 §3.2)
    const auto rec = rd("PMEVCNTR4_EL0");           // n >= N: CONSTRAINED UNPREDICTABLE, UNDEFINED by default
    EXPECT_TRUE(rec.trapped());
}

TEST_F(PlatformOptionsTest, PmceidOptionsReplaceTheBuiltInValues) {
    make("cortex-a57", {{"pmceid0", "0x00020101"}, {"pmceid1", "0"}});
    EXPECT_EQ(val("PMCEID0_EL0"), 0x00020101u);
    EXPECT_EQ(val("PMCEID1_EL0"), 0u);
    // The implemented events follow: INST_RETIRED (bit 8) counts, LD_RETIRED (bit 6) does not (v8 §3.8, §4).
    EXPECT_TRUE(arm->event_supported(0x08));
    EXPECT_FALSE(arm->event_supported(0x06));
    EXPECT_FALSE(arm->event_supported(0x20));
}

TEST_F(PlatformOptionsTest, PmceidIs64BitFromV3p1Only) {
    // v8 §3.8: PMCEID0[63:32] name events 0x4000-0x401F from PMUv3p1.
    make("cortex-a53", {{"version", "v3p1"}, {"pmceid0", "0x100000001"}});
    EXPECT_EQ(val("PMCEID0_EL0"), 0x100000001u);
    EXPECT_TRUE(arm->event_supported(0x4000));
    try {
        make("cortex-a53", {{"pmceid0", "0x100000001"}});
        FAIL() << "a 64-bit PMCEID0 on PMUv3 was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("pmceid0"), std::string::npos) << e.what();
    }
}

TEST_F(PlatformOptionsTest, VersionV3p5MakesLpWritable) {
    w("PMCR_EL0", 0x80);
    EXPECT_EQ(val("PMCR_EL0"), 0x41033000u);  // PMUv3: LP is RES0 (v8 §3.1)
    make("cortex-a53", {{"version", "v3p5"}});
    w("PMCR_EL0", 0x80);
    EXPECT_EQ(val("PMCR_EL0"), 0x41033080u);
}

TEST_F(PlatformOptionsTest, BadValuesNameTheOption) {
    const std::pair<const char*, const char*> bad[] = {
        {"counters", "32"}, {"implementer", "0x100"}, {"idcode", "x"}, {"version", "v2"}, {"pmceid1", "-1"}};
    for (const auto& [k, v] : bad) {
        try {
            make("cortex-a53", {{k, v}});
            ADD_FAILURE() << k << "=" << v << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(k), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(make("cortex-a7", {{"version", "v3"}}), std::invalid_argument);  // ARMv7: v1 or v2
    EXPECT_THROW(find_platform("veer-el2")->make({{"counters", "6"}}), std::invalid_argument);
    EXPECT_THROW(find_platform("arm1176")->make({{"idcode", "1"}}), std::invalid_argument);
}

// ARM11's start-state (docs/models.md, "State a user-mode trace cannot show"): the replay's predictor starts on
// (SCTLR.Z set, as Linux runs) unless start-state=reset (out of reset, ARM1176 TRM 3.2.7: Z = 0).
TEST(PlatformStartState, Arm11PredictorOnAsLinuxRunsOrOffFromReset) {
    for (const char* name : {"arm1136", "arm1156", "arm1176"}) {
        const Platform& p = *find_platform(name);
        EXPECT_TRUE(replay_timing(p, {})->predictor.enabled) << name;
        EXPECT_TRUE(replay_timing(p, {{"start-state", "linux"}})->predictor.enabled) << name;
        EXPECT_FALSE(replay_timing(p, {{"start-state", "reset"}})->predictor.enabled) << name;
        EXPECT_EQ(option_values(p).at("start-state"), "linux");
    }
    EXPECT_THROW(replay_timing(*find_platform("arm1176"), {{"start-state", "off"}}), std::invalid_argument);
    EXPECT_NO_THROW(find_platform("arm1176")->make({{"start-state", "reset"}}));
    // Not an option of the ARMv7/ARMv8 platforms, whose timing does not follow SCTLR.Z.
    EXPECT_THROW(find_platform("cortex-a7")->make({{"start-state", "reset"}}), std::invalid_argument);
}

TEST_F(PlatformOptionsTest, Armv7VersionSelectsFilters) {
    // armv7-cp15-pmu.md §3.5: PMUv1 has no filter bits, PMUv2 has P and U.
    make("cortex-a8");
    w("PMSELR", 0);
    w("PMXEVTYPER", 0xC0000008);
    EXPECT_EQ(val("PMXEVTYPER0"), 0x08u);
    make("cortex-a8", {{"version", "v2"}});
    w("PMXEVTYPER0", 0xC0000008);
    EXPECT_EQ(val("PMXEVTYPER0"), 0xC0000008u);
}

// The CHAIN rule with FEAT_PMUv3p5 (v8 §5.2; Arm ARM AArch64.IncrementEventCounter): an even counter's overflow
// increments an odd CHAIN counter only when that overflow is at bit 31 (PMCR_EL0.LP = 0).
class ChainTest : public ArmPmuTest {
protected:
    ChainTest() : ArmPmuTest("armv8-generic") {}
    void program(uint64_t pmcr) {
        w("PMEVTYPER0_EL0", 0x08);  // INST_RETIRED
        w("PMEVTYPER1_EL0", 0x1E);  // CHAIN
        w("PMCNTENSET_EL0", 0x3);
        w("PMCR_EL0", pmcr);
    }
};

TEST_F(ChainTest, LpZeroChainsOnBit31Overflow) {
    program(0x1);
    w("PMEVCNTR0_EL0", 0xFFFFFFFE);
    run(10, {{0x08, 3}});
    // 64-bit counter, overflow recorded at bit 31; the carry goes on into [63:32] (v8 §5 table).
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0x100000001u);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x1u);
    EXPECT_EQ(val("PMEVCNTR1_EL0"), 1u);
}

TEST_F(ChainTest, LpOneDoesNotChain) {
    program(0x81);
    w("PMEVCNTR0_EL0", 0xFFFFFFFE);
    run(10, {{0x08, 3}});
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0x100000001u);  // bit 31 crossed: no overflow with LP = 1
    EXPECT_EQ(val("PMOVSSET_EL0"), 0u);
    EXPECT_EQ(val("PMEVCNTR1_EL0"), 0u);
    w("PMEVCNTR0_EL0", 0xFFFFFFFFFFFFFFFEu);
    run(10, {{0x08, 3}});
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 1u);      // wrapped at bit 63
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x1u);     // and overflowed
    EXPECT_EQ(val("PMEVCNTR1_EL0"), 0u);      // but no CHAIN event
}

TEST_F(ChainTest, LpOneSoftwareIncrementDoesNotChain) {
    w("PMEVTYPER0_EL0", 0x00);  // SW_INCR
    w("PMEVTYPER1_EL0", 0x1E);
    w("PMCNTENSET_EL0", 0x3);
    w("PMCR_EL0", 0x81);
    w("PMEVCNTR0_EL0", 0xFFFFFFFFFFFFFFFFu);
    w("PMSWINC_EL0", 0x1);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0u);
    EXPECT_EQ(val("PMOVSSET_EL0"), 0x1u);
    EXPECT_EQ(val("PMEVCNTR1_EL0"), 0u);
    w("PMCR_EL0", 0x1);  // LP = 0: the same increment at bit 31 chains
    w("PMEVCNTR0_EL0", 0xFFFFFFFF);
    w("PMSWINC_EL0", 0x1);
    EXPECT_EQ(val("PMEVCNTR0_EL0"), 0x100000000u);
    EXPECT_EQ(val("PMEVCNTR1_EL0"), 1u);
}

TEST_F(PlatformOptionsTest, SoftwareIncrementOverflowRaisesTheRequestInTheRecord) {
    // v8 §3.5: a PMSWINC increment overflows like any other; §6: the request is E && PMINTENSET && PMOVSSET.
    w("PMEVTYPER0_EL0", 0x00);
    w("PMCNTENSET_EL0", 0x1);
    w("PMINTENSET_EL1", 0x1);
    w("PMCR_EL0", 0x1);
    w("PMEVCNTR0_EL0", 0xFFFFFFFF);
    const auto rec = w("PMSWINC_EL0", 0x1);
    EXPECT_TRUE(pmu->irq());
    EXPECT_TRUE(has_code(rec, diag::irq));
    const auto again = w("PMSWINC_EL0", 0x1);  // already requesting: nothing new to report
    EXPECT_FALSE(has_code(again, diag::irq));
}

}  // namespace
}  // namespace pmusim
