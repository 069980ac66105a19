// The report of a replay (`pmusim run`): the table perf stat users know, CSV and JSON. Printing only: the
// numbers come from replay::run.
#include "testbench/report.hpp"

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "replay/producer.hpp"
#include "testbench/cli_common.hpp"

namespace pmusim::replay {

namespace {

std::string event_name(const Platform& p, uint32_t n) {
    for (const auto& e : p.event_names())
        if (e.number == n) return e.name;
    return fmt::format("{:#x}", n);
}

// The series' columns: instructions, cycles, then one a counter and one an event.
// Only the events the replay models have a column (Result::event_totals).
bool modelled(const Result& r, uint32_t e) {
    return std::any_of(r.event_totals.begin(), r.event_totals.end(), [e](const auto& t) { return t.first == e; });
}

// With --events, the series shows those events (perf stat -I -e), not the counters and every event.
std::vector<std::string> series_header(const Options& o, const Platform& p, const Result& r, const IntervalPoint& pt) {
    std::vector<std::string> h;
    if (!o.cumulative) h.push_back(o.interval_cycles ? "at_cycles" : "at_instructions");
    h.insert(h.end(), {"instructions", "cycles"});
    if (!r.selected.empty()) {
        for (const auto& s : r.selected)
            if (modelled(r, s.number)) h.push_back(s.text);
        return h;
    }
    for (const auto& c : pt.counters) h.push_back(c.first);
    for (const auto& e : pt.events)
        if (modelled(r, e.first)) h.push_back(event_name(p, e.first));
    return h;
}

// A point's values in the header's order: counts from the start of the trace.
std::vector<uint64_t> series_values(const Result& r, const IntervalPoint& pt) {
    std::vector<uint64_t> v{pt.instructions, pt.cycles};
    auto event = [&](uint32_t n) {
        for (const auto& [m, c] : pt.events)
            if (m == n) return c;
        return uint64_t{0};
    };
    if (!r.selected.empty()) {
        for (const auto& s : r.selected)
            if (modelled(r, s.number)) v.push_back(event(s.number));
        return v;
    }
    for (const auto& c : pt.counters) v.push_back(c.second);
    for (const auto& e : pt.events)
        if (modelled(r, e.first)) v.push_back(e.second);
    return v;
}

// A row: cumulative, or (perf stat -I) where the interval ends and what each count added over it since `prev`
// (a counter the program wrote may go down: the difference is signed).
std::vector<std::string> series_row(const Options& o, const Result& r, const IntervalPoint& pt, const IntervalPoint* prev) {
    const auto now = series_values(r, pt);
    std::vector<std::string> row;
    if (o.cumulative) {
        for (uint64_t v : now) row.push_back(std::to_string(v));
        return row;
    }
    row.push_back(std::to_string(o.interval_cycles ? pt.cycles : pt.instructions));
    const auto before = prev ? series_values(r, *prev) : std::vector<uint64_t>(now.size(), 0);
    for (size_t i = 0; i < now.size(); ++i) row.push_back(std::to_string(static_cast<int64_t>(now[i] - before[i])));
    return row;
}

// Every row of the series, in order.
std::vector<std::vector<std::string>> series_rows(const Options& o, const Result& r, const Series& s) {
    std::vector<std::vector<std::string>> rows;
    const IntervalPoint* prev = nullptr;
    for (const auto& pt : s.points()) {
        rows.push_back(series_row(o, r, pt, prev));
        prev = &pt;
    }
    return rows;
}

// A count with its digits grouped in threes, as perf stat prints it in an English locale: 1,234,567.
std::string grouped(uint64_t v) {
    std::string digits = std::to_string(v), g;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) g += ',';
        g += digits[i];
    }
    return g;
}

// What --roi counted: "region 0x40:0x58 entered 1 time".
std::string region_text(const RegionCount& c) {
    const Region& g = c.region;
    return fmt::format("region {} ({}) entered {} time{}{}", g.text,
                       g.extent ? fmt::format("PC in [{:#x}, {:#x})", g.start, g.end)
                                : fmt::format("from {:#x} up to {:#x}", g.start, g.end),
                       c.entered, c.entered == 1 ? "" : "s", c.open_at_end ? ", still open at the end of the trace" : "");
}

// The read-backs by what decides them, and what --check makes of them (replay/producer.hpp).
void readback_lines(const Options& o, const Result& r, std::ostream& out) {
    if (!r.readbacks_checked && !r.uncounted_readbacks) return;
    const uint64_t by_trace = r.readbacks_checked - r.clock_readbacks;
    if (by_trace)
        out << fmt::format("   {} decided by the trace (event counts, instructions): {} matched\n", by_trace,
                           r.readbacks_matched - r.clock_matched);
    if (r.clock_readbacks) {
        const bool compared = o.timing == r.producer_timing;
        out << fmt::format("   {} of the cycle counter, on the clock of {}: {} matched; {}\n", r.clock_readbacks, r.producer,
                           r.clock_matched,
                           compared ? fmt::format("checked: --timing {} reproduces that clock", timing_name(o.timing))
                                    : fmt::format("shown, not checked: --timing {} does not reproduce that clock (--timing {} does)",
                                                  timing_name(o.timing), timing_name(r.producer_timing)));
    }
    if (r.uncounted_readbacks)
        out << fmt::format("   {} of event counters {} does not count: not compared\n", r.uncounted_readbacks, r.producer);
}

}  // namespace

void Series::add(const IntervalPoint& p) {
    // The n-th call is taken when n is a multiple of the stride; a point not taken is held as the latest until
    // the next one, so the series always ends with the trace's totals.
    if (!last_taken_) points_.pop_back();
    const uint64_t n = calls_++;
    last_taken_ = n % stride_ == 0;
    points_.push_back(p);
    if (cap_ && last_taken_ && points_.size() >= cap_) {
        IntervalPoint latest = points_.back();
        size_t kept = 0;  // point i was call i * stride: the even ones stay
        for (size_t i = 0; i < points_.size(); i += 2, ++kept)
            if (kept != i) points_[kept] = std::move(points_[i]);  // point 0 stays where it is: no move onto itself
        points_.resize(kept);
        stride_ *= 2;
        last_taken_ = n % stride_ == 0;
        if (!last_taken_) points_.push_back(std::move(latest));
    }
}

plot::Figure figure(const Platform& p, const std::string& trace, const Series& series, bool over_cycles,
                    const std::vector<uint32_t>& events) {
    plot::Figure f;
    f.title = fmt::format("{} on {}", trace, p.name);
    f.x_label = over_cycles ? "cycles" : "instructions retired";
    const auto& pts = series.points();
    if (pts.empty()) return f;
    std::vector<double> x;
    for (const auto& pt : pts) x.push_back(static_cast<double>(over_cycles ? pt.cycles : pt.instructions));
    std::vector<std::string> idle;
    for (size_t c = 0; c < pts.front().counters.size(); ++c) {
        if (std::all_of(pts.begin(), pts.end(), [&](const IntervalPoint& pt) { return pt.counters[c].second == 0; })) {
            idle.push_back(pts.front().counters[c].first);
            continue;
        }
        plot::Panel panel;
        panel.x = x;
        panel.name = pts.front().counters[c].first;
        for (const auto& pt : pts) panel.y.push_back(static_cast<double>(pt.counters[c].second));
        f.panels.push_back(std::move(panel));
    }
    for (uint32_t e : events) {
        plot::Panel panel;
        panel.x = x;
        panel.name = event_name(p, e) + " (events so far)";
        for (const auto& pt : pts) {
            uint64_t v = 0;
            for (const auto& [n, count] : pt.events)
                if (n == e) v = count;
            panel.y.push_back(static_cast<double>(v));
        }
        f.panels.push_back(std::move(panel));
    }
    f.subtitle = fmt::format("{} instructions, {} cycles", pts.back().instructions, pts.back().cycles);
    if (!idle.empty()) {
        f.subtitle += "; at 0 throughout:";
        for (const auto& n : idle) f.subtitle += " " + n;
    }
    // Every plot has the request line, so that plots of two cores read alike; VeeR EL2's stays low, and its
    // name says why (VeeR EL2 PRM: the mhpm counters raise no overflow interrupt; model/pmu/veer_pmu.hpp).
    plot::Panel irq;
    irq.name = p.family == "veer-el2" ? "interrupt request (VeeR EL2 has no counter-overflow interrupt)" : "interrupt request";
    irq.x = x;
    irq.style = plot::Style::level;
    for (const auto& pt : pts) irq.y.push_back(pt.irq ? 1 : 0);
    f.panels.push_back(std::move(irq));
    return f;
}

nlohmann::json report_json(const Options& o, const Platform& p, const Result& r) {
    nlohmann::json j;
    j["platform"] = p.name;
    j["trace"] = {{"path", o.trace}, {"format", r.format}, {"records", r.records}};
    j["timing"] = timing_name(o.timing);
    if (!r.regions.empty()) {
        nlohmann::json rg = nlohmann::json::array();
        for (const auto& c : r.regions)
            rg.push_back({{"roi", c.region.text}, {"start", c.region.start}, {"end", c.region.end},
                          {"kind", c.region.extent ? "extent" : "start-end"}, {"entered", c.entered},
                          {"open_at_end", c.open_at_end}});
        j["regions"] = rg;
        j["whole_trace"] = {{"instructions", r.trace_instructions}, {"cycles", r.trace_cycles}};
    }
    j["instructions"] = r.instructions;
    j["cycles"] = r.cycles;
    nlohmann::json ev = nlohmann::json::array();
    for (const auto& [n, c] : r.event_totals) ev.push_back({{"number", n}, {"name", event_name(p, n)}, {"count", c}});
    for (uint32_t n : r.not_modelled)
        ev.push_back({{"number", n}, {"name", event_name(p, n)}, {"count", nullptr}, {"modelled", false}});
    j["events"] = ev;
    if (!r.selected.empty()) {
        nlohmann::json sel = nlohmann::json::array();
        for (const auto& e : r.selected) {
            nlohmann::json c = nullptr;
            for (const auto& [n, v] : r.event_totals)
                if (n == e.number) c = v;
            sel.push_back({{"event", e.text}, {"number", e.number}, {"name", event_name(p, e.number)}, {"count", c}});
        }
        j["selected"] = sel;
    }
    nlohmann::json counters = nlohmann::json::object();
    for (const auto& [name, v] : r.counters) counters[name] = v;
    j["counters"] = counters;
    nlohmann::json mm = nlohmann::json::array();
    for (const auto& m : r.mismatches) {
        nlohmann::json e = {{"line", m.line}, {"register", m.reg}, {"traced", m.traced}, {"predicted", m.predicted}};
        // "trap": the side that trapped (the trace, or the model) where the other read a value
        if (m.trap != Readback::Trap::none) e["trap"] = m.trap == Readback::Trap::traced ? "traced" : "predicted";
        e["basis"] = m.basis == Readback::Basis::clock ? "clock" : "trace";
        mm.push_back(e);
    }
    // Split by what decides the value (replay/producer.hpp): "trace" always checked, "clock" (the cycle counter)
    // checked only under the timing that reproduces the producer's clock.
    j["readbacks"] = {{"checked", r.readbacks_checked},
                      {"matched", r.readbacks_matched},
                      {"mismatches", mm},
                      {"trace", {{"checked", r.readbacks_checked - r.clock_readbacks},
                                 {"matched", r.readbacks_matched - r.clock_matched}}},
                      {"clock", {{"checked", r.clock_readbacks},
                                 {"matched", r.clock_matched},
                                 {"producer", r.producer},
                                 {"reproduced_by", timing_name(r.producer_timing)},
                                 {"compared", o.timing == r.producer_timing}}},
                      {"not_counted_by_producer", r.uncounted_readbacks},
                      {"check_passes", !check_fails(o, r)}};
    j["notes"] = r.notes;
    if (r.interrupted) j["interrupted"] = true;
    return j;
}


void print(const Options& o, const Platform& p, const Result& r, std::ostream& out, const Series* series) {
    const bool has_series = series && !series->points().empty();
    if (o.output == Output::json) {
        nlohmann::json j = report_json(o, p, r);
        if (has_series) {
            nlohmann::json iv = nlohmann::json::array();
            const IntervalPoint* prev = nullptr;
            for (const auto& pt : series->points()) {
                // The counts from the start, and (perf stat -I) what the interval added since the point before: a
                // counter the program wrote may go down, so its difference is signed.
                nlohmann::json c = nlohmann::json::object(), e = nlohmann::json::object();
                nlohmann::json dc = nlohmann::json::object(), de = nlohmann::json::object();
                for (size_t k = 0; k < pt.counters.size(); ++k) {
                    const auto& [name, v] = pt.counters[k];
                    c[name] = v;
                    dc[name] = static_cast<int64_t>(v - (prev && k < prev->counters.size() ? prev->counters[k].second : 0));
                }
                for (size_t k = 0; k < pt.events.size(); ++k) {
                    const auto& [n, v] = pt.events[k];
                    if (!modelled(r, n)) continue;
                    e[event_name(p, n)] = v;
                    de[event_name(p, n)] = v - (prev && k < prev->events.size() ? prev->events[k].second : 0);
                }
                const uint64_t i0 = prev ? prev->instructions : 0, c0 = prev ? prev->cycles : 0;
                iv.push_back({{"instructions", pt.instructions}, {"cycles", pt.cycles}, {"irq", pt.irq},
                              {"counters", c}, {"events", e},
                              {"added", {{"instructions", pt.instructions - i0}, {"cycles", pt.cycles - c0},
                                         {"counters", dc}, {"events", de}}}});
                prev = &pt;
            }
            j["intervals"] = iv;
        }
        out << cli::json_text(j);
        return;
    }
    if (o.output == Output::csv && has_series) {
        const auto header = series_header(o, p, r, series->points().front());
        for (size_t i = 0; i < header.size(); ++i) out << (i ? o.separator : "") << header[i];
        out << '\n';
        for (const auto& row : series_rows(o, r, *series)) {
            for (size_t i = 0; i < row.size(); ++i) out << (i ? o.separator : "") << row[i];
            out << '\n';
        }
        return;
    }
    // The event lines: every event the platform implements, or with --events those asked for, in their order.
    struct Line {
        std::string label;  // as the table shows it
        std::string shown;  // as the user wrote it with --events, or the event's name
        uint32_t number;
        bool modelled;
        uint64_t count;
    };
    auto line_for = [&](uint32_t n, const std::string& text) {
        const std::string name = event_name(p, n);
        Line l{"", text.empty() ? name : text, n, false, 0};
        for (const auto& [m, c] : r.event_totals)
            if (m == n) {
                l.modelled = true;
                l.count = c;
            }
        l.label = l.shown == name ? fmt::format("{} ({:#x})", name, n) : fmt::format("{} ({}, {:#x})", l.shown, name, n);
        return l;
    };
    std::vector<Line> lines;
    if (!r.selected.empty()) {
        for (const auto& sel : r.selected) lines.push_back(line_for(sel.number, sel.text));
    } else {
        for (const auto& [n, c] : r.event_totals) lines.push_back(line_for(n, ""));
        for (uint32_t n : r.not_modelled) lines.push_back(line_for(n, ""));
    }
    if (o.output == Output::csv) {
        if (r.interrupted) out << fmt::format("# interrupted: the counts of the first {} records\n", r.records);
        for (const auto& c : r.regions) out << "# " << region_text(c) << '\n';
        // perf stat -x SEP (tools/perf/Documentation/perf-stat.txt, "CSV FORMAT"): the value, its unit (none:
        // every value is a count), the event, the counter's run time and the percentage of the measurement it
        // ran. A modelled count ran over the whole replay: its run time is the run's cycles, 100.00 per cent; an
        // event not modelled did not run (0, 0.00), as perf shows an event the machine does not support.
        const std::string& x = o.separator;
        auto line = [&](const std::string& value, const std::string& event, bool ran) {
            out << value << x << x << event << x << (ran ? r.cycles : 0) << x << (ran ? "100.00" : "0.00") << '\n';
        };
        if (r.selected.empty()) {
            line(std::to_string(r.instructions), "instructions", true);
            line(std::to_string(r.cycles), "cycles", true);
        }
        for (const auto& l : lines) line(l.modelled ? std::to_string(l.count) : "<not supported>", l.shown, l.modelled);
        for (const auto& [name, v] : r.counters) line(std::to_string(v), name, true);
        return;
    }
    out << fmt::format("\n Performance counter stats for '{}' ({}, {} records) on {}:\n\n", o.trace, r.format, grouped(r.records), p.name);
    if (r.interrupted) out << fmt::format(" INTERRUPTED: the counts of the first {} records only\n\n", grouped(r.records));
    for (const auto& c : r.regions) out << " " << region_text(c) << "\n";
    if (!r.regions.empty())
        out << fmt::format(" (the whole trace: {} instructions, {} cycles)\n\n", grouped(r.trace_instructions), grouped(r.trace_cycles));
    if (r.selected.empty()) {
        out << fmt::format("{:>20}      instructions\n", grouped(r.instructions));
        out << fmt::format("{:>20}      cycles ({}){}\n", grouped(r.cycles),
                           o.timing == Timing::trace ? "from the trace's timestamps" : o.timing == Timing::cpi1 ? "one per instruction" : "model",
                           r.cycles ? fmt::format("      # {:.2f} insn per cycle", static_cast<double>(r.instructions) / static_cast<double>(r.cycles)) : "");
    }
    for (const auto& l : lines) out << fmt::format("{:>20}      {}\n", l.modelled ? grouped(l.count) : "<not modelled>", l.label);
    out << "\n counters as the traced program programmed them:\n";
    for (const auto& [name, v] : r.counters) out << fmt::format("{:>20}      {}\n", grouped(v), name);
    out << fmt::format("\n read-backs: {} checked, {} matched\n", r.readbacks_checked, r.readbacks_matched);
    readback_lines(o, r, out);
    // The first few; the JSON output lists them all.
    constexpr size_t shown = 8;
    for (size_t i = 0; i < r.mismatches.size() && i < shown; ++i) {
        const auto& m = r.mismatches[i];
        const std::string traced = m.trap == Readback::Trap::traced ? "a trap" : fmt::format("{:#x}", m.traced);
        const std::string predicted = m.trap == Readback::Trap::predicted ? "a trap" : fmt::format("{:#x}", m.predicted);
        out << fmt::format("   line {}: {} traced {}, predicted {}{}\n", m.line, m.reg, traced, predicted,
                           checked_readback(o, r, m) ? "" : " (the producer's clock: not checked)");
    }
    if (r.mismatches.size() > shown)
        out << fmt::format("   ... and {} more mismatches (--output json lists them all)\n", r.mismatches.size() - shown);
    if (r.readbacks_checked)
        out << (check_fails(o, r) ? "   --check fails: a read-back this timing claims to reproduce differs\n"
                                  : "   --check passes: every read-back this timing claims to reproduce matched\n");
    for (const auto& n : r.notes) out << " note: " << n << "\n";
    if (has_series) {
        const char* unit = o.interval_cycles ? "cycles" : "instructions";
        out << (o.cumulative ? "\n time series (counts from the start of the trace):\n"
                             : fmt::format("\n time series: what each interval of {} {} added (as perf stat -I; "
                                           "--interval-cumulative: counts from the start):\n", o.interval, unit));
        const auto header = series_header(o, p, r, series->points().front());
        std::vector<size_t> width;
        for (const auto& h : header) width.push_back(std::max<size_t>(h.size(), 12));
        for (size_t i = 0; i < header.size(); ++i) out << fmt::format(" {:>{}}", header[i], width[i]);
        out << '\n';
        for (const auto& row : series_rows(o, r, *series)) {
            for (size_t i = 0; i < row.size(); ++i) out << fmt::format(" {:>{}}", row[i], width[i]);
            out << '\n';
        }
    }
}

}  // namespace pmusim::replay
