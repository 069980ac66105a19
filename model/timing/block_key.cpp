// The block timing's key (TimingModel::body_key, timing_model.hpp step_block): the entry state a recording of a
// body applies to, as words, and block(), which keys a body and finds its recording. block_timing.cpp records and
// replays; what each field of the pipeline state is to the key: body_key_fields.hpp.
#include <algorithm>
#include <cstring>

#include "model/timing/block_exit.hpp"
#include "model/timing/body_key_fields.hpp"
#include "model/timing/timing_model.hpp"

namespace pmusim::timing {

// The parts of the key first, each inlined into body_key() (at the end): a call each, and `n` through memory, cost
// the hot path about 140 host instructions a key (docs/performance.md, 2026-11-27 speed9).

// Words 0 to 3: the flags, the open pair, the divider's and the load/store unit's waits, the postsync wait.
template <bool kLean>
[[gnu::always_inline]] inline bool TimingModel::key_issue(const BlockMemo& m, uint64_t* __restrict key, size_t& n) const {
    const bool pair = p_.dual_issue && s_.pair_open;
    const bool cacheable = kLean || !p_.follows_mrac || region_cacheable(m.pcs_[0]);
    key[n++] = uint64_t{s_.pending_extra} | uint64_t{(s_.mstatus & 8u) != 0} << 32 | uint64_t{pair} << 33 |
                uint64_t{s_.next_fetch_new} << 34 | uint64_t{cacheable} << 35 | uint64_t{s_.flushed} << 36 |
                (pair ? uint64_t{static_cast<uint8_t>(s_.prev_cls)} << 40 | uint64_t{s_.prev_shape} << 48 : 0);
    if (pair) {
        if (s_.now - s_.prev_issue >= (uint64_t{1} << 31)) return false;
        key[n++] = s_.prev_dst | (s_.now - s_.prev_issue) << 32;
    } else {
        key[n++] = 0;
    }
    // The divider's time also tells a store whether its data is a division's result (late_store_data_div).
    // With it (the same word: key[4] must stay the last fetch line), the load/store unit's (multiple_holds_lsu).
    const uint64_t div_wait = (m.has_div_ || !p_.late_store_data_div) && s_.divider_free > s_.now ? s_.divider_free - s_.now : 0;
    const uint64_t lsu_wait = p_.multiple_holds_lsu && s_.lsu_free > s_.now ? s_.lsu_free - s_.now : 0;
    if (div_wait >= (uint64_t{1} << 32) || lsu_wait >= (uint64_t{1} << 32)) return false;
    key[n++] = div_wait | lsu_wait << 32;
    // The first instruction's wait behind a postsync instruction before the body.
    key[n++] = s_.postsync_until > s_.now ? s_.postsync_until - s_.now : 0;
    return true;
}

// Words 4 on: the fetch state as the first instruction sees it (key[4] the last fetch line: replay_body).
template <bool kLean>
[[gnu::always_inline]] inline bool TimingModel::key_fetch(const BlockMemo& m, uint64_t* __restrict key, size_t& n) const {
    // The first instruction forgets the last fetch after a taken branch (step(): s_.next_fetch_new).
    const bool forget = m.fetch_path_ && s_.next_fetch_new;
    key[n++] = forget ? ~uint64_t{0} : s_.last_ifetch_line;
    key[n++] = forget ? ~uint64_t{0} : s_.last_fetch;
    key[n++] = s_.fill_line;
    key[n++] = !kLean && p_.fill_redirect_commit ? s_.refill_line : ~uint64_t{0};
    // How long the fill buffer still serves that line (fill_buffer_cycles), from the earliest cycle the body's
    // fetches can come (the last fetch's next, or 2 before the first commit after a flush); recorded bodies never
    // refill (every lookup hits), so s_.fill_at is the entry's at the exit too.
    // With fill_redirect_commit, also how long a fetch entering the last refilled line anew still waits (recorded
    // bodies never refill: s_.refill_line and s_.fill_start are the entry's at the exit too).
    const bool buffer = !kLean && p_.fill_buffer_cycles && p_.fetch_queue && s_.fill_line != ~uint64_t{0};
    const bool redirect = !kLean && p_.fill_redirect_commit && s_.refill_line != ~uint64_t{0};
    if (buffer || redirect) {
        const uint64_t base = std::min(s_.fetch_at + 1, s_.now - 2), until = s_.fill_at + p_.fill_buffer_cycles;
        const uint64_t due = s_.fill_start + p_.fill_redirect_commit;
        const uint64_t wait = redirect && due > s_.now ? due - s_.now : 0;
        if (wait >= (uint64_t{1} << 31)) return false;
        key[n++] = (buffer && until > base ? until - base : 0) | wait << 32;
    }
    // How far back the last fetch was (fetch_queue; timed() keeps it within reach), or that the next follows a flush.
    if (!kLean && p_.fetch_queue && !s_.refetch) {
        if (s_.now - s_.fetch_at >= (uint64_t{1} << 30)) return false;
        uint64_t w = (s_.now - s_.fetch_at) << 1;
        for (size_t k = 0; k < p_.fetch_queue; ++k) {  // oldest first; one that cannot hold a fetch back is 0
            const uint64_t c = fetched_held(k);
            const uint64_t d = c ? c - s_.fetch_at : 0;
            if (d >= (uint64_t{1} << 8)) return false;
            w |= d << (31 + 8 * k);
        }
        key[n++] = w;
    } else {
        key[n++] = !kLean && p_.fetch_queue ? 1 : 0;
    }
    // The line whose fetches start at an odd halfword, as the first instruction leaves it (step(): s_.phase_line).
    key[n++] = forget ? (!kLean && p_.fetch_keeps_halfword && (m.pcs_[0] & 2u) ? l1i_->line_of(m.pcs_[0]) : ~uint64_t{0}) : s_.phase_line;
    return true;
}

// The live-in registers (read before the body writes it): a word of those not "ready" (below), then per such
// register, in register order, its ready cycle against now. A ready one needs no word of its own (a body's keys
// mostly find most of its live-ins ready: a word each cost a store and the key's compare).
[[gnu::always_inline]] inline bool TimingModel::key_live_ins(const BlockMemo& m, uint64_t* __restrict key, size_t& n) const {
    if (!m.live_in_) return true;
    const bool pair = p_.dual_issue && s_.pair_open;
    // A live-in is "ready" when ready for any use (its ready cycle + earliest_need()) by s_.now and, with a pair
    // open, by s_.prev_issue: by the earlier of the two, worked out once.
    const uint64_t need = earliest_need(p_), ready_by = pair ? std::min(s_.now, s_.prev_issue) : s_.now;
    const size_t at = n++;  // the word of the registers not ready
    uint64_t late = 0;
    for (uint32_t live = m.live_in_; live; live &= live - 1) {
        const unsigned r = static_cast<unsigned>(__builtin_ctz(live));
        const uint64_t ready = s_.ready[r];
        // Ready for any use by then (an address by its address ready cycle, where kept: address_latency).
        if (std::max(ready + need, addr_by_producer_ ? s_.addr_ready[r] : 0) <= ready_by) continue;
        late |= uint64_t{1} << r;
        const int64_t d = static_cast<int64_t>(ready - s_.now);
        if (d >= (int64_t{1} << 40) || d <= -(int64_t{1} << 40)) return false;
        if (!addr_by_producer_) {
            key[n++] = static_cast<uint64_t>(d);
            continue;
        }
        // With the address ready cycle's distance from the ready cycle above the 41 bits of d (never below it:
        // step()'s result_stage).
        const uint64_t ad = s_.addr_ready[r] - ready;
        if (s_.addr_ready[r] < ready || ad >= (uint64_t{1} << 20)) return false;
        key[n++] = (static_cast<uint64_t>(d) & ((uint64_t{1} << 41) - 1)) | ad << 41;
    }
    key[at] = late;
    return true;
}

// A store multiple's locks (multiple_write_lock), while one can still hold a write back: how long ago it issued and
// the registers it stores; 0 once none can.
[[gnu::always_inline]] inline void TimingModel::key_lock(uint64_t* __restrict key, size_t& n) const {
    const bool live = p_.multiple_write_lock && s_.stm_issue + stm_lock_span(p_) > s_.now;
    key[n++] = live ? (s_.now - s_.stm_issue) | uint64_t{s_.stm_regs} << 32 : 0;
}

// The data accesses: how many each instruction has (as at the first execution, m.n_mem_; any other count is
// not keyed: the body is stepped), then per access its direction and what step() decides from its address
// besides the cache and TLB lookups (5 bits each, 12 to a word); where the caller fixes the counts and directions
// (set_fixed_accesses) and nothing else is keyed per access, no word. Where an access's bit does not matter to
// step() (an access of an instruction that is not a load or store, a store's side effect on a load) it is
// keyed all the same: a stricter key, never a wrong one. The body's bus accesses (dbus_queue) go to `bus`, `nb` of
// them.
template <bool kLean>
[[gnu::always_inline]] inline bool TimingModel::key_accesses(const BlockMemo& m, const MemRef* mem, const uint8_t* n_mem,
                                                             uint64_t* __restrict key, size_t& n, const MemRef** bus,
                                                             size_t& nb) const {
    if (!m.fixed_accesses_ && m.size() && std::memcmp(n_mem, m.n_mem_.data(), m.size()) != 0) return false;
    const size_t total = m.total_mem_;
    const bool by_address = !kLean && (p_.local_data || (p_.count_line_once && l1d_));
    // Directions the caller fixes (set_fixed_accesses) are the same at every execution: nothing to key.
    if (!by_address && m.fixed_accesses_) return true;
    // The words, 12 accesses each, of what bits_of(j, bits) says of access j (false: the body cannot be keyed).
    auto pack = [&](auto&& bits_of) {
        for (size_t k = 0; k < total; k += 12) {
            uint64_t w = 0;
            const size_t end = std::min(total, k + 12);
            for (size_t j = k; j < end; ++j) {
                uint64_t bits = 0;
                if (!bits_of(j, bits)) return false;
                w |= bits << (5 * (j - k));
            }
            key[n++] = w;
        }
        return true;
    };
    auto by_direction = [&](size_t j, uint64_t& bits) {
        bits = mem[j].write;
        return true;
    };
    auto with_address = [&](size_t j, uint64_t& bits) {
        const MemRef& a = mem[j];
        const bool on_bus = p_.local_data && !p_.local_data->contains(a.addr);
        if (on_bus && p_.dbus_queue) {
            if (nb == BlockMemo::max_bus) return false;
            bus[nb++] = &a;
        }
        const bool split = on_bus && crosses_beat(a);
        const bool side = on_bus && !region_cacheable(a.addr);
        const bool seq = p_.count_line_once && j && l1d_ && l1d_->line_of(a.addr) == l1d_->line_of(mem[j - 1].addr);
        bits = uint64_t{a.write} | uint64_t{on_bus} << 1 | uint64_t{split} << 2 | uint64_t{side} << 3 | uint64_t{seq} << 4;
        return true;
    };
    return by_address ? pack(with_address) : pack(by_direction);
}

// The body's bus stores in runs: a store starts a new run unless its word is the last store's. Besides the entry's
// words (key_dbus, key_lsu_bus), step() and the LSU buffers compare an access's word only with the words of the last
// two runs before it: the ibuf holds a store of the last run, and the last sent write and the LSU buffers' write
// entry waiting alone are of the last run or the one before (writes leave in order; dbus_access, LsuBuffers::
// bus_access). Per bus access of the body into `rel`: whether its word is the last run's (bit 0) or the run's before
// (bit 1). Into `bytes`: whether the bytes it writes or reads within its word (address bits 1:0 with its size) can
// matter to step() (dbus_access): a load's where its word is the ibuf's or the last sent one's at the entry (`d`) or
// one of those two runs' (in_ibuf, in_sent compare its bytes with theirs); a store's where its run is one of the two
// at a later load of one of their words, or at the exit (the ibuf and the last sent write the body leaves, with
// their bytes). Both follow from the key's words (the runs from `rel` itself): two entries with one key agree on them.
[[gnu::always_inline]] inline void TimingModel::dbus_runs(const MemRef* const* bus, size_t nb, const DbusState& d,
                                                          uint8_t* rel, bool* bytes) const {
    static_assert(BlockMemo::max_bus < 32, "a bit per run in `marked`, a bit per access in `stores`");
    // The words of the last store of the last run and of the run before (none: ~0, no word's: words are addresses
    // >> 2); the last run is number `runs`, the one before `runs` - 1.
    constexpr uint64_t none = ~uint64_t{0};
    uint64_t last = none, prev = none;
    uint8_t run[BlockMemo::max_bus];  // per store, its run's number
    unsigned runs = 0, marked = 0;    // the runs so far; those whose stores' bytes matter (a bit each)
    uint32_t stores = 0;              // a bit per store (few on the natural traces: the loop below visits only those)
    const uint64_t ibuf_word = d.ibuf ? d.ibuf_word : none;
    for (size_t j = 0; j < nb; ++j) {
        const uint64_t w = bus[j]->addr >> 2;
        const unsigned e1 = w == last, e2 = w == prev;
        rel[j] = static_cast<uint8_t>(e1 | e2 << 1);
        if (bus[j]->write) {
            if (!e1) {
                prev = last;
                ++runs;
            }
            last = w;
            run[j] = static_cast<uint8_t>(runs);
            stores |= uint32_t{1} << j;
            continue;
        }
        bytes[j] = (w == ibuf_word) | (w == d.sent_word) | e1 | e2;
        marked |= e1 << runs | (e2 << runs) >> 1;  // e2 only where there is a run before the last (runs >= 2)
    }
    if (last != none) marked |= 1u << runs;
    if (prev != none) marked |= 1u << (runs - 1);
    for (; stores; stores &= stores - 1) {
        const unsigned j = static_cast<unsigned>(__builtin_ctz(stores));
        bytes[j] = (marked >> run[j]) & 1u;
    }
}

// The D-bus buffer (dbus_queue): its state as it acts from now on, then per bus access of the body what step()
// decides from its place in its word (dbus_runs: its address bits 1:0 where its bytes can matter, else only whether
// it is split or crosses a word; whether it crosses a beat is key_accesses'), whether its word is the entry's ibuf's
// or last sent one's, whether its beat is the entry's last read's, whether its word is one of the last two runs of
// the body's stores before it (dbus_runs), and for a load which earlier loads of the body share its beat (the last
// read is the entry's or an earlier load's: a load of its beat shares it). Address bit 2 is not keyed: it matters
// only to whether two loads share a beat, which is keyed as such.
[[gnu::always_inline]] inline bool TimingModel::key_dbus(const MemRef* const* bus, size_t nb, uint64_t* __restrict key,
                                                         size_t& n) const {
    static_assert(BlockMemo::max_bus < 512, "the count's 9 bits (54 to 62) in the first word");
    if (s_.dbus.quiet() && nb == 0) {
        // Nothing buffered, no bus access: only when the command channel is free matters.
        key[n++] = s_.dbus.free > s_.now ? s_.dbus.free - s_.now : 0;
    } else {
        const DbusState d = dbus_canonical(s_.now);
        const uint64_t free_d = d.free - s_.now, last_d = d.ibuf ? s_.now - d.ibuf_last : 0;
        const uint64_t sent_d = d.sent_word != ~uint64_t{0} ? d.sent_until - s_.now + 1 : 0;
        const uint64_t read_d = d.read_beat != ~uint64_t{0} ? d.read_resp - s_.now + 1 : 0;
        if (free_d >= (uint64_t{1} << 12) || last_d >= (uint64_t{1} << 8) || sent_d >= (uint64_t{1} << 12) ||
            read_d >= (uint64_t{1} << 12))
            return false;
        key[n++] = free_d | uint64_t{d.ibuf} << 12 | uint64_t{d.ibuf_join} << 13 | uint64_t{d.ibuf_bytes} << 14 |
                   uint64_t{d.sent_bytes} << 18 | last_d << 22 | sent_d << 30 | read_d << 42 | uint64_t{nb} << 54 |
                   uint64_t{1} << 63;
        uint8_t rel[BlockMemo::max_bus];
        bool bytes[BlockMemo::max_bus];
        dbus_runs(bus, nb, d, rel, bytes);
        uint64_t w = 0;
        unsigned bit = 0;
        auto put = [&](uint64_t v, unsigned bits) {
            if (bit + bits > 60) {
                key[n++] = w;
                w = 0;
                bit = 0;
            }
            w |= v << bit;
            bit += bits;
        };
        // The entry's words as compared (none: ~0, no word's or beat's), and the beats of the loads so far.
        const uint64_t ibuf_word = d.ibuf ? d.ibuf_word : ~uint64_t{0};
        uint64_t load_beat[BlockMemo::max_bus];
        unsigned loads = 0;
        for (size_t j = 0; j < nb; ++j) {
            const MemRef& r = *bus[j];
            const uint64_t a = r.addr, word = a >> 2, beat = a >> 3, dual = crosses_word(r);
            const uint64_t place = bytes[j] ? 4u | (a & 3u) : uint64_t{split_access(r)} | dual << 1;
            put(place | uint64_t{word == ibuf_word} << 3 | uint64_t{word == d.sent_word} << 4 |
                    uint64_t{beat == d.read_beat} << 5 | uint64_t{rel[j]} << 6,
                8);
            if (r.write) continue;
            uint64_t beats = 0;  // a bit per earlier load: its beat is this one's
            for (unsigned i = 0; i < loads; ++i) beats |= uint64_t{load_beat[i] == beat} << i;
            if (loads) put(beats, loads);
            load_beat[loads++] = beat;
        }
        key[n++] = w;
    }
    return true;
}

// The body's branches' flushes (predict_inner), 16 bits each, 4 to a word: predict()'s cycles (below 2^13; a body
// with more is not keyed) and its three marks (branch_flag_distance, branch_folded, branch_bubble) above them. The
// lean key (lean_key_) keys them whole instead (key_flushes_whole).
[[gnu::always_inline]] inline bool TimingModel::key_inner_flushes(const BlockMemo& m, uint64_t* __restrict key, size_t& n) const {
    static_assert(branch_folded == branch_flag_distance << 1 && branch_bubble == branch_flag_distance << 2,
                  "the marks are three bits above branch_cycles");
    static_assert(BlockMemo::max_inner <= 8, "two words at most");
    // A flush fits where its cycles are below 2^13 (bit 13 of branch_cycles clear) and nothing lies above the marks:
    // those bits of every flush ORed, tested once (no branch per flush).
    constexpr unsigned unfit = (1u << 13) | ~((branch_bubble << 1) - 1);
    const size_t count = m.inner_.size();  // at most max_inner: prepare() leaves bodies with more unusable
    const unsigned* f = inner_flush_.data();
    unsigned any = 0;
    auto word = [&](size_t from, size_t to) {  // the flushes [from, to), 16 bits each
        uint64_t w = 0;
        for (size_t j = from; j < to; ++j) {
            any |= f[j];
            w |= uint64_t{(f[j] & (branch_cycles >> 1)) | (f[j] >> 14) << 13} << (16 * (j - from));
        }
        return w;
    };
    if (count == 0) return true;
    const uint64_t w0 = word(0, std::min<size_t>(count, 4)), w1 = count > 4 ? word(4, count) : 0;
    if (any & unfit) return false;
    key[n++] = w0;
    if (count > 4) key[n++] = w1;
    return true;
}

// The lean key's form of the body's branches' flushes (key_inner_flushes' words): each flush whole, two to a word
// (the second 0 in the last word of an odd count). Equal words, equal flushes, as there, but nothing to pack or to
// test for fit, and no body left unkeyed by a flush of 2^13 cycles or more; the words fit in the key's room left by
// the D-bus buffer's and LSU buffers' words, which the lean key never has (the static_assert).
namespace {
[[gnu::always_inline]] inline void key_flushes_whole(const unsigned* f, size_t count, uint64_t* __restrict key, size_t& n) {
    static_assert(4 + 6 + 1 + 32 + (4 * BlockMemo::max_insns + 11) / 12 + (BlockMemo::max_inner + 1) / 2 + 1 <=
                      BlockMemo::max_key_words,
                  "the lean key's words: the issue state, the fetch state, the live-ins, the accesses, the flushes, "
                  "the tail");
    size_t j = 0;
    for (; j + 1 < count; j += 2) key[n++] = uint64_t{f[j]} | uint64_t{f[j + 1]} << 32;
    if (j < count) key[n++] = f[j];
}
}  // namespace

// A load or store of the body waits at decode while the D-bus buffer is full (step(): LsuBuffers::bus_wait): the
// buffers' commit cycles against now (lsu_pending, the cursor), the D-bus buffer as it acts from the cursor on
// and which of the body's accesses hit the words its rules compare them with (the ibuf's: a store joins it; the
// lone write entry's: another word sends it). The body's own accesses then follow
// from the rest of the key (none of them is dual: prepare()); their words' relations to each other are the
// D-bus buffer's above (dbus_queue).
[[gnu::always_inline]] inline bool TimingModel::key_lsu_bus(const BlockMemo& m, const MemRef* mem, uint64_t* __restrict key,
                                                            size_t& n) const {
    const size_t total = m.total_mem_;
    const uint64_t behind = s_.now - lsu_->cursor();
    if (behind >= (uint64_t{1} << 16) || s_.lsu_pending >= (uint64_t{1} << 16)) return false;
    key[n++] = behind | s_.lsu_pending << 16;
    const size_t words = lsu_->save_bus(key + n, [](uint64_t, bool) { return uint64_t{0}; });
    if (words == 0) return false;
    n += words;
    if (words > 1) {
        // Each access whose word the rules compare with one of the buffer's (LsuBuffers::holds: none is dual), 11
        // bits (its index, what it hits), five to a word.
        uint64_t hits[2] = {0, 0}, count = 0;
        for (size_t j = 0; j < total; ++j) {
            const unsigned h = lsu_->holds(mem[j].addr >> 2);
            if (!h) continue;
            if (count == 10) return false;
            hits[count / 5] |= (uint64_t{j} | uint64_t{h} << 8) << (11 * (count % 5));
            ++count;
        }
        key[n++] = hits[0] | count << 56;
        key[n++] = hits[1];
    }
    return true;
}

// The entry state (timing_model.hpp, step_block) as words in `key` (room for BlockMemo::max_key_words);
// returns how many, or 0 when it cannot be keyed (cycles too far apart). The parts, in the key's order: the issue
// state, the fetch state, the live-in registers, the data accesses, the D-bus buffer, the body's branches, the LSU
// buffers, a store multiple's locks, the tail. kLean (lean_key_): none of VeeR EL2's fetch, D-bus and LSU mechanisms
// on, nor mrac, data addresses or a store multiple's locks keyed: the same words, those tests folded away.
template <bool kLean>
[[gnu::always_inline]] inline size_t TimingModel::body_key(const BlockMemo& m, const MemRef* mem, const uint8_t* n_mem,
                                                           uint64_t* __restrict key, bool with_tail) const {
    size_t n = 0;
    const MemRef* bus[BlockMemo::max_bus];  // dbus_queue: the body's bus accesses
    size_t nb = 0;
    if (!key_issue<kLean>(m, key, n) || !key_fetch<kLean>(m, key, n) || !key_live_ins(m, key, n) ||
        !key_accesses<kLean>(m, mem, n_mem, key, n, bus, nb) || (!kLean && p_.dbus_queue && !key_dbus(bus, nb, key, n)) ||
        (!kLean && !key_inner_flushes(m, key, n)) ||
        (!kLean && lsu_ && p_.bus_buffer && m.total_mem_ && !key_lsu_bus(m, mem, key, n)))
        return 0;
    if (kLean) key_flushes_whole(inner_flush_.data(), m.inner_.size(), key, n);
    if (!kLean && p_.multiple_write_lock) key_lock(key, n);
    // The tail's outcome: taken (the redirect) and the flush's cycles (predict()).
    if (with_tail) key[n++] = uint64_t{(tail_insn_->branch & isa::br_taken) != 0} | uint64_t{tail_flush_} << 1;
    return n;
}

// The body (and the tail with_tail) from a recording of the same entry state, or stepped and recorded. The key
// (body_key) is inlined here with the search of the body's recordings: a call of its own cost about 40 host
// instructions a key (docs/performance.md, speed22h1 and s24h1).
template <bool kLean>
uint64_t TimingModel::block_k(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b, bool with_tail) {
    if (!m.usable_ || !m.policy_.try_key()) return step_body(m, mem, n_mem, b, with_tail);
    const size_t len = body_key<kLean>(m, mem, n_mem, key_.data(), with_tail);
    if (len == 0) {
        m.policy_.miss();
        return step_body(m, mem, n_mem, b, with_tail);
    }
    auto same_key = [&](const BlockMemo::Recording& r) {
        if (r.key.size() != len) return false;
        // The full key's words 14, 9 and 15 first (on VeeR EL2 the D-bus accesses, the fetch queue, the D-bus
        // buffer: where its keys of the same length mostly first differ, docs/performance.md speed23h1), then the
        // whole: only a quicker no, the answer the same.
        if (!kLean && len > 15 && (r.key[14] != key_[14] || r.key[9] != key_[9] || r.key[15] != key_[15])) return false;
        return std::memcmp(r.key.data(), key_.data(), len * sizeof(uint64_t)) == 0;
    };
    const BlockMemo::Recording* r = nullptr;
    if (m.last_hit_ < m.recs_.size() && same_key(m.recs_[m.last_hit_])) {
        r = &m.recs_[m.last_hit_];
    } else {
        for (size_t k = 0; k < m.recs_.size() && !r; ++k)
            if (same_key(m.recs_[k])) {
                r = &m.recs_[k];
                m.last_hit_ = static_cast<unsigned>(k);
            }
    }
    if (!r) {
        m.policy_.miss();
        return record_body(m, mem, n_mem, b, key_.data(), len, with_tail);
    }
    m.recs_[m.last_hit_].used = ++m.use_clock_;  // r
    if (check_blocks_) return replay_checked(m, *r, mem, n_mem, b, with_tail);
    if (!claim_body(m, *r, mem)) return replay_partial(m, *r, mem, n_mem, b, with_tail);
    m.policy_.hit();
    replay_body(m, *r, mem, b);
    return r->cycles;
}

uint64_t TimingModel::block(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b, bool with_tail) {
    return lean_key_ ? block_k<true>(m, mem, n_mem, b, with_tail) : block_k<false>(m, mem, n_mem, b, with_tail);
}

bool TimingModel::lean_key(const TimingParams& p, bool lsu, bool l1d) {
    return !p.follows_mrac && !p.fill_redirect_commit && !p.fill_buffer_cycles && !p.fetch_queue &&
           !p.fetch_keeps_halfword && !p.local_data && !(p.count_line_once && l1d) && !p.dbus_queue && !lsu &&
           !p.multiple_write_lock;
}

}  // namespace pmusim::timing
