#include "testbench/commands.hpp"

#include <ostream>

#include <fmt/format.h>

#include "testbench/cli_common.hpp"
#include "isa/a64_sysreg.hpp"

namespace pmusim::cli {

int cmd_regs(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim regs: options");
    std::string platform;
    std::vector<std::string> kvs;
    desc.add_options()("platform,p", po::value<std::string>(&platform)->required(), "platform name (see `pmusim platforms`)")(
        "option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "reg", po::value<std::string>(), "register to show field by field");
    po::positional_options_description pos;
    pos.add("reg", 1);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, &pos, p, out, err, "usage: pmusim regs --platform P [REG]", status)) return status;
    PlatformOptions opts;
    if (!parse_options(kvs, opts, err)) return usage_error;
    const Platform* pl = need_platform(platform, err);
    if (!pl) return usage_error;
    auto pmu = make_pmu(*pl, opts, err);
    if (!pmu) return usage_error;
    if (p.vm.count("reg")) {
        const std::string name = p.vm["reg"].as<std::string>();
        Register* r = pmu->bank().find(name);
        if (!r && pl->isa == IsaKind::a64)
            if (auto k = isa::a64::parse_generic_name(name)) r = pmu->bank().find(EncodingSpace::a64_sysreg, *k);
        if (!r) {
            err << fmt::format("pmusim: unknown register '{}' on platform {}\n", name, pl->name);
            return usage_error;
        }
        out << fmt::format("{} — {}\n", r->name, r->description);
        out << fmt::format("  encoding: {}\n  offset:   {}\n  width:    {} bits\n  reset:    {}\n  access:   {}\n",
                           encoding_text(*r), offsets_text(*r), r->width, hexw(r->read(), r->width),
                           r->readable && r->writable ? "read/write" : (r->readable ? "read-only" : "write-only"));
        if (!r->source.empty()) out << fmt::format("  source:   {}\n", r->source);
        out << fmt::format("  {:<9} {:<10} {:<7} {:<12} {}\n", "BITS", "FIELD", "ACCESS", "RESET", "DESCRIPTION");
        for (auto it = r->fields.rbegin(); it != r->fields.rend(); ++it) {
            const uint64_t reset = (it->read(r->word()) >> it->lsb) & (it->mask() >> it->lsb);
            out << fmt::format("  {:<9} {:<10} {:<7} {:<12} {}\n", bits_text(*it), it->name, to_string(it->kind),
                               fmt::format("{:#x}", reset), it->description);
        }
        return 0;
    }
    out << fmt::format("{:<18} {:<24} {:<12} {:>5}  {:<18}  {}\n", "REGISTER", "ENCODING", "OFFSET", "WIDTH", "RESET",
                       "DESCRIPTION");
    for (const auto& r : pmu->bank().all())
        out << fmt::format("{:<18} {:<24} {:<12} {:>5}  {:<18}  {}\n", r->name, encoding_text(*r), offsets_text(*r),
                           r->width, r->state ? hexw(r->read(), r->width) : "-", r->description);
    return 0;
}

}  // namespace pmusim::cli
