#include "testbench/commands.hpp"

#include <ostream>

#include "testbench/cli_common.hpp"
#include "testbench/command_bodies.hpp"
#include "testbench/explain.hpp"

namespace pmusim::cli {

int cmd_explain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim explain: options");
    ExplainArgs a;
    add_platform_options(desc, a.platform, a.platform_file);
    desc.add_options()("option,o", po::value<std::vector<std::string>>(&a.options), "platform option KEY=VALUE (repeatable)")(
        "el", po::value<std::string>(), "ARM: exception level / privilege level of the access, 0-3 (as --priv)")(
        "priv", po::value<std::string>(),
        "privilege of the access in the architecture's words: EL0-EL3 (ARMv8); PL0/User, PL1/Supervisor/System/..., "
        "PL2/Hyp, Monitor (ARMv7; ARM11: PL0, PL1); M or U (RISC-V). Default: the platform's privileged level "
        "(EL1, PL1, M-mode), or the level the --after script leaves")(
        "set", po::value<std::vector<std::string>>(&a.sets), "the instruction's source register, e.g. r2=0x17 or a0=29")(
        "after", po::value<std::string>(&a.after), "run this script first and explain the access in the state it leaves")(
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
    if (p.vm.count("el")) a.el = p.vm["el"].as<std::string>();
    if (p.vm.count("priv")) a.priv = p.vm["priv"].as<std::string>();
    a.access = p.vm["access"].as<std::string>();
    Explained x;
    if (const int st = explain(a, x, err)) return st;
    const Platform& pl = *x.platform;
    Pmu& pmu = *x.runner->pmu();
    const Explanation& e = x.explanation;
    if (p.vm.count("json")) {
        nlohmann::json j = explanation_json(pl, pmu, e);
        if (!a.after.empty()) j["after"] = a.after;
        out << j.dump(2) << "\n";
    } else {
        print_explanation(out, pl, pmu, e);
    }
    return 0;
}

}  // namespace pmusim::cli
