// When to look for stretches that repeat (docs/performance.md, "Stretches that repeat"): which run is the anchor,
// how long to wait for it, when to give it up and how long to back off. Pure bookkeeping over shape numbers and
// instruction counts, apart from the mechanism that records, compares and repeats stretches (replay/stretches.hpp),
// which asks it at each decision; tests/unit/test_stretch_policy.cpp tests it alone.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pmusim::replay {

class StretchPolicy {
public:
    static constexpr uint64_t min_instructions = 1024;   // instructions a stretch holds at least
    static constexpr size_t max_runs = size_t{1} << 16;  // runs a stretch holds at most (a bound on memory)
    static constexpr uint64_t patience = uint64_t{1} << 14;  // instructions without the anchor before another is chosen
    static constexpr unsigned heat = 16;    // executions of a run's shape before it may be an anchor
    static constexpr unsigned tries = 16;   // stretches recorded with one anchor (anchors tried) before another (a wait)
    static constexpr size_t period = 16;    // checkpoints kept: a stretch may span up to this many
    static constexpr size_t walk_reach = 4; // and one with its addresses moved up to this many
    // Sparse anchors: checkpoints without a stretch before giving one up, and instructions without one after that.
    static constexpr unsigned sparse_tries = 2;
    static constexpr uint64_t sparse_backoff0 = uint64_t{1} << 20;
    static constexpr uint64_t max_backoff = uint64_t{1} << 24, max_sparse_backoff = uint64_t{1} << 32;

    uint32_t anchor() const { return anchor_; }
    uint64_t sparse_gap() const { return sparse_gap_; }  // the anchor's gap where it is a sparse one (else 0)
    uint64_t gap(uint32_t id) const { return seen_[id].gap; }  // after sparse_anchor(id)

    // While waiting for an anchor: whether run `id`, met at `instructions`, becomes it. An anchor whose stretches
    // repeated before is taken again at once; another once it is hot, not while backing off, and never one that
    // differed from its stretch's start twice.
    bool hot_anchor(uint32_t id, uint64_t instructions) { return hot(seen(id), id, instructions); }
    // Sparse anchors: a run met again after exactly as many instructions as the time before, more than `patience`
    // (the head of an outer loop whose iterations are alike, the start of a program traced again and again), where
    // the stretches of other anchors repeated less than half of that gap (`repeated`: instructions repeated so far).
    // It becomes the anchor at once, its stretch one gap long. `recording`: a recording is under way (one sparse
    // anchor at a time). Called at every unit while waiting or recording: it follows every shape's meetings.
    bool sparse_anchor(uint32_t id, uint64_t instructions, uint64_t repeated, bool recording) {
        return sparse(seen(id), id, instructions, repeated, recording);
    }
    // While waiting, at every unit: sparse_anchor(id, instructions, repeated, false), else hot_anchor(id,
    // instructions), from one look at the shape's entry (the run replayer's path from one unit to the next).
    enum class Wait : uint8_t { none, sparse, hot };
    Wait waiting(uint32_t id, uint64_t instructions, uint64_t repeated) {
        Seen& s = seen(id);
        if (sparse(s, id, instructions, repeated, false)) return Wait::sparse;
        return hot(s, id, instructions) ? Wait::hot : Wait::none;
    }
    // Run `id` is the anchor from now (`sparse_gap`: its gap where it is a sparse one).
    void anchored(uint32_t id, uint64_t sparse_gap, uint64_t instructions);
    // The anchor met again.
    void met(uint64_t instructions) { met_ = instructions; }
    // A checkpoint is due (the anchor met `instructions` in, the last checkpoint at `last`).
    static bool checkpoint_due(uint64_t instructions, uint64_t last) { return instructions - last >= min_instructions; }
    // Checkpoint `j` of `points` (oldest first) may start a stretch whose addresses moved.
    static bool within_walk_reach(size_t j, size_t points) { return j + 1 + walk_reach >= points; }

    // While recording, run `id`, not the anchor, met: `keep` the anchor; `switch_to` this one (a loop that has ended
    // while another whose stretches repeated runs: that one's run, once the anchor has not been met for a
    // stretch's length; a sparse anchor keeps its turn); the anchor is `lost` (not met again for long: a loop that
    // has ended), the caller then calls lost().
    enum class Other { keep, switch_to, lost };
    Other other_run(uint32_t id, uint64_t instructions) const;
    // The anchor lost: true where the caller gives up for a while (give_up()).
    bool lost(uint64_t instructions) {
        sparse_failed(instructions);
        return next_anchor();
    }
    // Another stretch (or checkpoint) tried with this anchor and failed: true where it has tried enough.
    bool tried() { return ++tried_ >= (sparse_gap_ ? sparse_tries : tries); }
    // Another anchor to be chosen: true where too many were tried since a stretch last repeated (give_up()).
    bool next_anchor() { return ++anchors_ >= tries; }
    // No anchor for a while (after too many tries, or a stretch too long): the wait doubles each time, up to
    // max_backoff.
    void give_up(uint64_t instructions);
    // A sparse anchor given up (no stretch found, or its stretch differed at once): none for a while, the wait
    // doubling each time up to max_sparse_backoff. Nothing where the anchor is not a sparse one.
    void sparse_failed(uint64_t instructions);
    // A sparse anchor met where the model's state cannot be put in words: never a sparse anchor again.
    void sparse_unarmed();
    // The stretch holds a run not replayable from its values. A sparse anchor's stretch would hold such a run each
    // time, and so would any other anchor's with the same gap: none again (true: the anchor was a sparse one).
    bool sparse_hopeless(uint64_t instructions);
    // The stretch repeated: its anchor is a good one, and the waits start again from the shortest.
    void repeated();
    // The stretch differed at once (the anchor itself, or before it repeated): a bad anchor (after two such, never
    // an anchor again). True where the caller gives up for a while.
    bool differed(uint64_t instructions);

private:
    bool good(uint32_t id) const { return id < good_.size() && good_[id]; }
    bool bad(uint32_t id) const { return id < bad_.size() && bad_[id] >= 2; }

    uint32_t anchor_ = 0;        // its first run's shape
    uint64_t met_ = 0;           // instructions when the anchor was last met
    unsigned tried_ = 0;         // stretches recorded (or starts failed) with this anchor
    unsigned anchors_ = 0;       // anchors tried since the last stretch that repeated, or the last wait
    uint64_t wait_until_ = 0, backoff_ = min_instructions;  // no anchor before this many instructions
    std::vector<uint8_t> bad_;    // per shape: times it was the anchor and differed from the stretch's start
    std::vector<uint8_t> good_;   // per shape: an anchor whose stretch repeated
    struct Seen {               // per shape, at the start of a unit (sparse_anchor)
        uint64_t last = 0;      // instructions + 1 when last met (0: never)
        uint64_t gap = 0;       // the instructions between that meeting and the one before
        uint64_t repeated = 0;  // instructions repeated when last met
        bool unarmed = false;   // met as a sparse anchor where no checkpoint could be taken
        uint32_t heat = 0;      // executions (while waiting: hot_anchor)
    };
    std::vector<Seen> seen_;
    Seen& seen(uint32_t id) {
        if (id >= seen_.size()) seen_.resize(id + 1);
        return seen_[id];
    }
    bool hot(Seen& e, uint32_t id, uint64_t instructions) {
        if (good(id)) return true;
        return ++e.heat >= heat && instructions >= wait_until_ && !bad(id);
    }
    // sparse_anchor() on the shape's entry: its meeting noted, the rarer checks out of line (sparse_allowed).
    bool sparse(Seen& e, uint32_t id, uint64_t instructions, uint64_t repeated, bool recording) {
        const uint64_t at = instructions + 1;
        const uint64_t gap = e.last ? at - e.last : 0;
        const bool again = gap > patience && gap == e.gap;
        // Where the inner stretches repeated most of the gap already, they are kept (one anchor at a time).
        const uint64_t inner = repeated - e.repeated;
        e.last = at;
        e.gap = gap;
        e.repeated = repeated;
        if (!again || inner * 2 > gap || instructions < sparse_until_) return false;
        return sparse_allowed(e, id, gap, recording);
    }
    bool sparse_allowed(const Seen& e, uint32_t id, uint64_t gap, bool recording) const;
    uint64_t sparse_gap_ = 0;
    uint64_t sparse_until_ = 0, sparse_backoff_ = sparse_backoff0;  // no sparse anchor before this
    std::vector<uint64_t> hopeless_;  // gaps whose stretches hold a run not replayable from values
};

}  // namespace pmusim::replay
