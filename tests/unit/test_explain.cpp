// Privilege in each architecture's own words (testbench/explain.hpp) and the `explain` statement of scripts.
#include <gtest/gtest.h>

#include <sstream>

#include "testbench/explain.hpp"
#include "testbench/script_runner.hpp"

namespace pmusim {
namespace {

TEST(Privilege, LabelsPerArchitecture) {
    // Arm ARM DDI 0487: EL0-EL3. ARMv7 ARM B1.3: User = PL0, Supervisor... = PL1, Hyp = PL2. RISC-V: M and U.
    EXPECT_EQ(privilege_label(*find_platform("cortex-a53"), 2), "EL2");
    EXPECT_EQ(privilege_label(*find_platform("cortex-a7"), 0), "PL0 (User mode)");
    EXPECT_EQ(privilege_label(*find_platform("cortex-a15"), 2), "PL2 (Hyp mode)");
    EXPECT_EQ(privilege_label(*find_platform("arm1136"), 0), "PL0 (User mode)");
    EXPECT_EQ(privilege_label(*find_platform("veer-el2"), 3), "M-mode");
    EXPECT_EQ(privilege_label(*find_platform("veer-el2"), 0), "U-mode");
    EXPECT_EQ(default_privilege(*find_platform("veer-el2")), 3u);
    EXPECT_EQ(default_privilege(*find_platform("arm1176")), 1u);
}

TEST(Privilege, ParsesTheArchitecturesNamesAndRefusesOthers) {
    auto parse = [](const char* platform, const char* text, const PlatformOptions& o = {}) {
        const Platform& p = *find_platform(platform);
        auto pmu = p.make(o);
        std::string error;
        return parse_privilege(p, *pmu, text, error);
    };
    EXPECT_EQ(parse("cortex-a53", "EL3"), 3u);
    EXPECT_EQ(parse("cortex-a53", "0"), 0u);
    EXPECT_EQ(parse("cortex-a53", "7"), std::nullopt);
    EXPECT_EQ(parse("cortex-a53", "PL1"), std::nullopt);
    EXPECT_EQ(parse("cortex-a7", "Supervisor"), 1u);
    EXPECT_EQ(parse("cortex-a7", "usr"), 0u);
    EXPECT_EQ(parse("cortex-a7", "hyp"), 2u);
    EXPECT_EQ(parse("cortex-a7", "EL1"), std::nullopt);
    EXPECT_EQ(parse("arm1156", "PL1"), 1u);
    EXPECT_EQ(parse("arm1156", "PL2"), std::nullopt);  // ARMv6 has no Hyp mode
    EXPECT_EQ(parse("veer-el2", "M"), 3u);
    EXPECT_EQ(parse("veer-el2", "U"), std::nullopt);  // machine mode only unless user_mode=1
    EXPECT_EQ(parse("veer-el2", "U", {{"user_mode", "1"}}), 0u);
}

TEST(ExplainStatement, ExplainsAndMakesTheAccess) {
    // The statement makes the access (the W1C write clears the flag) and prints the record, not stderr lines.
    std::ostringstream out, err;
    ScriptRunner r({}, out, err);
    const int code = r.run_text("platform cortex-a53\nwrite PMOVSSET_EL0 1\nexplain write PMOVSCLR_EL0 1\n"
                                "expect PMOVSSET_EL0 == 0\n",
                                "t.pmus");
    EXPECT_EQ(code, script_ok) << err.str();
    EXPECT_NE(out.str().find("PMOVSCLR_EL0: 0x00000001 -> 0x00000000"), std::string::npos) << out.str();
    EXPECT_EQ(err.str(), "");
}

TEST(ExplainStatement, MalformedIsAnError) {
    std::ostringstream out, err;
    ScriptRunner r({}, out, err);
    EXPECT_EQ(r.run_text("platform cortex-a53\nexplain\n", "t.pmus"), script_malformed);
    EXPECT_NE(err.str().find("t.pmus:2: error: expected 'explain read REG'"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace pmusim
