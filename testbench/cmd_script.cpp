#include "testbench/commands.hpp"

#include <cstdint>
#include <ostream>

#include <fmt/format.h>

#include "testbench/cli_common.hpp"
#include "testbench/script_runner.hpp"
#include "testbench/systemc_host.hpp"
#include "traces/output_file.hpp"

namespace pmusim::cli {

int cmd_script(const std::vector<std::string>& args, bool quiet, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim script: options");
    ScriptConfig cfg;
    cfg.quiet = quiet;
    std::vector<std::string> kvs;
    uint64_t vcd_period = wave::default_sample_period;
    std::string vcd, plot_file;
    std::string platform_file;
    add_platform_options(desc, cfg.default_platform, platform_file);
    desc.add_options()("option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "quiet,q", "hide info-level diagnostics")("json", "print one JSON document: reads, diagnostics, failures, explanations")(
        "vcd", po::value<std::string>(&vcd), "run under SystemC and write a VCD waveform of the PMU to this file")(
        "plot", po::value<std::string>(&plot_file), "run under SystemC and draw the waveform's counters and lines into this SVG file")(
        "file", po::value<std::string>()->required(), "script file, or - for standard input");
    add_vcd_period_option(desc, vcd_period);
    po::positional_options_description pos;
    pos.add("file", 1);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, &pos, p, out, err,
               "usage: pmusim script FILE|- [--platform P] [--option KEY=VALUE] [--vcd FILE | --json]", status))
        return status;
    if (p.vm.count("quiet")) cfg.quiet = true;
    cfg.json = p.vm.count("json") > 0;
    if (!parse_options(kvs, cfg.options, err)) return usage_error;
    if (!resolve_platform(cfg.default_platform, platform_file, false, err)) return usage_error;
    if (!check_vcd_period(vcd_period, err)) return usage_error;
    if ((!vcd.empty() || !plot_file.empty()) && cfg.json) {
        err << "pmusim: script takes --json or --vcd/--plot, not both\n";
        return usage_error;
    }
    if (!vcd.empty() || !plot_file.empty()) {
        try {  // no output may replace the script (docs/cli.md "Output files")
            refuse_same_file(vcd, "--vcd", {p.vm["file"].as<std::string>()});
            refuse_same_file(plot_file, "--plot", {p.vm["file"].as<std::string>()});
        } catch (const OutputError& e) {
            err << fmt::format("pmusim: {}\n", e.what());
            return usage_error;
        }
        return vp::run_script_systemc(cfg, p.vm["file"].as<std::string>(), vcd, vcd_period, plot_file, out, err);
    }
    ScriptRunner runner(cfg, out, err);
    return runner.run_file(p.vm["file"].as<std::string>());
}

int cmd_vp(const std::vector<std::string>& args, bool quiet, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim vp: options");
    vp::VpOptions o;
    o.quiet = quiet;
    std::vector<std::string> kvs;
    Count instructions{o.instructions}, cpi{o.cpi};
    Positive quantum{o.quantum_ns}, period{o.period_ns};
    std::string platform_file;
    add_platform_options(desc, o.platform, platform_file);
    desc.add_options()("option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "setup", po::value<std::string>(&o.setup), "script run on the PMU at time 0 (program the counters)")(
        "instructions", po::value<Count>(&instructions)->default_value(Count{1000000}), "instructions the core retires")(
        "cpi", po::value<Count>(&cpi)->default_value(Count{1}), "cycles per instruction of the synthetic core (1 to 1000000)")(
        "quantum", po::value<Positive>(&quantum)->default_value(Positive{1000}), "temporal-decoupling quantum, ns (0.001 to 1e9)")(
        "period", po::value<Positive>(&period)->default_value(Positive{1}), "clock period, ns (0.001 to 1e9: SystemC resolves 1 ps)")(
        "vcd", po::value<std::string>(&o.vcd), "write a VCD waveform of the PMU to this file")(
        "plot", po::value<std::string>(&o.plot), "draw the waveform's counters and lines into this SVG file");
    add_vcd_period_option(desc, o.vcd_period);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, nullptr, p, out, err, "usage: pmusim vp --platform P [--setup FILE] [--instructions N]", status))
        return status;
    if (!parse_options(kvs, o.options, err)) return usage_error;
    if (cpi.value == 0 || cpi.value > 1000000) {
        err << fmt::format("pmusim: --cpi expects 1 to 1000000 cycles per instruction, got {}\n", cpi.value);
        return usage_error;
    }
    // The run's length in cycles and in SystemC time must be representable (64-bit cycles, double ns).
    if (instructions.value > UINT64_MAX / cpi.value ||
        static_cast<double>(instructions.value) * static_cast<double>(cpi.value) * period.value > 1e18) {
        err << "pmusim: --instructions x --cpi x --period is too long a run to simulate (over 1e18 ns)\n";
        return usage_error;
    }
    // SystemC counts time in its resolution, 1 ps by default (IEEE 1666-2011 §5.11.3): a shorter period or quantum
    // would round to 0 (the run would end at 0 s). Up to 1 s a cycle.
    for (const auto& [name, ns] : {std::pair{"--period", period.value}, {"--quantum", quantum.value}})
        if (ns < 0.001 || ns > 1e9) {
            err << fmt::format("pmusim: {} expects 0.001 to 1e9 ns (SystemC's resolution is 1 ps), got {}\n", name, ns);
            return usage_error;
        }
    o.instructions = instructions.value;
    o.cpi = cpi.value;
    o.quantum_ns = quantum.value;
    o.period_ns = period.value;
    if (!check_vcd_period(o.vcd_period, err)) return usage_error;
    if (!resolve_platform(o.platform, platform_file, true, err)) return usage_error;
    try {  // no output may replace the setup script (docs/cli.md "Output files")
        refuse_same_file(o.vcd, "--vcd", {o.setup});
        refuse_same_file(o.plot, "--plot", {o.setup});
    } catch (const OutputError& e) {
        err << fmt::format("pmusim: {}\n", e.what());
        return usage_error;
    }
    return vp::run_vp(o, out, err);
}

}  // namespace pmusim::cli
