#include "replay/producer.hpp"

#include <algorithm>

#include "model/core/pmu.hpp"
#include "traces/reader.hpp"

namespace pmusim::replay {

const char* timing_name(Timing t) { return t == Timing::trace ? "trace" : t == Timing::cpi1 ? "cpi1" : "model"; }

Producer producer_of(const trace::TraceReader& reader) {
    const std::string_view f = reader.format();
    Producer p;
    // QEMU's PMU clock under -icount shift=0 is 1 GHz at one instruction a nanosecond: its cycle counter reads the
    // instruction count (scripts/make-samples.sh). Spike retires one instruction a cycle: mcycle == minstret
    // (Spike's processor_t::step). Neither has timestamps to replay.
    if (f == "qemu-log" || f == "qemu-execlog") p.name = "QEMU";
    else if (f == "spike") p.name = "Spike", p.counts_hpm_events = false;  // Spike's mhpmcounter3-31 read 0
    else if (f == "veer") p.name = "the VeeR EL2 RTL";
    else if (f == "tarmac") p.name = "the Tarmac producer";
    p.clock = reader.has_time() ? Timing::trace : Timing::cpi1;
    if (p.name.empty())  // pmusim's native forms: the original format is not kept, only whether it had timestamps
        p.name = p.clock == Timing::trace ? "the trace's producer (its timestamps)" : "the trace's producer (QEMU or Spike: no timestamps)";
    return p;
}

ReadbackKind classify_readback(Pmu& pmu, const Producer& producer, const std::string& reg) {
    const Register* r = pmu.bank().find(reg);
    if (!r) return ReadbackKind::trace;
    const auto counters = pmu.counter_values();
    const Register* cycle = counters.empty() ? nullptr : pmu.bank().find(counters.front().first);
    if (cycle && r->state && r->state == cycle->state) return ReadbackKind::clock;
    // The RISC-V Privileged Architecture names mhpmcounter3-31 (and their high halves, mhpmcounterNh) the
    // event counters; mcycle and minstret are not among them.
    if (!producer.counts_hpm_events && r->name.rfind("mhpmcounter", 0) == 0) return ReadbackKind::uncounted;
    return ReadbackKind::trace;
}

bool checked_readback(const Options& o, const Result& r, const Readback& b) {
    return b.basis == Readback::Basis::trace || o.timing == r.producer_timing;
}

bool check_fails(const Options& o, const Result& r) {
    return std::any_of(r.mismatches.begin(), r.mismatches.end(), [&](const Readback& m) { return checked_readback(o, r, m); });
}

}  // namespace pmusim::replay
