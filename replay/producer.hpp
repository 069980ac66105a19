// What wrote a trace, and what its read-backs depend on (docs/accuracy.md, "Read-backs"). A traced program that
// reads its own counters shows what the producer's PMU counted: event counts and retired instructions are
// decided by the instructions the trace shows, but the cycle counter runs on the producer's clock, which only
// one timing mode reproduces. Kept apart from the engine so that the report and --check share one rule.
#pragma once
#include <string>

#include "replay/replay.hpp"

namespace pmusim {
class Pmu;
namespace trace {
class TraceReader;
}
}  // namespace pmusim

namespace pmusim::replay {

struct Producer {
    std::string name;                // "QEMU", "Spike", "the VeeR EL2 RTL", ... for the report
    Timing clock = Timing::cpi1;     // the timing that reproduces its cycle counter
    bool counts_hpm_events = true;   // false: its RISC-V mhpmcounters read 0 (Spike)
};

// The producer as far as the format and its header tell: a trace with timestamps carries its producer's clock
// (a VeeR RTL exec.log, Tarmac from a model or RTL): --timing trace; one without comes from a functional
// simulator that counts one cycle per retired instruction (QEMU with -icount, Spike): --timing cpi1.
Producer producer_of(const trace::TraceReader& reader);

// "model", "trace" or "cpi1", as --timing spells it.
const char* timing_name(Timing t);

enum class ReadbackKind { trace, clock, uncounted };
// What decides the value a read of `reg` returned on the producer: the clock for the cycle counter (the state
// word of the register Pmu::counter_values() lists first, under any of its names); uncounted for an event
// counter the producer does not implement; else the trace.
ReadbackKind classify_readback(Pmu& pmu, const Producer& producer, const std::string& reg);

// Whether a read-back counts for --check under this run's timing: one the trace decides always; one of the cycle
// counter only under the timing that reproduces the producer's clock (the only timing that claims to).
bool checked_readback(const Options& o, const Result& r, const Readback& b);
// Whether --check fails: a read-back the trace decides differs, or one of the cycle counter differs under the
// timing that reproduces the producer's clock (the only timing that claims to).
bool check_fails(const Options& o, const Result& r);

}  // namespace pmusim::replay
