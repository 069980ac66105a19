#include "testbench/commands.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <functional>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "testbench/cli_common.hpp"
#include "traces/output_file.hpp"
#include "replay/producer.hpp"
#include "replay/replay.hpp"
#include "testbench/plot.hpp"
#include "testbench/report.hpp"
#include "traces/convert.hpp"
#include "traces/elf_symbols.hpp"
#include "traces/native.hpp"
#include "testbench/systemc_host.hpp"

namespace pmusim::cli {

namespace {

// The words `run`'s options take (check_choice, --help's "values:", the bash completion): one list each.
const std::vector<Choice>& run_choices() {
    static const std::vector<Choice> c = [] {
        std::vector<std::string> formats = {"auto"};
        for (const auto& f : trace::format_names()) formats.push_back(f);
        return std::vector<Choice>{{"timing", {"model", "trace", "cpi1"}},
                                   {"output", {"table", "csv", "json"}},
                                   {"interval-unit", {"instructions", "cycles"}},
                                   {"plot-x", {"instructions", "cycles"}},
                                   {"engine", {"block", "reference"}},
                                   {"format", formats}};
    }();
    return c;
}
const Choice& run_choice(const std::string& option) {
    for (const Choice& c : run_choices())
        if (c.option == option) return c;
    throw std::logic_error("no choice list for --" + option);
}

// One side of --roi: hex (0x optional), or a symbol of the --elf file (docs/cli.md "Regions of interest").
uint64_t roi_address(const std::string& side, const std::string& text, const std::vector<trace::ElfSymbol>* syms) {
    const bool prefixed = side.size() > 2 && side[0] == '0' && (side[1] == 'x' || side[1] == 'X');
    if (!prefixed && syms)
        if (auto sym = trace::find_symbol(*syms, side)) return sym->value;
    const std::string digits = prefixed ? side.substr(2) : side;
    const bool hex = !digits.empty() && digits.size() <= 16 &&
                     digits.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    if (!hex)
        throw std::invalid_argument(fmt::format("--roi '{}': '{}' is not a hex address{}", text, side,
                                                syms ? " or a symbol of the --elf file" : " (symbols need --elf FILE)"));
    return std::stoull(digits, nullptr, 16);
}

replay::Region parse_roi(const std::string& text, const std::vector<trace::ElfSymbol>* syms) {
    replay::Region g;
    g.text = text;
    const size_t colon = text.find(':');
    if (colon != std::string::npos) {
        g.start = roi_address(text.substr(0, colon), text, syms);
        g.end = roi_address(text.substr(colon + 1), text, syms);
        return g;
    }
    // A symbol alone: the function's extent, [value, value + size).
    const auto sym = syms ? trace::find_symbol(*syms, text) : std::nullopt;
    if (!sym)
        throw std::invalid_argument(fmt::format("--roi '{}': expected START:END (hex PCs{}){}", text, syms ? " or symbols" : "",
                                                syms ? " or a symbol of the --elf file" : ", or a symbol with --elf FILE"));
    if (sym->size == 0)
        throw std::invalid_argument(fmt::format("--roi '{}': the symbol has no size in the ELF file (give START:END)", text));
    g.start = sym->value;
    g.end = sym->value + sym->size;
    g.extent = true;
    return g;
}

// -o was short for --option before it was perf's -o FILE (docs/cli.md): whether a -o value is KEY=VALUE with KEY
// an option of the platform (of any platform when it is not known yet, as for --manifest).
bool is_platform_option(const Platform* p, const std::string& v) {
    const size_t eq = v.find('=');
    if (eq == std::string::npos) return false;
    const std::string key = v.substr(0, eq);
    auto has = [&](const Platform& q) {
        return std::any_of(q.options.begin(), q.options.end(), [&](const OptionInfo& i) { return i.key == key; });
    };
    return p ? has(*p) : std::any_of(all_platforms().begin(), all_platforms().end(), has);
}

// The variables `pmusim run`'s options are bound to.
struct RunArgs {
    replay::Options o;
    std::vector<std::string> kvs, events;
    std::string timing = "model", output = "table", engine = "block", plot_file, plot_x = "instructions", plot_events;
    std::string interval_unit = "instructions", separator, out_file;
    std::vector<std::string> outs;  // -o/--out as given: the report file, or platform options (below)
    Count interval;
    uint64_t vcd_period = wave::default_sample_period;
    std::string platform_file;
};

void describe(po::options_description& desc, RunArgs& a) {
    replay::Options& o = a.o;
    add_platform_options(desc, o.platform, a.platform_file);
    desc.add_options()("option", po::value<std::vector<std::string>>(&a.kvs), "platform option KEY=VALUE (repeatable)")(
        "trace,t", po::value<std::string>(&o.trace), "trace file (plain, .gz or .xz), or - for standard input; also the first operand")(
        "format,f", po::value<std::string>(&o.format)->default_value("auto"),
        "auto (from the first lines), or: tarmac (time, registers, memory; Fast Models, gem5, Arm RTL); veer (VeeR EL2 "
        "exec.log: cycle, registers, CSRs, late writebacks, addresses); spike (--log-commits: registers, CSRs, addresses, "
        "store data); qemu-execlog (execlog plugin: addresses, no registers, no time); qemu-log (-d in_asm,exec[,cpu]: "
        "registers from the dumps, no time); native, native-text (pmusim's own: everything a record holds). "
        "docs/trace-formats.md has the details")(
        "timing", po::value<std::string>(&a.timing)->default_value("model"),
        "model (cycles from the timing model), trace (from the trace's timestamps) or cpi1 (one cycle per instruction)")(
        "output", po::value<std::string>(&a.output)->default_value("table"), "table, csv or json")(
        "field-separator,x", po::value<std::string>(&a.separator),
        "perf stat's CSV with this separator: value, unit, event, run time (cycles), percentage (--output csv is -x ,)")(
        "events,e", po::value<std::vector<std::string>>(&a.events),
        "events to count, comma-separated (repeatable): names, rNN (raw hex), 0xNN, or cycles, instructions, branches, "
        "branch-misses, cache-references, cache-misses; the first N program the counters; the report shows these only")(
        "roi", po::value<std::vector<std::string>>(),
        "count only a region of interest (repeatable): START:END (hex PCs or --elf symbols), from each retirement of "
        "START up to the next of END; or SYMBOL, a function's extent")(
        "elf", po::value<std::string>(), "the traced program's ELF file: symbols for --roi")(
        "check", "exit 1 after the report when a counter read-back differs from the prediction")(
        "interval,I", po::value<Count>(&a.interval)->default_value(Count{0}),
        "a time series: what every N instructions (or --interval-unit cycles) added, as perf stat -I prints it (a "
        "table, CSV rows, or an 'intervals' array of counts from the start in JSON); with --events, those events")(
        "interval-unit", po::value<std::string>(&a.interval_unit)->default_value("instructions"),
        "the unit of --interval N: instructions, or cycles (a point at the first instruction boundary at or past "
        "every N cycles)")(
        "interval-cumulative", "the time series' rows count from the start of the trace instead of per interval")(
        "architectural", "only the events retirement decides; with --timing cpi1 or trace the timing model does not run")(
        "engine", po::value<std::string>(&a.engine)->default_value("block"),
        "block (decoded basic blocks, the fast engine) or reference (one record at a time); the results are identical")(
        "skip-bad-lines", "count malformed lines as warnings instead of stopping")(
        "all", "VeeR exec.log: replay past the end-of-test mailbox store")(
        "vcd", po::value<std::string>(), "replay under SystemC and write a VCD waveform of the PMU to this file")(
        "plot", po::value<std::string>(&a.plot_file), "draw the counters over the run into this SVG file")(
        "plot-x", po::value<std::string>(&a.plot_x)->default_value("instructions"), "the plot's x axis: instructions or cycles")(
        "plot-events", po::value<std::string>(&a.plot_events), "comma-separated events to plot besides the counters")(
        "manifest", po::value<std::string>(),
        "replay every trace this file lists (one a line: TRACE [run options]) and write one JSON object a line")(
        "shard", po::value<std::string>(), "with --manifest: only the K-th of N shares of its traces (K/N, 1 <= K <= N)")(
        "out,o", po::value<std::vector<std::string>>(&a.outs),
        "write the report to this file (as perf stat -o; complete, or not at all), never over the trace; with "
        "--manifest, the JSON lines. A -o KEY=VALUE whose KEY is a platform option is still --option KEY=VALUE");
    add_vcd_period_option(desc, a.vcd_period);
}

// Checks the parsed options and fills a.o; returns 0, or usage_error with a message. Throws for a bad --roi/--elf.
int setup(RunArgs& a, const po::variables_map& vm, std::ostream& err) {
    replay::Options& o = a.o;
    if (!resolve_platform(o.platform, a.platform_file, false, err)) return usage_error;
    if (o.platform.empty()) {
        err << "pmusim: the option '--platform' is required but missing\n";
        return usage_error;
    }
    if (o.trace.empty()) {
        err << "pmusim: the option '--trace' (or the trace as an operand) is required but missing\n";
        return usage_error;
    }
    // -o was short for --option before it was perf's -o FILE: a KEY=VALUE naming one of the platform's options
    // is still read as one (docs/cli.md).
    const Platform* named = find_platform(o.platform);
    for (const auto& v : a.outs) {
        if (named && is_platform_option(named, v)) {
            a.kvs.push_back(v);
        } else if (!a.out_file.empty()) {
            err << fmt::format("pmusim: -o/--out: one report file, got '{}' and '{}'\n", a.out_file, v);
            return usage_error;
        } else {
            a.out_file = v;
        }
    }
    if (!parse_options(a.kvs, o.platform_options, err)) return usage_error;
    if (vm.count("field-separator")) {
        if (a.separator.empty()) {
            err << "pmusim: -x expects a separator, got an empty one\n";
            return usage_error;
        }
        if (vm["output"].defaulted() || a.output == "csv") a.output = "csv";
        else {
            err << fmt::format("pmusim: -x prints CSV: give it without --output {}\n", a.output);
            return usage_error;
        }
        o.separator = a.separator;
    }
    if (!a.out_file.empty() && a.out_file != "-" && same_file(a.out_file, o.trace)) {
        err << fmt::format("pmusim: -o {}: that is the trace; writing the report there would destroy it\n", a.out_file);
        return usage_error;
    }
    o.interval = a.interval.value;
    if (!check_choice(run_choice("interval-unit"), a.interval_unit, err)) return usage_error;
    o.interval_cycles = a.interval_unit == "cycles";
    o.cumulative = vm.count("interval-cumulative") > 0;
    if (!check_choice(run_choice("timing"), a.timing, err)) return usage_error;
    if (!check_choice(run_choice("plot-x"), a.plot_x, err)) return usage_error;
    if (!check_vcd_period(a.vcd_period, err)) return usage_error;
    o.timing = a.timing == "trace" ? replay::Timing::trace : a.timing == "cpi1" ? replay::Timing::cpi1 : replay::Timing::model;
    if (!check_choice(run_choice("output"), a.output, err)) return usage_error;
    o.output = a.output == "json" ? replay::Output::json : a.output == "csv" ? replay::Output::csv : replay::Output::table;
    for (const auto& list : a.events)
        for (size_t start = 0; start <= list.size();) {
            const size_t comma = list.find(',', start);
            const std::string e = list.substr(start, comma - start);
            if (e.empty()) {
                err << fmt::format("pmusim: --events: an empty event name in '{}'\n", list);
                return usage_error;
            }
            o.events.push_back(e);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    if (!check_choice(run_choice("engine"), a.engine, err)) return usage_error;
    o.engine = a.engine == "reference" ? replay::Engine::reference : replay::Engine::block;
    o.timing_events = vm.count("architectural") == 0;
    if (!o.timing_events && o.timing == replay::Timing::model) {
        err << "pmusim: --architectural needs --timing cpi1 or trace (the timing model gives the cycles)\n";
        return usage_error;
    }
    o.reader.skip_bad_lines = vm.count("skip-bad-lines") > 0;
    o.reader.replay_all = vm.count("all") > 0;
    if (!need_platform(o.platform, err)) return usage_error;
    std::vector<trace::ElfSymbol> syms;
    if (vm.count("elf")) syms = trace::read_elf_symbols(vm["elf"].as<std::string>());
    if (vm.count("roi"))
        for (const auto& text : vm["roi"].as<std::vector<std::string>>())
            o.roi.push_back(parse_roi(text, vm.count("elf") ? &syms : nullptr));
    return 0;
}

// Ctrl-C: the replay stops at the next record and reports the counts so far, marked interrupted; a second
// Ctrl-C ends the process at once.
volatile std::sig_atomic_t interrupted = 0;
extern "C" void on_sigint(int) {
    interrupted = 1;
    std::signal(SIGINT, pmusim_end_by_signal);  // the second: unfinished outputs' temporary files removed, then the end
}
// The exit status of a run stopped by SIGINT (128 + the signal's number, as shells report it).
constexpr int interrupted_status = 128 + SIGINT;

class SigintGuard {
public:
    SigintGuard() {
        interrupted = 0;
        previous_ = std::signal(SIGINT, on_sigint);
    }
    ~SigintGuard() { std::signal(SIGINT, previous_); }

private:
    void (*previous_)(int);
};

// A progress line on standard error when it is a terminal: records, rate, and percent of the file read.
std::function<void(const replay::Progress&)> progress_printer(const std::string& path) {
    if (!isatty(2)) return nullptr;
    uint64_t size = 0;
    struct stat st {};
    if (path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) size = static_cast<uint64_t>(st.st_size);
    const auto t0 = std::chrono::steady_clock::now();
    return [size, t0](const replay::Progress& p) {
        if (p.done) {
            fmt::print(stderr, "\r{:60}\r", "");
            return;
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::string line = fmt::format("\r{} records, {:.2f} M records/s", p.records, s > 0 ? static_cast<double>(p.records) / s / 1e6 : 0.0);
        if (size && p.bytes) line += fmt::format(", {:.0f}%", 100.0 * static_cast<double>(std::min(p.bytes, size)) / static_cast<double>(size));
        fmt::print(stderr, "{}", line);
    };
}

// A line of a manifest into `line`; false at its end. A line longer than 64 KiB (a manifest of /dev/zero) or a
// read error is an error naming the manifest, not the end of the batch.
constexpr size_t max_manifest_line = size_t{64} << 10;
bool manifest_line(std::istream& in, std::string& line, const std::string& path, uint64_t line_no) {
    line.clear();
    int c;
    while ((c = in.get()) != EOF && c != '\n') {
        if (line.size() == max_manifest_line)
            throw std::invalid_argument(fmt::format("{}:{}: a line longer than {} KiB: not a manifest", path, line_no,
                                                    max_manifest_line >> 10));
        line += static_cast<char>(c);
    }
    if (in.bad()) throw std::invalid_argument(fmt::format("{}: cannot read the manifest", path));
    return c != EOF || !line.empty();
}

// pmusim run --manifest FILE [--shard K/N] [--out FILE] (docs/cli.md "Batches").
int run_manifest(const std::vector<std::string>& args, po::positional_options_description& pos,
                 const po::variables_map& gvm, std::ostream& out, std::ostream& err) {
    const std::string path = gvm["manifest"].as<std::string>();
    unsigned k = 1, n = 1;
    if (gvm.count("shard")) {
        const std::string sh = gvm["shard"].as<std::string>();
        char extra = 0;
        if (std::sscanf(sh.c_str(), "%u/%u%c", &k, &n, &extra) != 2 || n == 0 || k == 0 || k > n) {
            err << fmt::format("pmusim: --shard expects K/N with 1 <= K <= N, got '{}'\n", sh);
            return usage_error;
        }
    }
    if (gvm.count("trace")) {
        err << "pmusim: --manifest lists the traces: give no trace besides it\n";
        return usage_error;
    }
    std::ifstream in(path);
    if (!in) {
        err << fmt::format("pmusim: {}: cannot open the manifest\n", path);
        return usage_error;
    }
    std::string out_path;  // the -o/--out value that is not a platform option
    if (gvm.count("out"))
        for (const auto& v : gvm["out"].as<std::vector<std::string>>())
            if (!is_platform_option(nullptr, v)) out_path = v;
    if (!out_path.empty()) {  // --out must replace neither the manifest nor a trace it lists
        std::vector<std::string> inputs = {path};
        std::string line;
        for (uint64_t no = 1; manifest_line(in, line, path, no); ++no) {
            std::istringstream words(line);
            std::string first;
            if (words >> first && first[0] != '#') inputs.push_back(first);
        }
        refuse_same_file(out_path, "--out", inputs);
        in.clear();
        in.seekg(0);
    }
    std::unique_ptr<OutputFile> file;
    if (!out_path.empty()) file = std::make_unique<OutputFile>(out_path);
    // One JSON object a line: to the --out file (put in place only when the batch has finished), or standard output.
    auto emit = [&](const nlohmann::json& j) {
        const std::string line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        if (file) file->write(line);
        else out << line << std::flush;
    };
    SigintGuard guard;
    int status = 0;
    uint64_t index = 0, line_no = 0;
    std::string line;
    while (manifest_line(in, line, path, line_no + 1)) {
        ++line_no;
        std::istringstream words(line);
        std::vector<std::string> tokens;
        for (std::string w; words >> w;) {
            if (w[0] == '#') break;
            tokens.push_back(w);
        }
        if (tokens.empty()) continue;
        if (index++ % n != k - 1) continue;
        nlohmann::json j;
        try {
            // The line's options first: they win over the command line's (the first value stored is kept).
            RunArgs a;
            po::options_description d("");
            describe(d, a);
            po::variables_map vm;
            po::store(po::command_line_parser(tokens).options(d).positional(pos).run(), vm);
            po::store(po::command_line_parser(args).options(d).run(), vm);
            po::notify(vm);
            if (vm.count("manifest") && tokens.end() != std::find(tokens.begin(), tokens.end(), "--manifest"))
                throw std::invalid_argument("a manifest line cannot name another manifest");
            std::ostringstream msg;
            if (setup(a, vm, msg) != 0) throw std::invalid_argument(msg.str().substr(msg.str().find(' ') + 1));
            a.o.stop = &interrupted;
            a.o.on_progress = progress_printer(a.o.trace);
            const Platform* pl = find_platform(a.o.platform);
            const replay::Result r = replay::run(a.o);
            j = replay::report_json(a.o, *pl, r);
            if (vm.count("check") && replay::check_fails(a.o, r) && status == 0) status = 1;
        } catch (const std::exception& e) {  // po::error, TraceError, invalid_argument: this trace's error
            std::string what = e.what();
            while (!what.empty() && what.back() == '\n') what.pop_back();
            j = {{"trace", {{"path", tokens[0]}}}, {"error", what}};
            status = 2;
        }
        j["manifest"] = {{"path", path}, {"line", line_no}};
        emit(j);
        if (interrupted) {
            // No partial file: the counts so far go to standard output only.
            if (file) out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
            err << fmt::format("pmusim: interrupted at {} line {}{}\n", path, line_no,
                               file ? fmt::format("; {} not written", out_path) : "");
            return interrupted_status;
        }
    }
    if (file) file->commit();
    return status;
}

}  // namespace

int cmd_run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim run: options");
    RunArgs a;
    describe(desc, a);
    po::positional_options_description pos;
    pos.add("trace", 1);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, &pos, p, out, err,
               "usage: pmusim run --platform P [--trace] FILE [-e EVENTS] [--roi START:END] [--check] [--output json]\n"
               "       pmusim run --manifest FILE [--shard K/N] [--out FILE] [options for every trace]",
               status, &run_choices()))
        return status;
    try {
        if (p.vm.count("manifest")) return run_manifest(args, pos, p.vm, out, err);
        if (const int rc = setup(a, p.vm, err)) return rc;
        replay::Options& o = a.o;
        const Platform* pl = find_platform(o.platform);
        std::vector<uint32_t> plotted;
        for (const auto& name : split_list(a.plot_events)) {
            const auto e = find_event(*pl, name);
            if (!e) {
                err << fmt::format("pmusim: --plot-events: '{}' is not an event of platform {}\n", name, pl->name);
                return usage_error;
            }
            plotted.push_back(e->number);
        }
        // The series: every point for --interval; for a plot alone, a point every 16 instructions thinned to at
        // most 1000 (replay::Series).
        const bool print_series = o.interval != 0;
        replay::Series series(print_series ? 0 : 1000);
        if (!a.plot_file.empty() && !o.interval) o.interval = 16;
        if (o.interval) o.on_interval = [&series](const replay::IntervalPoint& pt) { series.add(pt); };
        // No output may replace an input (docs/cli.md "Output files").
        const std::string vcd = p.vm.count("vcd") ? p.vm["vcd"].as<std::string>() : "";
        std::vector<std::string> inputs = {o.trace};
        if (p.vm.count("elf")) inputs.push_back(p.vm["elf"].as<std::string>());
        if (!vcd.empty()) refuse_same_file(vcd, "--vcd", inputs);
        if (!a.plot_file.empty()) refuse_same_file(a.plot_file, "--plot", inputs);
        refuse_same_file(a.out_file, "-o", inputs);
        SigintGuard guard;
        o.stop = &interrupted;
        o.on_progress = progress_printer(o.trace);
        // The whole report is built first, and files are written only after the run: an error leaves no
        // half-written output.
        const replay::Result r = !vcd.empty() ? vp::run_replay_systemc(o, vcd, a.vcd_period, err) : replay::run(o);
        std::ostringstream report;
        replay::print(o, *pl, r, report, print_series ? &series : nullptr);
        // Interrupted: the counts so far are reported, but no file is replaced by a part of a run.
        if (!a.plot_file.empty() && !r.interrupted)
            plot::write_file(a.plot_file, plot::svg(replay::figure(*pl, o.trace, series, a.plot_x == "cycles", plotted)));
        if (a.out_file.empty() || a.out_file == "-") {
            out << report.str();
        } else {  // -o FILE: complete, or not at all (traces/output_file.hpp)
            OutputFile file(a.out_file);
            file.write(report.str());
            file.commit();
        }
        if (r.interrupted) {
            for (const std::string& f : {vcd, a.plot_file})
                if (!f.empty()) err << fmt::format("pmusim: interrupted: {} not written\n", f);
            return interrupted_status;
        }
        // --check: a read-back that differs fails the run, after the report (docs/cli.md).
        return p.vm.count("check") && replay::check_fails(o, r) ? 1 : 0;
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
    std::string in, outp, format, platform, isa_name, platform_file;
    unsigned version = 2;
    add_platform_options(desc, platform, platform_file);
    desc.add_options()("format,f", po::value<std::string>(&format)->default_value("auto"),
                       "input format: auto, tarmac, veer, spike, qemu-execlog, qemu-log, native, native-text")(
        "isa", po::value<std::string>(&isa_name), "the instruction set instead of a platform: a64, a32, t32, rv32 or rv64")(
        "text", "write the native text form (chosen too by an output name ending in .txt, and for standard output)")(
        "binary", "write the binary form even to standard output")(
        "native-version", po::value<unsigned>(&version)->default_value(2),
        "the binary form's version: 2 (runs of records, stored once per shape) or 1 (one record after another)")(
        "all", "VeeR exec.log: convert past the end-of-test mailbox store")(
        "in", po::value<std::string>(&in)->required(), "input trace")("out", po::value<std::string>(&outp)->required(),
                                                                        "output file (- for standard output)");
    po::positional_options_description pos;
    pos.add("in", 1).add("out", 1);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, &pos, p, out, err, "usage: pmusim convert IN OUT [--platform P | --isa I] [--text]", status))
        return status;
    // --platform (or --platform-file): the platform the trace ran on, which gives the instruction set.
    if (!resolve_platform(platform, platform_file, false, err)) return usage_error;
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
    if (version != 1 && version != 2) {
        err << fmt::format("pmusim: --native-version expects 1 or 2, got {}\n", version);
        return usage_error;
    }
    try {
        refuse_same_file(outp, "convert: OUT", {in});
    } catch (const OutputError& e) {
        err << fmt::format("pmusim: {}\n", e.what());
        return usage_error;
    }
    // OUT is put in place only when the whole trace is converted (traces/output_file.hpp).
    try {
        const auto c = trace::convert(in, format, ro, outp, text, version);
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
