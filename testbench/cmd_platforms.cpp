#include "testbench/commands.hpp"

#include <ostream>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "platforms/platform_json.hpp"
#include "testbench/cli_common.hpp"

namespace pmusim::cli {

int cmd_platforms(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim platforms: options");
    std::string dump;
    desc.add_options()("json", "print JSON instead of a table")(
        "dump", po::value<std::string>(&dump),
        "print platform NAME as a platform file (JSON) for --platform-file: the start of a description of your own core");
    Parsed p;
    int status = 0;
    if (!parse(args, desc, nullptr, p, out, err, "usage: pmusim platforms [--json | --dump NAME]", status)) return status;
    if (!dump.empty()) {
        const Platform* pl = need_platform(dump, err);
        if (!pl) return usage_error;
        out << dump_platform(*pl);
        return 0;
    }
    if (p.vm.count("json")) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& pl : all_platforms())
            j.push_back({{"name", pl.name}, {"family", pl.family}, {"pmu", pl.pmu}, {"counters", pl.counters},
                         {"description", pl.description}});
        out << json_text(j);
        return 0;
    }
    out << fmt::format("{:<16} {:<14} {:<9} {:>8}  {}\n", "PLATFORM", "FAMILY", "PMU", "COUNTERS", "DESCRIPTION");
    for (const auto& pl : all_platforms())
        out << fmt::format("{:<16} {:<14} {:<9} {:>8}  {}\n", pl.name, pl.family, pl.pmu, pl.counters, pl.description);
    return 0;
}

}  // namespace pmusim::cli
