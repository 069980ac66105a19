// The session: what the replay hands to the PMU and reports. Retired instructions and the timing's events gather in
// a batch that goes to the PMU at a flush (every 4096 instructions, at a register access, a region boundary, a
// sample point); the time series, regions, read-backs, notes and the Result are kept here.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/core/zeroed_table.hpp"
#include "replay/block.hpp"
#include "replay/producer.hpp"
#include "replay/replay.hpp"
#include "replay/retire_histogram.hpp"
#include "replay/roi.hpp"

namespace pmusim::replay {

class Session {
public:
    // Throws std::invalid_argument for a bad --events list.
    Session(const Options& o, const Platform& p);

    const Options& o;
    const Platform& p;
    Pmu* pmu = nullptr;
    Result r;
    EventBatch batch;       // since the last flush
    RetireHistogram hist;   // retired instructions since the last flush, by kind
    uint64_t pending = 0;   // instructions in the batch
    uint64_t total_cycles = 0;
    uint64_t next_sample = 0;  // the next sample point (cycles); all ones without sampling
    uint64_t next_interval = 0;  // --interval-unit cycles: the next point's cycle
    Producer producer;           // what wrote the trace (its read-backs' meaning)
    RoiTracker roi;
    // With `tap` set, every flushed batch is also added to `tapped` (a stretch being recorded: replay/stretches.hpp).
    bool tap = false;
    EventBatch tapped;

    // `k` instructions of a block retired in `cycles`: the batch ends when it is long.
    void retired(size_t k, uint64_t cycles) {
        batch.cycles += cycles;
        r.instructions += k;
        pending += k;
        if (pending >= 4096) flush();
    }
    // A block's executions to retire at the next flush (per kind times the executions: BlockExecs).
    void count_execs(BlockExecs& e) {
        if (e.listed) return;
        e.listed = true;
        counted_.push_back(&e);
    }
    // A fast run's executions likewise (without the timing model: RunReplayer::replay_units_arch).
    void count_run(RunExecs& e) {
        if (e.listed) return;
        e.listed = true;
        counted_runs_.push_back(&e);
    }
    // The batch to the PMU.
    void flush();
    // The fast runs' blocks executed since the last flush, retired now (before their plans are dropped).
    void drain_execs();
    // The PMU (or, under SystemC, the module through its hook) takes a batch.
    void advance(const EventBatch& b) {
        if (o.advance_hook) o.advance_hook(b);
        else pmu->advance(b);
    }
    // A point of the time series, with the PMU up to date.
    void interval_point();
    // Whether the time series takes a point after this instruction (Options::interval, interval_cycles).
    bool interval_due() {
        if (!o.interval || !o.on_interval) return false;
        if (!o.interval_cycles) return r.instructions % o.interval == 0;
        const uint64_t now = total_cycles + batch.cycles;
        if (now < next_interval) return false;
        next_interval = (now / o.interval + 1) * o.interval;
        return true;
    }
    // A read-back: the value the trace shows in the destination register against the predicted read.
    void readback(const TraceRecord& rec, uint64_t traced, uint64_t predicted, const std::string& reg);
    // The end of the trace: the last batch, the series' last point, the notes and the Result's counts. `slept`:
    // cycles in VeeR EL2's pmu/fw-halt; `mem_seen`, `irq_seen`: the trace carried data addresses, interrupts.
    Result finish(const trace::TraceReader& reader, const timing::TimingModel* tm, uint64_t slept, bool mem_seen, bool irq_seen);

private:
    void select_events();
    void readback_notes();
    void collect(const trace::TraceReader& reader, const timing::TimingModel* tm, uint64_t slept, bool mem_seen, bool irq_seen);

    std::unique_ptr<Pmu> owned_;
    ZeroedTable<uint64_t> totals_;         // by event number (16 bits)
    std::vector<uint32_t> series_events_;  // the time series' events
    std::optional<std::pair<uint64_t, uint64_t>> last_point_;  // instructions and cycles of the last point
    std::vector<BlockExecs*> counted_;     // blocks of fast runs executed since the last flush
    std::vector<RunExecs*> counted_runs_;  // fast runs executed since the last flush (count_run)
};

}  // namespace pmusim::replay
