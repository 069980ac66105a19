#include "testbench/commands.hpp"

#include <ostream>

#include <fmt/format.h>

#include "testbench/cli_common.hpp"
#include "testbench/script_runner.hpp"
#include "testbench/virtual_platform.hpp"

namespace pmusim::cli {

int cmd_script(const std::vector<std::string>& args, bool quiet, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim script: options");
    ScriptConfig cfg;
    cfg.quiet = quiet;
    std::vector<std::string> kvs;
    desc.add_options()("platform,p", po::value<std::string>(&cfg.default_platform), "default platform")(
        "option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "quiet,q", "hide info-level diagnostics")(
        "vcd", po::value<std::string>(), "run under SystemC and write a VCD waveform of the PMU to this file")(
        "file", po::value<std::string>()->required(), "script file");
    po::positional_options_description pos;
    pos.add("file", 1);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, &pos, p, out, err,
               "usage: pmusim script FILE [--platform P] [--option KEY=VALUE] [--vcd FILE]", status))
        return status;
    if (p.vm.count("quiet")) cfg.quiet = true;
    if (!parse_options(kvs, cfg.options, err)) return usage_error;
    if (p.vm.count("vcd"))
        return vp::run_script_systemc(cfg, p.vm["file"].as<std::string>(), p.vm["vcd"].as<std::string>(), out, err);
    ScriptRunner runner(cfg, out, err);
    return runner.run_file(p.vm["file"].as<std::string>());
}

int cmd_vp(const std::vector<std::string>& args, bool quiet, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim vp: options");
    vp::VpOptions o;
    o.quiet = quiet;
    std::vector<std::string> kvs;
    desc.add_options()("platform,p", po::value<std::string>(&o.platform)->required(), "platform name")(
        "option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "setup", po::value<std::string>(&o.setup), "script run on the PMU at time 0 (program the counters)")(
        "instructions", po::value<uint64_t>(&o.instructions)->default_value(1000000), "instructions the core retires")(
        "cpi", po::value<uint64_t>(&o.cpi)->default_value(1), "cycles per instruction of the synthetic core")(
        "quantum", po::value<double>(&o.quantum_ns)->default_value(1000), "temporal-decoupling quantum, ns")(
        "period", po::value<double>(&o.period_ns)->default_value(1), "clock period, ns")(
        "vcd", po::value<std::string>(&o.vcd), "write a VCD waveform of the PMU to this file");
    Parsed p;
    int status = 0;
    if (!parse(args, desc, nullptr, p, out, err, "usage: pmusim vp --platform P [--setup FILE] [--instructions N]", status))
        return status;
    if (!parse_options(kvs, o.options, err)) return usage_error;
    return vp::run_vp(o, out, err);
}

}  // namespace pmusim::cli
