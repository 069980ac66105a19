#include "testbench/commands.hpp"

#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "testbench/cli_common.hpp"
#include "isa/a64_sysreg.hpp"
#include "isa/number.hpp"
#include "testbench/script_isa.hpp"
#include "testbench/script_runner.hpp"

namespace pmusim::cli {

int cmd_explain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim explain: options");
    std::string platform;
    std::vector<std::string> kvs, sets;
    unsigned el = 1;
    desc.add_options()("platform,p", po::value<std::string>(&platform)->required(), "platform name")(
        "option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "el", po::value<unsigned>(&el)->default_value(1), "exception level / privilege of the access")(
        "set", po::value<std::vector<std::string>>(&sets), "core register value for an instruction, e.g. r2=0x17")(
        "access", po::value<std::string>()->required(),
        "\"write REG VALUE\", \"read REG\", or a system-register instruction such as \"mcr p15, 0, r2, c9, c12, 0\"");
    po::positional_options_description pos;
    pos.add("access", 1);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, &pos, p, out, err, "usage: pmusim explain --platform P \"write REG VALUE\"", status)) return status;
    PlatformOptions opts;
    if (!parse_options(kvs, opts, err)) return usage_error;
    const Platform* pl = need_platform(platform, err);
    if (!pl) return usage_error;
    auto pmu = make_pmu(*pl, opts, err);
    if (!pmu) return usage_error;

    const std::string access = p.vm["access"].as<std::string>();
    std::istringstream in(access);
    std::string verb, name, value_text;
    in >> verb >> name >> value_text;
    verb = to_lower(verb);
    std::string extra;
    in >> extra;
    Register* r = nullptr;
    const ParseOutcome insn = parse_instruction(pl->isa, access);
    if (insn.is_instruction) {
        // A system-register instruction: the register from its encoding, the value from --set.
        if (!insn.insn || (insn.insn->kind != ScriptInsn::Kind::sys_read && insn.insn->kind != ScriptInsn::Kind::sys_write)) {
            err << fmt::format("pmusim: explain takes a system-register instruction: {}\n",
                               insn.error.empty() ? "this one accesses no register" : insn.error);
            return usage_error;
        }
        const ScriptInsn& i = *insn.insn;
        if (i.has_cp15) r = pmu->bank().find(EncodingSpace::cp15, i.cp15);
        else {
            r = pmu->bank().find(i.sysreg);
            if (!r && pl->isa == IsaKind::a64)
                if (auto k = isa::a64::parse_generic_name(i.sysreg)) r = pmu->bank().find(EncodingSpace::a64_sysreg, *k);
        }
        name = i.sysreg;
        verb = i.kind == ScriptInsn::Kind::sys_write ? "write" : "read";
        value_text = "0";
        for (const auto& kv : sets) {
            const size_t eq = kv.find('=');
            const auto reg = eq == std::string::npos ? std::nullopt : core_register(pl->isa, kv.substr(0, eq));
            if (!reg) {
                err << fmt::format("pmusim: --set expects CORE_REG=VALUE, got '{}'\n", kv);
                return usage_error;
            }
            if (*reg == i.reg) value_text = kv.substr(eq + 1);
        }
        if (r) out << fmt::format("{} is {} {} ({})\n", access, verb == "write" ? "a write of" : "a read of", r->name,
                                  i.encoding ? fmt::format("encoding {:#010x}", i.encoding) : "system register");
    } else {
        if ((verb != "write" && verb != "read") || name.empty() || (verb == "write") == value_text.empty() ||
            !extra.empty()) {
            err << "pmusim: explain expects \"write REG VALUE\", \"read REG\" or a system-register instruction\n";
            return usage_error;
        }
        r = pmu->bank().find(name);
        if (!r && pl->isa == IsaKind::a64)
            if (auto k = isa::a64::parse_generic_name(name)) r = pmu->bank().find(EncodingSpace::a64_sysreg, *k);
    }
    if (!r) {
        err << fmt::format("pmusim: unknown register '{}' on platform {}\n", name, pl->name);
        return usage_error;
    }
    AccessContext ctx;
    ctx.privilege = el;
    AccessRecord rec;
    if (verb == "write") {
        const auto v = isa::parse_number(value_text);
        if (!v) {
            err << fmt::format("pmusim: expected a value (decimal, 0x hex or 0b binary), got '{}'\n", value_text);
            return usage_error;
        }
        rec = pmu->write(*r, *v, ctx);
        out << fmt::format("{} {} = {} on {} at EL{}\n", verb, r->name, hexw(*v, r->width), pl->name, el);
    } else {
        rec = pmu->read(*r, ctx);
        out << fmt::format("read {} on {} at EL{}\n", r->name, pl->name, el);
    }
    if (rec.trapped()) {
        out << "  the access is refused and changes nothing:\n";
    } else {
        if (rec.target != rec.reg) out << fmt::format("  accesses {}\n", rec.target);
        if (rec.is_write)
            out << fmt::format("  {}: {} -> {}\n", rec.target, hexw(rec.old_value, r->width), hexw(rec.new_value, r->width));
        else
            out << fmt::format("  {} reads {}\n", rec.target, hexw(rec.value_read, r->width));
        out << fmt::format("  {:<9} {:<10} {:<7} {:>10} {:>10} {:>10}  {}\n", "BITS", "FIELD", "ACCESS",
                           rec.is_write ? "WRITTEN" : "", "BEFORE", "AFTER", "EFFECT");
        for (auto it = rec.fields.rbegin(); it != rec.fields.rend(); ++it) {
            const std::string bits =
                it->width == 1 ? fmt::format("[{}]", it->lsb) : fmt::format("[{}:{}]", it->lsb + it->width - 1, it->lsb);
            out << fmt::format("  {:<9} {:<10} {:<7} {:>10} {:>10} {:>10}  {}\n", bits, it->name, to_string(it->kind),
                               rec.is_write ? fmt::format("{:#x}", it->written) : "", fmt::format("{:#x}", it->old_value),
                               fmt::format("{:#x}", it->new_value), it->effect);
        }
    }
    for (const auto& d : rec.diagnostics)
        out << fmt::format("  {} [{}] {}\n", to_string(d.severity), d.code, d.message);
    return 0;
}

}  // namespace pmusim::cli
