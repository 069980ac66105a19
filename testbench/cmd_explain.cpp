#include "testbench/commands.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "isa/number.hpp"
#include "isa/rv32.hpp"
#include "testbench/cli_common.hpp"
#include "testbench/explain.hpp"
#include "testbench/script_isa.hpp"
#include "testbench/script_runner.hpp"

namespace pmusim::cli {

namespace {

// The core registers an access reads as its source: an MSR/MCR's transfer register, a CSR instruction's rs1.
std::vector<unsigned> source_registers(IsaKind isa, const std::string& access) {
    const ParseOutcome p = parse_instruction(isa, access);
    if (!p.insn) return {};
    const ScriptInsn& i = *p.insn;
    if (i.kind == ScriptInsn::Kind::sys_write) return {i.reg};
    if (i.kind == ScriptInsn::Kind::csr && !i.csr_imm) {
        const isa::rv32::CsrInsn ci{static_cast<isa::rv32::CsrOp>(i.csr_op), false, i.reg, i.csr_src, 0};
        if (isa::rv32::csr_writes(ci)) return {i.csr_src};
    }
    return {};
}

}  // namespace

int cmd_explain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim explain: options");
    std::string platform, after;
    std::vector<std::string> kvs, sets;
    std::string platform_file;
    add_platform_options(desc, platform, platform_file);
    desc.add_options()("option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "el", po::value<std::string>(), "ARM: exception level / privilege level of the access, 0-3 (as --priv)")(
        "priv", po::value<std::string>(),
        "privilege of the access in the architecture's words: EL0-EL3 (ARMv8); PL0/User, PL1/Supervisor/System/..., "
        "PL2/Hyp, Monitor (ARMv7; ARM11: PL0, PL1); M or U (RISC-V). Default: the platform's privileged level "
        "(EL1, PL1, M-mode), or the level the --after script leaves")(
        "set", po::value<std::vector<std::string>>(&sets), "the instruction's source register, e.g. r2=0x17 or a0=29")(
        "after", po::value<std::string>(&after), "run this script first and explain the access in the state it leaves")(
        "json", "print the access records as JSON")(
        "access", po::value<std::string>()->required(),
        "\"write REG VALUE\" (VALUE may be an event name), \"read REG\", or an instruction that accesses a register: "
        "MRS/MSR, MRC/MCR, or a RISC-V CSR instruction such as \"csrw mhpmevent3, a0\"");
    po::positional_options_description pos;
    pos.add("access", 1);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, &pos, p, out, err,
               "usage: pmusim explain --platform P [--priv LEVEL] [--set REG=VALUE] [--after SCRIPT] [--json] \"ACCESS\"",
               status))
        return status;
    ScriptConfig cfg;
    cfg.default_platform = platform;
    if (!parse_options(kvs, cfg.options, err)) return usage_error;
    if (!resolve_platform(platform, platform_file, false, err)) return usage_error;
    cfg.default_platform = platform;
    if (platform.empty() && after.empty()) {
        err << "pmusim: explain needs a platform: --platform P, or a `platform` line in the --after script\n";
        return usage_error;
    }
    // The --after script's own reads are not this command's output; its diagnostics and failures go to stderr.
    std::ostringstream script_out;
    ScriptRunner runner(cfg, script_out, err);
    const int st = after.empty() ? runner.run_text("", "explain") : runner.run_file(after);
    if (st == script_malformed) return usage_error;
    if (st == script_failed) {
        err << fmt::format("pmusim: explain: an expectation of {} failed: nothing explained\n", after);
        return st;
    }
    const Platform* pl = runner.platform();
    if (!pl || !runner.pmu()) {
        err << fmt::format("pmusim: explain needs a platform: {} selects none; pass --platform P\n", after);
        return usage_error;
    }
    if (p.vm.count("el") && p.vm.count("priv")) {
        err << "pmusim: explain takes --el or --priv, not both\n";
        return usage_error;
    }
    for (const char* opt : {"el", "priv"}) {
        if (!p.vm.count(opt)) continue;
        std::string error;
        const auto level = parse_privilege(*pl, *runner.pmu(), p.vm[opt].as<std::string>(), error);
        if (!level) {
            err << fmt::format("pmusim: --{}: {}\n", opt, error);
            return usage_error;
        }
        runner.set_privilege(*level);
    }
    const std::string access = p.vm["access"].as<std::string>();
    const std::vector<unsigned> sources = source_registers(pl->isa, access);
    for (const auto& kv : sets) {
        const size_t eq = kv.find('=');
        const auto reg = eq == std::string::npos ? std::nullopt : core_register(pl->isa, kv.substr(0, eq));
        if (!reg) {
            err << fmt::format("pmusim: --set expects CORE_REG=VALUE with a core register of {}, got '{}'\n", pl->name, kv);
            return usage_error;
        }
        const auto v = isa::parse_number(kv.substr(eq + 1));
        if (!v) {
            err << fmt::format("pmusim: --set {}: expected a value (decimal, 0x hex or 0b binary), got '{}'\n",
                               kv.substr(0, eq), kv.substr(eq + 1));
            return usage_error;
        }
        if (std::find(sources.begin(), sources.end(), *reg) == sources.end()) {
            err << fmt::format("pmusim: --set {}: the access does not read {} (--set gives the source register of an "
                               "instruction that writes a register; \"write REG VALUE\" takes the value itself)\n",
                               kv.substr(0, eq), kv.substr(0, eq));
            return usage_error;
        }
        runner.set_core_register(*reg, *v);
    }
    std::string error;
    const auto e = runner.explain(access, error);
    if (!e) {
        err << fmt::format("pmusim: {}\n", error);
        return usage_error;
    }
    if (p.vm.count("json")) {
        nlohmann::json j = explanation_json(*pl, *runner.pmu(), *e);
        if (!after.empty()) j["after"] = after;
        out << j.dump(2) << "\n";
    } else {
        print_explanation(out, *pl, *runner.pmu(), *e);
    }
    return 0;
}

}  // namespace pmusim::cli
