#include "model/timing/lsu_buffers.hpp"

#include <algorithm>

namespace pmusim::timing {

void LsuBuffers::commit_slow(const LsuAccess& a) {
    const uint64_t c = a.commit;
    const bool dual = (a.first >> 2) != (a.last >> 2) && (a.dccm || a.bus);
    // A dual access at decode, from 2 cycles after the instruction before it commits to c - 3: marked before the
    // cycles before c - 3 are counted (they are final only with it).
    if (cfg_.bus_depth && dual && c >= 3) {
        const uint64_t from = std::max({a.prev_commit >= 2 ? a.prev_commit - 2 : 0, cursor_, c >= 255 ? c - 255 : 0});
        for (uint64_t t = from; t <= c - 3; ++t) dual_at_[t & 255u] = t;
        dual_until_ = std::max(dual_until_, c - 3);
    }
    // The cycles before this one's items (any earlier cycle is final without it), the D-bus buffer's alone inline.
    settle_to<true>(c - 1);
    if (cfg_.bus_depth && a.bus) bus_access(a, dual);
    // The store buffer. With nothing buffered or coming, the cycle at c - 3, where its decode and read-port items
    // act, has no entry to drain and nothing counted in full: they cannot matter (the common case, kept cheap).
    if (stbuf_quiet() && !(a.store && a.dccm)) return;
    Slot& s = slots_[c & 7u];
    s.c = c;
    s.dual = dual;
    s.store = a.store && a.dccm;
    // The DCCM's read port at decode: a load, and a store that is not an aligned word (el2_lsu_dccm_ctl.sv,
    // lsu_dccm_rden_d: it reads the word to merge its bytes and the ECC; tests/veer-rtl/splitma, rtl_trace.sh bbuf:
    // sh 3 and sw 2 to the DCCM over and over keep the last store's second word from draining while the next is at
    // decode, and the buffer is full with that store in M).
    const bool aligned_word = a.last - a.first == 3 && (a.first & 3u) == 0;
    s.reads = a.dccm && (!a.store || !aligned_word);
    s.lo = a.first >> 2;
    s.hi = a.last >> 2;
    if (s.store) last_store_ = c;
}

inline void LsuBuffers::occupy(uint64_t from, uint64_t to, int w) {
    from = std::max(from, cursor_);
    to = std::min(to, cursor_ + 254);
    if (to < from) return;
    diff_[from & 255u] = static_cast<int16_t>(diff_[from & 255u] + w);
    diff_[(to + 1) & 255u] = static_cast<int16_t>(diff_[(to + 1) & 255u] - w);
    up_ += w;  // the rise at `from` (the fall after `to` can only lower the entries' positive sum)
    bus_until_ = std::max(bus_until_, to + 1);
}

// The ibuf leaves for a write entry at cycle d: it counted until d - 1.
inline void LsuBuffers::drain_ibuf(uint64_t d, bool nomerge) {
    occupy(ibuf_start_, d - 1, 1);
    ibuf_ = false;
    write_entry(d, ibuf_word_, nomerge);
}

// A write entry of word `word` in CMD from cycle s: a second write entry ends the lone one's wait (obuf_wr_wait:
// buf_numvld_wrcmd_any == 1), then it goes out at once when it may not merge (buf_nomerge), else it is the lone one.
inline void LsuBuffers::write_entry(uint64_t s, uint64_t word, bool nomerge) {
    if (lone_) load_lone(std::min(lone_release(), s));
    if (nomerge) {
        occupy(s, port_.send(std::max(s, port_.free), cfg_.write_response), 1);
        return;
    }
    lone_ = true;
    lone_word_ = word;
    lone_start_ = s;
    lone_due_ = std::max(s, port_.load + 1) + cfg_.obuf_timeout;
}

// The lone write entry's wait ends at cycle t: the obuf takes it once free, and it counts until its response.
void LsuBuffers::load_lone(uint64_t t) {
    lone_ = false;
    occupy(lone_start_, port_.send(std::max({t, lone_start_, port_.free}), cfg_.write_response), 1);
}

inline void LsuBuffers::bus_access(const LsuAccess& a, bool dual) {
    const uint64_t c = a.commit, lo = a.first >> 2, hi = a.last >> 2;
    const int w = dual ? 2 : 1;
    // In M (c - 2): a store to the ibuf's word joins it in R (ibuf_merge_en); any other access drains it from the
    // cycle after (ibuf_force_drain; an entry that does not wait), unless its timer ran out before.
    const bool joins = a.store && joins_ibuf(c, lo);
    if (ibuf_ && !joins) {
        const uint64_t timer = ibuf_last_ + cfg_.ibuf_timeout;
        drain_ibuf(std::min(c - 1, timer), c - 1 <= timer);
    }
    if (lone_ && lone_release() <= c - 2) load_lone(lone_release());
    // With the ibuf empty, an access to another word in M sends the lone write entry (obuf_force_wr_en).
    if (lone_ && !ibuf_ && lone_word_ != lo) load_lone(c - 2);
    if (!a.store) {
        occupy(c - 2, std::max(a.data, c - 1), w);
        return;
    }
    occupy(c - 2, c - 1, w);
    if (joins) {
        ibuf_last_ = c;
        if (!dual) return;
        // The ibuf leaves with the first word merged (ibuf_merge_in = ~ldst_dual_r, ibuf_wr_en in R: an entry from
        // c) and takes the second word.
        drain_ibuf(c, false);
    } else if (dual) {
        write_entry(c, lo, false);  // the first word's entry (buf_state_en: ldst_dual_r & ~ibuf_merge_en)
    }
    ibuf_ = true;
    ibuf_word_ = dual ? hi : lo;
    ibuf_start_ = ibuf_last_ = c;
}

uint64_t LsuBuffers::bus_wait_walk(uint64_t d, bool dual) const {
    const int limit = static_cast<int>(dual ? cfg_.bus_depth - 1 : cfg_.bus_depth);  // lsu_bus_buffer_full_any
    // The timers with no access after the ones given (run_to): the ibuf drains at `drain` into a write entry, which
    // ends the lone entry's wait (write_entry); each entry counts until its response.
    Port port = port_;
    const uint64_t drain = ibuf_last_ + cfg_.ibuf_timeout;
    uint64_t lone_end = 0, ibuf_end = 0;
    if (lone_) {
        const uint64_t r = ibuf_ ? std::min(lone_release(), drain) : lone_release();
        lone_end = port.send(std::max({r, lone_start_, port.free}), cfg_.write_response);
    }
    if (ibuf_) {
        const uint64_t r = std::max(drain, port.load + 1) + cfg_.obuf_timeout;
        ibuf_end = port.send(std::max({r, drain, port.free}), cfg_.write_response);
    }
    int live = live_;
    for (uint64_t t = cursor_; t < cursor_ + 255; ++t) {
        live += diff_[t & 255u];
        if (t < d) continue;
        const int count = live + (ibuf_ && t >= ibuf_start_ && t <= ibuf_end ? 1 : 0) +
                          (lone_ && t >= lone_start_ && t <= lone_end ? 1 : 0);
        if (count < limit) return t - d;
    }
    return 0;
}

// run_to()'s cycles [t, end) where only the D-bus buffer's count moves: run_bus() takes them up to the ibuf's or the
// obuf's timer, cycle() the cycle at which one runs out, until all is quiet (quiet(): nothing in the D-bus buffer or
// coming).
[[gnu::always_inline]] inline void LsuBuffers::run_bus_to(uint64_t t, uint64_t end) {
    while (t < end && (ibuf_ || lone_ || bus_until_ >= t)) {
        uint64_t stop = std::min(end, ibuf_ || lone_ ? ~uint64_t{0} : bus_until_ + 1);
        if (ibuf_) stop = std::min(stop, ibuf_last_ + cfg_.ibuf_timeout);
        if (lone_) stop = std::min(stop, lone_release());
        if (stop > t) {
            t = run_bus(t, stop);
            continue;
        }
        cursor_ = t;
        cycle(t);
        ++t;
    }
}

// The cycles [cursor_, end), one by one while anything is buffered or coming (the rules: lsu_buffers.hpp, cycle()),
// until only the D-bus buffer's count moves (bus_only): so it stays for the rest (no cycle adds to the store buffer
// or marks a dual access), which run_bus_to() takes (the common case).
void LsuBuffers::run_to(uint64_t end) {
    uint64_t t = cursor_;
    for (; t < end && !bus_only(t); ++t) {
        cursor_ = t;
        if (quiet()) {
            t = end;
            break;
        }
        cycle(t);
    }
    if (t < end) run_bus_to(t, end);
    cursor_ = end;
}

// The cycle t (cursor_) by the rules as written. At cycle t the instruction committing at t + 1 is in R, at t + 2 in
// M, at t + 3 at decode and the read port.
[[gnu::noinline]] void LsuBuffers::cycle(uint64_t t) {  // out of line: the rare case
    bool full = false;
    if (cfg_.bus_depth && (ibuf_ || lone_ || bus_until_ >= t)) {  // else nothing counts, and nothing on the ring
        if (ibuf_ && t >= ibuf_last_ + cfg_.ibuf_timeout) drain_ibuf(ibuf_last_ + cfg_.ibuf_timeout, false);  // its timer
        if (lone_ && t >= lone_release()) load_lone(lone_release());  // the obuf's timer
        const int v = diff_[t & 255u];
        ring_pass(t);
        live_ += v;
        const int count = live_ + (ibuf_ && t >= ibuf_start_ ? 1 : 0) + (lone_ && t >= lone_start_ ? 1 : 0);
        const bool dual_d = dual_at_[t & 255u] == t && dual_until_ >= t;
        full = count >= static_cast<int>(dual_d ? cfg_.bus_depth - 1 : cfg_.bus_depth);  // lsu_bus_buffer_full_any
    }
    if (!stbuf_quiet()) {
        const Slot *r = at(t + 1), *m = at(t + 2), *d = at(t + 3);
        // stbuf_specvld_any: the entries, the DCCM stores in R and M, two each when dual.
        unsigned spec = n_;
        if (r && r->store) spec += r->dual ? 2u : 1u;
        if (m && m->store) spec += m->dual ? 2u : 1u;
        full |= spec >= (d && !d->dual ? cfg_.store_depth : cfg_.store_depth - 1);  // lsu_stbuf_full_any
        // lsu_stbuf_commit_any: the oldest entry drains unless an access at the read port reads its bank.
        if (n_ && !(d && d->reads && ((buf_[0] & 3u) == (d->lo & 3u) || (buf_[0] & 3u) == (d->hi & 3u)))) {
            std::copy(buf_.begin() + 1, buf_.begin() + n_, buf_.begin());
            --n_;
        }
        // The store in R enters the buffer, each word once (store_coalesce_lo_r/hi_r).
        if (r && r->store) {
            enter(r->lo);
            if (r->dual) enter(r->hi);
        }
    }
    if (full) ++full_;
}

// run_to()'s cycles [t, stop) where only the D-bus buffer's count moves (its conditions there): the count is the
// ring's plus the ibuf and the lone write entry from their starts, full at bus_depth (no dual access at decode), the
// same rule cycle by cycle without the tests that cannot hold (stop comes no later than their timers). Past the
// ring's last change (bus_until_) the count only steps up at those starts: those cycles are counted at once. Returns
// the first cycle not taken (stop, or the first at which all is quiet).
[[gnu::always_inline]] inline uint64_t LsuBuffers::run_bus(uint64_t t, uint64_t stop) {
    const int depth = static_cast<int>(cfg_.bus_depth);
    const uint64_t ring_end = std::min(stop, bus_until_ + 1);
    int live = live_;
    // Below bus_wait()'s bound (the count never rises above live_ + up_, the ibuf and the lone write entry) no cycle
    // is full: only the ring's changes are passed (the common case).
    if (live + up_ + (ibuf_ ? 1 : 0) + (lone_ ? 1 : 0) < depth) {
        for (; t < ring_end; ++t) {
            int16_t& v = diff_[t & 255u];
            if (!v) continue;
            up_ -= v > 0 ? v : 0;
            live += v;
            v = 0;
        }
        live_ = live;
        if (t > bus_until_) up_ = 0;
        return t < stop && (ibuf_ || lone_) ? stop : t;
    }
    uint64_t full = 0;
    // The cycles in [from, to) at which the count (live, the ibuf and the lone write each from its start) is full,
    // live not changing there: from the start of the extra entry that fills it on.
    auto full_in = [&](uint64_t from, uint64_t to) -> uint64_t {
        if (live >= depth) return to - from;
        const int need = depth - live;
        uint64_t fills;  // the cycle from which the entries beyond live reach `need`
        if (ibuf_ && lone_)
            fills = need == 1 ? std::min(ibuf_start_, lone_start_) : need == 2 ? std::max(ibuf_start_, lone_start_) : stop;
        else if ((ibuf_ || lone_) && need == 1)
            fills = ibuf_ ? ibuf_start_ : lone_start_;
        else
            return 0;
        const uint64_t on = std::max(from, fills);
        return on < to ? to - on : 0;
    };
    while (t < ring_end) {
        // A stretch of cycles with no change on the ring (most are): counted at once.
        const uint64_t from = t;
        while (t < ring_end && diff_[t & 255u] == 0) ++t;
        full += full_in(from, t);
        if (t == ring_end) break;
        int16_t& v = diff_[t & 255u];
        up_ -= v > 0 ? v : 0;
        live += v;
        v = 0;
        full += full_in(t, t + 1);
        ++t;
    }
    live_ = live;
    if (t > bus_until_) up_ = 0;  // every change passed: the ring is empty
    if (t < stop && (ibuf_ || lone_)) {  // the ring passed, the ibuf or the lone write waiting for its timer
        full += full_in(t, stop);
        t = stop;
    }
    full_ += full;
    return t;
}

// The state's words with every data word a rule reads moved on (words(): the buffered words, the ibuf's and the lone
// write entry's, the words of the slots of DCCM stores and of accesses at the read port), loaded back.
void LsuBuffers::shift_addresses(uint64_t words) {
    std::array<uint64_t, max_whole> w;
    const size_t n = save_whole(cursor_, w.data(), [words](uint64_t x, bool read) { return read ? x + words : x; });
    load(cursor_, w.data(), n);
}

// The same words (at base 0: the cursors too) and the same count since the last take() (not in the words).
bool LsuBuffers::operator==(const LsuBuffers& o) const {
    std::array<uint64_t, max_whole> a, b;
    const size_t n = save_whole(0, a.data(), Kept{}), m = o.save_whole(0, b.data(), Kept{});
    return full_ == o.full_ && n == m && std::equal(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n), b.begin());
}

}  // namespace pmusim::timing
