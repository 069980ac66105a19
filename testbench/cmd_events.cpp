#include "testbench/commands.hpp"

#include <fnmatch.h>

#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "replay/replay.hpp"
#include "testbench/cli_common.hpp"
#include "testbench/command_bodies.hpp"

namespace pmusim::cli {

namespace {

// perf list's filter: a glob (tools/perf/Documentation/perf-list.txt), matched case-insensitively against the
// name; without wildcards, any name that contains it.
bool matches(const std::string& pattern, const std::string& name) {
    if (pattern.empty()) return true;
    const bool glob = pattern.find_first_of("*?[") != std::string::npos;
    const std::string want = glob ? pattern : "*" + pattern + "*";
    return fnmatch(want.c_str(), name.c_str(), FNM_CASEFOLD) == 0;
}

}  // namespace

// `pmusim events --platform P`: every event the platform's architecture names, like `perf list`: whether this
// core implements it (PMCEID, AN195 Table 2, VeeR PRM Table 8.1) and whether `pmusim run` produces it.
int cmd_events(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim events: options");
    std::string platform;
    std::vector<std::string> kvs;
    std::string platform_file;
    add_platform_options(desc, platform, platform_file);
    std::string pattern;
    desc.add_options()("option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "json", "print JSON instead of a table")(
        "pattern", po::value<std::string>(&pattern),
        "only the events whose name matches: a glob (INST_*), or any name containing it, case-insensitive (perf list)");
    po::positional_options_description pos;
    pos.add("pattern", 1);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, &pos, p, out, err, "usage: pmusim events --platform P [PATTERN] [--json]", status)) return status;
    PlatformOptions opts;
    const Platform* pl = platform_from_args(platform, platform_file, kvs, opts, err);
    if (!pl) return usage_error;
    auto pmu = make_pmu(*pl, opts, err);
    if (!pmu) return usage_error;
    // A trace with data addresses: the most the timing model can produce.
    const std::vector<bool> modelled = replay::producible_events(*pl, true);
    // perf's generic events that -e accepts, and what each stands for here.
    struct Alias {
        std::string name, stands_for, why;
    };
    std::vector<Alias> aliases;
    for (const auto& a : generic_event_aliases()) {
        std::string why;
        const auto e = generic_event_info(*pl, a, why);
        if (matches(pattern, a) || (e && matches(pattern, e->name))) aliases.push_back({a, e ? e->name : "", why});
    }
    if (p.vm.count("json")) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& e : pl->event_names()) {
            if (!matches(pattern, e.name)) continue;
            const bool impl = pl->implements(*pmu, e.number);
            j.push_back({{"number", e.number}, {"name", e.name}, {"description", e.description},
                         {"implemented", impl}, {"modelled", impl && modelled[e.number]}});
        }
        out << j.dump(2) << "\n";
        return 0;
    }
    if (!aliases.empty()) {
        out << "generic events (-e accepts them, as perf does):\n";
        for (const auto& a : aliases)
            out << fmt::format("  {:<22} {}\n", a.name, a.stands_for.empty() ? "not available: " + a.why : a.stands_for);
        out << "\n";
    }
    const Table t = event_table(*pl, *pmu, modelled);
    const auto row = [&out](const std::vector<std::string>& c) {
        out << fmt::format("{:<8} {:<40} {:<11} {:<8}  {}\n", c[0], c[1], c[2], c[3], c[4]);
    };
    row(t.columns);
    for (const auto& r : t.rows)
        if (matches(pattern, r[1])) row(r);
    return 0;
}

}  // namespace pmusim::cli
