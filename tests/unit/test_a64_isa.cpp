// A64 MRS/MSR encoding (Arm ARM C5.2.x, system register move): known encodings and round trips.
#include <gtest/gtest.h>

#include "isa/a64_sysreg.hpp"
#include "isa/number.hpp"
#include "model/core/register.hpp"
#include "platforms/platform.hpp"

namespace pmusim {
namespace {

using isa::a64::SysRegMove;

TEST(A64SysReg, KnownEncodings) {
    // mrs x0, pmcr_el0 = 0xd53b9c00; msr pmcr_el0, x0 = 0xd51b9c00 (op0=3 op1=3 CRn=9 CRm=12 op2=0).
    EXPECT_EQ(isa::a64::encode({true, 3, 3, 9, 12, 0, 0}), 0xD53B9C00u);
    EXPECT_EQ(isa::a64::encode({false, 3, 3, 9, 12, 0, 0}), 0xD51B9C00u);
    // mrs x1, pmccntr_el0 (3,3,9,13,0)
    EXPECT_EQ(isa::a64::encode({true, 3, 3, 9, 13, 0, 1}), 0xD53B9D01u);
    // msr pmintenset_el1, x2 (3,0,9,14,1)
    EXPECT_EQ(isa::a64::encode({false, 3, 0, 9, 14, 1, 2}), 0xD5189E22u);
    // mrs x3, pmevcntr9_el0 (3,3,14,9,1)
    EXPECT_EQ(isa::a64::encode({true, 3, 3, 14, 9, 1, 3}), 0xD53BE923u);
}

TEST(A64SysReg, DecodeRejectsOtherInstructions) {
    EXPECT_FALSE(isa::a64::decode(0xD503201F).has_value());  // nop (hint, op0 = 0)
    EXPECT_FALSE(isa::a64::decode(0xD5033FDF).has_value());  // isb
    EXPECT_FALSE(isa::a64::decode(0x8B020020).has_value());  // add x0, x1, x2
    const auto m = isa::a64::decode(0xD53B9C00);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(m->is_read);
    EXPECT_EQ(isa::a64::key(*m), a64_key(3, 3, 9, 12, 0));
}

TEST(A64SysReg, RoundTripOverEveryPmuRegister) {
    for (const char* platform : {"cortex-a53", "armv8-generic"}) {
        auto pmu = find_platform(platform)->make({});
        unsigned checked = 0;
        for (const auto& r : pmu->bank().all()) {
            for (const auto& [space, key] : r->encodings) {
                if (space == EncodingSpace::cp15) continue;  // the AArch32 view (issue 18)
                ASSERT_EQ(space, EncodingSpace::a64_sysreg);
                for (bool read : {true, false}) {
                    for (unsigned rt : {0u, 17u, 30u, 31u}) {
                        SysRegMove m{read, (key >> 14) & 3u, (key >> 11) & 7u, (key >> 7) & 15u, (key >> 3) & 15u,
                                     key & 7u, rt};
                        const auto d = isa::a64::decode(isa::a64::encode(m));
                        ASSERT_TRUE(d.has_value()) << r->name;
                        EXPECT_EQ(isa::a64::key(*d), key) << r->name;
                        EXPECT_EQ(d->is_read, read);
                        EXPECT_EQ(d->rt, rt);
                        EXPECT_EQ(pmu->bank().find(EncodingSpace::a64_sysreg, isa::a64::key(*d)), r.get());
                    }
                }
                ++checked;
            }
        }
        // The list: 15 named registers, PMEVCNTR/PMEVTYPER 0..30 (62), PMCCFILTR; and MDCR_EL2 (issue 18).
        EXPECT_EQ(checked, 15u + 62u + 1u + 1u) << platform;
    }
}

TEST(A64SysReg, GenericNames) {
    EXPECT_EQ(isa::a64::parse_generic_name("S3_3_C9_C12_0"), a64_key(3, 3, 9, 12, 0));
    EXPECT_EQ(isa::a64::parse_generic_name("s3_3_c14_c15_7"), a64_key(3, 3, 14, 15, 7));
    EXPECT_EQ(isa::a64::generic_name(a64_key(3, 0, 9, 14, 1)), "S3_0_C9_C14_1");
    EXPECT_FALSE(isa::a64::parse_generic_name("S3_3_C9_C12").has_value());
    EXPECT_FALSE(isa::a64::parse_generic_name("S4_3_C9_C12_0").has_value());
    EXPECT_FALSE(isa::a64::parse_generic_name("S3_8_C9_C12_0").has_value());
    EXPECT_FALSE(isa::a64::parse_generic_name("S3_3_C16_C12_0").has_value());
    EXPECT_FALSE(isa::a64::parse_generic_name("S3_3_C9_C12_0x").has_value());
    EXPECT_FALSE(isa::a64::parse_generic_name("PMCR_EL0").has_value());
}

TEST(Numbers, DecimalHexBinaryUpTo64Bits) {
    EXPECT_EQ(isa::parse_number("17"), 17u);
    EXPECT_EQ(isa::parse_number("0x17"), 0x17u);
    EXPECT_EQ(isa::parse_number("0X1f"), 0x1Fu);
    EXPECT_EQ(isa::parse_number("0b101"), 5u);
    EXPECT_EQ(isa::parse_number("0xFFFFFFFFFFFFFFFF"), ~uint64_t{0});
    EXPECT_EQ(isa::parse_number("-1"), ~uint64_t{0});
    EXPECT_FALSE(isa::parse_number("0x1FFFFFFFFFFFFFFFF").has_value());  // 65 bits
    EXPECT_FALSE(isa::parse_number("18446744073709551616").has_value());
    EXPECT_FALSE(isa::parse_number("0x").has_value());
    EXPECT_FALSE(isa::parse_number("12z").has_value());
    EXPECT_FALSE(isa::parse_number("0b102").has_value());
    EXPECT_FALSE(isa::parse_number("").has_value());
}

}  // namespace
}  // namespace pmusim
