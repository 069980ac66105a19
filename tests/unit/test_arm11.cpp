// ARM11 PMNC rules, from ../shared/spec/arm11-pmnc.md (AN195 Table 1 and 2), on each of the three cores.
#include <gtest/gtest.h>

#include "model/pmu/arm11_pmu.hpp"
#include "tests/unit/pmu_harness.hpp"

namespace pmusim {
namespace {

class Arm11 : public ::testing::TestWithParam<const char*>, public PmuHarness {
protected:
    void make(PlatformOptions opts = {}) {
        build(GetParam(), std::move(opts));
        arm11 = static_cast<Arm11Pmu*>(pmu.get());
    }
    void SetUp() override { make(); }
    bool is1156() const { return std::string(GetParam()) == "arm1156"; }
    Arm11Pmu* arm11 = nullptr;
};

TEST_P(Arm11, ResetIsZero) {
    EXPECT_EQ(val("PMNC"), 0u);
    EXPECT_EQ(val("CCNT"), 0u);
    EXPECT_EQ(val("PMN0"), 0u);
    EXPECT_EQ(val("PMN1"), 0u);
    EXPECT_FALSE(pmu->irq());
}

TEST_P(Arm11, ReservedBitsAreSbzAndReadZero) {
    auto rec = w("PMNC", 1u << 31);
    EXPECT_TRUE(rec.has(diag::sbz_violation));
    rec = w("PMNC", 1u << 7);
    EXPECT_TRUE(rec.has(diag::sbz_violation));
    EXPECT_EQ(val("PMNC"), 0u);
}

TEST_P(Arm11, FiqEnablesExistOnTheArm1156Only) {
    const auto rec = w("PMNC", 0x70000000);
    if (is1156()) {
        EXPECT_FALSE(rec.has(diag::sbz_violation));
        EXPECT_EQ(val("PMNC"), 0x70000000u);
    } else {
        EXPECT_TRUE(rec.has(diag::sbz_violation));
        EXPECT_EQ(val("PMNC"), 0u);
    }
}

TEST_P(Arm11, EventFieldsExportEnablesAndDividerAreReadWrite) {
    w("PMNC", 0x0FFFF878);  // EvtCount0 0xFF, EvtCount1 0xFF, X, ECC, EC1, EC0, D; flags written 0
    EXPECT_EQ(val("PMNC"), 0x0FFFF878u);
    w("PMNC", 0x0);
    EXPECT_EQ(val("PMNC"), 0u);
}

TEST_P(Arm11, PAndCAreActionsThatReadZero) {
    w("PMN0", 5);
    w("PMN1", 6);
    w("CCNT", 7);
    w("PMNC", 0x2);
    EXPECT_EQ(val("PMN0"), 0u);
    EXPECT_EQ(val("PMN1"), 0u);
    EXPECT_EQ(val("CCNT"), 7u);
    w("PMNC", 0x4);
    EXPECT_EQ(val("CCNT"), 0u);
    EXPECT_EQ(val("PMNC"), 0u);
}

TEST_P(Arm11, EnableGatesAllThreeCounters) {
    w("PMNC", (0xFFu << 20) | (0x07u << 12));  // PMN0 counts cycles, PMN1 instructions; E = 0
    run(10, {{0x07, 3}});
    EXPECT_EQ(val("CCNT"), 0u);
    EXPECT_EQ(val("PMN0"), 0u);
    w("PMNC", (0xFFu << 20) | (0x07u << 12) | 1);
    run(10, {{0x07, 3}});
    EXPECT_EQ(val("CCNT"), 10u);
    EXPECT_EQ(val("PMN0"), 10u);  // 0xFF: an increment each cycle
    EXPECT_EQ(val("PMN1"), 3u);
}

TEST_P(Arm11, DividerOverBulkAdvances) {
    w("PMNC", 0x9);  // E, D
    run(63);
    EXPECT_EQ(val("CCNT"), 0u);
    run(1);
    EXPECT_EQ(val("CCNT"), 1u);
    run(100);
    EXPECT_EQ(val("CCNT"), 2u);
    run(28);
    EXPECT_EQ(val("CCNT"), 3u);
    run(64 * 1000);
    EXPECT_EQ(val("CCNT"), 1003u);
}

TEST_P(Arm11, PreloadOverflowAndInterruptAtTheExactCycle) {
    // AN195 §5.2 with CCNT: preload 2^32 - 1000, ECC, E.
    w("CCNT", 0xFFFFFC18);
    w("PMNC", 0x41);
    const AdvanceResult r = run(5000);
    EXPECT_TRUE(r.irq_rose);
    EXPECT_EQ(r.irq_cycle, 1000u);
    EXPECT_EQ(val("CCNT"), 4000u);  // wrapped to 0 and kept counting
    EXPECT_EQ(val("PMNC"), 0x441u);
    EXPECT_TRUE(pmu->irq());
}

TEST_P(Arm11, FlagsClearOnlyWithEInTheSameWrite) {
    w("PMN1", 0xFFFFFFFF);
    w("PMNC", (0x07u << 12) | 0x21);  // EvtCount1 = INSTR_EXEC, EC1, E
    run(0, {{0x07, 1}});
    EXPECT_EQ(val("PMNC") & 0x200, 0x200u);
    EXPECT_TRUE(pmu->irq());
    auto rec = w("PMNC", (0x07u << 12) | 0x220);  // OC1 written 1, EC1 kept, E = 0: flag and request kept
    EXPECT_TRUE(rec.has(diag::impl_defined));
    EXPECT_EQ(val("PMNC") & 0x200, 0x200u);
    EXPECT_TRUE(pmu->irq());
    w("PMNC", (0x07u << 12) | 0x221);  // write back with E = 1 and EC1: clears OC1
    EXPECT_EQ(val("PMNC") & 0x200, 0u);
    EXPECT_FALSE(pmu->irq());
    make({{"flag-clear-needs-e", "0"}});
    w("PMN1", 0xFFFFFFFF);
    w("PMNC", (0x07u << 12) | 0x21);
    run(0, {{0x07, 1}});
    w("PMNC", 0x200);
    EXPECT_EQ(val("PMNC") & 0x200, 0u);
}

TEST_P(Arm11, ReadModifyWriteThatClearsAFlagIsReported) {
    w("PMN0", 0xFFFFFFFF);
    w("PMNC", (0x07u << 20) | 0x1);
    run(0, {{0x07, 1}});
    const uint64_t v = val("PMNC");
    EXPECT_EQ(v, 0x00700101u);
    auto rec = w("PMNC", v | 0x20);  // RMW: enable EC1, and the set OC0 is written back: cleared and reported
    EXPECT_TRUE(rec.has(diag::w1c_side_effect));
    EXPECT_EQ(val("PMNC") & 0x100, 0u);
    run(0, {{0x07, 0xFFFFFFFF}});  // overflow again
    rec = w("PMNC", val("PMNC"));  // the documented acknowledge: nothing else changes
    EXPECT_FALSE(rec.has(diag::w1c_side_effect));
}

TEST_P(Arm11, InterruptLines) {
    w("PMN0", 0xFFFFFFFF);
    w("PMNC", (0x07u << 20) | 0x10000011);  // FC0 (ARM1156 only), EC0, E
    run(0, {{0x07, 1}});
    if (is1156()) {
        EXPECT_TRUE(pmu->fiq());
        EXPECT_FALSE(pmu->irq());
    } else {
        EXPECT_TRUE(pmu->irq());
        EXPECT_FALSE(pmu->fiq());
    }
    w("PMNC", (0x07u << 20) | 0x10000111);  // acknowledge with E
    EXPECT_FALSE(pmu->irq());
    EXPECT_FALSE(pmu->fiq());
    EXPECT_EQ(pmu->has_fiq(), is1156());
}

TEST_P(Arm11, EventSupportPerCore) {
    const std::string core = GetParam();
    EXPECT_TRUE(w("PMNC", 0x08u << 20).has(diag::reserved_event));  // reserved everywhere
    EXPECT_EQ(w("PMNC", 0x23u << 20).has(diag::reserved_event), core != "arm1176");  // 1176 only
    EXPECT_EQ(w("PMNC", 0x13u << 20).has(diag::reserved_event), core != "arm1156");  // 1156 only
    EXPECT_EQ(w("PMNC", 0x03u << 20).has(diag::reserved_event), core == "arm1156");  // unused on 1156
    EXPECT_FALSE(w("PMNC", 0xFFu << 20).has(diag::reserved_event));
    w("PMNC", (0x08u << 20) | 1);  // a reserved event counts nothing
    run(10, {{0x08, 10}});
    EXPECT_EQ(val("PMN0"), 0u);
}

TEST_P(Arm11, NothingCountsInDebugState) {
    w("PMNC", (0xFFu << 20) | 1);
    pmu->set_state(CoreState::debug);
    run(100);
    EXPECT_EQ(val("CCNT"), 0u);
    EXPECT_EQ(val("PMN0"), 0u);
}

TEST_P(Arm11, ExportBusCountsEventsWhileXIsSet) {
    w("PMNC", (0x07u << 20) | 1);
    run(0, {{0x07, 4}});
    EXPECT_EQ(arm11->exported_events(), 0u);
    w("PMNC", (0x07u << 20) | 0x801);
    run(0, {{0x07, 4}});
    EXPECT_TRUE(arm11->exporting());
    EXPECT_EQ(arm11->exported_events(), 4u);
}

TEST_P(Arm11, UserModeIsUndefinedUnlessTheOptionAllowsIt) {
    for (const char* r : {"PMNC", "CCNT", "PMN0", "PMN1"}) {
        EXPECT_TRUE(rd(r, 0).trapped()) << r;
        EXPECT_TRUE(w(r, 0, 0).trapped()) << r;
    }
    make({{"user-access", "all"}});
    EXPECT_FALSE(rd("PMNC", 0).trapped());
    EXPECT_FALSE(w("CCNT", 5, 0).trapped());
    EXPECT_EQ(val("CCNT"), 5u);
    EXPECT_THROW(find_platform(GetParam())->make({{"user-access", "sometimes"}}), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Cores, Arm11, ::testing::Values("arm1136", "arm1156", "arm1176"));

}  // namespace
}  // namespace pmusim
