// Stretches that repeat (docs/performance.md, "Stretches that repeat"): the mechanism. A stretch runs from an
// execution of the anchor run to an execution of the anchor at least StretchPolicy::min_instructions later. It is
// recorded (its runs' shapes and the values the timing reads: data addresses, division operands; the events and
// cycles it adds; the timing model's state words before and after, TimingModel::loop_state) while it is timed, with
// a checkpoint at each end; when the model's state at a checkpoint is its state at one of the last
// StretchPolicy::period checkpoints, shifted in time, and no cache took in or wrote back a line in between, the same
// runs with the same addresses, followed by the anchor again, would time the same from there on. The runs that
// follow are then compared with the stretch as they come (held back, not timed); a whole stretch matched and the
// anchor next, its events are added again and the model shifted (TimingModel::skip_loop); a run that differs first
// has the runs held back timed as usual (handed back to the run replayer: aborted()). Which run is the anchor and
// when to give up is the policy's (replay/stretch_policy.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <tuple>
#include <vector>

#include "replay/core.hpp"
#include "replay/run_plan.hpp"
#include "replay/session.hpp"
#include "replay/stretch_policy.hpp"

namespace pmusim::replay {

class Stretches {
public:
    Stretches(Session& s, Core& c, RunPlanner& plans) : s_(s), c_(c), plans_(plans) {}
    // Looks for stretches from now on (the block engine with the timing model on a file of runs).
    void start() {
        mode_ = Mode::wait;
        c_.tm->loop_journal(true);  // stretches that refill lines, compared set by set (loop_same_caches)
    }
    bool on() const { return mode_ != Mode::off; }
    // At a unit's first run `runs[0]` (n at hand, the last only a successor): how many runs it took (0: none, the
    // caller replays runs[0] as usual). Runs held back and found to differ are then aborted().
    size_t unit(const trace::Run* runs, size_t n) {
        if (mode_ != Mode::wait || aborting_) return unit_other(runs, n);
        // Waiting (the usual unit): inline, the policy asked once.
        const uint32_t id = runs[0].shape->id;
        switch (policy_.waiting(id, s_.r.instructions, s_.r.repeated_instructions)) {
            case StretchPolicy::Wait::none: return 0;
            case StretchPolicy::Wait::sparse: return anchor_at(runs, n, policy_.gap(id));
            case StretchPolicy::Wait::hot: return anchor_at(runs, n);
        }
        return 0;
    }
    // While recording, every unit the caller replayed: `runs[0..k)`, all replayed from their values (`fast`).
    bool logging() const { return mode_ == Mode::record && armed_; }
    void log(const trace::Run* runs, size_t k, bool fast);
    // The runs held back are to be timed as usual, `next` after the last (at the end of the trace).
    void abort(const trace::RunShape* next);
    // The runs held back to time as usual (the last only a successor), and the copies of their values: empty when
    // none. The caller replays them with aborting(true) (unit() then takes none).
    std::vector<trace::Run> aborted(std::vector<std::unique_ptr<unsigned char[]>>& chunks) {
        chunks.swap(aborted_chunks_);
        aborted_chunks_.clear();
        std::vector<trace::Run> runs;
        runs.swap(aborted_);
        return runs;
    }
    bool has_aborted() const { return !aborted_.empty(); }
    // Whether the run plans are in use: runs held back, or a stretch being repeated (RunReplayer::drop_plans).
    bool holds_plans() const { return !held_.empty() || mode_ == Mode::skip; }
    // The plans are about to be dropped: a recording (whose log would need them again) is given up, the stretch
    // kept for a resume forgotten.
    void forget_plans() {
        if (mode_ == Mode::record) give_up();
        kept_ = Stretch{};
        loop_.plans.clear();
    }
    void aborting(bool on) { aborting_ = on; }

private:
    enum class Mode : uint8_t { off, wait, record, skip };
    struct Stretch {
        std::vector<const trace::RunShape*> shapes;  // its runs
        std::vector<const RunPlan*> plans;           // their plans (alone)
        std::vector<uint64_t> words;                 // the values the timing reads, run after run
        uint64_t instructions = 0, records = 0;
        EventBatch events;                           // what it added to the PMU's batches (cycles included)
        uint64_t fast_runs = 0, grouped_runs = 0, timed_blocks = 0, timed_through = 0;
        timing::TimingModel::LoopMarks from, to;     // the timing model's counts before and after
        // The register file after it: per register written, the run that writes it last and where its value lies.
        std::vector<std::tuple<uint8_t, uint32_t, uint32_t>> live_out;
        // Its data addresses moved on (TimingModel::shift_invariant): how far the state's addresses moved from its
        // start to its end (each repeat moves them as far again), or `free` where the state holds none (each
        // repeat may then lie anywhere, the distance its first address gives).
        uint64_t shift = 0;
        bool free = false;
        // Where it starts: its anchor and the state there (Point::state, addrs), to take it again at once
        // (resume) when the anchor meets that state again.
        uint32_t anchor = 0;
        std::vector<uint64_t> from_state, from_addrs;
    };
    // A checkpoint while recording: the anchor met, the state then and where the recording was.
    struct Point {
        std::vector<uint64_t> state;  // the timing model's words (and the privilege)
        std::vector<uint64_t> addrs;  // the data addresses it holds (TimingModel::loop_state)
        timing::TimingModel::LoopMarks marks;
        size_t runs = 0, words = 0;   // the log's length
        uint64_t instructions = 0;    // Result::instructions
        EventBatch events;            // everything flushed since the recording started
        uint64_t fast_runs = 0, grouped_runs = 0, timed_blocks = 0, timed_through = 0;  // the Result's
    };

    size_t unit_other(const trace::Run* runs, size_t n);
    size_t unit_recording(const trace::Run* runs, size_t n, uint32_t id);
    const Point* find_start(const trace::Run& anchor, uint64_t& shift);
    size_t skip(const trace::Run* runs, size_t n);
    bool words(const RunPlan& p, const unsigned char* v, std::vector<uint64_t>& out) const;
    void give_up();
    size_t sparse_unarmed();
    bool point(bool first);
    void take(const Point& from);
    bool shifted(const std::vector<uint64_t>& from, const std::vector<uint64_t>& to, uint64_t& shift) const;
    bool shifted_run(const unsigned char* v, const RunPlan& p, const uint64_t* w, uint64_t& shift, bool& set) const;
    bool anchor_fits(const trace::Run& r, const uint64_t* w, size_t n, uint64_t shift, bool free);
    bool resume(const trace::Run* runs);
    bool free_here() const { return points_.back().addrs.empty() && c_.tm->shift_invariant(); }
    void enter(uint64_t shift);
    size_t anchor_at(const trace::Run* runs, size_t n, uint64_t sparse_gap = 0);
    void pin();
    void release();
    void repeat();
    void set_tap(bool on) { s_.tap = on; }

    Session& s_;
    Core& c_;
    RunPlanner& plans_;
    StretchPolicy policy_;
    Mode mode_ = Mode::off;
    Stretch loop_;                   // skip: the stretch repeated
    bool armed_ = false;             // record: loop_ started at the anchor (else waiting for it)
    std::vector<Point> points_;      // record: the last checkpoints, oldest first
    std::vector<const trace::RunShape*> log_shapes_;  // record: the runs since the oldest checkpoint
    std::vector<uint64_t> log_words_;                 // and their words
    uint64_t repeats_ = 0;           // skip: times the stretch repeated since it was taken
    size_t at_ = 0, word_at_ = 0;    // skip: runs of the stretch matched, and their words
    Stretch kept_;                   // the last stretch that repeated (resume; none: no runs)
    bool aborting_ = false;          // the caller times the runs held back
    uint64_t shift_ = 0;             // skip: how far this repeat's data addresses lie from the stretch's
    bool shift_set_ = true;          // and whether that is known yet (Stretch::free: at its first address)
    std::vector<trace::Run> held_;   // skip: the runs held back (their values in the reader's buffer, or pinned)
    size_t pinned_ = 0;              // of those, the first not pinned
    std::vector<std::unique_ptr<unsigned char[]>> chunks_;  // the pinned values
    std::vector<trace::Run> aborted_;                       // held back, then found to differ (aborted())
    std::vector<std::unique_ptr<unsigned char[]>> aborted_chunks_;
};

}  // namespace pmusim::replay
