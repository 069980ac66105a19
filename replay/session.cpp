#include "replay/session.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace pmusim::replay {

Session::Session(const Options& opts, const Platform& platform) : o(opts), p(platform), roi(opts.roi), totals_(65536) {
    if (o.pmu) {
        pmu = o.pmu;
    } else {
        owned_ = p.make(o.platform_options);
        pmu = owned_.get();
    }
    if (!o.events.empty()) select_events();
    next_sample = o.sample_period ? o.sample_period : ~uint64_t{0};
    next_interval = o.interval;
    if (o.on_interval)
        for (const auto& e : p.event_names())
            if (p.implements(*pmu, e.number)) series_events_.push_back(e.number);
}

// --events (docs/cli.md "Choosing events"): every event is counted exactly by the replay; the first N (the PMU's
// event counters) also program its counters, as a perf user would, so the traced program's read-backs see them (its
// own writes still win).
void Session::select_events() {
    std::vector<uint32_t> numbers;
    for (const auto& text : o.events) {
        EventInfo e;
        try {
            e = parse_event_spec(p, text);
        } catch (const std::invalid_argument& x) {
            throw std::invalid_argument(std::string("--events: ") + x.what());
        }
        if (!p.implements(*pmu, e.number))
            throw std::invalid_argument(fmt::format("--events: '{}' ({}, {:#x}) is not an event platform {} implements",
                                                    text, e.name, e.number, p.name));
        r.selected.push_back({text, e.number});
        numbers.push_back(e.number);
    }
    // The platform programs as many as the PMU has event counters (PMCR.N, its `counters` option included).
    const size_t n = p.program_counters(*pmu, numbers);
    const size_t counters = n;
    if (n < numbers.size()) {
        std::string on, off;
        for (size_t i = 0; i < numbers.size(); ++i) (i < n ? on : off) += (i == 0 || i == n ? "" : ", ") + o.events[i];
        r.notes.push_back(fmt::format("{} events for {} event counters: {} program the counters; {} are counted by "
                                      "the replay only (exactly: a simulator need not multiplex)",
                                      numbers.size(), counters, on, off));
    }
}

// The retirement of the fast runs' blocks since the last flush, per kind times their executions.
void Session::drain_execs() {
    for (RunExecs* e : counted_runs_) {
        const uint64_t execs = e->execs[0] + e->execs[1];
        for (const auto& [g, taken] : e->inner) {
            g->execs[taken] += execs;
            count_execs(*g);
        }
        for (unsigned t = 0; t < 2; ++t) e->last->execs[t] += e->execs[t];
        count_execs(*e->last);
        e->execs[0] = e->execs[1] = 0;
        e->listed = false;
    }
    counted_runs_.clear();
    for (BlockExecs* g : counted_) {
        const Block& b = *g->block;
        const uint64_t execs = g->execs[0] + g->execs[1];
        for (const auto& [id, count] : b.counts) hist.add_id(id, count * execs);
        for (unsigned t = 0; t < 2; ++t)
            if (g->execs[t]) hist.add_id(b.last_ids[t], g->execs[t]);
        g->execs[0] = g->execs[1] = 0;
        g->listed = false;
    }
    counted_.clear();
}

void Session::flush() {
    drain_execs();
    hist.drain(p, batch);
    if (batch.cycles == 0 && batch.events.empty()) return;
    advance(batch);
    if (tap) {
        for (const auto& e : batch.events) tapped.add(e.event, e.count);
        tapped.cycles += batch.cycles;
    }
    total_cycles += batch.cycles;
    if (total_cycles >= next_sample) next_sample = (total_cycles / o.sample_period + 1) * o.sample_period;
    roi.add(batch);
    for (const auto& e : batch.events)
        if (e.event < totals_.size()) totals_[e.event] += e.count;
    batch.clear();
    pending = 0;
}

void Session::interval_point() {
    flush();
    IntervalPoint pt;
    pt.instructions = r.instructions;
    pt.cycles = total_cycles;
    pt.irq = pmu->irq();
    pt.counters = pmu->counter_values();
    pt.events.reserve(series_events_.size());
    for (uint32_t e : series_events_) pt.events.emplace_back(e, totals_[e] + (e == p.cycle_event ? total_cycles : 0));
    last_point_.emplace(pt.instructions, pt.cycles);
    o.on_interval(pt);
}

// At the width of the destination register (A64 Xt and RV64 x: 64 bits; A32/T32 Rt and RV32 x: 32), so bits the
// trace shows above the register's width are never masked away (an MRS of a 32-bit register zero-extends into Xt:
// Arm ARM C5.2). A read of a counter the producer does not implement is not compared; one of the cycle counter is
// counted apart (replay/producer.hpp).
void Session::readback(const TraceRecord& rec, uint64_t traced, uint64_t predicted, const std::string& reg) {
    const bool wide = rec.isa == IsaState::a64 || rec.isa == IsaState::rv64;
    const uint64_t expect = wide ? predicted : (predicted & 0xFFFFFFFFu);
    const ReadbackKind kind = classify_readback(*pmu, producer, reg);
    if (kind == ReadbackKind::uncounted) {
        ++r.uncounted_readbacks;
        return;
    }
    Readback rb{rec.line, reg, traced, expect};
    rb.basis = kind == ReadbackKind::clock ? Readback::Basis::clock : Readback::Basis::trace;
    ++r.readbacks_checked;
    r.clock_readbacks += kind == ReadbackKind::clock;
    if (o.keep_readbacks) r.readbacks.push_back(rb);
    if (traced == expect) {
        ++r.readbacks_matched;
        r.clock_matched += kind == ReadbackKind::clock;
    } else {
        r.mismatches.push_back(rb);
    }
}

// What the read-backs' figures mean (docs/accuracy.md, "Read-backs").
void Session::readback_notes() {
    if (r.clock_readbacks && o.timing != producer.clock)
        r.notes.push_back(fmt::format("the cycle counter runs on the clock of {}, which --timing {} reproduces: "
                                      "its read-backs are shown, not checked, under --timing {}",
                                      producer.name, timing_name(producer.clock), timing_name(o.timing)));
    if (r.uncounted_readbacks)
        r.notes.push_back(fmt::format("{} read-back{} of mhpmcounters not compared: {} does not count VeeR EL2's "
                                      "events (its mhpmcounter3-31 read 0)",
                                      r.uncounted_readbacks, r.uncounted_readbacks == 1 ? "" : "s", producer.name));
}

Result Session::finish(const trace::TraceReader& reader, const timing::TimingModel* tm, uint64_t slept, bool mem_seen, bool irq_seen) {
    flush();
    // The series ends with the trace's totals.
    if (o.on_interval && (!last_point_ || last_point_->first != r.instructions || last_point_->second != total_cycles))
        interval_point();
    r.skipped_note(&reader);
    readback_notes();
    if (!reader.end_note().empty()) r.notes.push_back(reader.end_note());
    collect(reader, tm, slept, mem_seen, irq_seen);
    return r;
}

// Which implemented events the replay produces: those the retirement of some class signals, and cycles.
void Session::collect(const trace::TraceReader& reader, const timing::TimingModel* tm, uint64_t slept, bool mem_seen, bool irq_seen) {
    r.cycles = total_cycles;
    if (slept)
        r.notes.push_back(fmt::format("the core slept {} cycles in pmu/fw-halt (mpmc), woken by an interrupt; mcycle "
                                      "and events 1-56 do not count them", slept));
    const std::vector<bool> produced = producible_events(p, mem_seen, tm != nullptr, irq_seen || reader.shows_interrupts());
    if (tm && !mem_seen)
        for (uint32_t e : tm->address_events())
            if (p.implements(*pmu, e)) {
                r.notes.push_back("the trace carries no data addresses: data-cache and bus events are not modelled");
                break;
            }
    for (const auto& e : p.event_names()) {
        if (!p.implements(*pmu, e.number)) continue;
        if (!produced[e.number]) {
            r.not_modelled.push_back(e.number);
            continue;
        }
        r.event_totals.emplace_back(e.number, totals_[e.number] + (e.number == p.cycle_event ? total_cycles : 0));
    }
    r.counters = pmu->counter_values();
    if (roi.active()) roi.finish(r, p.cycle_event);
}

}  // namespace pmusim::replay
