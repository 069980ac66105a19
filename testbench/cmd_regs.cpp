#include "testbench/commands.hpp"

#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "testbench/cli_common.hpp"
#include "testbench/command_bodies.hpp"
#include "isa/a64_sysreg.hpp"

namespace pmusim::cli {

namespace {

nlohmann::json register_json(const Register& r, bool with_fields) {
    nlohmann::json j = {{"name", r.name},
                        {"encoding", encoding_text(r)},
                        {"offset", offsets_text(r)},
                        {"width", r.width},
                        {"reset", r.state ? nlohmann::json(r.read()) : nlohmann::json(nullptr)},
                        {"access", register_access_text(r)},
                        {"description", r.description},
                        {"source", r.source}};
    if (!with_fields) return j;
    nlohmann::json fields = nlohmann::json::array();
    for (auto it = r.fields.rbegin(); it != r.fields.rend(); ++it)
        fields.push_back({{"name", it->name},
                          {"bits", bits_text(*it)},
                          {"msb", it->msb()},
                          {"lsb", it->lsb},
                          {"access", r.undefined ? "UNDEFINED" : std::string(to_string(it->kind))},
                          {"reset", field_reset(r, *it)},
                          {"description", it->description},
                          {"event", it->event_selector}});
    j["fields"] = std::move(fields);
    return j;
}

}  // namespace

int cmd_regs(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim regs: options");
    std::string platform;
    std::vector<std::string> kvs;
    std::string platform_file;
    add_platform_options(desc, platform, platform_file);
    desc.add_options()("option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "json", "print JSON instead of a table")("reg", po::value<std::string>(), "register to show field by field");
    po::positional_options_description pos;
    pos.add("reg", 1);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, &pos, p, out, err, "usage: pmusim regs --platform P [REG] [--json]", status)) return status;
    PlatformOptions opts;
    const Platform* pl = platform_from_args(platform, platform_file, kvs, opts, err);
    if (!pl) return usage_error;
    auto pmu = make_pmu(*pl, opts, err);
    if (!pmu) return usage_error;
    const bool json = p.vm.count("json") > 0;
    if (p.vm.count("reg")) {
        const std::string name = p.vm["reg"].as<std::string>();
        Register* r = pmu->bank().find(name);
        if (!r && pl->isa == IsaKind::a64)
            if (auto k = isa::a64::parse_generic_name(name)) r = pmu->bank().find(EncodingSpace::a64_sysreg, *k);
        if (!r) {
            err << fmt::format("pmusim: unknown register '{}' on platform {}\n", name, pl->name);
            return usage_error;
        }
        if (json) {
            out << register_json(*r, true).dump(2) << "\n";
            return 0;
        }
        out << fmt::format("{} — {}\n", r->name, r->description);
        out << fmt::format("  encoding: {}\n  offset:   {}\n  width:    {} bits\n  reset:    {}\n  access:   {}\n",
                           encoding_text(*r), offsets_text(*r), r->width, hexw(r->read(), r->width), register_access_text(*r));
        if (!r->source.empty()) out << fmt::format("  source:   {}\n", r->source);
        const Table t = field_table(*r);
        const auto row = [&out](const std::vector<std::string>& c) {
            out << fmt::format("  {:<9} {:<10} {:<9} {:<12} {}\n", c[0], c[1], c[2], c[3], c[4]);
        };
        row(t.columns);
        for (const auto& c : t.rows) row(c);
        return 0;
    }
    if (json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& r : pmu->bank().all()) j.push_back(register_json(*r, false));
        out << j.dump(2) << "\n";
        return 0;
    }
    const Table t = register_table(*pmu);
    const auto row = [&out](const std::vector<std::string>& c) {
        out << fmt::format("{:<18} {:<24} {:<12} {:>5}  {:<18}  {}\n", c[0], c[1], c[2], c[3], c[4], c[5]);
    };
    row(t.columns);
    for (const auto& c : t.rows) row(c);
    return 0;
}

}  // namespace pmusim::cli
