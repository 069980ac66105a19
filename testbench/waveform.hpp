// VCD waveforms of PMUs whose values are never ahead of time (docs/waveforms.md). Plain C++: the SystemC hosts
// (testbench/virtual_platform.cpp) feed it the batches they apply, with their start cycle.
//
// What a waveform shows, for each PMU in its own scope: every state word of its implemented registers (under
// the name of the first register that views it), the core state and the interrupt request lines.
// - Counters are sampled every `sample_period` cycles: a batch that crosses a sample point and carries only
//   cycles is split there, and the replay engine ends its batches at sample points (replay::Options), so each
//   sample is the exact value at its time. Between samples a counter shows its last sample. The file's size is
//   set by the period, not by the length of the run.
// - A register access is written at its own cycle (the start of the next batch, or the end of the run).
// - An overflow that raises an interrupt is written at the cycle the model places it (AdvanceResult): the
//   request line, the overflow flags, and the counters as they stand on that cycle with the batch's counts
//   spread evenly over its cycles, the model's own rule for placing the overflow.
// - Other changes inside a batch (an overflow without an interrupt) are written at the batch's end: late,
//   never early.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/core/pmu.hpp"
#include "testbench/plot.hpp"
#include "traces/output_file.hpp"

namespace pmusim::wave {

// Cycles between counter samples when --vcd-period is not given: a few hundred, so that a counter that runs shows
// a value change at least this often (a waveform shows it move as it moves) while the file's size stays set by
// the run's length over the period.
constexpr uint64_t default_sample_period = 200;

// One state word of a PMU's implemented registers, as a waveform and the `vp` register dump show it: under the
// name of the first register that views it (the AArch64 name before its AArch32 views), as wide as its widest
// view (an RV32 counter's two halves are one 64-bit word). Registers whose every field is RAZ/WI (a counter
// n >= N and its type register) are not among them.
struct StateWord {
    const Register* first;
    unsigned width;
    uint64_t value() const { return *first->state & (width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1); }
};
std::vector<StateWord> state_words(const Pmu& pmu);

// A VCD file written whole or not at all (traces/output_file.hpp): renamed over the target by finish(); destroyed
// unfinished, it removes only its own temporary file. Every write is checked (OutputError naming the file).
class VcdWriter {
public:
    // `timescale`: the VCD unit ("1 ns"); times passed in are counts of it.
    VcdWriter(std::string path, std::string timescale);
    ~VcdWriter();
    VcdWriter(const VcdWriter&) = delete;
    VcdWriter& operator=(const VcdWriter&) = delete;

    // Declares a signal in a scope (dots nest scopes: "top.pmu"); before begin(). Returns its index.
    size_t add(const std::string& scope, const std::string& name, unsigned width);
    // The header and the initial values at time 0.
    void begin(const std::vector<uint64_t>& initial);
    // A change; times never decrease.
    void change(uint64_t time, size_t signal, uint64_t value);
    // Closes the file at `end` and renames it over the target.
    void finish(uint64_t end);

private:
    struct Signal {
        std::string scope, name, id;
        unsigned width;
    };
    void put(const std::string& s);
    void value_text(size_t signal, uint64_t value);
    std::string path_, timescale_;
    OutputFile file_;  // written whole or not at all (traces/output_file.hpp)
    std::vector<Signal> signals_;
    uint64_t time_ = 0;
    bool time_written_ = false, finished_ = false;
};

// Records PMUs into a VCD as batches are applied to them, and keeps what it wrote for a plot if asked.
class Recorder {
public:
    // `path`: the VCD file, or empty for none (a plot only); `period_ps`: the clock period; `sample_period`:
    // cycles between counter samples (> 0).
    Recorder(const std::string& path, uint64_t sample_period, uint64_t period_ps = 1000);
    ~Recorder();

    // Adds a PMU under a scope (before start()); scopes keep two PMUs' signals apart.
    void add(Pmu& pmu, const std::string& scope);
    // Writes the header and every signal's value at time 0.
    void start();
    // Applies `batch`, which starts at cycle `start`, to `pmu` through `apply` (called once per part of the
    // batch with the part and its offset in cycles from `start`), and writes what changed at its times.
    using Apply = std::function<AdvanceResult(const EventBatch& part, uint64_t offset)>;
    AdvanceResult advance(Pmu& pmu, const EventBatch& batch, uint64_t start, const Apply& apply);
    // As above, applying with pmu.advance().
    AdvanceResult advance(Pmu& pmu, const EventBatch& batch, uint64_t start);
    // Writes the final values at cycle `end` and renames the file into place.
    void finish(uint64_t end);
    uint64_t sample_period() const { return sample_period_; }
    // Keeps every change written (as many as the file has) for figure(); before start().
    void keep_history() { keep_ = true; }
    // The counters that moved and the request lines, as held between their changes, over cycles.
    plot::Figure figure(const std::string& title) const;

private:
    struct Word {
        const uint64_t* state;
        uint64_t mask;
        unsigned width;
        bool counter;  // a counter: sampled; other words are written when they change
        size_t signal;
    };
    struct Traced {
        Pmu* pmu;
        std::vector<Word> words;
        size_t irq_signal, fiq_signal = SIZE_MAX, state_signal;
        std::vector<uint64_t> settled;  // per word: the value after the last batch
        bool irq = false, fiq = false;
        uint64_t state = 0;
        uint64_t now = 0;       // the cycle it has reached
        uint64_t sampled = 0;   // the last sample point written (index)
    };
    Traced& find(Pmu& pmu);
    size_t signal(const std::string& scope, const std::string& name, unsigned width, bool plotted);
    uint64_t value(const Word& w) const { return *w.state & w.mask; }
    void note(uint64_t cycle, size_t signal, uint64_t value);
    void accesses(Traced& t, uint64_t at);
    void lines(Traced& t, uint64_t at);
    AdvanceResult part(Traced& t, const EventBatch& b, uint64_t start, uint64_t offset, const Apply& apply);
    void release();  // writes pending changes up to the earliest cycle every PMU has reached

    struct Signal {
        std::string name;
        bool counter_or_line;
    };
    struct Change {
        uint64_t cycle;
        size_t signal;
        uint64_t value;
    };
    std::unique_ptr<VcdWriter> vcd_;
    std::vector<Signal> signals_;
    bool keep_ = false;
    std::vector<Change> history_;
    uint64_t end_ = 0;
    uint64_t sample_period_;
    uint64_t scale_;  // VCD units per cycle
    std::vector<std::unique_ptr<Traced>> traced_;
    std::multimap<uint64_t, std::pair<size_t, uint64_t>> pending_;  // cycle -> (signal, value)
    std::vector<uint64_t> last_;  // per signal: the value last noted
    uint64_t released_ = 0;       // changes up to this cycle are in the file
    bool started_ = false;
};

}  // namespace pmusim::wave
