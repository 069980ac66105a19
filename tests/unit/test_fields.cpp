// Every field kind of the register-semantics core, on a register built for the test.
#include <gtest/gtest.h>

#include "model/core/register.hpp"

namespace pmusim {
namespace {

struct FieldsTest : ::testing::Test {
    uint64_t word = 0;
    Register reg;
    RegisterBank bank;
    Register* r = nullptr;

    void SetUp() override {
        Register x;
        x.name = "TESTREG";
        x.state = &word;
        x.fields = {
            make_field("RW", 3, 0, FieldKind::rw, 0x5),
            make_field("RO", 7, 4, FieldKind::ro, 0xA),
            make_field("WO", 8, 8, FieldKind::wo),
            make_field("RAZ", 9, 9, FieldKind::raz_wi),
            make_field("RAO", 10, 10, FieldKind::rao_wi),
            make_field("R0", 11, 11, FieldKind::res0),
            make_field("R1", 12, 12, FieldKind::res1),
            make_field("SBZ", 13, 13, FieldKind::sbz),
            make_field("SBZP", 14, 14, FieldKind::sbzp),
            make_field("W1C", 17, 15, FieldKind::w1c, 0x7),
            make_field("W1S", 20, 18, FieldKind::w1s, 0x1),
            // WARL: only even values 0..6 are legal; anything else keeps the current value.
            make_warl("WARL", 23, 21, [](uint64_t w, uint64_t cur) { return (w % 2 == 0) ? w : cur; }, 0x2),
        };
        r = &bank.add(std::move(x));
        r->reset();
    }
    AccessRecord write(uint64_t v) {
        AccessRecord rec;
        apply_write(*r, v, rec);
        return rec;
    }
};

TEST_F(FieldsTest, ResetValueAndGapFill) {
    // RW 5, RO 0xA<<4, RAO bit 10, RES1 bit 12, W1C 7<<15, W1S 1<<18, WARL 2<<21, bits [31:24] RES0.
    EXPECT_EQ(r->read(), 0x5u | 0xA0u | 0x400u | 0x1000u | (7u << 15) | (1u << 18) | (2u << 21));
    ASSERT_EQ(r->fields.back().name, "RES0");
    EXPECT_EQ(r->fields.back().lsb, 24u);
    EXPECT_EQ(r->fields.back().width, 8u);
}

TEST_F(FieldsTest, RwStoresRoIgnores) {
    const auto rec = write(0x3 | (0x5u << 4));
    EXPECT_EQ(r->read() & 0xFFu, 0xA3u);  // RW = 3, RO still 0xA
    EXPECT_TRUE(rec.has(diag::no_effect));  // RO written 5, not 0: reported
}

TEST_F(FieldsTest, WriteOnlyReadsZero) {
    const auto rec = write(0x100 | (2u << 21));
    EXPECT_EQ(r->read() & 0x100u, 0u);
    EXPECT_EQ(rec.fields[2].name, "WO");
    EXPECT_EQ(rec.fields[2].written, 1u);
    EXPECT_EQ(rec.fields[2].effect, "action");
}

TEST_F(FieldsTest, RazRaoIgnoreWrites) {
    write(0x200 | (2u << 21));  // RAZ written 1, RAO written 0
    EXPECT_EQ(r->read() & 0x600u, 0x400u);
}

TEST_F(FieldsTest, ReservedBitsReportViolations) {
    auto rec = write(0x800 | 0x1000 | (2u << 21));  // RES0 written 1 (violation), RES1 written 1 (fine)
    EXPECT_TRUE(rec.has(diag::res_violation));
    EXPECT_EQ(r->read() & 0x1800u, 0x1000u);
    rec = write(2u << 21);  // RES1 written 0: violation
    EXPECT_TRUE(rec.has(diag::res_violation));
    EXPECT_EQ(r->read() & 0x1000u, 0x1000u);
}

TEST_F(FieldsTest, ShouldBeZero) {
    auto rec = write(0x1000 | (2u << 21));
    EXPECT_FALSE(rec.has(diag::sbz_violation));
    rec = write(0x1000 | 0x2000 | (2u << 21));
    EXPECT_TRUE(rec.has(diag::sbz_violation));
    rec = write(0x1000 | 0x4000 | (2u << 21));
    EXPECT_TRUE(rec.has(diag::sbz_violation));
    EXPECT_EQ(r->read() & 0x6000u, 0u);
}

TEST_F(FieldsTest, WriteOneToClearAndSet) {
    write(0x1000 | (0x5u << 15) | (0x4u << 18) | (2u << 21));  // clear W1C bits 0 and 2, set W1S bit 2
    EXPECT_EQ((r->read() >> 15) & 7u, 0x2u);
    EXPECT_EQ((r->read() >> 18) & 7u, 0x5u);
    write(0x1000 | (2u << 21));  // zeros: no effect on either
    EXPECT_EQ((r->read() >> 15) & 7u, 0x2u);
    EXPECT_EQ((r->read() >> 18) & 7u, 0x5u);
}

TEST_F(FieldsTest, WarlLegalises) {
    auto rec = write(0x1000 | (4u << 21));
    EXPECT_FALSE(rec.has(diag::warl_legalized));
    EXPECT_EQ((r->read() >> 21) & 7u, 4u);
    rec = write(0x1000 | (3u << 21));  // odd: illegal, keeps 4
    EXPECT_TRUE(rec.has(diag::warl_legalized));
    EXPECT_EQ((r->read() >> 21) & 7u, 4u);
}

TEST_F(FieldsTest, RecordCarriesOldAndNew) {
    const uint64_t before = r->read();
    const auto rec = write(0x1000 | 0x7 | (2u << 21));
    EXPECT_EQ(rec.old_value, before);
    EXPECT_EQ(rec.new_value, r->read());
    EXPECT_EQ(rec.value_written, 0x1000u | 0x7u | (2u << 21));
    EXPECT_EQ(rec.fields.size(), r->fields.size());
}

TEST(RegisterHalves, ViewAndWriteOneHalfOfAWord) {
    // RV32 counters: two 32-bit registers over one 64-bit word.
    uint64_t word = 0x0000000500000007u;
    Register lo, hi;
    lo.name = "lo";
    lo.state = &word;
    lo.fields = {make_field("V", 31, 0, FieldKind::rw)};
    hi = lo;
    hi.name = "hi";
    hi.state_shift = 32;
    EXPECT_EQ(lo.read(), 7u);
    EXPECT_EQ(hi.read(), 5u);
    AccessRecord a, b;
    apply_write(hi, 0x9, a);
    EXPECT_EQ(word, 0x0000000900000007u);
    apply_write(lo, 0xFFFFFFFF, b);
    EXPECT_EQ(word, 0x00000009FFFFFFFFu);
    EXPECT_EQ(b.old_value, 7u);
    EXPECT_EQ(b.new_value, 0xFFFFFFFFu);
}

TEST(RegisterBank, FindsByNameAliasEncodingAndOffset) {
    uint64_t w = 0, w2 = 0;
    RegisterBank bank;
    Register a;
    a.name = "PMCR_EL0";
    a.aliases = {"pmcr"};
    a.state = &w;
    a.fields = {make_field("E", 0, 0, FieldKind::rw)};
    a.encodings = {{EncodingSpace::a64_sysreg, a64_key(3, 3, 9, 12, 0)}};
    a.offsets = {{0xE04, 0}};
    bank.add(std::move(a));
    Register b;
    b.name = "CNT64";
    b.width = 64;
    b.state = &w2;
    b.fields = {make_field("V", 63, 0, FieldKind::rw)};
    b.offsets = {{0xF8, 0}, {0xFC, 32}};
    bank.add(std::move(b));
    EXPECT_NE(bank.find("pmcr_el0"), nullptr);
    EXPECT_EQ(bank.find("PMCR"), bank.find("PMCR_EL0"));
    EXPECT_EQ(bank.find(EncodingSpace::a64_sysreg, a64_key(3, 3, 9, 12, 0)), bank.find("PMCR_EL0"));
    EXPECT_EQ(bank.find_offset(0xE04).reg, bank.find("PMCR_EL0"));
    EXPECT_EQ(bank.find_offset(0xFC).shift, 32u);
    EXPECT_EQ(bank.find_offset(0xE08).reg, nullptr);
    EXPECT_EQ(bank.find("nosuch"), nullptr);
}

}  // namespace
}  // namespace pmusim
