// VeeR EL2's DCCM store buffer (model/timing/store_buffer.hpp): the cycles it is full, worked by hand from the RTL's
// rules (el2_lsu_stbuf.sv, el2_lsu_dccm_ctl.sv; DEPTH 4). At cycle t the instruction committing at t + 1 is in R,
// at t + 2 in M, at t + 3 at decode and the DCCM's read port; a store enters the buffer at the end of its R cycle;
// the oldest entry drains in any cycle no load at the read port reads its bank (address bits 3:2); full when the
// entries plus the DCCM stores in M and R (two each when dual) reach 4 with a load or store that is not dual at
// decode, 3 otherwise.
#include <gtest/gtest.h>

#include "model/timing/store_buffer.hpp"

using pmusim::timing::StoreBuffer;

namespace {

struct Access {
    uint64_t commit;
    bool store;
    uint64_t addr;
    unsigned size = 4;
};

uint64_t full_cycles(const std::vector<Access>& v) {
    StoreBuffer s(4);
    for (const auto& a : v) s.commit(a.commit, a.store, true, a.addr, a.addr + a.size - 1);
    s.settle(v.back().commit + 20);
    return s.take();
}

}  // namespace

// Stores to 4 words committing at 10-13, nothing else: at t = 11 one entry (the store of 11's word, entered at 10),
// the stores in R (12) and M (13) make 3 with nothing at decode: full. At 10 the same 3 with the store of 13 at
// decode (threshold 4); at 12, 2.
TEST(StoreBuffer, FourStoresInARowFillItForOneCycle) {
    EXPECT_EQ(full_cycles({{10, true, 0x1000}, {11, true, 0x1004}, {12, true, 0x1008}, {13, true, 0x100C}}), 1u);
}

// Stores at 10-12 to bank 0 (0x1000, 0x1010, 0x1020), then loads at 13-16 reading bank 0: the loads at the read
// port in cycles 10-13 keep the entries from draining, 3 of them by 12; at 14 no load or store is at decode
// (threshold 3): full. Loads of bank 1 (0x2004) let each entry drain the cycle after it enters: never full.
TEST(StoreBuffer, LoadsOfTheSameBankHoldEntriesBack) {
    auto program = [](uint64_t load_addr) {
        std::vector<Access> v = {{10, true, 0x1000}, {11, true, 0x1010}, {12, true, 0x1020}};
        for (uint64_t c = 13; c <= 16; ++c) v.push_back({c, false, load_addr});
        return v;
    };
    EXPECT_EQ(full_cycles(program(0x2000)), 1u);
    EXPECT_EQ(full_cycles(program(0x2004)), 0u);
}

// The same, the three stores to one word: each coalesces with the entry already there (one entry at most).
TEST(StoreBuffer, StoresToOneWordCoalesce) {
    std::vector<Access> v = {{10, true, 0x1000}, {11, true, 0x1000}, {12, true, 0x1000}};
    for (uint64_t c = 13; c <= 16; ++c) v.push_back({c, false, 0x2000});
    EXPECT_EQ(full_cycles(v), 0u);
}

// Two misaligned stores that cross a word (dual: two entries each) at 10 and 11: at 9 both in R and M (4), at 10
// two entries and the second in R (4), at 11 three entries (one drained), all with nothing at decode: 3 cycles.
TEST(StoreBuffer, DualStoresTakeTwoEntries) {
    EXPECT_EQ(full_cycles({{10, true, 0x1002}, {11, true, 0x1012}}), 3u);
}

// Accesses outside the DCCM are neither entries nor reads of a bank; at decode they count as loads and stores.
TEST(StoreBuffer, AccessesOffTheDccmAreOnlyAtDecode) {
    StoreBuffer s(4);
    s.commit(10, true, true, 0x1000, 0x1003);
    s.commit(11, true, true, 0x1004, 0x1007);
    s.commit(12, true, true, 0x1008, 0x100B);
    s.commit(13, false, false, 0x80000000, 0x80000003);  // a bus load: at decode at 10
    s.settle(40);
    // At 10: one entry and the stores of 11 and 12 in R and M make 3, but a load is at decode (threshold 4).
    EXPECT_EQ(s.take(), 0u);
    StoreBuffer t(4);
    t.commit(10, true, true, 0x1000, 0x1003);
    t.commit(11, true, true, 0x1004, 0x1007);
    t.commit(12, true, true, 0x1008, 0x100B);
    t.settle(40);
    EXPECT_EQ(t.take(), 1u);  // nothing at decode at 10: full
}
