// VeeR EL2's LSU buffers (model/timing/lsu_buffers.hpp). The DCCM store buffer: the cycles it is full, worked by hand from the RTL's
// rules (el2_lsu_stbuf.sv, el2_lsu_dccm_ctl.sv; DEPTH 4). At cycle t the instruction committing at t + 1 is in R,
// at t + 2 in M, at t + 3 at decode and the DCCM's read port; a store enters the buffer at the end of its R cycle;
// the oldest entry drains in any cycle no load (or store not an aligned word) at the read port reads its bank
// (address bits 3:2); full when the
// entries plus the DCCM stores in M and R (two each when dual) reach 4 with a load or store that is not dual at
// decode, 3 otherwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "model/timing/lsu_buffers.hpp"

using pmusim::timing::LsuAccess;
using pmusim::timing::LsuBuffers;

namespace {

struct Access {
    uint64_t commit;
    bool store;
    uint64_t addr;
    unsigned size = 4;
};

LsuAccess access(uint64_t commit, bool store, bool dccm, uint64_t addr, unsigned size = 4, uint64_t data = 0) {
    LsuAccess a;
    a.commit = commit;
    a.prev_commit = commit - 1;
    a.store = store;
    a.dccm = dccm;
    a.bus = !dccm;
    a.first = addr;
    a.last = addr + size - 1;
    a.data = data;
    return a;
}

LsuBuffers::Config store_buffer_alone() {
    LsuBuffers::Config c;
    c.store_depth = 4;
    c.bus_depth = 0;
    return c;
}

uint64_t full_cycles(const std::vector<Access>& v) {
    LsuBuffers s(store_buffer_alone());
    for (const auto& a : v) s.commit(access(a.commit, a.store, true, a.addr, a.size));
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

// A store that is not an aligned word reads the DCCM at decode too (el2_lsu_dccm_ctl.sv, lsu_dccm_rden_d: its bytes
// and the ECC are merged into the word read), so it holds back an entry of the bank it reads as a load does
// (tests/veer-rtl/splitma: sh 3 to the DCCM every 4 cycles, rtl_trace.sh bbuf shows the buffer full while each
// store after the first is in M). Halfword stores to 0x1003 (dual: words 0x1000 and 0x1004, banks 0 and 1)
// committing at 10, 14, 18: the first enters at 9 (2 entries), bank 0's drains at 10; at 11 the second store at
// decode reads banks 0 and 1, and bank 1's entry stays; at 12 that store in M (2) and the entry make 3 with
// nothing at decode: full; the same at 16 for the third: 2 cycles. Aligned word stores (sw to 0x1004) read nothing:
// their entry drains at once, never full.
TEST(StoreBuffer, SubWordStoresReadTheirBanksAtDecode) {
    EXPECT_EQ(full_cycles({{10, true, 0x1003, 2}, {14, true, 0x1003, 2}, {18, true, 0x1003, 2}}), 2u);
    EXPECT_EQ(full_cycles({{10, true, 0x1004}, {14, true, 0x1004}, {18, true, 0x1004}}), 0u);
}

// Accesses outside the DCCM are neither entries nor reads of a bank; at decode they count as loads and stores.
TEST(StoreBuffer, AccessesOffTheDccmAreOnlyAtDecode) {
    LsuBuffers s(store_buffer_alone());
    s.commit(access(10, true, true, 0x1000));
    s.commit(access(11, true, true, 0x1004));
    s.commit(access(12, true, true, 0x1008));
    s.commit(access(13, false, false, 0x80000000));  // a bus load: at decode at 10
    s.settle(40);
    // At 10: one entry and the stores of 11 and 12 in R and M make 3, but a load is at decode (threshold 4).
    EXPECT_EQ(s.take(), 0u);
    LsuBuffers t(store_buffer_alone());
    t.commit(access(10, true, true, 0x1000));
    t.commit(access(11, true, true, 0x1004));
    t.commit(access(12, true, true, 0x1008));
    t.settle(40);
    EXPECT_EQ(t.take(), 1u);  // nothing at decode at 10: full
}

// The D-bus buffer (4 entries), worked by hand from its rules (lsu_buffers.hpp): it counts the bus requests in M and R
// (two each when dual), the ibuf and every entry not idle; full at 4, or 3 with a dual access at decode.
namespace {

LsuBuffers::Config both_buffers() {
    LsuBuffers::Config c;
    c.store_depth = 4;
    c.bus_depth = 4;
    c.ibuf_timeout = 11;
    c.ibuf_merge_window = 7;
    return c;
}

}  // namespace

// Four bus loads in a row (tests/veer-rtl/busmix's copy loop): commits 10-13, data back at 12, 13, 15, 16. Each counts
// from its M stage to its data: [8, 12], [9, 13], [10, 15], [11, 16]: 4 at cycles 11 and 12 only.
TEST(BusBuffer, FourLoadsInARowFillItForTwoCycles) {
    LsuBuffers s(both_buffers());
    const uint64_t data[] = {12, 13, 15, 16};
    for (uint64_t c = 10; c <= 13; ++c) s.commit(access(c, false, false, 0x80100000 + 8 * c, 4, data[c - 10]));
    s.settle(60);
    EXPECT_EQ(s.take(), 2u);
}

// tests/veer-rtl/misaligned's stores: a store crossing a word at 10 (words 0x..02, 0x..03), another at 11 (0x..03,
// 0x..04), then a load crossing a word at 20 whose data comes back at 24, held at decode from 12 (the instruction
// before it committed at 14).
//  - the first store: 2 in M and R (8, 9); its first word's write entry in CMD from 10, alone (it waits for the
//    obuf's timer); its second word the ibuf from 10;
//  - the second: 2 in M and R (9, 10); its first word joins the ibuf, which leaves with it in R (an entry from 11)
//    and takes its second word (0x..04) from 11; two write entries in CMD at 11: the first store's goes into the obuf
//    at 11, out at 12, its response at 13 (10-13); the drained one waits alone (the obuf's timer: 7 from 12, the
//    cycle after the obuf's last load, to 19);
//  - the load: in M at 18 it drains the ibuf (counted until 18; an entry from 19 that does not wait): at 19 the
//    waiting entry goes into the obuf, out at 20, its response at 21 (11-21); the drained one, loaded at 20, out
//    only at 22, after that response (the memory takes one write at a time), its response at 23 (19-23); the load 2
//    from 18 to 24.
// Counts: 8: 2; 9: 4; 10: 4; 11-13: 3; 14-17: 2; 18-21: 4; 22-23: 3; 24: 2. With the load at decode 12-17 (dual:
// full at 3): full at 9, 10, 12, 13, 18, 19, 20, 21.
TEST(BusBuffer, MisalignedStoresAndALoadHeldAtDecode) {
    LsuBuffers s(both_buffers());
    s.commit(access(10, true, false, 0x8010000A));
    s.commit(access(11, true, false, 0x8010000E));
    LsuAccess load = access(20, false, false, 0x80100002, 4, 24);
    load.prev_commit = 14;
    s.commit(load);
    s.settle(60);
    EXPECT_EQ(s.take(), 8u);
}

// tests/veer-rtl/splitma's `sh t0,3(a5)` over the D-bus, a halfword across a word (0x80100003: words 0x80100000
// and 0x80100004, one 64-bit word), every 7 cycles: stores commit at 10, 17 and 24, the branch before each 4 cycles
// earlier (each at decode from 2 cycles after it: 11-14 and 18-21). Worked from el2_lsu_bus_buffer.sv and read on
// the RTL (rtl_trace.sh wbuf splitma: each first word's entry lives 9 cycles, each drained second word's 5, the
// count 4 from the next store's M stage for 4 cycles, then 3 for 2 with the next store at decode):
//  - each store: 2 in M and R (c - 2, c - 1); its first word's write entry from c, alone in CMD: it waits for the
//    obuf's timer; its second word the ibuf from c;
//  - the next store in M (c' - 2) drains the ibuf into an entry from c' - 1 (it does not wait: buf_nomerge); two
//    write entries in CMD: the waiting one goes into the obuf at c' - 1, out at c', its response at c' + 1; the
//    drained one into the obuf at c' (free as the last one goes out), out only at c' + 2, after that response (one
//    of its 64-bit word: bus_addr_match_pending; and the memory takes one write at a time), its response at c' + 3.
// Counts: 8, 9: 2; 10-14: 2 (the first word's entry, the ibuf); 15: 4 (the second store's two, the entry, the ibuf);
// 16: 4 (its two, the entry, the drained entry 16-20); 17, 18: 4 (the entry to 18, the drained one, the second
// store's first word and the ibuf); 19, 20: 3; 21: 2; 22-25: 4 as at 15-18; 26, 27: 3; then 2 (the third store's
// first word, waiting for the obuf's timer until 32: max(24, 25 the cycle after the obuf's last load) + 7, and the
// ibuf, which drains on its timer at 35 into an entry that waits until 42: 33-44 and 35-44 in 1s).
// Full at 4, or 3 with a store across a word at decode: 15-18, 19, 20 (the third store at decode), 22-25: 10 cycles
// (the RTL's 6 in each 7-cycle iteration). From 25 a fourth store across a word at decode waits 3 cycles (26 and 27
// full at 3), as the RTL's does (it leaves decode 4 cycles after the store before it commits).
TEST(BusBuffer, SplitStoresToOneDoublewordGoOutOneAtATime) {
    auto run = [](LsuBuffers& s) {
        for (uint64_t c : {10u, 17u, 24u}) {
            LsuAccess a = access(c, true, false, 0x80100003, 2);
            a.prev_commit = c == 10 ? 9 : c - 4;
            s.commit(a);
        }
    };
    LsuBuffers s(both_buffers());
    run(s);
    EXPECT_EQ(s.bus_wait(25, true), 3u);
    EXPECT_EQ(s.bus_wait(28, true), 0u);
    s.settle(80);
    EXPECT_EQ(s.take(), 10u);
    EXPECT_TRUE(s.bus_idle());
    LsuBuffers::Config ref_cfg = both_buffers();
    ref_cfg.cycle_by_cycle = true;
    LsuBuffers ref(ref_cfg);
    run(ref);
    ref.settle(80);
    EXPECT_EQ(ref.take(), 10u);
}

// A write entry alone in CMD waits for the obuf's timer (obuf_wr_wait) unless a bus access to another word reaches M
// with nothing in R and the ibuf empty (obuf_force_wr_en; rtl_trace.sh wbuf splitma: the `sw` to 0x80100000 in
// setup(), its ibuf drained on its timer, its entry sent as the next store reaches M). A word store at 10: the ibuf
// 10-20 (its timer: 11), its entry alone from 21. Alone, it goes into the obuf at 28 (7 cycles), out at 29, its
// response at 30: it counts 10-30. With a load across a word (0x80100042: two entries) committing at 26, M at 24, it
// goes into the obuf at 24, out at 25, its response at 26: it counts 10-26, the load 24-28 (its data), so the count
// is 3 at 24-26: a load or store across a word at decode from 25 (full at 3) waits 2 cycles.
// writes_ahead(): a load reaching M at 12 finds the store in the ibuf (its write goes first), one at 26 the entry
// waiting alone, one at 31 nothing (the response came at 30).
TEST(BusBuffer, AnAccessToAnotherWordSendsTheLoneWrite) {
    LsuBuffers s(both_buffers());
    EXPECT_FALSE(s.writes_ahead(8));
    s.commit(access(10, true, false, 0x80100000));
    EXPECT_TRUE(s.writes_ahead(12));
    EXPECT_EQ(s.holds(0x80100000 >> 2), 1u);
    s.settle(24);
    EXPECT_EQ(s.holds(0x80100000 >> 2), 2u);  // the ibuf drained on its timer at 21; its entry waits alone
    EXPECT_TRUE(s.writes_ahead(26));
    LsuBuffers t = s;
    t.settle(31);
    EXPECT_FALSE(t.bus_idle());  // alone, the entry counts until its response at 30
    EXPECT_TRUE(t.writes_ahead(30));
    t.settle(34);
    EXPECT_TRUE(t.bus_idle());
    EXPECT_FALSE(t.writes_ahead(31));
    s.commit(access(26, false, false, 0x80100042, 4, 28));
    EXPECT_EQ(s.holds(0x80100000 >> 2), 0u);  // sent
    EXPECT_EQ(s.bus_wait(25, true), 2u);
    s.settle(30);
    EXPECT_FALSE(s.bus_idle());  // the load until 28
    s.settle(32);
    EXPECT_TRUE(s.bus_idle());
}

// bus_wait(): how long a load or store at decode waits there while the D-bus buffer is full, read off the count
// ahead. misaligned's two stores of the test above (at 10 and 11) and nothing after them: the count is 2 at 8, 4 at
// 9 and 10 (the stores in M and R, then the first word's entry and the ibuf), 3 at 11-13 (the first word's entry
// 10-13, the ibuf, the drained entry waiting alone), then 2 (the ibuf and the waiting entry, until the obuf's timer
// sends it at 19: its response at 21), then 1 (the ibuf, then its entry).
//  - an access that does not cross a word (full at 4): at decode from 9, full at 9 and 10: it leaves at 11, 2 cycles;
//    from 11 (3 < 4) it does not wait;
//  - one that crosses a word (full at 3): from 9, full at 9-13: 5 cycles; from 11, 3 cycles; from 14 none.
// Without a bus buffer (bus_depth 0) nothing waits.
TEST(BusBuffer, AnAccessAtDecodeWaitsWhileTheCountIsFull) {
    LsuBuffers s(both_buffers());
    s.commit(access(10, true, false, 0x8010000A));
    s.commit(access(11, true, false, 0x8010000E));
    EXPECT_EQ(s.bus_wait(9, false), 2u);
    EXPECT_EQ(s.bus_wait(11, false), 0u);
    EXPECT_EQ(s.bus_wait(9, true), 5u);
    EXPECT_EQ(s.bus_wait(11, true), 3u);
    EXPECT_EQ(s.bus_wait(14, true), 0u);
    EXPECT_FALSE(s.bus_idle());
    LsuBuffers t(store_buffer_alone());
    t.commit(access(10, true, false, 0x8010000A));
    t.commit(access(11, true, false, 0x8010000E));
    EXPECT_EQ(t.bus_wait(9, true), 0u);
    EXPECT_TRUE(t.bus_idle());
    // Once the ibuf's timer has run out and its entries are done, the buffer is idle again.
    s.settle(60);
    EXPECT_TRUE(s.bus_idle());
    EXPECT_EQ(s.bus_wait(58, true), 0u);
}

// save() puts a D-bus buffer that holds entries in words too (the block and loop timing key and move it): the two
// stores above saved at base 11 and loaded at base 111 wait the same cycles 100 cycles on (5 from 109 and 3 from 111
// for a dual access, as worked above), and its ibuf's word moves with shift_addresses.
TEST(BusBuffer, SavedWithEntriesItActsTheSameShifted) {
    LsuBuffers s(both_buffers());
    s.commit(access(10, true, false, 0x8010000A));
    s.commit(access(11, true, false, 0x8010000E));
    std::array<uint64_t, LsuBuffers::max_snapshot> w{};
    const size_t n = s.save(11, w.data());
    ASSERT_GT(n, 0u);
    LsuBuffers t(both_buffers());
    t.load(111, w.data(), n);
    EXPECT_EQ(t.bus_wait(109, true), 5u);
    EXPECT_EQ(t.bus_wait(111, true), 3u);
    EXPECT_EQ(t.bus_wait(111, false), 0u);
    // The ibuf holds the second store's second word (0x..10) (holds() 1); the write entry waiting alone the first
    // store's second word (0x..0C), with the second store's first merged in (2).
    EXPECT_TRUE(t.ibuf_holds(0x80100010 >> 2));
    EXPECT_EQ(t.holds(0x80100010 >> 2), 1u);
    EXPECT_EQ(t.holds(0x8010000C >> 2), 2u);
    EXPECT_EQ(t.holds(0x80100008 >> 2), 0u);
    t.shift_addresses(4);
    EXPECT_TRUE(t.ibuf_holds(0x80100020 >> 2));
    EXPECT_FALSE(t.ibuf_holds(0x80100010 >> 2));
    EXPECT_EQ(t.holds(0x8010001C >> 2), 2u);
}

// The store buffer and the bus buffer full in the same cycle count once (event 34 is their OR). Bus loads at 6-9
// with data back at 11-14 count 4 from 7 to 11: 5 cycles. DCCM stores at 10, 11, 12 fill the store buffer at 10
// (one entry, the stores in R and M, nothing at decode), inside those 5: still 5.
TEST(BusBuffer, BothFullCountOnce) {
    auto run = [](bool stores) {
        LsuBuffers s(both_buffers());
        for (uint64_t c = 6; c <= 9; ++c) s.commit(access(c, false, false, 0x80100000 + 8 * c, 4, c + 5));
        if (stores)
            for (uint64_t c = 10; c <= 12; ++c) s.commit(access(c, true, true, 0xF0040000 + 4 * c));
        s.settle(60);
        return s.take();
    };
    EXPECT_EQ(run(false), 5u);
    EXPECT_EQ(run(true), 5u);
    // The stores alone: the one cycle.
    LsuBuffers t(both_buffers());
    for (uint64_t c = 10; c <= 12; ++c) t.commit(access(c, true, true, 0xF0040000 + 4 * c));
    t.settle(60);
    EXPECT_EQ(t.take(), 1u);
}

// save() and load() (the block timing's LSU memo, TimingModel::lsu_replay): a state saved at one base and loaded at
// another behaves as the original does, shifted. The state: four stores at 10-13 to bank 0, settled to 13 (the
// cursor at 11, the stores of 12 and 13 still coming), saved at base 14, where the last store's offset is -1 (it once
// collided with the "no store coming" mark and was lost). Then loads of bank 0 at 14-16, given to the original as
// they are and to the copy 100 cycles later: both count the same full cycles and end in the same state. By hand:
// 10's store enters at 9 and drains at 10 (a store at decode); 11's enters at 10; from 11 the loads of 14-16 at the
// read port hold bank 0, so 12's and 13's enter too (3 entries at 13); at 14 the 3 entries and nothing at decode
// (threshold 3) make it full, and the oldest drains; at 15 and 16, 2 and 1 entries: 1 cycle in all.
TEST(StoreBuffer, SavedStateBehavesTheSameShifted) {
    LsuBuffers a(store_buffer_alone());
    for (uint64_t c = 10; c <= 13; ++c) a.commit(access(c, true, true, 0x1000 + 16 * (c - 10)));
    a.settle(13);
    uint64_t words[LsuBuffers::max_snapshot];
    const size_t n = a.save(14, words);
    ASSERT_GT(n, 0u);
    EXPECT_EQ(words[0], uint64_t{0} - 3);  // the cursor, 11
    EXPECT_EQ(words[1], 1u);               // a store still coming ...
    EXPECT_EQ(words[2], uint64_t{0} - 1);  // ... the last at 13
    LsuBuffers b(store_buffer_alone());
    b.load(114, words, n);
    EXPECT_EQ(a.take(), 0u);  // nothing counted yet (cycles up to 10)
    for (uint64_t c = 14; c <= 16; ++c) {
        a.commit(access(c, false, true, 0x1040 + 16 * (c - 14)));
        b.commit(access(c + 100, false, true, 0x1040 + 16 * (c - 14)));
    }
    a.settle(40);
    b.settle(140);
    const uint64_t full = a.take();
    EXPECT_EQ(full, 1u);
    EXPECT_EQ(b.take(), full);
    uint64_t wa[LsuBuffers::max_snapshot], wb[LsuBuffers::max_snapshot];
    const size_t na = a.save(40, wa), nb = b.save(140, wb);
    ASSERT_EQ(na, nb);
    EXPECT_TRUE(std::equal(wa, wa + na, wb));
}

// save()'s data words pass through the caller's function as they are saved (save_split: the addresses a rule reads
// kept aside, every data word 0) and back as they are loaded. A DCCM store at 9, then the two bus stores of
// BusBuffer.SavedWithEntriesItActsTheSameShifted: at cursor 8 nothing is buffered yet (9's store enters at 8); the
// ibuf's word (0x80100010), the lone write entry's (0x8010000C) and the slot of 9 (a DCCM store: its first and last
// byte's word) are read; the slots of 10 and 11 (kept while a DCCM store is coming; over the bus, no rule reads their
// words) are not, their four words 0 all the same. The four DCCM stores of StoreBuffer.SavedStateBehavesTheSameShifted
// at cursor 11: the buffered word (11's, 0x1010) and the slots of the stores of 12 and 13.
TEST(LsuBuffersSave, DataWordsPassThroughTheCallersFunction) {
    auto split = [](const LsuBuffers& s, std::vector<uint64_t>& addrs) {
        uint64_t plain[LsuBuffers::max_snapshot], w[LsuBuffers::max_snapshot];
        const size_t n = s.save(14, plain);
        EXPECT_EQ(s.save_split(14, w, addrs), n);
        size_t zeroed = 0;
        for (size_t i = 0; i < n; ++i)
            if (w[i] != plain[i]) {
                EXPECT_EQ(w[i], 0u);
                ++zeroed;
            }
        return zeroed;
    };
    LsuBuffers bus(both_buffers());
    bus.commit(access(9, true, true, 0xF0040000));
    bus.commit(access(10, true, false, 0x8010000A));
    bus.commit(access(11, true, false, 0x8010000E));
    ASSERT_EQ(bus.cursor(), 8u);
    std::vector<uint64_t> addrs;
    EXPECT_EQ(split(bus, addrs), 8u);
    EXPECT_EQ(addrs, (std::vector<uint64_t>{0x80100010, 0x8010000C, 0xF0040000, 0xF0040000}));
    LsuBuffers dccm(store_buffer_alone());
    for (uint64_t c = 10; c <= 13; ++c) dccm.commit(access(c, true, true, 0x1000 + 16 * (c - 10)));
    dccm.settle(13);
    addrs.clear();
    EXPECT_EQ(split(dccm, addrs), 5u);
    EXPECT_EQ(addrs, (std::vector<uint64_t>{0x1010, 0x1020, 0x1020, 0x1030, 0x1030}));
    // Each data word saved as another and loaded back through the inverse: the same state; loaded as saved, not.
    for (const LsuBuffers* s : {&bus, &dccm}) {
        uint64_t w[LsuBuffers::max_snapshot];
        const size_t n = s->save(14, w, [](uint64_t x, bool) { return x ^ 0x5A5Au; });
        LsuBuffers back(s == &bus ? both_buffers() : store_buffer_alone()), as_saved = back;
        back.load(14, w, n, [](uint64_t x) { return x ^ 0x5A5Au; });
        as_saved.load(14, w, n);
        EXPECT_TRUE(back == *s);
        EXPECT_FALSE(as_saved == *s);
    }
}

// shift_addresses() moves every data word a rule reads (the buffered words, the ibuf's and the lone write entry's, the
// words of the slots of DCCM stores and of accesses at the read port), as save() lists them: each state is built
// again 0x40 bytes further (16 words; the DCCM banks, address bits 3:2, the same), and the first shifted by 16 words
// is that state (operator==: the same words), unshifted it is not; the same later accesses (0x40 bytes further on
// the second) then count the same full cycles and leave the two equal. The bus stores of
// LsuBuffersSave.DataWordsPassThroughTheCallersFunction settled to cursor 12 (the ibuf holds 0x80100010, the write
// entry waiting alone 0x8010000C; no slot ahead, as no rule reads a bus access's slot words), then a bus load of
// another word (it drains the ibuf, sends the lone entry); the DCCM stores of StoreBuffer.SavedStateBehavesTheSameShifted
// (the buffered 0x1010, the slots of 12 and 13), then its three loads.
TEST(LsuBuffersSave, AShiftedStateIsTheOneBuiltAtTheShiftedAddresses) {
    auto build = [](bool bus, uint64_t d) {
        LsuBuffers s(bus ? both_buffers() : store_buffer_alone());
        if (bus) {
            s.commit(access(9, true, true, 0xF0040000 + d));
            s.commit(access(10, true, false, 0x8010000A + d));
            s.commit(access(11, true, false, 0x8010000E + d));
            s.settle(14);
        } else {
            for (uint64_t c = 10; c <= 13; ++c) s.commit(access(c, true, true, 0x1000 + 16 * (c - 10) + d));
            s.settle(13);
        }
        return s;
    };
    for (const bool bus : {true, false}) {
        SCOPED_TRACE(bus ? "bus stores" : "DCCM stores");
        LsuBuffers a = build(bus, 0), b = build(bus, 0x40);
        EXPECT_EQ(a.holds(0x80100010 >> 2), bus ? 1u : 0u);
        EXPECT_EQ(a.holds(0x8010000C >> 2), bus ? 2u : 0u);
        EXPECT_FALSE(a == b);
        a.shift_addresses(16);
        EXPECT_TRUE(a == b);
        EXPECT_EQ(a.holds(0x80100050 >> 2), bus ? 1u : 0u);
        for (const uint64_t d : {uint64_t{0}, uint64_t{0x40}}) {
            LsuBuffers& s = d ? b : a;
            if (bus) {
                s.commit(access(15, false, false, 0x80100100 + d, 4, 18));
            } else {
                for (uint64_t c = 14; c <= 16; ++c) s.commit(access(c, false, true, 0x1040 + 16 * (c - 14) + d));
            }
            s.settle(60);
        }
        const uint64_t full = a.take();
        EXPECT_EQ(b.take(), full);
        if (!bus) {
            EXPECT_EQ(full, 1u);  // as worked in StoreBuffer.SavedStateBehavesTheSameShifted
        }
        EXPECT_TRUE(a == b);
    }
}

// A 64-bit linear congruential generator (Knuth's MMIX constants): rnd(n) is a number below n, the same sequence
// on every host, so that a differential test's streams are reproducible.
struct Lcg {
    uint64_t seed;
    uint64_t operator()(uint64_t n) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return (seed >> 33) % n;
    }
};

// run_to()'s D-bus spans (run_bus: the count alone, the cycles past the ring's last change counted at once) and
// bus_wait()'s bound (no walk where the count cannot reach the limit) against the rule cycle by cycle
// (Config::cycle_by_cycle): streams of bus and DCCM loads and stores, aligned and crossing a word (halfwords too),
// one commit a cycle or with gaps (the ibuf's and the obuf's timers run out), settled at each commit or every few; at
// every access the waits from each of the next 12 cycles and what the buffer's words are to its word (holds), at the
// end the full cycles and the state, all equal.
// `gap`, `latency`: the most cycles between two commits and from a bus load's commit to its data (the second pair:
// long stretches with no change on the D-bus buffer's ring, which run_bus counts at once).
static void expect_spans_as_cycle_by_cycle(uint64_t gap, uint64_t latency) {
    Lcg rnd{12345};
    uint64_t waits = 0, full = 0;
    for (int run = 0; run < 200; ++run) {
        LsuBuffers::Config ref_cfg = both_buffers();
        ref_cfg.cycle_by_cycle = true;
        LsuBuffers fast(both_buffers()), ref(ref_cfg);
        uint64_t c = 10;
        for (int i = 0; i < 300; ++i) {
            const uint64_t prev = c;
            c += rnd(4) == 0 ? 1 + rnd(gap) : 1;
            const bool dccm = rnd(5) == 0, store = rnd(2) == 0, half = rnd(4) == 0;
            // Words, words across a word (+2), halfwords across a word (+3: splitma's sh 3), in 3 64-bit words.
            const uint64_t addr = (dccm ? 0xF0040000u : 0x80100000u) + 4 * rnd(6) + (half ? 3 : rnd(6) == 0 ? 2 : 0);
            LsuAccess a = access(c, store, dccm, addr, half ? 2 : 4, store || dccm ? 0 : c + 1 + rnd(latency));
            a.prev_commit = prev;
            for (uint64_t d = c - 3 > fast.cursor() ? c - 3 : fast.cursor(), e = d + 12; d < e; ++d)
                for (const bool dual : {false, true}) {
                    ASSERT_EQ(fast.bus_wait(d, dual), ref.bus_wait(d, dual)) << "run " << run << " access " << i << " d " << d;
                    waits += ref.bus_wait(d, dual);
                }
            ASSERT_EQ(fast.holds(addr >> 2), ref.holds(addr >> 2)) << "run " << run << " access " << i;
            fast.commit(a);
            ref.commit(a);
            if (rnd(3) == 0) {
                fast.settle(c);
                ref.settle(c);
            }
            // The state save() puts in words (its ring's changes found from mark to mark: next_mark) loads into a
            // buffer equal to it (full_ is not saved: both hand theirs out first).
            if (rnd(16) == 0) {
                uint64_t w[LsuBuffers::max_snapshot];
                const size_t n = fast.save(0, w);
                if (n) {
                    LsuBuffers copy(both_buffers());
                    copy.load(0, w, n);
                    const uint64_t taken = ref.take();
                    ASSERT_EQ(fast.take(), taken) << "run " << run << " access " << i;
                    full += taken;
                    ASSERT_TRUE(copy == fast) << "run " << run << " access " << i;
                }
            }
        }
        fast.settle(c + 300);
        ref.settle(c + 300);
        EXPECT_TRUE(fast == ref) << "run " << run;
        const uint64_t n = ref.take();
        EXPECT_EQ(fast.take(), n) << "run " << run;
        full += n;
    }
    // The streams reach both: cycles counted full and accesses that wait.
    EXPECT_GT(full, 0u);
    EXPECT_GT(waits, 0u);
}

TEST(BusBuffer, SpansAndTheWaitsBoundGiveWhatTheRuleGivesCycleByCycle) { expect_spans_as_cycle_by_cycle(30, 6); }

TEST(BusBuffer, LongQuietSpansGiveWhatTheRuleGivesCycleByCycle) { expect_spans_as_cycle_by_cycle(120, 90); }

// Data returning up to 240 cycles after the commit, gaps up to 200: the ring's changes lie across all four words of
// its marks (next_mark) and past its wrap at 256.
TEST(BusBuffer, ChangesAcrossTheWholeRingGiveWhatTheRuleGivesCycleByCycle) { expect_spans_as_cycle_by_cycle(200, 240); }

// run_to()'s switch to the D-bus buffer alone (run_bus_to: once the store buffer is empty with no store coming and no
// dual access at decode ahead, for the rest of the call) against the rule cycle by cycle: bursts of DCCM stores
// (entries that drain in the call), bus stores (the ibuf, whose timer runs out in the call: the cycle run_bus_to
// leaves to cycle()) and bus loads, words and words crossed, then gaps of 8-48 cycles, settled at each commit or
// far ahead of it; the full cycles and the state after every burst, all equal.
TEST(BusBuffer, StoreBufferDrainingThenTheBusTimersInOneCallGiveWhatTheRuleGivesCycleByCycle) {
    Lcg rnd{777};
    uint64_t full = 0, stored = 0;
    for (int run = 0; run < 100; ++run) {
        LsuBuffers::Config ref_cfg = both_buffers();
        ref_cfg.cycle_by_cycle = true;
        LsuBuffers fast(both_buffers()), ref(ref_cfg);
        uint64_t c = 10;
        for (int burst = 0; burst < 60; ++burst) {
            const uint64_t n = 1 + rnd(4);
            for (uint64_t i = 0; i < n; ++i) {
                const uint64_t prev = c++;
                const unsigned kind = static_cast<unsigned>(rnd(3));  // a DCCM store, a bus store, a bus load
                const bool dccm = kind == 0, store = kind != 2;
                const uint64_t addr = (dccm ? 0xF0040000u : 0x80100000u) + 4 * rnd(4) + (rnd(5) == 0 ? 2 : 0);
                LsuAccess a = access(c, store, dccm, addr, 4, store ? 0 : c + 1 + rnd(8));
                a.prev_commit = prev;
                fast.commit(a);
                ref.commit(a);
                stored += dccm;
            }
            const uint64_t gap = 8 + rnd(40);
            if (rnd(2) == 0) {  // one call into the gap ahead
                const uint64_t s = c + 1 + rnd(gap);
                fast.settle(s);
                ref.settle(s);
            }
            c += gap;
            ASSERT_TRUE(fast == ref) << "run " << run << " burst " << burst;
            const uint64_t taken = ref.take();
            ASSERT_EQ(fast.take(), taken) << "run " << run << " burst " << burst;
            full += taken;
        }
    }
    EXPECT_GT(full, 0u);
    EXPECT_GT(stored, 0u);
}
