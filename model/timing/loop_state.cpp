// The timing model's state as a repeated stretch of the trace sees it (timing_model.hpp, loop_state): put in
// words, and moved on in time by a stretch that repeats (skip_loop).
//
// Why a state put in the same words behaves the same, shifted: every rule of step() (timed(), predict(), the
// fetch queue, the D-bus buffer, the LSU buffers) and of the block timing compares cycles with each other or with
// s_.now plus offsets of at most a few hundred cycles (latencies, penalties, the divider, timers, the LSU ring of 256
// cycles), or takes their differences to decide whether a body can be keyed (a choice between two exact paths).
// A cycle loop_stale or more before s_.now and one within loop_fresh of it are further apart than any such offset,
// so their comparisons come out the same in both states; two old cycles are the same values in both (they are
// kept as they are), two recent ones the same distances from s_.now. A cycle no rule can tell from any earlier one
// any more ("past": a register ready for any use, a divider free, a wait over) stays so as s_.now and the previous
// issue grow, whatever its value. Values that are not cycles (addresses, flags) must be equal; the predictors'
// tables go in as 64-bit signatures kept on every write (two different tables agree with a chance of 2^-64).
// tests/unit/test_timing.cpp StateMovedOnInTimeTimesTheSameShifted checks a moved copy against the original.
#include <algorithm>
#include <initializer_list>
#include <type_traits>

#include "model/timing/timing_model.hpp"

namespace pmusim::timing {

struct TimingModel::LoopWalk {
    TimingModel& m;
    std::vector<uint64_t>* out;
    std::vector<uint64_t>* addrs;
    uint64_t n, d;
    bool ok = true;
    void word(uint64_t w) {
        if (out) out->push_back(w);
    }
    // A cycle relative to now where `live`, else past (word 0). Relative distances are kept as they are.
    void rel(uint64_t& t, bool live) {
        if (!live) return word(0);
        word(1);
        word(t - n);
        t += d;
    }
    template <class T>
    void operator()(T& f, FieldKind k, bool live) {
        if constexpr (std::is_same_v<T, uint64_t>) {
            switch (k) {
                case FieldKind::clock: return;  // every cycle is put relative to it; moved last
                case FieldKind::cycle:
                case FieldKind::held: return rel(f, live);
                case FieldKind::aged:
                    // Relative within loop_fresh of now (or to come), as it is from loop_stale on; in between
                    // it cannot be put in words.
                    if (f + loop_fresh > n) return rel(f, true);
                    if (f + loop_stale <= n) {
                        word(2);
                        return word(f);
                    }
                    ok = false;
                    return;
                case FieldKind::value: break;
            }
        }
        word(static_cast<uint64_t>(f));
    }
    void nested(StepInputs& s) {
        StepInputs::visit(s, [&](auto& f, FieldKind, bool) { word(static_cast<uint64_t>(f)); });
    }
    void nested(DbusState& real) {
        if (!m.p_.dbus_queue) return;  // not followed: never changes
        DbusState c = m.dbus_canonical(n);
        DbusState& s = out ? c : real;
        // The buffer's addresses, where it holds one (send() leaves 0 behind, none is ~0), go to `addrs` as
        // byte addresses (loop_state), flagged in the words.
        auto address = [&](uint64_t a, bool held, unsigned shift) {
            if (addrs && held) {
                word(1);
                addrs->push_back(a << shift);
            } else {
                word(a);
            }
        };
        DbusState::visit(s, [&](auto& f, FieldKind k, bool live) {
            if constexpr (std::is_same_v<std::decay_t<decltype(f)>, uint64_t>) {
                if (&f == &s.ibuf_word) return address(f, s.ibuf, 2);
                if (&f == &s.sent_word) return address(f, s.sent_word != ~uint64_t{0}, 2);
                if (&f == &s.read_beat) return address(f, s.read_beat != ~uint64_t{0}, 3);
                if (k == FieldKind::cycle) return rel(f, live);
            }
            word(static_cast<uint64_t>(f));
        });
    }
};

// One walk over the state for both (loop_state: `out` set, `d` 0; skip_loop: `out` null, the state moved on by `d`),
// so that a cycle is put in words as it is moved: relative to now (moved), or as "past" where no rule can tell
// it from any earlier cycle any more (left as it is: it stays past). The fields and their kinds are
// PipelineState::visit's; the D-bus buffer's addresses go to `addrs` where the stretch may be shifted.
bool TimingModel::loop_walk(std::vector<uint64_t>* out, uint64_t d, std::vector<uint64_t>* addrs) {
    const uint64_t n = s_.now;
    const StateLiveness live(*this);
    // The D-bus buffer as the next instruction sees it (timed() starts from dbus_canonical).
    if (p_.dbus_queue && !out) s_.dbus = dbus_canonical(n);
    LoopWalk walk{*this, out, addrs, n, d};
    PipelineState::visit(s_, walk, live);
    if (lsu_) {
        uint64_t w[LsuBuffers::max_snapshot];
        const size_t k = out && addrs ? lsu_->save_split(n, w, *addrs) : lsu_->save(n, w);
        if (k == 0) return false;  // the bus buffer holds something: not put in words
        walk.word(k);
        for (size_t i = 0; i < k; ++i) walk.word(w[i]);
        walk.word(lsu_->full());
        if (!out) lsu_->load(n + d, w, k);
    }
    if (out) bp_.loop_state(*out);
    s_.now = n + d;
    return walk.ok;
}

bool TimingModel::loop_state(std::vector<uint64_t>& out, std::vector<uint64_t>* addrs) const {
    if (ooo_) return false;  // an out-of-order core's state (OooCore) is not put in words: no stretch repeats
    if (addrs && !shift_invariant()) addrs = nullptr;  // the addresses stay in the words: compared as they are
    return const_cast<TimingModel*>(this)->loop_walk(&out, 0, addrs);  // with `out` and d = 0 it changes nothing
}

bool TimingModel::same_data_kind(uint64_t a, uint64_t b) const {
    if ((a ^ b) >> 28) return false;  // another 256 MiB region (VeeR EL2 mrac: region_cacheable)
    return !p_.local_data || p_.local_data->contains(a) == p_.local_data->contains(b);
}

TimingModel::LoopMarks TimingModel::loop_marks() const {
    LoopMarks m;
    m.now = s_.now;
    size_t k = 0;
    for (const std::optional<Cache>* c : caches_of(*this)) {
        if (*c) {
            m.caches[k] = (*c)->accesses();
            m.caches[k + 1] = (*c)->refills();
            m.caches[k + 2] = (*c)->writebacks();
        }
        k += 3;
    }
    return m;
}

bool TimingModel::loop_hits_only(const LoopMarks& from, const LoopMarks& to) {
    for (size_t k = 0; k < from.caches.size(); k += 3)
        if (from.caches[k + 1] != to.caches[k + 1] || from.caches[k + 2] != to.caches[k + 2]) return false;
    return true;
}

void TimingModel::skip_loop(const LoopMarks& from, const LoopMarks& to, uint64_t shift) {
    loop_walk(nullptr, to.now - from.now);
    if (shift) {
        // The data addresses the model holds moved on with the stretch's (loop_state's `addrs`).
        if (lsu_) lsu_->shift_addresses(shift >> 2);
        if (p_.dbus_queue) {
            if (s_.dbus.ibuf) s_.dbus.ibuf_word += shift >> 2;
            if (s_.dbus.sent_word != ~uint64_t{0}) s_.dbus.sent_word += shift >> 2;
            if (s_.dbus.read_beat != ~uint64_t{0}) s_.dbus.read_beat += shift >> 3;
        }
    }
    size_t k = 0;
    for (std::optional<Cache>* c : caches_of(*this)) {
        if (*c)
            (*c)->skip(to.caches[k] - from.caches[k], to.caches[k + 1] - from.caches[k + 1], to.caches[k + 2] - from.caches[k + 2]);
        k += 3;
    }
}

void TimingModel::loop_journal(bool on) {
    for (std::optional<Cache>* c : caches_of(*this))
        if (*c) (*c)->set_journal(on);
}

TimingModel::LoopMarks TimingModel::loop_mark() {
    LoopMarks m = loop_marks();
    for (std::optional<Cache>* c : caches_of(*this))
        if (*c) m.journal = (*c)->mark();  // every cache marked at once: the same number
    return m;
}

void TimingModel::loop_forget(const LoopMarks& m) {
    for (std::optional<Cache>* c : caches_of(*this))
        if (*c) (*c)->forget_before(m.journal);
}

bool TimingModel::loop_same_caches(const LoopMarks& from, const LoopMarks& to) {
    size_t k = 0;
    for (std::optional<Cache>* c : caches_of(*this)) {
        const bool hits_only = from.caches[k + 1] == to.caches[k + 1] && from.caches[k + 2] == to.caches[k + 2];
        if (*c && !hits_only && (from.journal == 0 || !(*c)->same_since(from.journal))) return false;
        k += 3;
    }
    return true;
}

}  // namespace pmusim::timing
