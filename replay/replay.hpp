// The replay engine: a trace through a platform's PMU (`pmusim run`). Reader -> decoder -> (timing) -> PMU ->
// Result; printing the result is testbench/report.hpp's.
#pragma once
#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "platforms/platform.hpp"
#include "platforms/producible_events.hpp"
#include "traces/reader.hpp"

namespace pmusim::replay {

// model: the platform's timing model; trace: the trace's timestamps; cpi1: one cycle per instruction (as QEMU
// and Spike count). The timing model's events (branch prediction, caches) are produced under all three.
enum class Timing { model, trace, cpi1 };
enum class Output { table, csv, json };
// block: decoded blocks replayed from batches of records (the default); reference: one record at a time, the
// simple stepper the block engine is tested against (tests/unit/test_replay_engines.cpp). Both give the same
// Result, bit for bit.
enum class Engine { block, reference };

// One point of the time series (--interval): the counts from the start of the trace to this instruction.
struct IntervalPoint {
    uint64_t instructions = 0;
    uint64_t cycles = 0;
    bool irq = false;                                         // the PMU's interrupt request at this point
    std::vector<std::pair<std::string, uint64_t>> counters;  // Pmu::counter_values()
    std::vector<std::pair<uint32_t, uint64_t>> events;       // every implemented event, as produced so far
};

// How far a replay has come: records, and bytes of the trace file read (0 when unknown).
struct Progress {
    uint64_t records = 0, bytes = 0;
    bool done = false;
};

// A region of interest (--roi; docs/cli.md "Regions of interest"). The whole trace is simulated; only the
// report's instructions, cycles and events are restricted to the region.
struct Region {
    std::string text;  // as the user gave it
    uint64_t start = 0, end = 0;
    // false: from each retirement of `start` up to, not including, the next retirement of `end`.
    // true: a function's extent: instructions whose PC lies in [start, end); entered at each retirement of start.
    bool extent = false;
};

struct Options {
    std::string platform;
    PlatformOptions platform_options;
    std::string trace;
    std::string format = "auto";
    Timing timing = Timing::model;
    Output output = Output::table;
    std::string separator = ",";      // --output csv / -x SEP: between the fields of a CSV line
    std::vector<std::string> events;  // --events: program counters on the user's behalf
    uint64_t interval = 0;            // --interval N: a point of the time series every N instructions
    bool interval_cycles = false;     // --interval-unit cycles: instead, at the first instruction boundary at or
                                      // past every multiple of N cycles
    bool cumulative = false;          // --interval-cumulative: the series' rows count from the start (else per
                                      // interval, as perf stat -I prints them)
    std::vector<Region> roi;          // --roi: count only inside these regions (their union)
    trace::ReaderOptions reader;
    // Called every 2^18 records and once at the end (done): the caller shows progress (no printing here).
    std::function<void(const Progress&)> on_progress;
    // Set (by a SIGINT handler) to stop early: the result holds the counts so far, marked interrupted.
    const volatile std::sig_atomic_t* stop = nullptr;
    Engine engine = Engine::block;
    // false: only the events retirement decides (instructions, branches, loads, ...). Under --timing cpi1 or
    // trace the timing model then does not run at all, and its events (caches, prediction, stalls) are listed
    // as not modelled. Under --timing model it must stay true (the model gives the cycles).
    bool timing_events = true;
    // Under SystemC: the module's PMU, and a hook that advances it (and SystemC time) instead of pmu.advance().
    Pmu* pmu = nullptr;
    std::function<AdvanceResult(const EventBatch&)> advance_hook;

    // Sample points (waveforms, docs/waveforms.md): with sample_period > 0 a batch ends at the first instruction
    // boundary at or after every multiple of sample_period cycles, so the PMU's state is exact there.
    uint64_t sample_period = 0;
    // The time series: called every `interval` retired instructions, after the PMU was brought up to date.
    std::function<void(const IntervalPoint&)> on_interval;
    bool keep_readbacks = false;  // Result::readbacks: every checked read-back, not only the mismatches
    // Test hook: the block engine's block timing (timing::TimingModel::step_block) also steps every block it
    // replays from a recording on a copy of the timing model and throws std::logic_error on any difference.
    bool check_block_timing = false;
    // The block engine with the timing model replays a stretch of runs that repeats from the state it left the
    // model in (docs/performance.md, "Stretches that repeat"): its events are added again instead of timed. Off:
    // every run is timed (the counts are the same).
    bool repeat_stretches = true;
};

struct Readback {
    uint64_t line = 0;
    std::string reg;
    uint64_t traced = 0, predicted = 0;
    // A trap is a fact of the trace too: which side trapped where the other did not (its value is then 0).
    enum class Trap : uint8_t { none, traced, predicted } trap = Trap::none;
    // What decides the traced value (docs/accuracy.md, "Read-backs"): the trace (an event count, the
    // instructions), or the clock of the program that wrote it (the cycle counter).
    enum class Basis : uint8_t { trace, clock } basis = Basis::trace;
};

// An event asked for with --events: as the user wrote it, and its number.
struct SelectedEvent {
    std::string text;
    uint32_t number = 0;
};

struct RegionCount {
    Region region;
    uint64_t entered = 0;
    bool open_at_end = false;  // the trace ended inside the region
};

struct Result {
    std::string format;
    uint64_t records = 0;
    uint64_t instructions = 0;  // retired, as the architecture counts them
    uint64_t cycles = 0;
    std::vector<std::pair<uint32_t, uint64_t>> event_totals;  // every implemented event the replay produces
    std::vector<uint32_t> not_modelled;                       // implemented events it does not produce
    std::vector<SelectedEvent> selected;                      // --events, in the user's order
    // With --roi: instructions, cycles and event_totals count the regions only; these the whole trace.
    std::vector<RegionCount> regions;
    uint64_t trace_instructions = 0, trace_cycles = 0;
    bool interrupted = false;  // stopped by Options::stop before the end of the trace
    std::vector<std::pair<std::string, uint64_t>> counters;
    uint64_t readbacks_checked = 0, readbacks_matched = 0;
    // Of those, the read-backs of the cycle counter: they depend on the producer's clock, which only
    // producer_timing reproduces (Readback::Basis::clock).
    uint64_t clock_readbacks = 0, clock_matched = 0;
    // Read-backs of counters the producer does not implement (Spike reads VeeR's mhpmcounters as 0): not compared.
    uint64_t uncounted_readbacks = 0;
    // What wrote the trace, as far as its format tells ("QEMU", "Spike", "the VeeR EL2 RTL", "a Tarmac producer",
    // or "the trace's producer"), and the timing that reproduces its clock.
    std::string producer;
    Timing producer_timing = Timing::cpi1;
    std::vector<Readback> mismatches;  // every one, in trace order
    std::vector<Readback> readbacks;   // every read-back checked, in trace order (Options::keep_readbacks)
    std::vector<std::string> notes;
    // Block bodies the block engine timed from a recording (timing::TimingModel::step_block) instead of stepping
    // them; 0 under the reference engine. Not part of the report: tests and benchmarks read it.
    uint64_t timed_blocks = 0;
    // Runs of a native v2 file the block engine replayed from their values alone (no record per instruction).
    // Not part of the report either.
    uint64_t fast_runs = 0;
    // Of timed_blocks, those whose body went on through a conditional branch that fell through (a run's plan
    // merges the blocks on either side of it). Not part of the report either.
    uint64_t timed_through = 0;
    // Of fast_runs, those replayed a few at a time (the block that ends one run and the one that starts the next
    // timed as one). Not part of the report either.
    uint64_t grouped_runs = 0;
    // Instructions of stretches the block engine added again as a whole (Options::repeat_stretches) instead of
    // timing them. Not part of the report either.
    uint64_t repeated_instructions = 0;
    // The most plans of native v2 runs the block engine kept at once (bounded: Replayer::max_plans). Not part of
    // the report either.
    uint64_t run_plans_peak = 0;
    void skipped_note(const trace::TraceReader* reader);
};

// Runs the replay. Throws trace::TraceError for bad input and std::invalid_argument for bad options.
Result run(const Options& o);
// The same on a reader opened by the caller (benchmarks, generated traces).
Result run(const Options& o, std::unique_ptr<trace::TraceReader> reader);

// Event numbers a replay on platform p can produce (platforms/producible_events.hpp).
using pmusim::producible_events;

}  // namespace pmusim::replay
