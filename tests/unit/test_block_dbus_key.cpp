// The block timing's key for VeeR EL2's D-bus buffer (TimingModel::key_dbus, dbus_runs in
// model/timing/block_key.cpp): address bit 2 and the bytes of an access whose bytes no rule compares are left out, so
// bodies that differ only there share a recording; where a rule compares them (a load of a buffered store's word, a
// store whose bytes the buffer keeps past the body) they are keyed, so the engine does not reuse a recording of other
// bytes. Each execution is run by the block timing with every replay checked against step() on a copy
// (set_check_blocks: a recording applied to an entry state it does not fit throws) and compared with step() per
// instruction on a second model, the definition.
#include <functional>

#include "tests/unit/block_test_util.hpp"

namespace {

// sb x1, 0(x2)
isa::RetiredInsn store_byte() {
    isa::RetiredInsn i = op(C::store, 0, 2);
    i.regs.dst = 0;
    i.regs.src |= isa::reg_bit(1);
    return i;
}

// VeeR EL2's parameters (its DCCM at 0xF0040000: the addresses below, at 0x20000000, go over the D-bus).
TimingParams veer() {
    auto p = platform_timing("veer-el2");
    EXPECT_TRUE(p.has_value());
    EXPECT_TRUE(p->dbus_queue);
    return *p;
}

struct Executions {
    uint64_t replayed = 0, recorded = 0;
    uint64_t lsu_memo_hits = 0;  // replays that set the LSU buffers from the recording's memo (lsu_replay)
    std::vector<uint64_t> cycles;  // per execution
};

// `executions` runs of the body (its instructions at 0x1000 on, one access an instruction with an access), the
// accesses of execution i from `mem_of(i)`, on the block timing (checked) and on step(); every execution's cycles
// and events the same on both. With `before`, those instructions (ending at 0x1000; a last one that is a store: with
// one access, mem_of(i)'s first) are stepped on both models before each execution.
Executions run(const std::vector<isa::RetiredInsn>& insns, const std::vector<uint8_t>& n_mem, unsigned executions,
               const std::function<std::vector<MemRef>(unsigned)>& mem_of, const std::vector<isa::RetiredInsn>& before = {}) {
    std::vector<uint64_t> pcs;
    for (size_t i = 0; i < insns.size(); ++i) pcs.push_back(0x1000 + 4 * i);
    const uint64_t after = 0x1000 + 4 * insns.size();
    BlockMemo m(insns, pcs, std::vector<uint8_t>(insns.size(), 4));
    m.set_after(after);
    TimingModel blocks(veer()), steps(veer());
    blocks.set_check_blocks(true);
    Executions r;
    for (unsigned e = 0; e < executions; ++e) {
        std::vector<MemRef> mem = mem_of(e);
        EventBatch bb, sb;
        for (size_t k = 0; k < before.size(); ++k) {
            const uint64_t pc = 0x1000 - 4 * (before.size() - k);
            const unsigned na = k + 1 == before.size() && before[k].cls == C::store ? 1 : 0;
            blocks.step(before[k], pc, 4, pc + 4, mem.data(), na, bb);
            steps.step(before[k], pc, 4, pc + 4, mem.data(), na, sb);
        }
        if (!before.empty() && before.back().cls == C::store) mem.erase(mem.begin());
        const uint64_t c = blocks.step_block(m, mem.data(), n_mem.data(), bb);
        uint64_t s = 0;
        for (size_t i = 0, at = 0; i < insns.size(); at += n_mem[i], ++i)
            s += steps.step(insns[i], pcs[i], 4, i + 1 < pcs.size() ? pcs[i + 1] : after, mem.data() + at, n_mem[i], sb);
        EXPECT_EQ(c, s) << "execution " << e;
        expect_same_events(bb, sb, e);
        r.cycles.push_back(c);
    }
    r.replayed = m.replayed;
    r.recorded = m.recorded;
    r.lsu_memo_hits = blocks.lsu_memo_hits();
    return r;
}

}  // namespace

// Two byte loads over the D-bus (lb x3, 0(x2); add x5, x3; lb x6, 0(x4); add x7, x6), each of a word no other access
// of the body or the buffer holds, 64 bytes further at each execution, at byte (e % 8) and (e / 8 % 8) of their
// 8-byte beat: 64 patterns of address bits 2:0. No rule of step() reads those bits here (a byte load is never split
// and never crosses a word or a beat; its bytes are compared only with a buffered store's of its word, and the body
// stores nothing): one entry state, one recording. With the bits keyed, the 64 patterns take turns through the 16
// recordings a body keeps and none is ever found again.
TEST(BlockDbusKey, AddressBitsNoRuleReadsShareARecording) {
    const std::vector<isa::RetiredInsn> insns = {op(C::load, 3, 2), op(C::alu, 5, 3),
                                                 op(C::load, 6, 4), op(C::alu, 7, 6)};
    const unsigned n = 640;
    const Executions r = run(insns, {1, 0, 1, 0}, n, [](unsigned e) {
        const uint64_t base = 0x20000000 + 64 * uint64_t{e};
        return std::vector<MemRef>{{base + e % 8, false, 1}, {base + 0x100000 + e / 8 % 8, false, 1}};
    });
    // The entry state is the same from the third execution on (the last execution's reads answered by then): at most
    // a few recordings, every later execution replayed.
    EXPECT_LE(r.recorded, 4u);
    EXPECT_GE(r.replayed, n - 4);
    // Each execution as long as the last (the same state, the same timing).
    for (unsigned e = 3; e < n; ++e) ASSERT_EQ(r.cycles[e], r.cycles[2]) << "execution " << e;
}

// A byte store over the D-bus (sb x1, 0(x2), stepped on its own after 24 ALU instructions) and then the body: a byte
// load of the same word (lb x3, 0(x4); add x5, x3), the word 64 bytes further at each execution. The load's byte is the store's at even
// executions, the next one at odd ones: the same words and beats, only address bits 1:0 differ. The load of the
// stored byte takes it from the ibuf (el2_lsu_bus_buffer.sv: the load's bytes all in the buffered store's,
// dbus_access in_ibuf) and its user waits no bus read; the other goes to the bus, its user waiting the read
// (bus_load_latency and more). The key holds the load's bytes (its word is the ibuf's at the entry): never the other
// kind's recording (set_check_blocks would throw), and the two kinds time differently. The LSU buffers follow both
// halves (veer-el2's bus_buffer too), and a replay leaves them as step() does (set_check_blocks compares them).
TEST(BlockDbusKey, LoadBytesTheBufferHoldsAreKeyed) {
    const std::vector<isa::RetiredInsn> insns = {op(C::load, 3, 4), op(C::alu, 5, 3)};
    // 24 ALU instructions first: whatever the last execution left in the D-bus buffer is gone by the store (its
    // timer, ibuf_timeout 11), so every execution of a kind starts from one state.
    std::vector<isa::RetiredInsn> before(24, op(C::alu, 9, 10));
    before.push_back(store_byte());
    const unsigned n = 200;
    const Executions r = run(insns, {1, 0}, n, [](unsigned e) {
        const uint64_t word = 0x20000000 + 64 * uint64_t{e};
        return std::vector<MemRef>{{word + 1, true, 1}, {word + 1 + e % 2, false, 1}};
    }, before);
    EXPECT_GE(r.replayed, n - 8);  // two kinds, each replayed once its state repeats
    EXPECT_GT(r.cycles[n - 1], r.cycles[n - 2]);  // n - 1 odd: the load of the other byte waits for the bus
}

// A byte store over the D-bus (sb x1, 0(x2); add x3, x4), a new word at each execution, at byte e % 4 of it, after 24
// ALU instructions (the last execution's store gone by then: every execution starts from one state). The store
// stays in the ibuf past the body with its bytes: the state the body leaves holds them, so the key holds the bytes of
// the body's last store (set_check_blocks compares the state a replay leaves with step()'s, ibuf_bytes included: a
// recording of other bytes would throw).
TEST(BlockDbusKey, BytesAStoreLeavesInTheBufferAreKeyed) {
    const std::vector<isa::RetiredInsn> insns = {store_byte(), op(C::alu, 3, 4)};
    const unsigned n = 200;
    const Executions r = run(insns, {1, 0}, n, [](unsigned e) {
        return std::vector<MemRef>{{0x20000000 + 64 * uint64_t{e} + e % 4, true, 1}};
    }, std::vector<isa::RetiredInsn>(24, op(C::alu, 9, 10)));
    EXPECT_GE(r.replayed, n * 3 / 4);  // four kinds, each replayed once its state repeats
    EXPECT_LE(r.recorded, n / 4);
}

// A word store, a word load, another word store, another word load over the D-bus (sw x1, 0(x2); lw x3, 0(x4);
// add x5, x3; sw x1, 0(x6); lw x7, 0(x8); add x9, x7), fresh words at each execution (after 24 ALU instructions: the
// last execution's stores gone), in 18 patterns of which of them share an 8-byte beat: the first load shares the
// first store's beat or not, the second store shares the first store's beat, the first load's, or neither (its word
// may be the first load's), the second load a beat of its own or one of the stores'. No load reads a stored word and
// the loads never share a beat. step() compares a store's word only with the ibuf's (the last store's) and a load's
// with the ibuf's, the last sent write's and the last read's beat: none of these patterns changes the timing
// (el2_lsu_bus_buffer.sv: a store's beat is never compared). The key holds only those relations (key_dbus,
// dbus_runs): one recording, every later execution replayed. Keyed with every earlier access's word and beat, each
// pattern took a recording of its own.
TEST(BlockDbusKey, BeatsAStoreSharesNoRuleComparesShareARecording) {
    const std::vector<isa::RetiredInsn> insns = {store_byte(),      op(C::load, 3, 4), op(C::alu, 5, 3),
                                                 store_byte(),      op(C::load, 7, 8), op(C::alu, 9, 7)};
    // (word offsets from the execution's base: store 1 at word 0 of beat 0)
    struct Pattern {
        unsigned l1, s2, l2;
    };
    std::vector<Pattern> patterns;
    for (unsigned l1 : {1u, 2u})                // beat 0's other word, or beat 1
        for (unsigned s2 : {1u, 2u, 3u, 4u})    // beat 0's other word, beat 1's words, or beat 2
            for (unsigned l2 : {1u, 5u, 6u, 9u}) {  // in beat 0, 2 or 4
                const bool l2_stored = l2 == s2;
                const bool l2_beat_of_l1 = l2 / 2 == l1 / 2;
                if (l2_stored || l2_beat_of_l1 || (l2 == 5 && s2 == 4) || patterns.size() == 18) continue;
                patterns.push_back({l1, s2, l2});
            }
    ASSERT_EQ(patterns.size(), 18u);
    const unsigned n = 360;
    const Executions r = run(insns, {1, 1, 0, 1, 1, 0}, n, [&](unsigned e) {
        const uint64_t base = 0x20000000 + 256 * uint64_t{e};
        const Pattern& p = patterns[e % patterns.size()];
        return std::vector<MemRef>{{base, true, 4}, {base + 4 * p.l1, false, 4}, {base + 4 * p.s2, true, 4},
                                   {base + 4 * p.l2, false, 4}};
    }, std::vector<isa::RetiredInsn>(24, op(C::alu, 10, 11)));
    EXPECT_LE(r.recorded, 4u);
    EXPECT_GE(r.replayed, n - 4);
}

// A word store, another word store, then a byte load (sw x1, 0(x2); sw x1, 0(x6); lb x3, 0(x4); add x5, x3) over the
// D-bus, fresh words at each execution. The load reads the first store's word at even executions (its first byte,
// which that store wrote), another word at odd ones. The second store pushes the first out of the ibuf (a store to
// another word: ibuf_wr_en), so the load meets the first one as the last sent write, whose bytes it takes (in_sent):
// its user waits no bus read. The key holds a load's relation to the run of stores before the last (dbus_runs): the
// two kinds never share a recording (set_check_blocks would throw) and time differently.
TEST(BlockDbusKey, LoadOfTheRunBeforeTheLastIsKeyed) {
    const std::vector<isa::RetiredInsn> insns = {store_byte(), store_byte(), op(C::load, 3, 4), op(C::alu, 5, 3)};
    const unsigned n = 200;
    const Executions r = run(insns, {1, 1, 1, 0}, n, [](unsigned e) {
        const uint64_t base = 0x20000000 + 256 * uint64_t{e};
        return std::vector<MemRef>{{base, true, 4}, {base + 16, true, 4}, {base + (e % 2 ? 32 : 0), false, 1}};
    }, std::vector<isa::RetiredInsn>(24, op(C::alu, 10, 11)));
    EXPECT_GE(r.replayed, n - 8);
    EXPECT_GT(r.cycles[n - 1], r.cycles[n - 2]);  // n - 1 odd: the load of another word waits for the bus
}

// A word store over the D-bus, a word load over the D-bus, a word store to the DCCM (0xF0040000 on) (sw x1, 0(x2);
// lw x3, 0(x4); add x5, x3; sw x1, 0(x6)), each execution right after the last, fresh words at each: the load reads
// the store's word at even executions (a load of the ibuf's word, which it drains: ibuf_force_drain does not apply)
// and another word at odd ones. The LSU buffers (store_buffer, bus_buffer) enter each execution holding the last
// one's words (its store in the ibuf, its DCCM store in the store buffer) and the same cycles, relative to the entry,
// as two executions before: the buffers compare words only with each other and by bits 1:0 (lsu_buffers.hpp), so
// the recording's LSU memo applies with each word the entry's own (lsu_replay: keyed by where each word first
// appears, not by the address). Keyed by addresses, or not kept for a body with a bus access, it never applied
// here. A replay that took the other kind's memo would leave the buffers unlike step()'s (set_check_blocks throws).
TEST(BlockDbusKey, LsuBuffersOfFreshWordsAreSetFromTheMemo) {
    const std::vector<isa::RetiredInsn> insns = {store_byte(), op(C::load, 3, 4), op(C::alu, 5, 3), store_byte()};
    const unsigned n = 200;
    const Executions r = run(insns, {1, 1, 0, 1}, n, [](unsigned e) {
        const uint64_t bus = 0x20000000 + 256 * uint64_t{e}, dccm = 0xF0040000 + 64 * uint64_t{e};
        return std::vector<MemRef>{{bus, true, 4}, {bus + (e % 2 ? 32 : 0), false, 4}, {dccm, true, 4}};
    });
    EXPECT_GE(r.replayed, n - 8);
    EXPECT_GE(r.lsu_memo_hits, n - 16);  // each kind's, once its entry state repeats
    EXPECT_NE(r.cycles[n - 1], r.cycles[n - 2]);  // the two kinds time differently
}

// The same body (the load of the store's word at even executions, of another word at odd ones), its DCCM store to
// the word of the execution before's at executions 2, 3, 6, 7, ... (e / 2 odd), else to a fresh word. Each kind's
// recording meets both: the store's word is that of the slot (the store still ahead, lsu_buffers.hpp: it enters the
// store buffer the cycle after R) the entry state holds, or another. The memo keys where each word first appears, so
// a replay never takes the memo of the other relation (whose store buffer would hold a word it does not:
// set_check_blocks compares the buffers).
TEST(BlockDbusKey, LsuMemoKeysWhichWordsAreEqual) {
    const std::vector<isa::RetiredInsn> insns = {store_byte(), op(C::load, 3, 4), op(C::alu, 5, 3), store_byte()};
    const unsigned n = 200;
    const Executions r = run(insns, {1, 1, 0, 1}, n, [](unsigned e) {
        const uint64_t bus = 0x20000000 + 256 * uint64_t{e};
        const uint64_t dccm = 0xF0040000 + 64 * uint64_t{e / 2 % 2 ? e - 1 : e};
        return std::vector<MemRef>{{bus, true, 4}, {bus + (e % 2 ? 32 : 0), false, 4}, {dccm, true, 4}};
    });
    EXPECT_GE(r.replayed, n - 16);
    EXPECT_GE(r.lsu_memo_hits, n / 4);  // a memo a recording: kept through runs of one relation
}

// Ten word stores over the D-bus (sw x1, k(x2), a word of its own each: each pushes the last out of the ibuf, and
// the writes queue for the bus), then a byte load (lb x3, 0(x4); add x5, x3): 11 bus accesses, more than the 8 the
// key took before (BlockMemo::max_bus; such bodies were stepped at every execution). Fresh words at each execution,
// after 24 ALU instructions (the last execution's stores gone). The load reads the last store's word at even
// executions, at the byte that store wrote: its bytes are the ibuf's (dbus_access in_ibuf) and its user waits no
// bus read; at odd executions another word, whose read goes to the bus. The key holds the load's relation to the
// last run of stores (dbus_runs): both kinds recorded and replayed, never one from the other's recording
// (set_check_blocks would throw), every execution as step() times it.
TEST(BlockDbusKey, BodyWithMoreThanEightBusAccessesIsReplayed) {
    std::vector<isa::RetiredInsn> insns(10, store_byte());
    insns.push_back(op(C::load, 3, 4));
    insns.push_back(op(C::alu, 5, 3));
    std::vector<uint8_t> n_mem(11, 1);
    n_mem.push_back(0);
    const unsigned n = 200;
    const Executions r = run(insns, n_mem, n, [](unsigned e) {
        const uint64_t base = 0x20000000 + 256 * uint64_t{e};
        std::vector<MemRef> mem;
        for (uint64_t k = 0; k < 10; ++k) mem.push_back({base + 4 * k, true, 4});
        mem.push_back({base + (e % 2 ? 128 : 36), false, 1});
        return mem;
    }, std::vector<isa::RetiredInsn>(24, op(C::alu, 10, 11)));
    EXPECT_GE(r.replayed, n - 8);  // two kinds, each replayed once its state repeats
    EXPECT_LE(r.recorded, 8u);
    EXPECT_GT(r.cycles[n - 1], r.cycles[n - 2]);  // n - 1 odd: the load of another word waits for the bus
}
