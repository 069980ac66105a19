#include "testbench/commands.hpp"

#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "replay/replay.hpp"
#include "testbench/cli_common.hpp"
#include "testbench/command_bodies.hpp"

namespace pmusim::cli {

// `pmusim events --platform P`: every event the platform's architecture names, like `perf list`: whether this
// core implements it (PMCEID, AN195 Table 2, VeeR PRM Table 8.1) and whether `pmusim run` produces it.
int cmd_events(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim events: options");
    std::string platform;
    std::vector<std::string> kvs;
    std::string platform_file;
    add_platform_options(desc, platform, platform_file);
    desc.add_options()("option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "json", "print JSON instead of a table");
    Parsed p;
    int status = 0;
    if (!parse(args, desc, nullptr, p, out, err, "usage: pmusim events --platform P [--json]", status)) return status;
    PlatformOptions opts;
    const Platform* pl = platform_from_args(platform, platform_file, kvs, opts, err);
    if (!pl) return usage_error;
    auto pmu = make_pmu(*pl, opts, err);
    if (!pmu) return usage_error;
    // A trace with data addresses: the most the timing model can produce.
    const std::vector<bool> modelled = replay::producible_events(*pl, true);
    if (p.vm.count("json")) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& e : pl->event_names()) {
            const bool impl = pl->implements(*pmu, e.number);
            j.push_back({{"number", e.number}, {"name", e.name}, {"description", e.description},
                         {"implemented", impl}, {"modelled", impl && modelled[e.number]}});
        }
        out << j.dump(2) << "\n";
        return 0;
    }
    const Table t = event_table(*pl, *pmu, modelled);
    const auto row = [&out](const std::vector<std::string>& c) {
        out << fmt::format("{:<8} {:<40} {:<11} {:<8}  {}\n", c[0], c[1], c[2], c[3], c[4]);
    };
    row(t.columns);
    for (const auto& r : t.rows) row(r);
    return 0;
}

}  // namespace pmusim::cli
