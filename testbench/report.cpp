// The report of a replay (`pmusim run`): the table perf stat users know, CSV and JSON. Printing only: the
// numbers come from replay::run.
#include "testbench/report.hpp"

#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "testbench/cli_common.hpp"

namespace pmusim::replay {

namespace {

const char* timing_name(Timing t) { return t == Timing::trace ? "trace" : t == Timing::cpi1 ? "cpi1" : "model"; }

std::string event_name(const Platform& p, uint32_t n) {
    for (const auto& e : p.event_names())
        if (e.number == n) return e.name;
    return fmt::format("{:#x}", n);
}

}  // namespace

void print(const Options& o, const Platform& p, const Result& r, std::ostream& out) {
    if (o.output == Output::json) {
        nlohmann::json j;
        j["platform"] = p.name;
        j["trace"] = {{"path", o.trace}, {"format", r.format}, {"records", r.records}};
        j["timing"] = timing_name(o.timing);
        j["instructions"] = r.instructions;
        j["cycles"] = r.cycles;
        nlohmann::json ev = nlohmann::json::array();
        for (const auto& [n, c] : r.event_totals) ev.push_back({{"number", n}, {"name", event_name(p, n)}, {"count", c}});
        for (uint32_t n : r.not_modelled)
            ev.push_back({{"number", n}, {"name", event_name(p, n)}, {"count", nullptr}, {"modelled", false}});
        j["events"] = ev;
        nlohmann::json counters = nlohmann::json::object();
        for (const auto& [name, v] : r.counters) counters[name] = v;
        j["counters"] = counters;
        nlohmann::json mm = nlohmann::json::array();
        for (const auto& m : r.mismatches) {
            nlohmann::json e = {{"line", m.line}, {"register", m.reg}, {"traced", m.traced}, {"predicted", m.predicted}};
            // "trap": the side that trapped (the trace, or the model) where the other read a value
            if (m.trap != Readback::Trap::none) e["trap"] = m.trap == Readback::Trap::traced ? "traced" : "predicted";
            mm.push_back(e);
        }
        j["readbacks"] = {{"checked", r.readbacks_checked}, {"matched", r.readbacks_matched}, {"mismatches", mm}};
        j["notes"] = r.notes;
        out << cli::json_text(j);
        return;
    }
    if (o.output == Output::csv) {
        out << "count,event,number\n";
        out << r.instructions << ",instructions,\n" << r.cycles << ",cycles,\n";
        for (const auto& [n, c] : r.event_totals) out << c << ',' << event_name(p, n) << ',' << n << '\n';
        for (uint32_t n : r.not_modelled) out << "not modelled," << event_name(p, n) << ',' << n << '\n';
        for (const auto& [name, v] : r.counters) out << v << ',' << name << ",\n";
        return;
    }
    out << fmt::format("\n Performance counter stats for '{}' ({}, {} records) on {}:\n\n", o.trace, r.format, r.records, p.name);
    out << fmt::format("{:>20}      instructions\n", r.instructions);
    out << fmt::format("{:>20}      cycles ({}){}\n", r.cycles, o.timing == Timing::trace ? "from the trace's timestamps" : o.timing == Timing::cpi1 ? "one per instruction" : "model",
                       r.cycles ? fmt::format("      # {:.2f} insn per cycle", static_cast<double>(r.instructions) / static_cast<double>(r.cycles)) : "");
    for (const auto& [n, c] : r.event_totals) out << fmt::format("{:>20}      {} ({:#x})\n", c, event_name(p, n), n);
    for (uint32_t n : r.not_modelled) out << fmt::format("{:>20}      {} ({:#x})\n", "<not modelled>", event_name(p, n), n);
    out << "\n counters as the traced program programmed them:\n";
    for (const auto& [name, v] : r.counters) out << fmt::format("{:>20}      {}\n", v, name);
    out << fmt::format("\n read-backs: {} checked, {} matched\n", r.readbacks_checked, r.readbacks_matched);
    // The first few; the JSON output lists them all.
    constexpr size_t shown = 8;
    for (size_t i = 0; i < r.mismatches.size() && i < shown; ++i) {
        const auto& m = r.mismatches[i];
        const std::string traced = m.trap == Readback::Trap::traced ? "a trap" : fmt::format("{:#x}", m.traced);
        const std::string predicted = m.trap == Readback::Trap::predicted ? "a trap" : fmt::format("{:#x}", m.predicted);
        out << fmt::format("   line {}: {} traced {}, predicted {}\n", m.line, m.reg, traced, predicted);
    }
    if (r.mismatches.size() > shown)
        out << fmt::format("   ... and {} more mismatches (--output json lists them all)\n", r.mismatches.size() - shown);
    for (const auto& n : r.notes) out << " note: " << n << "\n";
}

}  // namespace pmusim::replay
