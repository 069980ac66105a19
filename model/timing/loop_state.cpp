// The timing model's state as a repeated stretch of the trace sees it (timing_model.hpp, loop_state): put in
// words, and moved on in time by a stretch that repeats (skip_loop).
//
// Why a state put in the same words behaves the same, shifted: every rule of step() (timed(), predict(), the
// fetch queue, the D-bus buffer, the LSU buffers) and of the block timing compares cycles with each other or with
// now_ plus offsets of at most a few hundred cycles (latencies, penalties, the divider, timers, the LSU ring of 256
// cycles), or takes their differences to decide whether a body can be keyed (a choice between two exact paths).
// A cycle loop_stale or more before now_ and one within loop_fresh of it are further apart than any such offset,
// so their comparisons come out the same in both states; two old cycles are the same values in both (they are
// kept as they are), two recent ones the same distances from now_. A cycle no rule can tell from any earlier one
// any more ("past": a register ready for any use, a divider free, a wait over) stays so as now_ and the previous
// issue grow, whatever its value. Values that are not cycles (addresses, flags) must be equal; the predictors'
// tables go in as 64-bit signatures kept on every write (two different tables agree with a chance of 2^-64).
// tests/unit/test_timing.cpp StateMovedOnInTimeTimesTheSameShifted checks a moved copy against the original.
#include <algorithm>
#include <initializer_list>

#include "model/timing/timing_model.hpp"

namespace pmusim::timing {

// One walk over the state for both (loop_state: `out` set, `d` 0; skip_loop: `out` null, the state moved on by `d`),
// so that a cycle is put in words as it is moved: relative to now_ (moved), or as "past" where no rule can tell
// it from any earlier cycle any more (left as it is: it stays past).
bool TimingModel::loop_walk(std::vector<uint64_t>* out, uint64_t d, std::vector<uint64_t>* addrs) {
    const uint64_t n = now_;
    bool ok = true;
    auto word = [&](uint64_t w) {
        if (out) out->push_back(w);
    };
    // A cycle relative to now_ where `live`, else past (word 0: none). Relative distances are kept as they are.
    auto rel = [&](uint64_t& t, bool live) {
        if (!live) {
            word(0);
            return;
        }
        word(1);
        word(t - n);
        t += d;
    };
    // A cycle no rule compares with more than a few hundred cycles of another: relative within loop_fresh of
    // now_ (or to come), as it is from loop_stale on; in between it cannot be put in words.
    auto aged = [&](uint64_t& t) {
        if (t + loop_fresh > n) {
            rel(t, true);
        } else if (t + loop_stale <= n) {
            word(2);
            word(t);
        } else {
            ok = false;
        }
    };
    word(uint64_t{pending_extra_} | uint64_t{pending_freeze_} << 32);
    word(uint64_t{mstatus_} | uint64_t{cacheable_} << 32 | uint64_t{next_csr_} << 48);
    word(uint64_t{div_a_} | uint64_t{div_b_} << 32);
    word(uint64_t{div_rem_} | uint64_t{div_known_} << 1 | uint64_t{pair_open_} << 2 | uint64_t{next_fetch_new_} << 3 |
         uint64_t{refetch_} << 4 | uint64_t{flushed_} << 5 | uint64_t{next_interrupted_} << 6 |
         uint64_t{static_cast<uint8_t>(prev_cls_)} << 8 | uint64_t{prev_dst_} << 32);
    word(last_miss_line_);
    word(fill_line_);
    word(phase_line_);
    word(last_ifetch_line_);
    word(last_fetch_);
    word(lsu_pending_);
    const uint64_t prev_issue = prev_issue_;  // as it is before the walk moves it (the registers are judged by it)
    aged(prev_issue_);
    // A register ready for any use (its value by now_ even as an address, and by the previous issue for a pair):
    // so for every later instruction (now_ and prev_issue_ only grow). timed() compares ready_[r] with
    // divider_free_ only to give a store's data its slack, which no ready register needs.
    for (uint64_t& r : ready_) rel(r, !(r + p_.early_address <= n && r <= prev_issue));
    // The divider, a postsync wait and a CSR write's block: each only delays a later instruction while to come.
    rel(divider_free_, divider_free_ > n);
    rel(postsync_until_, postsync_until_ > n);
    rel(csr_write_issue_, csr_write_issue_ + 1 + p_.csr_write_block > n);
    // A redirect into the line being refilled waits for fill_start_ + fill_redirect_commit, counted from now_ on.
    rel(fill_start_, fill_start_ + p_.fill_redirect_commit > n);
    // The fetch queue (body_key's words): the last fetch, the entries that can still hold a fetch back, and the
    // fill buffer's time from the earliest cycle a later fetch can come; after a flush (refetch_) none of them.
    const bool queue = p_.fetch_queue && !refetch_;
    if (queue) {
        const uint64_t base = std::min(fetch_at_ + 1, n - 2);
        rel(fill_at_, fill_at_ + p_.fill_buffer_cycles > base);
        for (size_t k = 0; k < fetched_.size(); ++k) rel(fetched_[k], fetched_held(k) != 0);
        aged(fetch_at_);
    } else {
        rel(fill_at_, false);
    }
    if (lsu_) aged(lsu_prev_eff_);
    // The D-bus buffer as the next instruction sees it (timed() starts from dbus_canonical), its cycles relative.
    if (p_.dbus_queue) {
        DbusState c = dbus_canonical(n);
        if (!out) dbus_ = c;
        DbusState& s = out ? c : dbus_;
        word(uint64_t{s.ibuf} | uint64_t{s.ibuf_join} << 1 | uint64_t{s.ibuf_bytes} << 8 | uint64_t{s.sent_bytes} << 16);
        // The buffer's addresses, where it holds one (send() leaves 0 behind, none is ~0), go to `addrs` as byte
        // addresses (loop_state), flagged in the words.
        auto address = [&](uint64_t a, bool held, unsigned shift) {
            if (addrs && held) {
                word(1);
                addrs->push_back(a << shift);
            } else {
                word(a);
            }
        };
        address(s.ibuf_word, s.ibuf, 2);
        address(s.sent_word, s.sent_word != ~uint64_t{0}, 2);
        address(s.read_beat, s.read_beat != ~uint64_t{0}, 3);
        rel(s.free, true);
        rel(s.ibuf_last, s.ibuf);
        rel(s.sent_until, s.sent_word != ~uint64_t{0});
        rel(s.read_resp, s.read_beat != ~uint64_t{0});
    }
    if (lsu_) {
        uint64_t w[LsuBuffers::max_snapshot];
        const size_t k = lsu_->save(n, w);
        if (k == 0) return false;  // the bus buffer holds something: not put in words
        word(k);
        if (out && addrs) LsuBuffers::split_addresses(w, k, *addrs);
        for (size_t i = 0; i < k; ++i) word(w[i]);
        word(lsu_->full());
        if (!out) lsu_->load(n + d, w, k);
    }
    if (out) {
        out->push_back(seen_sig_);
        bp_.loop_state(*out);
    }
    now_ = n + d;
    return ok;
}

bool TimingModel::loop_state(std::vector<uint64_t>& out, std::vector<uint64_t>* addrs) const {
    if (addrs && !shift_invariant()) addrs = nullptr;  // the addresses stay in the words: compared as they are
    return const_cast<TimingModel*>(this)->loop_walk(&out, 0, addrs);  // with `out` and d = 0 it changes nothing
}

bool TimingModel::same_data_kind(uint64_t a, uint64_t b) const {
    if ((a ^ b) >> 28) return false;  // another 256 MiB region (VeeR EL2 mrac: region_cacheable)
    return !p_.local_data || p_.local_data->contains(a) == p_.local_data->contains(b);
}

TimingModel::LoopMarks TimingModel::loop_marks() const {
    LoopMarks m;
    m.now = now_;
    size_t k = 0;
    for (const std::optional<Cache>* c : {&l1d_, &l1i_, &l2_, &itlb_, &dtlb_, &main_tlb_}) {
        if (*c) {
            m.caches[k] = (*c)->accesses();
            m.caches[k + 1] = (*c)->clock();
            m.caches[k + 2] = (*c)->refills();
            m.caches[k + 3] = (*c)->writebacks();
        }
        k += 4;
    }
    return m;
}

bool TimingModel::loop_hits_only(const LoopMarks& from, const LoopMarks& to) {
    for (size_t k = 0; k < from.caches.size(); k += 4)
        if (from.caches[k + 2] != to.caches[k + 2] || from.caches[k + 3] != to.caches[k + 3]) return false;
    return true;
}

void TimingModel::skip_loop(const LoopMarks& from, const LoopMarks& to, uint64_t shift) {
    loop_walk(nullptr, to.now - from.now);
    if (shift) {
        // The data addresses the model holds moved on with the stretch's (loop_state's `addrs`).
        if (lsu_) lsu_->shift_addresses(shift >> 2);
        if (p_.dbus_queue) {
            if (dbus_.ibuf) dbus_.ibuf_word += shift >> 2;
            if (dbus_.sent_word != ~uint64_t{0}) dbus_.sent_word += shift >> 2;
            if (dbus_.read_beat != ~uint64_t{0}) dbus_.read_beat += shift >> 3;
        }
    }
    size_t k = 0;
    for (std::optional<Cache>* c : {&l1d_, &l1i_, &l2_, &itlb_, &dtlb_, &main_tlb_}) {
        if (*c)
            (*c)->skip(to.caches[k] - from.caches[k], to.caches[k + 1] - from.caches[k + 1],
                       to.caches[k + 2] - from.caches[k + 2], to.caches[k + 3] - from.caches[k + 3]);
        k += 4;
    }
}

void TimingModel::loop_journal(bool on) {
    for (std::optional<Cache>* c : {&l1d_, &l1i_, &l2_, &itlb_, &dtlb_, &main_tlb_})
        if (*c) (*c)->set_journal(on);
}

TimingModel::LoopMarks TimingModel::loop_mark() {
    LoopMarks m = loop_marks();
    for (std::optional<Cache>* c : {&l1d_, &l1i_, &l2_, &itlb_, &dtlb_, &main_tlb_})
        if (*c) m.journal = (*c)->mark();  // every cache marked at once: the same number
    return m;
}

void TimingModel::loop_forget(const LoopMarks& m) {
    for (std::optional<Cache>* c : {&l1d_, &l1i_, &l2_, &itlb_, &dtlb_, &main_tlb_})
        if (*c) (*c)->forget_before(m.journal);
}

bool TimingModel::loop_same_caches(const LoopMarks& from, const LoopMarks& to) {
    size_t k = 0;
    for (std::optional<Cache>* c : {&l1d_, &l1i_, &l2_, &itlb_, &dtlb_, &main_tlb_}) {
        const bool hits_only = from.caches[k + 2] == to.caches[k + 2] && from.caches[k + 3] == to.caches[k + 3];
        if (*c && !hits_only && (from.journal == 0 || !(*c)->same_since(from.journal))) return false;
        k += 4;
    }
    return true;
}

}  // namespace pmusim::timing
