#include "replay/stretches.hpp"

#include <array>
#include <cstring>

namespace pmusim::replay {

// The helpers of skip() first: inlined there (the hot path of a stretch that repeats).
// The words of a run that the timing reads beyond its shape (single-run plan `p`): its data addresses and its
// divisions' operands; false where a division takes an operand from the register file (not in the run).
inline bool Stretches::words(const RunPlan& p, const unsigned char* v, std::vector<uint64_t>& out) const {
    if (!p.fast || p.loop_from_gpr) return false;
    for (uint32_t off : p.loop_offs) out.push_back(trace::run_value(v, off, p.width));
    return true;
}

// A run's words against the stretch's `w`, its data addresses moved by `shift` (the first address sets it where
// the repeat may lie anywhere: `set` false), its other words the same.
inline bool Stretches::shifted_run(const unsigned char* v, const RunPlan& p, const uint64_t* w, uint64_t& shift, bool& set) const {
    for (size_t j = 0; j < p.loop_offs.size(); ++j) {
        const uint64_t a = trace::run_value(v, p.loop_offs[j], p.width);
        if (j >= p.loop_addrs) {
            if (a != w[j]) return false;
            continue;
        }
        if (!set) {
            shift = a - w[j];
            if (shift % timing::TimingModel::loop_shift_unit) return false;
            set = true;
        }
        if (a - w[j] != shift || (shift && !c_.tm->same_data_kind(a, w[j]))) return false;
    }
    return true;
}

// The values of the runs held back that still lie in the reader's buffer, copied (the caller reads the next runs,
// which may reuse it).
inline void Stretches::pin() {
    size_t bytes = 0;
    for (size_t j = pinned_; j < held_.size(); ++j) bytes += held_[j].shape->value_bytes;
    if (bytes == 0) {
        pinned_ = held_.size();
        return;
    }
    chunks_.emplace_back(new unsigned char[bytes]);  // left uninitialised: every byte is copied over
    unsigned char* at = chunks_.back().get();
    for (size_t j = pinned_; j < held_.size(); ++j) {
        trace::Run& r = held_[j];
        std::memcpy(at, r.values, r.shape->value_bytes);
        r.values = at;
        at += r.shape->value_bytes;
    }
    pinned_ = held_.size();
}

inline void Stretches::release() {
    held_.clear();
    chunks_.clear();
    pinned_ = 0;
    at_ = 0;
    word_at_ = 0;
}

// unit() where not waiting, or while aborting.
size_t Stretches::unit_other(const trace::Run* runs, size_t n) {
    // Nothing while the caller times the runs held back (their stretch's, up to a run that differs): the next
    // anchor after them starts again.
    if (aborting_) return 0;
    const uint32_t id = runs[0].shape->id;
    const Result& r = s_.r;
    if ((mode_ == Mode::wait || mode_ == Mode::record) &&
        policy_.sparse_anchor(id, r.instructions, r.repeated_instructions, mode_ == Mode::record))
        return anchor_at(runs, n, policy_.gap(id));
    switch (mode_) {
        case Mode::off: return 0;
        case Mode::wait: return policy_.hot_anchor(id, r.instructions) ? anchor_at(runs, n) : 0;
        case Mode::record: return unit_recording(runs, n, id);
        case Mode::skip: return skip(runs, n);
    }
    return 0;
}

size_t Stretches::unit_recording(const trace::Run* runs, size_t n, uint32_t id) {
    const uint64_t instructions = s_.r.instructions;
    if (id != policy_.anchor()) {
        switch (policy_.other_run(id, instructions)) {
            case StretchPolicy::Other::switch_to: return anchor_at(runs, n);
            case StretchPolicy::Other::lost: {  // another anchor, the next hot run
                const bool give_up_now = policy_.lost(instructions);
                mode_ = Mode::wait;
                armed_ = false;
                set_tap(false);
                if (give_up_now) give_up();
                return 0;
            }
            case StretchPolicy::Other::keep: return 0;
        }
    }
    policy_.met(instructions);
    if (!armed_) {
        // The model's state cannot be put in words here (the D-bus buffer holds a store, say): another anchor, the
        // next hot run.
        if (!(armed_ = point(true)) && policy_.sparse_gap()) return sparse_unarmed();
        if (!armed_ && policy_.tried()) {
            mode_ = Mode::wait;
            if (policy_.next_anchor()) give_up();
        }
        if (armed_ && resume(runs)) return skip(runs, n);
        return 0;
    }
    if (!StretchPolicy::checkpoint_due(instructions, points_.back().instructions)) return 0;
    // A checkpoint: a stretch repeats where the state is one met at an earlier checkpoint.
    if (!point(false)) {
        armed_ = false;
        return 0;
    }
    if (resume(runs)) return skip(runs, n);
    uint64_t shift = 0;
    const Point* from = find_start(runs[0], shift);
    if (!from) {
        if (policy_.tried()) give_up();
        return 0;
    }
    // Elsewhere a loop walking through memory leaves the same state with other addresses: skip() then finds the
    // anchor itself differing from the stretch's first run, and abort() drops the anchor.
    take(*from);
    loop_.shift = shift;
    loop_.free = free_here();
    enter(shift);
    return skip(runs, n);
}

// The checkpoint the stretch to the last one starts from, `shift` how far its addresses moved (nullptr: none).
// Where addresses may move (TimingModel::shift_invariant), a stretch with the same addresses first (pass 0: as
// elsewhere, skip() then checks its first run), else one moved (pass 1) from the last StretchPolicy::walk_reach
// checkpoints only, whose first run is the anchor met now so moved: a loop that walks repeats from one of those (a
// walk of 4 bytes an iteration, 1,024 instructions a checkpoint, moves a multiple of 16 bytes in 4), where a stretch
// moved over more checkpoints is a pattern that seldom lasts (Dhrystone: 6,560 instructions, found again at a cost
// in every copy).
const Stretches::Point* Stretches::find_start(const trace::Run& anchor, uint64_t& shift) {
    timing::TimingModel& tm = *c_.tm;
    const Point& now = points_.back();
    const bool walks = tm.shift_invariant();
    for (int pass = walks ? 0 : 1; pass < 2; ++pass)
        for (size_t j = points_.size() - 1; j-- > 0;) {
            const Point& p = points_[j];
            if (p.state == now.state && shifted(p.addrs, now.addrs, shift) &&
                (shift == 0 ? tm.loop_same_caches(p.marks, now.marks) : timing::TimingModel::loop_hits_only(p.marks, now.marks)) &&
                (pass == 1 || shift == 0) &&
                (pass == 0 || !walks ||
                 (StretchPolicy::within_walk_reach(j, points_.size()) &&
                  anchor_fits(anchor, log_words_.data() + p.words, log_words_.size() - p.words, shift, free_here()))))
                return &p;
        }
    return nullptr;
}

// Skipping: runs[0..n-1) compared with the stretch and held back while they match; a whole stretch followed by the
// anchor is added again. Returns how many runs it took; at a run that differs, the runs held back are aborted and
// that run is left to the caller.
size_t Stretches::skip(const trace::Run* runs, size_t n) {
    Stretch& l = loop_;
    size_t k = 0;
    const size_t len = l.shapes.size();
    for (; k + 1 < n; ++k) {
        const trace::Run& r = runs[k];
        if (at_ == len) {
            if (r.shape->id != policy_.anchor()) break;
            repeat();
        }
        if (r.shape != l.shapes[at_]) break;
        const RunPlan& p = *l.plans[at_];
        const uint64_t* w = l.words.data() + word_at_;
        const uint32_t* offs = p.loop_offs.data();
        const size_t nw = p.loop_offs.size();
        uint64_t differ = 0;
        if (shift_ == 0 && shift_set_) {  // the same addresses
            if (p.width == 4)
                for (size_t j = 0; j < nw; ++j) differ |= trace::run_value(r.values, offs[j], 4) ^ w[j];
            else
                for (size_t j = 0; j < nw; ++j) differ |= trace::run_value(r.values, offs[j], 8) ^ w[j];
        } else {
            differ = !shifted_run(r.values, p, w, shift_, shift_set_);
        }
        if (differ) break;
        word_at_ += nw;
        ++at_;
        held_.push_back(r);  // its values in the reader's buffer until the caller reads again (pin)
    }
    if (k + 1 < n) abort(runs[k].shape);  // runs[k] differs
    else pin();
    return k;
}

void Stretches::log(const trace::Run* runs, size_t k, bool fast) {
    bool ok = fast;
    for (size_t j = 0; j < k && ok; ++j) {
        const RunPlan& p = plans_.plan(*runs[j].shape, runs[j].values);
        log_shapes_.push_back(runs[j].shape);
        ok = words(p, runs[j].values, log_words_);
    }
    if (!ok) {
        armed_ = false;  // not replayable from values: again from the anchor's next execution
        set_tap(false);
        if (policy_.sparse_hopeless(s_.r.instructions)) mode_ = Mode::wait;
    } else if (log_shapes_.size() > StretchPolicy::max_runs) {
        give_up();
    }
}

// No anchor for a while: after too many tries with one, or a stretch too long.
void Stretches::give_up() {
    policy_.give_up(s_.r.instructions);
    mode_ = Mode::wait;
    armed_ = false;
    set_tap(false);
}

// A sparse anchor met where the model's state cannot be put in words (the LSU buffers busy, say): the next run with
// a gap of its own tried at once (another run of the same iteration).
size_t Stretches::sparse_unarmed() {
    policy_.sparse_unarmed();
    mode_ = Mode::wait;
    return 0;
}

// A checkpoint now (the anchor met): false where the model's state cannot be put in words. `first`: the recording
// starts here.
bool Stretches::point(bool first) {
    timing::TimingModel& tm = *c_.tm;
    const Result& r = s_.r;
    s_.flush();
    if (first) {
        points_.clear();
        log_shapes_.clear();
        log_words_.clear();
        s_.tapped.clear();
    }
    Point pt;
    pt.state.reserve(points_.empty() ? 64 : points_.back().state.size());
    if (!tm.loop_state(pt.state, &pt.addrs)) return false;
    pt.state.push_back(c_.priv);
    pt.marks = tm.loop_mark();
    if (first) tm.loop_forget(pt.marks);
    pt.runs = log_shapes_.size();
    pt.words = log_words_.size();
    pt.instructions = r.instructions;
    pt.events = s_.tapped;
    pt.fast_runs = r.fast_runs;
    pt.grouped_runs = r.grouped_runs;
    pt.timed_blocks = r.timed_blocks;
    pt.timed_through = r.timed_through;
    if (points_.size() == StretchPolicy::period + 1) {  // the oldest goes, with its part of the log
        points_.erase(points_.begin());
        const Point& o = points_.front();
        tm.loop_forget(o.marks);
        const size_t dr = o.runs, dw = o.words;
        log_shapes_.erase(log_shapes_.begin(), log_shapes_.begin() + static_cast<std::ptrdiff_t>(dr));
        log_words_.erase(log_words_.begin(), log_words_.begin() + static_cast<std::ptrdiff_t>(dw));
        for (Point& q : points_) {
            q.runs -= dr;
            q.words -= dw;
        }
        pt.runs -= dr;
        pt.words -= dw;
    }
    points_.push_back(std::move(pt));
    set_tap(true);
    return true;
}

// The stretch from checkpoint `from` to the last one, to repeat.
void Stretches::take(const Point& from) {
    const Point& to = points_.back();
    Stretch& l = loop_;
    l.shapes.assign(log_shapes_.begin() + static_cast<std::ptrdiff_t>(from.runs), log_shapes_.end());
    l.words.assign(log_words_.begin() + static_cast<std::ptrdiff_t>(from.words), log_words_.end());
    l.instructions = to.instructions - from.instructions;
    l.records = 0;
    l.plans.clear();
    for (const trace::RunShape* sh : l.shapes) {
        l.records += sh->records;
        l.plans.push_back(plans_.made(sh->id));
    }
    held_.reserve(l.shapes.size());
    l.events.clear();
    for (const auto& e : to.events.events) {
        const uint64_t before = from.events.count(e.event);
        if (e.count != before) l.events.add(e.event, e.count - before);
    }
    l.events.cycles = to.events.cycles - from.events.cycles;
    l.fast_runs = to.fast_runs - from.fast_runs;
    l.grouped_runs = to.grouped_runs - from.grouped_runs;
    l.timed_blocks = to.timed_blocks - from.timed_blocks;
    l.timed_through = to.timed_through - from.timed_through;
    l.from = from.marks;
    l.to = to.marks;
    l.anchor = policy_.anchor();
    l.from_state = from.state;
    l.from_addrs = from.addrs;
    std::array<std::pair<uint32_t, uint32_t>, 32> last;
    last.fill({~0u, 0});
    for (size_t j = 0; j < l.shapes.size(); ++j)
        for (const auto& [g, off] : l.plans[j]->live_out) last[g] = {static_cast<uint32_t>(j), off};
    l.live_out.clear();
    for (unsigned g = 0; g < 32; ++g)
        if (last[g].first != ~0u) l.live_out.emplace_back(static_cast<uint8_t>(g), last[g].first, last[g].second);
}

// Whether the data addresses `to` are those of `from` moved by one distance (returned in `shift`), a multiple of
// loop_shift_unit, each of the same kind (TimingModel::shift_invariant; both empty: 0). On a model where a shift is
// not invariant, loop_state() keeps the addresses in its words: both are empty.
bool Stretches::shifted(const std::vector<uint64_t>& from, const std::vector<uint64_t>& to, uint64_t& shift) const {
    shift = 0;
    if (from.size() != to.size()) return false;
    if (from.empty()) return true;
    shift = to[0] - from[0];
    if (shift % timing::TimingModel::loop_shift_unit) return false;
    for (size_t j = 0; j < from.size(); ++j)
        if (to[j] - from[j] != shift || !c_.tm->same_data_kind(from[j], to[j])) return false;
    return true;
}

// Whether run `r` (the anchor, met now) is the first run of a stretch whose words are `w` (`n` of them) with its
// addresses moved by `shift` (by any multiple of loop_shift_unit where `free`).
bool Stretches::anchor_fits(const trace::Run& r, const uint64_t* w, size_t n, uint64_t shift, bool free) {
    const RunPlan& p = plans_.plan(*r.shape, r.values);
    if (p.loop_offs.size() > n) return false;
    bool set = !free;
    return shifted_run(r.values, p, w, shift, set);
}

// At a checkpoint (the anchor met, runs[0]): whether the stretch kept from the anchor's last repeats starts from
// this state (its addresses moved, where they may move) with this run. Then it is taken again at once: the runs
// that follow are compared with it, as after take().
bool Stretches::resume(const trace::Run* runs) {
    const Stretch& k = kept_;
    if (k.shapes.empty() || k.anchor != policy_.anchor() || points_.empty()) return false;
    const Point& now = points_.back();
    uint64_t shift = 0;
    if (now.state != k.from_state || !shifted(k.from_addrs, now.addrs, shift) ||
        !anchor_fits(runs[0], k.words.data(), k.words.size(), shift, free_here()))
        return false;
    loop_ = k;
    enter(shift);
    return true;
}

// Skipping loop_ from the anchor met now, the state's addresses moved by `shift` from the stretch's start.
void Stretches::enter(uint64_t shift) {
    shift_ = shift;  // the first repeat starts from the state moved by `shift`
    shift_set_ = !loop_.free;
    set_tap(false);
    mode_ = Mode::skip;
    release();
    repeats_ = 0;
}

// Runs[0]'s shape becomes the anchor and a recording starts there; the stretch kept for it is taken at once where it
// starts from this state (resume). Returns the runs taken, as unit().
size_t Stretches::anchor_at(const trace::Run* runs, size_t n, uint64_t sparse_gap) {
    policy_.anchored(runs[0].shape->id, sparse_gap, s_.r.instructions);
    mode_ = Mode::record;
    armed_ = point(true);
    if (!armed_ && sparse_gap) return sparse_unarmed();
    return armed_ && resume(runs) ? skip(runs, n) : 0;
}

// The stretch again, from the runs held back: its events, its retirement and the timing model moved on.
void Stretches::repeat() {
    Stretch& l = loop_;
    Result& r = s_.r;
    policy_.repeated();
    ++repeats_;
    for (const auto& e : l.events.events) s_.batch.add(e.event, e.count);
    s_.batch.cycles += l.events.cycles;
    r.instructions += l.instructions;
    r.repeated_instructions += l.instructions;
    r.records += l.records;
    s_.pending += l.instructions;
    r.fast_runs += l.fast_runs;
    r.grouped_runs += l.grouped_runs;
    r.timed_blocks += l.timed_blocks;
    r.timed_through += l.timed_through;
    c_.tm->skip_loop(l.from, l.to, l.shift);
    // The next repeat's addresses: moved on as far again, or anywhere where the state holds none.
    shift_ += l.shift;
    shift_set_ = !l.free;
    // What the runs leave besides their timing (RunReplayer::settle): each register's last value, the last time.
    for (const auto& [g, run, off] : l.live_out) c_.gpr[g] = trace::run_value(held_[run].values, off, l.plans[run]->width);
    c_.prev_time = last_time(*l.plans.back(), held_.back().values);
    release();
    if (s_.pending >= 4096) s_.flush();
}

void Stretches::abort(const trace::RunShape* next) {
    if (mode_ == Mode::skip) {
        mode_ = Mode::record;
        armed_ = false;
        // The anchor itself differs (a run inside an inner loop that walks through memory, its addresses not those
        // of the stretch's start), or the stretch never repeated before it differed: another anchor, the next hot
        // run.
        if (held_.empty() || repeats_ == 0) {
            const bool give_up_now = policy_.differed(s_.r.instructions);
            mode_ = Mode::wait;
            if (give_up_now) give_up();
        } else if (!c_.tm->has_caches()) {
            // A stretch that repeated: kept, to be taken again when its anchor meets its state (resume). Not where
            // caches are modelled: by then other code may have evicted its lines or made other lines of their sets
            // more recent, and its repeats count hits and leave the LRU order as it is (TimingModel::skip_loop). The
            // recorded stretches are exact because they repeat at once.
            kept_ = loop_;
        }
    }
    if (held_.empty()) return;
    aborted_.swap(held_);
    aborted_.push_back({next, nullptr});
    aborted_chunks_.swap(chunks_);  // the held runs' values while the caller's replay may hold back others
    release();
}

}  // namespace pmusim::replay
