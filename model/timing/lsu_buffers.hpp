// VeeR EL2's LSU buffers followed from the commit cycles the timing model gives its loads and stores, for the cycles
// event 34 counts: the DCCM store buffer full or the D-bus buffer full (el2_lsu.sv: lsu_store_stall_any =
// lsu_stbuf_full_any | lsu_bus_buffer_full_any), and for how long a load or store waits at decode behind a full
// D-bus buffer (bus_wait: the timing model adds it). Otherwise it only watches: the commit cycles are the timing
// model's (the store buffer's full stalls a store at decode too; the model's cycles include that wait where they
// are right).
// tests/veer-rtl/stbuf.py derives the store buffer's half from an exec.log with the same rules; the bus buffer's were
// read off a copy of the RTL that prints its state each cycle (tests/veer-rtl/rtl_trace.sh bbuf; docs/accuracy.md,
// "Event 34").
//
// Stages (one instruction a cycle; the exec.log's spacing shows them): an instruction that commits at cycle c was at
// decode (a load at the DCCM's read port) at c - 3, in the LSU's M stage at c - 2, in R at c - 1; one held at
// decode is there from 2 cycles after the instruction before it commits.
//
// The store buffer (el2_lsu_stbuf.sv, el2_lsu_dccm_ctl.sv; `store_depth` entries):
//  - a DCCM store enters the buffer the cycle after R, one entry per 32-bit word it writes (a misaligned store
//    that crosses a word: two, ldst_dual), unless a buffered entry holds the same word (store_coalesce_lo_r/hi_r);
//  - the oldest entry drains to the DCCM in any cycle in which no access at the read port reads its bank (address
//    bits 3:2 of its first and last byte; lsu_stbuf_commit_any): a load, or a store that is not an aligned word
//    (lsu_dccm_rden_d, el2_lsu_dccm_ctl.sv);
//  - full (lsu_stbuf_full_any) when the buffered entries plus the DCCM stores in M and R (two each when dual,
//    stbuf_specvld_m/r) reach `store_depth` with a load or store that is not dual at decode, `store_depth` - 1
//    otherwise.
// The D-bus buffer (el2_lsu_bus_buffer.sv; `bus_depth` entries, buf_numvld_any counts the bus requests in M and R,
// two each when dual, the write-coalescing buffer (ibuf) and every entry not idle):
//  - a bus load counts from its M stage to the cycle its data returns (its entries go CMD, RESP, DONE, then idle);
//  - a bus store counts in M and R, then waits in the ibuf, which a store to its word in R joins (ibuf_merge_en),
//    and which drains into a write entry in CMD from the cycle after the next bus access to another word reaches M
//    (ibuf_force_drain; that entry never waits for the obuf's timer: buf_nomerge), or `ibuf_timeout` cycles after
//    the last store joined it (one to its word within `ibuf_merge_window` cycles joins it);
//  - a store that crosses a word (dual) puts its first word in a write entry in CMD from the cycle after R and its
//    second in the ibuf (ibuf_addr_in = end_addr_r); when the ibuf holds its first word, the ibuf drains with it
//    merged (ibuf_merge_in = ~ldst_dual_r) into that entry instead;
//  - the write entries go out one at a time, oldest first, through the obuf (CmdPtr0, obuf_wr_en): an entry is loaded
//    into it in a cycle it is free (its last write sent that cycle or before) and sent the cycle after (aw and w
//    together), but not before the last write's response (the testbench's memory, ahb_sif.sv, drops awready and
//    wready from a write until its response is taken; the RTL itself holds a write behind one of its 64-bit word
//    waiting for its response, bus_addr_match_pending), which comes `write_response` cycles after it is sent; the
//    entry counts until that cycle;
//  - a write entry that may merge, alone in CMD, waits before the obuf (obuf_wr_wait) until a second write entry
//    reaches CMD, a bus access to another word reaches M with nothing in R and the ibuf empty (obuf_force_wr_en),
//    or the obuf's timer reaches `obuf_timeout` (it counts the cycles an entry waits in CMD since the last load
//    of the obuf: obuf_wr_timer);
//  - full (lsu_bus_buffer_full_any) when the count reaches `bus_depth`, or `bus_depth` - 1 with a dual load or
//    store at decode.
// (tests/veer-rtl/splitma, rtl_trace.sh wbuf: split stores to one 64-bit word over and over, each first word held
// by the obuf's timer until the next store's M stage drains the ibuf, each write behind the last one's response.)
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pmusim::timing {

// A load or store as the LSU buffers see it.
struct LsuAccess {
    uint64_t commit = 0;       // its commit cycle (after every one given before: one a cycle)
    uint64_t prev_commit = 0;  // the commit of the instruction before it
    bool store = false;
    bool dccm = false, bus = false;  // to the DCCM; over the D-bus (neither: no address known)
    uint64_t first = 0, last = 0;    // its first and last byte's addresses (another word: dual)
    uint64_t data = 0;               // a bus load: the cycle its data returns
};

class LsuBuffers {
public:
    struct Config {
        unsigned store_depth = 4, bus_depth = 0;  // bus_depth 0: the store buffer alone
        unsigned ibuf_timeout = 11, ibuf_merge_window = 7;
        unsigned obuf_timeout = 7, write_response = 1;  // el2_lsu_bus_buffer.sv TIMER_MAX; aw/w to b (the testbench)
        // Test hook: every cycle by the rule as written (run_to() without run_bus(), bus_wait() without its bound),
        // the definition the shortcuts are compared with (tests/unit/test_lsu_buffers.cpp).
        bool cycle_by_cycle = false;
    };
    explicit LsuBuffers(const Config& c) : cfg_(c) {}

    void commit(const LsuAccess& a) {
        // The common case inline: an aligned DCCM load, or an access with no address, while the store buffer is
        // empty and no store is coming (its items cannot matter: commit_slow).
        if (!a.bus && (a.first >> 2) == (a.last >> 2) && !(a.store && a.dccm)) {
            settle(a.commit - 1);
            if (stbuf_quiet()) return;
        }
        commit_slow(a);
    }
    // Every cycle up to `c` - 3 is final once the instruction committing at `c` is given (the next commits after
    // it, and its earliest item lies at its commit - 3): counted.
    void settle(uint64_t c) { settle_to<false>(c); }
    // The state as words relative to cycle `base` (at most max_snapshot): what every later cycle depends on (the
    // cursor, whether a store is still coming, the buffered words, the D-bus buffer (save_bus), the slots ahead of
    // the cursor). Returns how many words, 0 when the D-bus buffer holds more than save_bus puts in words (not
    // saved). The block timing replays a recording's effect on the buffers from it (TimingModel::lsu_replay), the
    // loop timing moves it on (TimingModel::loop_walk): two states with the same words at their bases behave the
    // same from there, shifted.
    static constexpr size_t max_bus_ring = 16, max_bus_marks = 8;
    static constexpr size_t max_bus_words = 1 + 6 + 3 + 3 + max_bus_ring + max_bus_marks;
    static constexpr size_t max_snapshot = 4 + 8 + 1 + max_bus_words + 8 * 3;
    size_t save(uint64_t base, uint64_t* out) const { return save(base, out, Kept{}); }
    // save() with each data word among the words (the buffered words, the ibuf's and the lone write entry's words
    // where the D-bus buffer holds them, the slots' words) put as data(word, read) (read: a rule reads it, the
    // slot's a DCCM store or an access at the read port): the block timing keys them by their places.
    template <class F>
    size_t save(uint64_t base, uint64_t* out, F&& data) const {
        return words(*this, base, Save<F>{out, 0, data});
    }
    // save() with the data addresses (the buffered words, the ibuf's word, the words of the slots of DCCM loads and
    // stores) moved to `addrs` as byte addresses and left 0 in the words, and the words of the other slots, which no
    // rule reads, set to 0 (TimingModel::loop_state): the rules compare these words only with each other and with
    // the words of later accesses, for equality and by bits 1:0 (the DCCM bank), so states that agree in the rest
    // and whose addresses differ by one shift d (a multiple of 16) behave the same with every later address moved
    // by d.
    size_t save_split(uint64_t base, uint64_t* out, std::vector<uint64_t>& addrs) const {
        return save(base, out, [&addrs](uint64_t w, bool read) {
            if (read) addrs.push_back(w << 2);
            return uint64_t{0};
        });
    }
    // The D-bus buffer's part of save(), its cycles relative to the cursor (save()'s first word puts the cursor
    // relative to the base): one word 0 when it is empty and owed nothing (bus_idle), else a word of flags and
    // counts, the count at the cursor, the last cycle anything counts and the last dual access at decode, the obuf
    // (when it is free, its last load, its last write's response), the ibuf (its word, start, last join), the write
    // entry waiting alone (its word, start, the end of its wait), the count's changes ahead and the cycles a dual
    // access is at decode. Returns how many words (at most max_bus_words), 0 when there are more changes or marks
    // than that. The data words are put as data(word, read) (the block timing's key leaves them 0: it keys their
    // relation to the accesses to come, holds()).
    template <class F>
    size_t save_bus(uint64_t* out, F&& data) const {
        return bus_words(*this, Save<F>{out, 0, data});
    }
    // The state save() gave (`n` words), at another base; each data word as data(saved word) (the block timing's
    // places back to words).
    void load(uint64_t base, const uint64_t* in, size_t n) { load(base, in, n, [](uint64_t w) { return w; }); }
    template <class F>
    void load(uint64_t base, const uint64_t* in, size_t n, F&& data) {
        words(*this, base, Load<F>{in, 0, n, data});
    }
    // Whether the ibuf holds the word `w` (a bus store to it joins it within the merge window).
    bool ibuf_holds(uint64_t w) const { return ibuf_ && ibuf_word_ == w; }
    // Whether a store whose first byte is in word `lo`, committing at `c`, joins the ibuf (ibuf_merge_en: its word,
    // within the merge window): a store that crosses a word then adds one write (its second word's), not two.
    bool joins_ibuf(uint64_t c, uint64_t lo) const { return ibuf_holds(lo) && c - ibuf_last_ <= cfg_.ibuf_merge_window; }
    // Whether a write leaves the D-bus buffer ahead of a load whose M stage is at cycle `m`: the ibuf holds a store
    // (the load drains it: ibuf_force_drain), a write entry waits alone (the load sends it: obuf_force_wr_en), or
    // the last write's response comes at or after `m` (el2_lsu_bus_buffer.sv: the entries leave through the obuf
    // oldest first; tests/veer-rtl/misaligned, rtl_trace.sh wbuf: a load's read behind two writes).
    bool writes_ahead(uint64_t m) const { return ibuf_ || lone_ || port_.b >= m; }
    // What the D-bus buffer's rules compare an access's word `w` with, as bits: the ibuf's word (1), the word of the
    // write entry waiting alone (2) (the block timing keys them).
    unsigned holds(uint64_t w) const { return (ibuf_holds(w) ? 1u : 0u) | (lone_ && lone_word_ == w ? 2u : 0u); }
    uint64_t cursor() const { return cursor_; }  // the first cycle not yet counted
    // Every data address the buffers hold moved on by `words` words (TimingModel::skip_loop).
    void shift_addresses(uint64_t words);
    // How many cycles a load or store at decode from cycle `d` waits there while the D-bus buffer is full (the rule
    // above: el2_lsu.sv, lsu_load_stall_any / lsu_store_stall_any = lsu_bus_buffer_full_any; the D-bus buffer's
    // count as run_to() follows it, the ibuf draining on its timer, no access after the ones given). 0 without a bus
    // buffer. `d` lies at or after the cursor (2 cycles after the last commit given, at the earliest).
    uint64_t bus_wait(uint64_t d, bool dual) const {
        if (!cfg_.bus_depth || d < cursor_) return 0;
        // The count never rises above its value at the cursor plus the ring's rises ahead (up_), the ibuf and the
        // write entry waiting alone (each the entry it becomes): below the limit there, the access does not wait (the walk would stop at d).
        const int limit = static_cast<int>(dual ? cfg_.bus_depth - 1 : cfg_.bus_depth);  // lsu_bus_buffer_full_any
        if (live_ + up_ + (ibuf_ ? 1 : 0) + (lone_ ? 1 : 0) < limit && !cfg_.cycle_by_cycle) return 0;
        return bus_wait_walk(d, dual);
    }
    // Nothing in the D-bus buffer from the cursor on, nothing coming (no access after the ones given), no dual access
    // at decode ahead: a load or store waits there only behind a bus access given later.
    bool bus_idle() const {
        return !cfg_.bus_depth || (!ibuf_ && !lone_ && live_ == 0 && bus_until_ < cursor_ && dual_until_ < cursor_);
    }
    uint64_t full() const { return full_; }  // counted since the last take()
    void add_full(uint64_t n) { full_ += n; }
    // Cycles counted full since the last take().
    uint64_t take() {
        const uint64_t n = full_;
        full_ = 0;
        return n;
    }
    bool operator==(const LsuBuffers& o) const;

private:
    // save()'s and load()'s directions of words(): `io(x, put, get)` moves the field x (saved as put(x), loaded as
    // get(word)), io.word(x, read) a data word (through the caller's function).
    struct Kept {
        uint64_t operator()(uint64_t w, bool) const { return w; }
    };
    // kRing, kMarks: the most ring changes and marks put in words (more: not saved, 0).
    template <class F, size_t kRing = max_bus_ring, size_t kMarks = max_bus_marks>
    struct Save {
        static constexpr bool saving = true;
        static constexpr size_t max_ring = kRing, max_marks = kMarks;
        uint64_t* w;
        size_t k;
        F& data;
        template <class T, class P, class G>
        void operator()(const T& x, P&& put, G&&) { w[k++] = put(x); }
        void word(uint64_t x, bool read) { w[k++] = data(x, read); }
    };
    template <class F>
    struct Load {
        static constexpr bool saving = false;
        const uint64_t* w;
        size_t k, n;
        F& data;
        template <class T, class P, class G>
        void operator()(T& x, P&&, G&& get) { x = get(w[k++]); }
        void word(uint64_t& x, bool) { x = data(w[k++]); }
    };
    // save()'s words, in order, each field once: save() writes them, load() reads them back (S: const LsuBuffers or
    // LsuBuffers, as Io saves or loads). Returns how many (save(): 0, not saved, where bus_words() gives 0).
    // (Io by value: its index is then a local that no store of a word can alias, kept in a register.)
    template <class S, class Io>
    static size_t words(S& s, uint64_t base, Io io);
    template <class S, class Io>
    static size_t bus_words(S& s, Io io);  // the D-bus buffer's (save_bus())
    // The whole state as save()'s words, every ring change and mark ahead of the cursor among them (never 0), each
    // data word as data(word, read): operator== compares them, shift_addresses() moves those a rule reads, so that
    // both follow words(), the one list of the state's fields.
    static constexpr size_t whole_ring = 255, whole_marks = 255;  // the cycles [cursor_, cursor_ + 254]
    static constexpr size_t max_whole = max_snapshot - max_bus_ring - max_bus_marks + whole_ring + whole_marks;
    template <class F>
    size_t save_whole(uint64_t base, uint64_t* out, F&& data) const {
        return words(*this, base, Save<F, whole_ring, whole_marks>{out, 0, data});
    }

    // The load or store that commits at cycle c (one a cycle: the slot c & 7 until the cycles pass it).
    struct Slot {
        uint64_t c = ~uint64_t{0};
        bool dual = false, store = false, reads = false;  // store: to the DCCM; reads: the DCCM's read port at decode
        uint64_t lo = 0, hi = 0;                         // the words of its first and last byte
    };
    const Slot* at(uint64_t c) const {
        const Slot& s = slots_[c & 7u];
        return s.c == c ? &s : nullptr;
    }
    Slot* at(uint64_t c) { return const_cast<Slot*>(static_cast<const LsuBuffers*>(this)->at(c)); }
    void enter(uint64_t word) {  // a store's word enters the store buffer, unless an entry holds it (coalesces)
        for (unsigned k = 0; k < n_; ++k)
            if (buf_[k] == word) return;
        if (n_ < buf_.size()) buf_[n_++] = word;
    }
    bool stbuf_quiet() const { return n_ == 0 && last_store_ + 1 <= cursor_; }
    // Only the D-bus buffer's count moves from cycle t (at or after the cursor) on: nothing in the store buffer or
    // coming to it, no dual access at decode ahead (run_bus_to; the rule as written with cycle_by_cycle).
    bool bus_only(uint64_t t) const {
        return cfg_.bus_depth && n_ == 0 && last_store_ + 1 <= t && dual_until_ < t && !cfg_.cycle_by_cycle;
    }
    bool quiet() const { return stbuf_quiet() && !ibuf_ && !lone_ && bus_until_ < cursor_ && dual_until_ < cursor_; }
    // The obuf's side of the write entries (el2_lsu_bus_buffer.sv): the first cycle it may be loaded (its last write
    // sent), its last load (the timer's reset) and its last write's response.
    struct Port {
        uint64_t free = 0, load = 0, b = 0;
        // A write entry loaded at `l` (at or after `free`): the cycle of its response. It goes out the cycle after,
        // once the last write's response has come.
        uint64_t send(uint64_t l, unsigned response) {
            const uint64_t at = std::max(l + 1, b + 1);
            free = at;
            load = l;
            b = at + response;
            return b;
        }
    };
    // The cycle the lone write entry's wait ends on the obuf's timer (obuf_wr_wait: it counts from the entry's
    // start or the cycle after the obuf's last load, which stays as it is while the entry waits: write_entry).
    uint64_t lone_release() const { return lone_due_; }
    void write_entry(uint64_t s, uint64_t word, bool nomerge);
    void load_lone(uint64_t t);
    // The bus buffer's count: +w over [from, to], on the difference ring (every bound within 256 cycles of the
    // cursor; a later one is clipped).
    void occupy(uint64_t from, uint64_t to, int w);
    void drain_ibuf(uint64_t d, bool nomerge);
    void bus_access(const LsuAccess& a, bool dual);
    void commit_slow(const LsuAccess& a);
    // settle(), the one definition. kBus (commit_slow, on VeeR EL2's hot path): run_to()'s first step where only the
    // D-bus buffer's count moves from the cursor on (bus_only: run_to() would call run_bus_to() at once) taken here,
    // inline (run_bus_to() is defined in lsu_buffers.cpp, the one place that asks for it).
    template <bool kBus>
    [[gnu::always_inline]] void settle_to(uint64_t c) {
        if (c < 3 || cursor_ >= c - 2) return;
        if constexpr (kBus) {
            if (bus_only(cursor_)) {
                run_bus_to(cursor_, c - 2);
                cursor_ = c - 2;
                return;
            }
        }
        if (quiet()) {
            cursor_ = c - 2;  // nothing buffered or coming: nothing can be full
            return;
        }
        run_to(c - 2);
    }
    void run_to(uint64_t end);
    void run_bus_to(uint64_t t, uint64_t end);  // run_to()'s cycles from t where bus_only(t)
    void cycle(uint64_t t);                      // the cycle t by the rules as written
    uint64_t run_bus(uint64_t t, uint64_t stop);
    uint64_t bus_wait_walk(uint64_t d, bool dual) const;  // bus_wait(), cycle by cycle from the cursor
    // The ring's entry for cycle t cleared as the cycles pass it, keeping up_.
    void ring_pass(uint64_t t) {
        int16_t& v = diff_[t & 255u];
        up_ -= v > 0 ? v : 0;
        v = 0;
    }

    Config cfg_;
    // The store buffer.
    std::array<uint64_t, 8> buf_{};  // the buffered words, oldest first
    unsigned n_ = 0;
    std::array<Slot, 8> slots_{};
    uint64_t last_store_ = 0;  // the commit of the last DCCM store given (0: none)
    // The bus buffer: the count's changes per cycle (t & 255), the last cycle anything counts, the ibuf (its word,
    // since when, its last join), the write entry waiting alone before the obuf (its word, since when), the obuf,
    // the last cycle a dual load or store is at decode (those cycles: dual_at_, t & 255).
    std::array<int16_t, 256> diff_{};
    int live_ = 0;  // the count at cursor_ from the ring (the ibuf and the lone write entry not included)
    // At least the sum of the ring's positive entries: occupy() adds each rise, the cycles passing an entry take its
    // rise off, an empty ring sets it to 0 (the bound bus_wait() tests; not part of the state: equal rings may
    // differ in it).
    int up_ = 0;
    uint64_t bus_until_ = 0;
    bool ibuf_ = false;
    uint64_t ibuf_word_ = 0, ibuf_start_ = 0, ibuf_last_ = 0;
    bool lone_ = false;
    uint64_t lone_word_ = 0, lone_start_ = 0, lone_due_ = 0;  // lone_due_: lone_release()
    Port port_;
    std::array<uint64_t, 256> dual_at_{};  // the cycle a dual access is at decode, by t & 255 (a tag: the cycle)
    uint64_t dual_until_ = 0;
    uint64_t cursor_ = 0;  // the first cycle not yet counted
    uint64_t full_ = 0;
};

// The cursor relative to the base, whether a store is still coming and its commit (none: any cycle before the cursor,
// 0), the buffered words after their count, the D-bus buffer's words after theirs (bus_words), and the slots ahead of
// the cursor (those operator== compares), three words each: the slot's offset from the cursor (1-8) and flags, its
// first and last byte's words.
template <class S, class Io>
size_t LsuBuffers::words(S& s, uint64_t base, Io io) {
    const auto same = [](uint64_t x) { return x; };
    io(s.cursor_, [base](uint64_t x) { return x - base; }, [base](uint64_t w) { return base + w; });
    const uint64_t c = s.cursor_;
    uint64_t ahead = s.last_store_ + 1 > c;  // loaded: the word
    io(ahead, same, same);
    io(s.last_store_, [&ahead, base](uint64_t x) { return ahead ? x - base : 0; },
       [&ahead, base](uint64_t w) { return ahead ? base + w : 0; });
    io(s.n_, same, [](uint64_t w) { return static_cast<unsigned>(w); });
    for (unsigned i = 0; i < s.n_; ++i) io.word(s.buf_[i], true);
    const size_t at = io.k++;  // the D-bus buffer's count (load() reads its words without it)
    const size_t nb = bus_words(s, io);
    if (nb == 0) return 0;
    io.k += nb;
    const auto slot_words = [&io](auto& x) {
        io.word(x.lo, x.store || x.reads);
        io.word(x.hi, x.store || x.reads);
    };
    if constexpr (Io::saving) {
        io.w[at] = nb;
        for (uint64_t t = c + 1; t < c + 9; ++t)
            if (const Slot* x = s.at(t)) {
                io.w[io.k++] = (t - c) | uint64_t{x->dual} << 8 | uint64_t{x->store} << 9 | uint64_t{x->reads} << 10;
                slot_words(*x);
            }
    } else {
        for (Slot& x : s.slots_) x.c = ~uint64_t{0};
        while (io.k + 3 <= io.n) {
            const uint64_t flags = io.w[io.k++], t = c + (flags & 0xFFu);
            Slot& x = s.slots_[t & 7u];
            x.c = t;
            x.dual = (flags >> 8) & 1u;
            x.store = (flags >> 9) & 1u;
            x.reads = (flags >> 10) & 1u;
            slot_words(x);
        }
    }
    return io.k;
}

// The head word (0: idle, else 1 and the flags of the ibuf (2) and the lone write entry (4), the ring's changes
// ahead << 8 and the marks ahead << 16), the count at the cursor, the last cycle anything counts and the last dual
// access at decode (0: before the cursor), the obuf's cycles (those before the cursor as the cycle before it: they
// only matter from the cursor on, where a write entry starts), the ibuf and the lone write entry (a word and two
// cycles each, where they hold one; modulo 2^64: they may lie before the cursor), the ring's changes and the marks.
template <class S, class Io>
size_t LsuBuffers::bus_words(S& s, Io io) {
    const size_t k0 = io.k;
    const uint64_t c = s.cursor_;
    const auto same = [](uint64_t x) { return x; };
    const auto rel = [c](uint64_t x) { return x - c; };
    const auto from = [c](uint64_t w) { return c + w; };
    uint64_t head = 0;
    if constexpr (Io::saving) {
        head = s.bus_idle() ? 0 : 1;  // the flags and counts filled in below
    } else {
        s.diff_.fill(0);
        s.up_ = 0;
        s.dual_at_.fill(~uint64_t{0});
        s.ibuf_ = s.lone_ = false;
        s.live_ = 0;
        s.bus_until_ = s.dual_until_ = 0;
        s.port_ = Port{};
        s.port_.free = s.port_.load = s.port_.b = c - 1;
    }
    io(head, same, same);
    if (!(head & 1u)) return 1;
    if constexpr (!Io::saving) {
        s.ibuf_ = (head >> 1) & 1u;
        s.lone_ = (head >> 2) & 1u;
    }
    io(s.live_, [](int x) { return static_cast<uint64_t>(static_cast<int64_t>(x)); },
       [](uint64_t w) { return static_cast<int>(static_cast<int64_t>(w)); });
    const auto until = [c](uint64_t x) { return x >= c ? x - c + 1 : 0; };
    const auto until_back = [c](uint64_t w) { return w ? c + w - 1 : 0; };
    io(s.bus_until_, until, until_back);
    io(s.dual_until_, until, until_back);
    io(s.port_.free, [c](uint64_t x) { return std::max(x, c) - c; }, from);
    const auto after = [c](uint64_t x) { return std::max(x + 1, c) - c; };
    const auto after_back = [c](uint64_t w) { return c + w - 1; };
    io(s.port_.load, after, after_back);
    io(s.port_.b, after, after_back);
    if (s.ibuf_) {
        io.word(s.ibuf_word_, true);
        io(s.ibuf_start_, rel, from);
        io(s.ibuf_last_, rel, from);
    }
    if (s.lone_) {
        io.word(s.lone_word_, true);
        io(s.lone_start_, rel, from);
        io(s.lone_due_, rel, from);
    }
    // The ring's changes still to come (those in [cursor_, bus_until_]: run_to clears each as it passes it), each
    // its cycle << 16 and its change, and the cycles a dual access is at decode.
    if constexpr (Io::saving) {
        size_t ring = 0, marks = 0;
        for (uint64_t t = c; t <= s.bus_until_ && t <= c + 254; ++t)
            if (const int16_t v = s.diff_[t & 255u]) {
                if (++ring > Io::max_ring) return 0;
                io.w[io.k++] = (t - c) << 16 | static_cast<uint16_t>(v);
            }
        for (uint64_t t = c; t <= s.dual_until_ && t <= c + 254; ++t)
            if (s.dual_at_[t & 255u] == t) {
                if (++marks > Io::max_marks) return 0;
                io.w[io.k++] = t - c;
            }
        io.w[k0] = 1 | uint64_t{s.ibuf_} << 1 | uint64_t{s.lone_} << 2 | uint64_t{ring} << 8 | uint64_t{marks} << 16;
    } else {
        for (size_t i = 0, ring = (head >> 8) & 0xFFu; i < ring; ++i) {
            const uint64_t w = io.w[io.k++], t = c + (w >> 16);
            const int16_t v = static_cast<int16_t>(static_cast<uint16_t>(w & 0xFFFFu));
            s.diff_[t & 255u] = v;
            s.up_ += v > 0 ? v : 0;
        }
        for (size_t i = 0, marks = (head >> 16) & 0xFFu; i < marks; ++i) {
            const uint64_t t = c + io.w[io.k++];
            s.dual_at_[t & 255u] = t;
        }
    }
    return io.k - k0;
}

}  // namespace pmusim::timing
