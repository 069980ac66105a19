// The block engine on a file that stores runs (native format version 2, traces/runs.hpp): a run whose plan is fast
// (replay/run_plan.hpp) is replayed from its values alone, without a record per instruction, a few runs at a time
// where each would be (the block that ends one and the one that starts the next timed as one); any other (a register
// access, a trap, an interrupt, an unaligned access, another privilege) is expanded into records for the block
// runner. With the timing model, stretches of runs that repeat are added again as a whole (replay/stretches.hpp).
// Exactly what the record stepper does with the same records (tests/unit/test_replay_engines.cpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "replay/arch_shapes.hpp"
#include "replay/block_runner.hpp"
#include "replay/core.hpp"
#include "replay/run_plan.hpp"
#include "replay/session.hpp"
#include "replay/stepper.hpp"
#include "replay/stretches.hpp"

namespace pmusim::replay {

class RunReplayer {
public:
    RunReplayer(Session& s, Core& c, RecordStepper& stepper, BlockRunner& blocks)
        : s_(s), c_(c), stepper_(stepper), blocks_(blocks), plans_(c, blocks), stretches_(s, c, plans_) {}

    // Every run of `reader`. A run waits for the next (its successor's PC); its values are copied when it waits
    // across two calls of the reader.
    template <bool kTm, Timing kT>
    void run(trace::TraceReader& reader);

private:
    // runs[0..n-1), each with its successor after it (runs[n - 1] only a successor).
    template <bool kTm, Timing kT>
    void replay_units(const trace::Run* runs, size_t n);
    // --architectural --timing cpi1 (no timing model): replay_units' loop with a fast run's retirement from its
    // shape's entry in arch_ (its plan's summary, RunPlan::Arch) instead of replay_fast's walk over its segments; the
    // same counts.
    void replay_units_arch(const trace::Run* runs, size_t n) {
        ArrayWalk w{runs, runs + n - 1};
        if (n) walk_arch(w);
    }
    // Runs walked by --architectural: the current run (shape(), values()) and, where successor() found one in hand,
    // its successor (next_shape(), next_values()); advance() makes the successor current. ArrayWalk: an array of
    // runs (the reader's next_runs()); SpanWalk: the runs in the reader's buffer, walked in place (run_span()).
    struct ArrayWalk {
        const trace::Run* run;
        const trace::Run* last;  // only a successor
        bool successor() const { return run != last; }
        const trace::RunShape* shape() const { return run->shape; }
        const unsigned char* values() const { return run->values; }
        const trace::RunShape* next_shape() const { return run[1].shape; }
        const unsigned char* next_values() const { return run[1].values; }
        uint32_t next_id() const { return run[1].shape->id; }
        void advance() { ++run; }
    };
    struct SpanWalk {
        uint32_t cur;            // the current run's shape number
        const unsigned char* v;  // its values
        const unsigned char* p;  // the successor's tag
        const unsigned char* safe;  // TraceReader::RunSpan::safe: the walk ends there (next_runs() reads the rest)
        const trace::RunShape* const* shapes;
        const uint64_t* steps;
        uint32_t n_shapes;
        uint32_t tag = 0;  // the successor's, where successor() found one
        // A run of a shape defined (not a shape's definition, not a corrupt tag: the reader's next_runs() reads
        // those and raises its errors) starting before `safe`, so whole in the buffer.
        bool successor() {
            if (p >= safe) return false;
            tag = static_cast<uint32_t>(trace::run_value(p, 0, 4));
            return tag < n_shapes;
        }
        const trace::RunShape* shape() const { return shapes[cur]; }
        const unsigned char* values() const { return v; }
        const trace::RunShape* next_shape() const { return shapes[tag]; }
        const unsigned char* next_values() const { return p + 4; }
        uint32_t next_id() const { return tag; }  // a shape's number is its tag
        void advance() {
            cur = tag;
            v = p + 4;
            p += static_cast<uint32_t>(steps[tag]);
        }
    };
    // Every run of `w` that has a successor in hand: retired fast (retire_fast) or through replay_run.
    template <class W>
    void walk_arch(W& w);
    // From w's current run on, the runs that replay fast (each with its successor): retired; w stops at the first
    // that does not or has no successor in hand.
    template <class W>
    void retire_fast(W& w);
    // The entries of the run of `shape` with values `v` and of its successor `next` filled (a shape met for the
    // first time, a plan not made yet): the run's, where it replays fast; else nullptr (also where a plan would be
    // made past RunPlanner::max_plans).
    const ArchShape* arch_fill(const trace::RunShape& shape, const unsigned char* v, const trace::RunShape& next);
    // Whether a run of plan `p` with values `v`, its successor `next` (none at the end), replays from its values:
    // a fast plan at the current privilege, every access aligned, no interrupt taken before the successor.
    bool runs_fast(const RunPlan& p, const unsigned char* v, const trace::RunShape* next) const {
        return p.fast && next && !first_interrupt(*next) && p.privilege == c_.priv && p.aligned(v);
    }
    // The runs the stretches held back and found to differ, timed as usual.
    template <bool kTm, Timing kT>
    void replay_aborted();
    // One execution of shape `s` with its values; `next` is its successor's shape (none at the end of the trace).
    // A run an interrupt entry follows is replayed record by record (its last record's step is told).
    template <bool kTm, Timing kT>
    void replay_run(const trace::RunShape& s, const unsigned char* v, const trace::RunShape* next,
                    const unsigned char* next_v = nullptr);
    // Up to RunPlanner::max_group runs from runs[0] (`n` at hand: the last is only a successor) as one fast plan,
    // when each would replay from its values: how many it took, their records counted (0: none, nothing done).
    template <bool kTm, Timing kT>
    size_t replay_group(const trace::Run* runs, size_t n);
    // The values of runs[0..used) as a group plan lays them out (RunPlanner::seam between runs; `bytes` in all):
    // in place where the reader holds them so (the usual case: runs read from one buffer, a tag before each),
    // else copied into group_values_.
    const unsigned char* group_values(const trace::Run* runs, size_t used, size_t bytes) {
        bool in_place = true;
        for (size_t k = 0; k + 1 < used; ++k) in_place &= runs[k].values + runs[k].shape->value_bytes + RunPlanner::seam == runs[k + 1].values;
        if (in_place) return runs[0].values;
        if (group_values_.size() < bytes) group_values_.resize(bytes);
        for (size_t k = 0, at = 0; k < used; at += runs[k].shape->value_bytes + RunPlanner::seam, ++k)
            std::memcpy(group_values_.data() + at, runs[k].values, runs[k].shape->value_bytes);
        return group_values_.data();
    }
    // A run of a fast plan: per block, its body timed from the recording (or stepped), its last record stepped, its
    // retirement added per kind; the register file's live-outs at the end.
    template <bool kTm, Timing kT>
    void replay_fast(RunPlan& p, const unsigned char* v, uint64_t next_pc);
    // replay_fast's segment without a recording (out of line: the recorded path stays lean), stepped record by
    // record (a branch before the last falls through); `last_mem` the last record's accesses.
    [[gnu::noinline]] uint64_t step_segment(const RunPlan& p, const RunPlan::Segment& seg, const unsigned char* v,
                                           const isa::RetiredInsn& last_insn, uint64_t after, const timing::MemRef* last_mem) {
        const Block& b = *seg.block;
        const size_t n = b.size();
        const TraceRecord* recs = p.protos.data() + seg.first;
        const TraceRecord& last = recs[n - 1];
        uint64_t cycles = 0;
        size_t at = 0;
        const auto* div = seg.divs.data();
        const auto* divs_end = seg.divs.data() + seg.divs.size();
        for (size_t k = 0; k + 1 < n; at += recs[k].n_mem, ++k) {
            const TraceRecord& r = recs[k];
            timing::MemRef mem[TraceRecord::max_mem];
            gather(seg.body_mem.data() + at, r.n_mem, v, p.width, mem);
            const timing::StepInputs in = div != divs_end && div->record == k ? div_operands(*div++, v, p.width) : timing::StepInputs{};
            cycles += stepper_.step_raw(b.insns[k], r.pc, r.size, recs[k + 1].pc, mem, r.n_mem, in);
        }
        const timing::StepInputs in = div != divs_end ? div_operands(*div, v, p.width) : timing::StepInputs{};
        return cycles + stepper_.step_raw(last_insn, last.pc, last.size, after, last_mem, static_cast<unsigned>(seg.last_mem.size()), in);
    }
    // What a fast run leaves besides its timing: the last record's time and the register file's live-outs.
    // Every plan dropped (RunPlanner::max_plans) where nothing refers to one: no stretch being repeated (its runs
    // held back), no recording of one (given up); the blocks' executions retired first.
    void drop_plans() {
        if (!plans_.over_budget() || stretches_.holds_plans()) return;
        stretches_.forget_plans();
        s_.drain_execs();
        plans_.drop_all();
        arch_.forget_plans();
    }
    void settle(const RunPlan& p, const unsigned char* v) {
        c_.prev_time = last_time(p, v);
        for (const auto& [g, off] : p.live_out) c_.gpr[g] = trace::run_value(v, off, p.width);
    }
    // The data accesses `slots[0..n)` of a fast run with values `v` (of `width` bytes) into `out`.
    static void gather(const RunPlan::Slot* slots, size_t n, const unsigned char* v, unsigned width, timing::MemRef* out) {
        for (size_t a = 0; a < n; ++a) out[a] = timing::MemRef{trace::run_value(v, slots[a].off, width), slots[a].write, slots[a].size};
    }
    // A division of a fast run: its operands for the timing model.
    timing::StepInputs div_operands(const RunPlan::Segment::Div& d, const unsigned char* v, unsigned width) const {
        uint64_t x[2];
        for (unsigned o = 0; o < 2; ++o) x[o] = d.off[o] == trace::ValueOffsets::none ? c_.gpr[d.reg[o]] : trace::run_value(v, d.off[o], width);
        timing::StepInputs in;
        in.div_a = static_cast<uint32_t>(x[0]);
        in.div_b = static_cast<uint32_t>(x[1]);
        in.div_rem = d.rem;
        in.div_known = c_.reader->has_register_values();
        return in;
    }

    Session& s_;
    Core& c_;
    RecordStepper& stepper_;
    BlockRunner& blocks_;
    RunPlanner plans_;
    Stretches stretches_;
    ArchShapes arch_;  // replay_units_arch's table by shape
    std::vector<unsigned char> group_values_;  // replay_group: the runs' values laid out as in a group plan
    std::vector<TraceRecord> run_recs_;        // a run expanded into records, and its successor
    // A block body's data accesses for the block timing (kept: a MemRef array on the stack is built per call).
    std::vector<timing::MemRef> body_mem_ = std::vector<timing::MemRef>(Block::max * TraceRecord::max_mem);
};

template <bool kTm, Timing kT>
void RunReplayer::run(trace::TraceReader& reader) {
    const Options& o = c_.o;
    Result& r = s_.r;
    const trace::Run* runs = nullptr;
    const trace::RunShape* held = nullptr;
    std::vector<unsigned char> held_values;
    if (kTm && o.repeat_stretches && kT != Timing::trace) stretches_.start();
    for (size_t n; (n = reader.next_runs(runs)) != 0;) {
        if constexpr (!kTm && kT == Timing::cpi1) arch_.cover(reader.run_shapes());  // retire_fast's table
        const uint64_t before = r.records;
        drop_plans();
        if (held) {
            const trace::Run unit[2] = {{held, held_values.data()}, runs[0]};
            replay_units<kTm, kT>(unit, 2);
        }
        replay_units<kTm, kT>(runs, n);
        held = runs[n - 1].shape;
        const unsigned char* held_v = runs[n - 1].values;
        if constexpr (!kTm && kT == Timing::cpi1) {  // then the runs after it in the reader's buffer, in place
            const trace::TraceReader::RunSpan sp = reader.run_span();
            SpanWalk w{held->id, held_v, sp.at, sp.safe, sp.shapes, sp.steps, sp.n_shapes};
            // The runs made current: those retired (their records counted) but the first, and the last.
            const uint64_t retired0 = r.records;
            walk_arch(w);
            const trace::RunShape* now = w.shape();
            reader.take_runs(w.p, r.records - retired0 - held->records + now->records);
            held = now;
            held_v = w.v;
        }
        held_values.assign(held_v, held_v + held->value_bytes);
        if (o.on_progress && (before >> 18) != (r.records >> 18)) o.on_progress(Progress{r.records, reader.bytes_read(), false});
        if (o.stop && *o.stop) break;  // Ctrl-C: every record read is replayed, no more are read
    }
    if (o.stop && *o.stop) r.interrupted = true;
    r.run_plans_peak = plans_.peak();
    if (held) {
        if constexpr (kTm) {  // runs held back as a stretch's first runs: timed now
            stretches_.abort(held);
            replay_aborted<kTm, kT>();
        }
        replay_run<kTm, kT>(*held, held_values.data(), nullptr);
        r.records += held->records;
    }
}

template <class W>
void RunReplayer::walk_arch(W& w) {
    for (;;) {
        retire_fast(w);
        if (!w.successor()) return;
        // arch_fill makes no plan past the budget: the plans are dropped here, where nothing refers to one, and the
        // run tried again (a walk over the reader's buffer takes thousands of runs between next_runs() calls).
        if (plans_.over_budget()) {
            drop_plans();
            if (!plans_.over_budget()) continue;
        }
        replay_run<false, Timing::cpi1>(*w.shape(), w.values(), w.next_shape(), w.next_values());
        s_.r.records += w.shape()->records;
        w.advance();
    }
}

// The session's and the core's counts are kept in locals while runs are fast (the stores through the runs' counters
// would otherwise make every one of them a load and a store per run), and written back before anything else reads
// them: at a flush and at the end. A fast run adds its records to each of them alike (`added`); the core's time is
// read only after the call (by the general path), so only the last fast run's settles it.
template <class W>
void RunReplayer::retire_fast(W& walk) {
    W w = walk;  // in registers (the session's calls could otherwise change it, for all the compiler knows)
    Result& r = s_.r;
    const ArchShape* tab = arch_.data();  // an entry for every shape of the runs (ArchShapes::cover)
    uint64_t added = 0, fast = 0;
    uint64_t room = 4096 - s_.pending;  // Session::retired() flushes at 4096 pending, so pending is below it here
    const unsigned priv = c_.priv;
    bool settled = true;  // by the last fast run (none: nothing to reset)
    auto store = [&] {
        s_.pending += added;
        r.instructions += added;
        s_.batch.cycles += added;
        r.records += added;
        added = 0;
    };
    const ArchShape* e = tab + w.shape()->id;  // the current run's; then its successor's
    while (w.successor()) {
        const ArchShape* next = tab + w.next_id();
        const unsigned char* v = w.values();
        // As runs_fast(): a fast plan at the current privilege, every access aligned, no interrupt taken before
        // the successor; in one test where the gate is open (ArchShape::open_at). An entry not filled yet fails:
        // filled here, and tested again.
        if ((static_cast<unsigned>(next->stop_before) | (e->open_at ^ priv)) != 0 &&
            (next->stop_before || e->privilege != priv || !e->passes(v))) {
            e = arch_fill(*w.shape(), v, *w.next_shape());
            if (!e) break;
            tab = arch_.data();
            next = tab + w.next_id();
        }
        // As Session::count_run() and retired().
        ++*e->counted(next->first_pc);
        RunExecs& x = *e->execs;
        if (!x.listed) s_.count_run(x);
        added += e->records;
        settled = e->settles;
        if (settled) settle(*e->plan, v);
        if (added >= room) {
            store();
            s_.flush();
            room = 4096 - s_.pending;
        }
        ++fast;
        e = next;
        w.advance();
    }
    walk = w;
    store();
    r.fast_runs += fast;
    // The last fast run's time: last_time() is 0 without one (settle() set it with one).
    if (!settled) c_.prev_time = 0;
}

inline const ArchShape* RunReplayer::arch_fill(const trace::RunShape& shape, const unsigned char* v, const trace::RunShape& next) {
    if (arch_.at(next).stop_before) return nullptr;  // an interrupt: not fast
    ArchShape& e = arch_.at(shape);
    if (e.gate == ArchShape::unplanned) {
        if (plans_.over_budget()) return nullptr;  // walk_arch drops the plans first
        RunPlan& p = plans_.plan(shape, v);
        ArchShapes::plan(e, p);
        // The run is replayed, fast or not: its accesses are seen (as replay_fast's mem_seen).
        c_.mem_seen |= p.mem;
    }
    return e.privilege == c_.priv && e.passes(v) ? &e : nullptr;
}

template <bool kTm, Timing kT>
void RunReplayer::replay_units(const trace::Run* runs, size_t n) {
    if constexpr (!kTm && kT == Timing::cpi1) return replay_units_arch(runs, n);
    Result& r = s_.r;
    for (size_t i = 0; i + 1 < n; ++i) {
        if constexpr (kTm) {
            if (stretches_.on()) {
                const size_t k = stretches_.unit(runs + i, n - i);
                if (stretches_.has_aborted()) replay_aborted<kTm, kT>();
                if (k) {
                    i += k - 1;
                    continue;
                }
            }
        }
        const uint64_t fast0 = r.fast_runs;
        size_t k = kTm ? replay_group<kTm, kT>(runs + i, n - i) : 0;
        if (k == 0) {
            replay_run<kTm, kT>(*runs[i].shape, runs[i].values, runs[i + 1].shape, runs[i + 1].values);
            r.records += runs[i].shape->records;
            k = 1;
        }
        if constexpr (kTm) {
            if (stretches_.logging()) stretches_.log(runs + i, k, r.fast_runs - fast0 == k);
        }
        i += k - 1;
    }
}

template <bool kTm, Timing kT>
void RunReplayer::replay_aborted() {
    std::vector<std::unique_ptr<unsigned char[]>> chunks;  // the held runs' values while others may be held back
    std::vector<trace::Run> runs = stretches_.aborted(chunks);
    if (runs.empty()) return;
    stretches_.aborting(true);
    replay_units<kTm, kT>(runs.data(), runs.size());
    stretches_.aborting(false);
}

template <bool kTm, Timing kT>
void RunReplayer::replay_run(const trace::RunShape& s, const unsigned char* v, const trace::RunShape* next,
                             const unsigned char* next_v) {
    RunPlan& p = plans_.plan(s, v);
    if (runs_fast(p, v, next)) {
        ++s_.r.fast_runs;
        replay_fast<kTm, kT>(p, v, first_pc(*next));
        return;
    }
    const size_t n = s.records;
    if (run_recs_.size() < n + 1) run_recs_.resize(trace::RunShape::max + 1);
    s.expand(v, run_recs_.data());
    if (next) {
        // The successor: its PC and interrupt are all a record's step reads of it, but for an interrupt entry's
        // write of mepc (RecordStepper::model_cycles): an entry is expanded whole.
        const bool next_interrupt = first_interrupt(*next);
        if (next_interrupt && next_v) {
            next->record(next_v, 0, 0, run_recs_[n]);
        } else {
            run_recs_[n].pc = first_pc(*next);
            run_recs_[n].interrupt = next_interrupt;
        }
        blocks_.replay_records<kTm, kT>(run_recs_.data(), n);
    } else {
        blocks_.replay_records<kTm, kT>(run_recs_.data(), n - 1);
        stepper_.step(run_recs_[n - 1], nullptr);
    }
}

template <bool kTm, Timing kT>
size_t RunReplayer::replay_group(const trace::Run* runs, size_t n) {
    RunPlan* p = &plans_.plan(*runs[0].shape, runs[0].values);
    if (!p->fast || p->privilege != c_.priv) return 0;
    size_t used = 1;
    for (; used < RunPlanner::max_group && used + 1 < n; ++used) {
        RunPlan* e = plans_.group(*p, *runs[used].shape, runs[used].values);
        if (!e || !e->fast || e->privilege != c_.priv) break;
        p = e;
    }
    const trace::RunShape& next = *runs[used].shape;
    if (used < 2 || first_interrupt(next)) return 0;
    const unsigned char* v = group_values(runs, used, p->value_bytes);
    if (!p->aligned(v)) return 0;
    s_.r.fast_runs += used;
    s_.r.grouped_runs += used;
    s_.r.records += p->arch.records;  // the group's runs' (plan_arch)
    replay_fast<kTm, kT>(*p, v, first_pc(next));
    return used;
}

// Exactly what BlockRunner::replay_records() does with the same records.
template <bool kTm, Timing kT>
void RunReplayer::replay_fast(RunPlan& p, const unsigned char* v, uint64_t next_pc) {
    c_.mem_seen |= p.mem;
    const size_t nsegs = p.segs.size();
    for (size_t g = 0; g < nsegs; ++g) {
        RunPlan::Segment& seg = p.segs[g];
        const Block& b = *seg.block;
        const size_t n = b.size();
        const TraceRecord* recs = p.protos.data() + seg.first;
        const TraceRecord& last = recs[n - 1];
        const uint64_t after = g + 1 < nsegs ? seg.after : next_pc;
        const bool taken = seg.last_taken(after);
        const isa::RetiredInsn& last_insn = seg.last_insn[taken];
        uint64_t cycles = 0;
        if constexpr (kTm) {
            timing::TimingModel& tm = *c_.tm;
            timing::MemRef last_mem[TraceRecord::max_mem];
            gather(seg.last_mem.data(), seg.last_mem.size(), v, p.width, last_mem);
            const auto n_last = static_cast<unsigned>(seg.last_mem.size());
            if (b.memo) {
                timing::MemRef* mem = body_mem_.data();
                gather(seg.body_mem.data(), seg.body_mem.size(), v, p.width, mem);
                const uint64_t replayed = b.memo->replayed;
                const uint8_t* n_mem = seg.body_n.data();
                if (b.memo->has_tail()) {
                    const timing::BlockTail tail{&last_insn, last.pc, last.size, after, last_mem, n_last};
                    cycles = tm.step_block(*b.memo, mem, n_mem, tail, s_.batch);
                } else {
                    cycles = tm.step_block(*b.memo, mem, n_mem, s_.batch);
                    // A division's operands: the last's (the body has none).
                    const timing::StepInputs in = seg.divs.empty() ? timing::StepInputs{} : div_operands(seg.divs.back(), v, p.width);
                    cycles += stepper_.step_raw(last_insn, last.pc, last.size, after, last_mem, n_last, in);
                }
                s_.r.timed_blocks += b.memo->replayed - replayed;
                if (seg.through) s_.r.timed_through += b.memo->replayed - replayed;
            } else {
                cycles = step_segment(p, seg, v, last_insn, after, last_mem);
            }
        }
        if constexpr (kT == Timing::trace) {
            cycles = 0;
            for (size_t k = 0; k < n; ++k) {
                const uint64_t t = trace::run_value(v, p.offs[seg.first + k].time, p.width);
                cycles += t - std::min(t, c_.prev_time);
                c_.prev_time = t;
            }
        }
        if constexpr (kT == Timing::cpi1) cycles = n;
        ++seg.execs.execs[taken];
        s_.count_execs(seg.execs);
        s_.retired(n, cycles);
    }
    if constexpr (kT != Timing::trace) settle(p, v);
    else
        for (const auto& [g, off] : p.live_out) c_.gpr[g] = trace::run_value(v, off, p.width);
}

}  // namespace pmusim::replay
