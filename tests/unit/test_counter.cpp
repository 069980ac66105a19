// Counter overflow arithmetic and the 64-cycle prescaler, in bulk.
#include <gtest/gtest.h>

#include "model/core/counter.hpp"

namespace pmusim {
namespace {

TEST(Counter, ThirtyTwoBitWrapReportsFirstOverflow) {
    Counter c(32, 31);
    c.value = 0xFFFFFFF0;
    const AddResult r = c.add(0x20);
    EXPECT_EQ(r.overflows, 1u);
    EXPECT_EQ(r.first_overflow, 0x10u);  // 0xFFFFFFF0 + 0x10 = 2^32
    EXPECT_EQ(c.value, 0x10u);
}

TEST(Counter, NoOverflowShortOfTheBoundary) {
    Counter c(32, 31);
    c.value = 0xFFFFFC18;  // 2^32 - 1000
    AddResult r = c.add(999);
    EXPECT_EQ(r.overflows, 0u);
    EXPECT_EQ(c.value, 0xFFFFFFFFu);
    r = c.add(1);
    EXPECT_EQ(r.overflows, 1u);
    EXPECT_EQ(r.first_overflow, 1u);
    EXPECT_EQ(c.value, 0u);
}

TEST(Counter, SeveralOverflowsInOneAdd) {
    Counter c(32, 31);
    c.value = 5;
    const AddResult r = c.add((uint64_t{1} << 33) + 3);  // crosses 2^32 - 5 and 2^33 - 5
    EXPECT_EQ(r.overflows, 2u);
    EXPECT_EQ(r.first_overflow, (uint64_t{1} << 32) - 5);
    EXPECT_EQ(c.value, 8u);
}

TEST(Counter, SixtyFourBitCounterWithOverflowAtBit31KeepsCarry) {
    Counter c(64, 31);  // PMCCNTR with PMCR.LC = 0
    c.value = 0xFFFFFFFF;
    const AddResult r = c.add(1);
    EXPECT_EQ(r.overflows, 1u);
    EXPECT_EQ(c.value, 0x100000000u);
}

TEST(Counter, SixtyFourBitCounterWithOverflowAtBit63) {
    Counter c(64, 63);
    c.value = 0xFFFFFFFF;
    EXPECT_EQ(c.add(1).overflows, 0u);  // LC = 1: no flag at bit 31
    c.value = ~uint64_t{0} - 1;
    const AddResult r = c.add(3);
    EXPECT_EQ(r.overflows, 1u);
    EXPECT_EQ(r.first_overflow, 2u);
    EXPECT_EQ(c.value, 1u);
    c.value = 0;
    EXPECT_EQ(c.add(~uint64_t{0}).overflows, 0u);  // from 0, 2^64 - 1 increments do not overflow
}

TEST(Counter, ReconfigureTruncates) {
    Counter c(64, 31);
    c.value = 0x123456789;
    c.configure(32, 31);
    EXPECT_EQ(c.value, 0x23456789u);
}

TEST(Prescaler, CarriesRemainderAcrossAdvances) {
    Prescaler p(64);
    EXPECT_EQ(p.advance(63), 0u);
    EXPECT_EQ(p.advance(1), 1u);
    EXPECT_EQ(p.phase(), 0u);
    EXPECT_EQ(p.advance(100), 1u);  // 100 = 64 + 36
    EXPECT_EQ(p.phase(), 36u);
    EXPECT_EQ(p.advance(28), 1u);  // 36 + 28 = 64
    EXPECT_EQ(p.phase(), 0u);
    EXPECT_EQ(p.advance(64 * 1000 + 5), 1000u);
    EXPECT_EQ(p.phase(), 5u);
}

TEST(Prescaler, SixtyFourSingleCyclesEqualOneBulkAdvance) {
    Prescaler a(64), b(64);
    uint64_t ticks = 0;
    for (int i = 0; i < 200; ++i) ticks += a.advance(1);
    EXPECT_EQ(ticks, b.advance(200));
    EXPECT_EQ(a.phase(), b.phase());
    EXPECT_EQ(ticks, 3u);
}

TEST(Prescaler, CycleOfTick) {
    // With 36 cycles already counted, the first tick falls on cycle 28 of the next advance, the second on 92.
    EXPECT_EQ(Prescaler::cycle_of_tick(36, 1, 64), 28u);
    EXPECT_EQ(Prescaler::cycle_of_tick(36, 2, 64), 92u);
    EXPECT_EQ(Prescaler::cycle_of_tick(0, 1, 64), 64u);
}

}  // namespace
}  // namespace pmusim
