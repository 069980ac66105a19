#include "testbench/commands.hpp"

#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "testbench/cli_common.hpp"
#include "replay/replay.hpp"
#include "testbench/plot.hpp"
#include "testbench/report.hpp"
#include "traces/convert.hpp"
#include "traces/native.hpp"
#include "testbench/virtual_platform.hpp"

namespace pmusim::cli {

int cmd_run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim run: options");
    replay::Options o;
    std::vector<std::string> kvs;
    std::string timing = "model", output = "table", events, engine = "block", plot_file, plot_x = "instructions", plot_events;
    Count interval;
    uint64_t vcd_period = 1000;
    desc.add_options()("platform,p", po::value<std::string>(&o.platform)->required(), "platform name")(
        "option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "trace,t", po::value<std::string>(&o.trace)->required(), "trace file (plain, .gz or .xz), or - for standard input")(
        "format,f", po::value<std::string>(&o.format)->default_value("auto"),
        "auto (from the first lines), or: tarmac (time, registers, memory; Fast Models, gem5, Arm RTL); veer (VeeR EL2 "
        "exec.log: cycle, registers, CSRs, late writebacks, addresses); spike (--log-commits: registers, CSRs, addresses, "
        "store data); qemu-execlog (execlog plugin: addresses, no registers, no time); qemu-log (-d in_asm,exec[,cpu]: "
        "registers from the dumps, no time); native, native-text (pmusim's own: everything a record holds). "
        "docs/trace-formats.md has the details")(
        "timing", po::value<std::string>(&timing)->default_value("model"),
        "model (cycles from the timing model), trace (from the trace's timestamps) or cpi1 (one cycle per instruction)")(
        "output", po::value<std::string>(&output)->default_value("table"), "table, csv or json")(
        "events", po::value<std::string>(&events), "comma-separated events to program counters with")(
        "interval", po::value<Count>(&interval)->default_value(Count{0}),
        "a time series: the counts every N instructions (a table, CSV rows, or an 'intervals' array in JSON)")(
        "architectural", "only the events retirement decides; with --timing cpi1 or trace the timing model does not run")(
        "engine", po::value<std::string>(&engine)->default_value("block"),
        "block (decoded basic blocks, the fast engine) or reference (one record at a time); the results are identical")(
        "skip-bad-lines", "count malformed lines as warnings instead of stopping")(
        "all", "VeeR exec.log: replay past the end-of-test mailbox store")(
        "vcd", po::value<std::string>(), "replay under SystemC and write a VCD waveform of the PMU to this file")(
        "vcd-period", po::value<uint64_t>(&vcd_period)->default_value(1000), "cycles between counter samples in the VCD")(
        "plot", po::value<std::string>(&plot_file), "draw the counters over the run into this SVG file")(
        "plot-x", po::value<std::string>(&plot_x)->default_value("instructions"), "the plot's x axis: instructions or cycles")(
        "plot-events", po::value<std::string>(&plot_events), "comma-separated events to plot besides the counters");
    Parsed p;
    int status = 0;
    if (!parse(args, desc, nullptr, p, out, err, "usage: pmusim run --platform P --trace FILE [--output json]", status))
        return status;
    if (!parse_options(kvs, o.platform_options, err)) return usage_error;
    o.interval = interval.value;
    if (timing != "model" && timing != "trace" && timing != "cpi1") {
        err << fmt::format("pmusim: --timing expects model, trace or cpi1, got '{}'\n", timing);
        return usage_error;
    }
    o.timing = timing == "trace" ? replay::Timing::trace : timing == "cpi1" ? replay::Timing::cpi1 : replay::Timing::model;
    if (output != "table" && output != "csv" && output != "json") {
        err << fmt::format("pmusim: --output expects table, csv or json, got '{}'\n", output);
        return usage_error;
    }
    o.output = output == "json" ? replay::Output::json : output == "csv" ? replay::Output::csv : replay::Output::table;
    o.events = split_list(events);
    if (plot_x != "instructions" && plot_x != "cycles") {
        err << fmt::format("pmusim: --plot-x expects instructions or cycles, got '{}'\n", plot_x);
        return usage_error;
    }
    if (vcd_period == 0) {
        err << "pmusim: --vcd-period must be at least 1 cycle\n";
        return usage_error;
    }
    if (engine != "block" && engine != "reference") {
        err << fmt::format("pmusim: --engine expects block or reference, got '{}'\n", engine);
        return usage_error;
    }
    o.engine = engine == "reference" ? replay::Engine::reference : replay::Engine::block;
    o.timing_events = p.vm.count("architectural") == 0;
    if (!o.timing_events && o.timing == replay::Timing::model) {
        err << "pmusim: --architectural needs --timing cpi1 or trace (the timing model gives the cycles)\n";
        return usage_error;
    }
    o.reader.skip_bad_lines = p.vm.count("skip-bad-lines") > 0;
    o.reader.replay_all = p.vm.count("all") > 0;
    o.progress = true;
    const Platform* pl = need_platform(o.platform, err);
    if (!pl) return usage_error;
    std::vector<uint32_t> plotted;
    for (const auto& name : split_list(plot_events)) {
        const auto e = find_event(*pl, name);
        if (!e) {
            err << fmt::format("pmusim: --plot-events: '{}' is not an event of platform {}\n", name, pl->name);
            return usage_error;
        }
        plotted.push_back(e->number);
    }
    // The series: every point for --interval; for a plot alone, a point every 16 instructions thinned to at most
    // 1000 (replay::Series).
    const bool print_series = o.interval != 0;
    replay::Series series(print_series ? 0 : 1000);
    if (!plot_file.empty() && !o.interval) o.interval = 16;
    if (o.interval) o.on_interval = [&series](const replay::IntervalPoint& pt) { series.add(pt); };
    try {
        // The whole report is built first, and files are written only after the run: an error leaves no
        // half-written output.
        const replay::Result r = p.vm.count("vcd") ? vp::run_replay_systemc(o, p.vm["vcd"].as<std::string>(), vcd_period, err)
                                                   : replay::run(o);
        std::ostringstream report;
        replay::print(o, *pl, r, report, print_series ? &series : nullptr);
        if (!plot_file.empty())
            plot::write_file(plot_file, plot::svg(replay::figure(*pl, o.trace, series, plot_x == "cycles", plotted)));
        out << report.str();
        return 0;
    } catch (const trace::TraceError& e) {
        err << "pmusim: error: " << e.what() << "\n";
        return 2;
    } catch (const std::invalid_argument& e) {
        err << "pmusim: " << e.what() << "\n";
        return 2;
    } catch (const std::runtime_error& e) {  // the waveform or the plot could not be written
        err << "pmusim: error: " << e.what() << "\n";
        return 2;
    }
}

int cmd_convert(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim convert: options");
    std::string in, outp, format, platform, isa_name;
    desc.add_options()("format,f", po::value<std::string>(&format)->default_value("auto"),
                       "input format: auto, tarmac, veer, spike, qemu-execlog, qemu-log, native, native-text")(
        "platform,p", po::value<std::string>(&platform),
        "the platform the trace ran on, as for run: gives the instruction set to formats that do not carry it")(
        "isa", po::value<std::string>(&isa_name), "the instruction set instead of a platform: a64, a32, t32, rv32 or rv64")(
        "text", "write the native text form (chosen too by an output name ending in .txt, and for standard output)")(
        "binary", "write the binary form even to standard output")(
        "all", "VeeR exec.log: convert past the end-of-test mailbox store")(
        "in", po::value<std::string>(&in)->required(), "input trace")("out", po::value<std::string>(&outp)->required(),
                                                                        "output file (- for standard output)");
    po::positional_options_description pos;
    pos.add("in", 1).add("out", 1);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, &pos, p, out, err, "usage: pmusim convert IN OUT [--platform P | --isa I] [--text]", status))
        return status;
    const bool text = p.vm.count("text") || (outp.size() > 4 && outp.substr(outp.size() - 4) == ".txt") ||
                      (outp == "-" && !p.vm.count("binary"));
    trace::ReaderOptions ro;
    ro.replay_all = p.vm.count("all") > 0;
    // The instruction set, for the formats that do not carry it (QEMU's execlog, -d logs without register dumps):
    // from the platform, as `run` takes it, or named.
    if (!platform.empty() && !isa_name.empty()) {
        err << "pmusim: convert takes --platform or --isa, not both\n";
        return usage_error;
    }
    if (!platform.empty()) {
        const Platform* pl = need_platform(platform, err);
        if (!pl) return usage_error;
        ro.isa = pl->isa == IsaKind::a64 ? trace::IsaState::a64 : pl->isa == IsaKind::a32 ? trace::IsaState::a32 : trace::IsaState::rv32;
    } else if (!isa_name.empty()) {
        static const std::pair<const char*, trace::IsaState> names[] = {{"a64", trace::IsaState::a64}, {"a32", trace::IsaState::a32},
                                                                         {"t32", trace::IsaState::t32}, {"rv32", trace::IsaState::rv32},
                                                                         {"rv64", trace::IsaState::rv64}};
        for (const auto& [n, s] : names)
            if (isa_name == n) ro.isa = s;
        if (ro.isa == trace::IsaState::unknown) {
            err << fmt::format("pmusim: --isa expects a64, a32, t32, rv32 or rv64, got '{}'\n", isa_name);
            return usage_error;
        }
    }
    if (in != "-" && (in == outp || same_file(in, outp))) {
        err << fmt::format("pmusim: convert: IN and OUT are the same file ({}); writing it would destroy the input\n", in);
        return usage_error;
    }
    // OUT is put in place only when the whole trace is converted (traces/output_file.hpp).
    try {
        const auto c = trace::convert(in, format, ro, outp, text);
        if (outp != "-") err << fmt::format("pmusim: {} records from {} ({}) to {}\n", c.records, in, c.format, outp);
        return 0;
    } catch (const trace::TraceError& e) {
        err << "pmusim: error: " << e.what() << "\n";
        return 2;
    } catch (const OutputError& e) {
        err << "pmusim: error: " << e.what() << "\n";
        return 2;
    }
}

}  // namespace pmusim::cli
