// The register bank's shortcuts must answer as the slow forms do: Register::read through the masks the bank works
// out (read_mask, read_ones) as field by field (Field::read), and find_offset through its table as through the map,
// for every register of every platform; and, on registers built here, the values worked out by hand.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "model/core/pmu.hpp"
#include "platforms/platform.hpp"

namespace pmusim {
namespace {

TEST(RegisterLookup, ReadThroughMasksEqualsFieldByField) {
    const uint64_t words[] = {0, ~uint64_t{0}, 0x5A5A5A5A5A5A5A5Au, 0xA5A5A5A5A5A5A5A5u, 0x80000000u, 0xFFFFFFFFu,
                              0x123456789ABCDEF0u};
    size_t checked = 0;
    for (const Platform& p : all_platforms()) {
        auto pmu = p.make({});
        for (const auto& r : pmu->bank().all()) {
            EXPECT_TRUE(r->masks_set) << p.name << " " << r->name;
            if (!r->state) {
                EXPECT_EQ(r->read(), r->read_fields()) << p.name << " " << r->name;
                continue;
            }
            const uint64_t saved = *r->state;
            for (uint64_t w : words) {
                *r->state = w;
                EXPECT_EQ(r->read(), r->read_fields()) << fmt::format("{} {} word {:#x}", p.name, r->name, w);
                ++checked;
            }
            *r->state = saved;
        }
    }
    EXPECT_GT(checked, 1000u);
}

TEST(RegisterLookup, MasksOfEveryFieldKind) {
    // Bits [3:0] RW, [4] RAO/WI, [5] RES1, [6] RES0, [7] WO, [8] RAZ/WI, [9] SBZ, [10] SBZP, [11] W1C, [12] W1S,
    // [13] RO, [15:14] WARL, [31:16] RES0 (the bank's gap fill). Stored kinds read the word; RAO/WI and RES1 read 1.
    uint64_t word = 0;
    Register x;
    x.name = "KINDS";
    x.state = &word;
    x.fields = {make_field("RW", 3, 0, FieldKind::rw),     make_field("RAO", 4, 4, FieldKind::rao_wi),
                make_field("R1", 5, 5, FieldKind::res1),   make_field("R0", 6, 6, FieldKind::res0),
                make_field("WO", 7, 7, FieldKind::wo),     make_field("RAZ", 8, 8, FieldKind::raz_wi),
                make_field("SBZ", 9, 9, FieldKind::sbz),   make_field("SBZP", 10, 10, FieldKind::sbzp),
                make_field("W1C", 11, 11, FieldKind::w1c), make_field("W1S", 12, 12, FieldKind::w1s),
                make_field("RO", 13, 13, FieldKind::ro),
                make_warl("WARL", 15, 14, [](uint64_t w, uint64_t) { return w; })};
    RegisterBank bank;
    Register& r = bank.add(std::move(x));
    EXPECT_EQ(r.read_mask, 0xFu | 0x800u | 0x1000u | 0x2000u | 0xC000u);
    EXPECT_EQ(r.read_ones, 0x30u);
    word = 0xFFFFFFFFu;
    EXPECT_EQ(r.read(), 0xF83Fu);
    word = 0;
    EXPECT_EQ(r.read(), 0x30u);
    EXPECT_EQ(r.write_rw, 0xFu);
    EXPECT_EQ(r.write_w1c, 0x800u);
    EXPECT_EQ(r.write_w1s, 0x1000u);
    EXPECT_EQ(r.quiet_zero, 0x10u | 0x40u | 0x100u | 0x200u | 0x400u | 0x2000u | 0xFFFF0000u);
    EXPECT_EQ(r.quiet_ones, 0x20u);
    EXPECT_TRUE(r.has_warl);
}

TEST(RegisterLookup, WriteByMasks) {
    // [3:0] RW, [4] W1C, [5] W1S, [6] RES1, [7] RO (reset 1), [31:8] RES0. A write of 0x7A (RW 0xA, W1C 1, W1S 1,
    // RES1 1, RO 0) to a word of 0x9F (RW 0xF, W1C set, W1S clear, RO 1): RW 0xA, W1C cleared, W1S set, RO kept:
    // 0x80 | 0x20 | 0xA = 0xAA, reading 0xEA with RES1; nothing reported. The word read 0x9F | 0x40 = 0xDF before.
    uint64_t word = 0;
    Register x;
    x.name = "PLAIN";
    x.state = &word;
    x.fields = {make_field("RW", 3, 0, FieldKind::rw), make_field("C", 4, 4, FieldKind::w1c),
                make_field("S", 5, 5, FieldKind::w1s), make_field("ONE", 6, 6, FieldKind::res1),
                make_field("RO", 7, 7, FieldKind::ro, 1)};
    RegisterBank bank;
    Register& r = bank.add(std::move(x));
    EXPECT_FALSE(r.has_warl);
    for (bool detail : {false, true}) {
        word = 0x9F;
        AccessRecord rec;
        rec.detail = detail;
        apply_write(r, 0x7A, rec);
        EXPECT_EQ(word, 0xAAu) << detail;
        EXPECT_EQ(rec.old_value, 0xDFu) << detail;  // RES1 reads 1
        EXPECT_EQ(rec.new_value, 0xEAu) << detail;
        EXPECT_TRUE(rec.diagnostics.empty()) << detail;
        EXPECT_EQ(rec.fields.size(), detail ? r.fields.size() : 0u);
    }
    // RES1 written 0 and RES0 written 1 are reported, with or without detail.
    for (bool detail : {false, true}) {
        word = 0;
        AccessRecord rec;
        rec.detail = detail;
        apply_write(r, 0x100, rec);
        EXPECT_TRUE(rec.has(diag::res_violation)) << detail;
        EXPECT_EQ(rec.diagnostics.size(), 2u) << detail;
    }
}

TEST(RegisterLookup, WriteByMasksEqualsFieldByField) {
    // Every register of every platform, written straight (apply_write, no model actions) with and without detail:
    // the same values, diagnostics and state word after.
    const uint64_t values[] = {0, ~uint64_t{0}, 0x5A5A5A5A5A5A5A5Au, 0xA5A5A5A5A5A5A5A5u, 1, 0x80000000u, 0xFFFFFFFFu,
                               0xC5ACCE55u};
    size_t quiet = 0;
    for (const Platform& p : all_platforms()) {
        auto pmu = p.make({});
        for (const auto& r : pmu->bank().all()) {
            if (!r->state) continue;
            const uint64_t saved = *r->state;
            for (uint64_t v : values) {
                const std::string what = fmt::format("{} {} value {:#x}", p.name, r->name, v);
                AccessRecord full, fast;
                fast.detail = false;
                apply_write(*r, v, full);
                const uint64_t after_full = *r->state;
                *r->state = saved;
                apply_write(*r, v, fast);
                EXPECT_EQ(*r->state, after_full) << what;
                EXPECT_EQ(fast.old_value, full.old_value) << what;
                EXPECT_EQ(fast.new_value, full.new_value) << what;
                EXPECT_EQ(fast.value_read, full.value_read) << what;
                EXPECT_EQ(fast.value_written, full.value_written) << what;
                ASSERT_EQ(fast.diagnostics.size(), full.diagnostics.size()) << what;
                for (size_t i = 0; i < full.diagnostics.size(); ++i)
                    EXPECT_EQ(fast.diagnostics[i].message, full.diagnostics[i].message) << what;
                quiet += full.diagnostics.empty();
                *r->state = saved;
            }
        }
    }
    EXPECT_GT(quiet, 500u);
}

TEST(RegisterLookup, OffsetTableEqualsTheMap) {
    size_t slots = 0;
    for (const Platform& p : all_platforms()) {
        auto pmu = p.make({});
        RegisterBank& bank = pmu->bank();
        for (const auto& r : bank.all()) {
            for (const auto& [off, shift] : r->offsets) {
                const auto s = bank.find_offset(off);
                EXPECT_EQ(s.reg, r.get()) << fmt::format("{} {} @{:#x}", p.name, r->name, off);
                EXPECT_EQ(s.shift, shift) << fmt::format("{} {} @{:#x}", p.name, r->name, off);
                for (uint64_t d = 1; d < 4; ++d)
                    EXPECT_EQ(bank.find_offset(off + d).reg, nullptr) << fmt::format("{} @{:#x}", p.name, off + d);
                ++slots;
            }
        }
        // Offsets no register has: every aligned offset of the first 4 KiB without a register, and far ones.
        size_t empty = 0;
        for (uint64_t off = 0; off < 0x1000; off += 4) {
            bool mapped = false;
            for (const auto& r : bank.all())
                for (const auto& o : r->offsets) mapped = mapped || o.first == off;
            if (!mapped) {
                EXPECT_EQ(bank.find_offset(off).reg, nullptr) << fmt::format("{} @{:#x}", p.name, off);
                ++empty;
            }
        }
        for (uint64_t off : {uint64_t{0x1000}, uint64_t{0xFFFC}, uint64_t{0x10000}, ~uint64_t{3}})
            EXPECT_EQ(bank.find_offset(off).reg, nullptr) << fmt::format("{} @{:#x}", p.name, off);
        EXPECT_GT(empty, 0u) << p.name;
    }
    EXPECT_GT(slots, 100u);
}

TEST(RegisterLookup, OffsetsOutsideTheTable) {
    // A register beyond the table's reach (64 KiB) and one at an unaligned offset are found through the map.
    uint64_t a = 0, b = 0;
    RegisterBank bank;
    Register far;
    far.name = "FAR";
    far.state = &a;
    far.fields = {make_field("V", 31, 0, FieldKind::rw)};
    far.offsets = {{0x20000, 0}};
    bank.add(std::move(far));
    Register odd;
    odd.name = "ODD";
    odd.state = &b;
    odd.fields = {make_field("V", 31, 0, FieldKind::rw)};
    odd.offsets = {{0x102, 0}};
    bank.add(std::move(odd));
    EXPECT_EQ(bank.find_offset(0x20000).reg, bank.find("FAR"));
    EXPECT_EQ(bank.find_offset(0x102).reg, bank.find("ODD"));
    EXPECT_EQ(bank.find_offset(0x100).reg, nullptr);
    EXPECT_EQ(bank.find_offset(0x104).reg, nullptr);
    EXPECT_EQ(bank.find_offset(0x1FFFC).reg, nullptr);
}

}  // namespace
}  // namespace pmusim
