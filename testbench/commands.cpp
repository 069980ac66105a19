#include "testbench/commands.hpp"

#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isa/a64_sysreg.hpp"
#include "isa/number.hpp"
#include "platforms/platform.hpp"
#include "testbench/replay.hpp"
#include "testbench/script_isa.hpp"
#include "traces/native.hpp"
#include "testbench/script_runner.hpp"
#include "testbench/virtual_platform.hpp"

namespace po = boost::program_options;

namespace pmusim::cli {

namespace {

// Exit status for command-line misuse (bad option, unknown platform or register).
constexpr int usage_error = 2;

struct Parsed {
    po::variables_map vm;
    bool help = false;
};

// Parses a subcommand's options; prints help or the error. Returns false when the caller should exit.
bool parse(const std::vector<std::string>& args, po::options_description& desc, po::positional_options_description* pos,
           Parsed& p, std::ostream& out, std::ostream& err, const std::string& usage, int& status) {
    desc.add_options()("help,h", "show this help");
    try {
        po::command_line_parser parser(args);
        parser.options(desc);
        if (pos) parser.positional(*pos);
        po::store(parser.run(), p.vm);
        if (p.vm.count("help")) {
            out << usage << "\n\n" << desc << "\n";
            status = 0;
            return false;
        }
        po::notify(p.vm);
    } catch (const po::error& e) {
        err << "pmusim: " << e.what() << "\n" << usage << "\n";
        status = usage_error;
        return false;
    }
    return true;
}

bool parse_options(const std::vector<std::string>& kvs, PlatformOptions& opts, std::ostream& err) {
    for (const auto& kv : kvs) {
        const size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) {
            err << fmt::format("pmusim: --option expects KEY=VALUE, got '{}'\n", kv);
            return false;
        }
        opts[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return true;
}

const Platform* need_platform(const std::string& name, std::ostream& err) {
    const Platform* p = find_platform(name);
    if (!p) {
        std::string known;
        for (const auto& q : all_platforms()) known += (known.empty() ? "" : ", ") + q.name;
        err << fmt::format("pmusim: unknown platform '{}' (expected one of: {})\n", name, known);
    }
    return p;
}

std::unique_ptr<Pmu> make_pmu(const Platform& p, const PlatformOptions& opts, std::ostream& err) {
    try {
        return p.make(opts);
    } catch (const std::invalid_argument& e) {
        err << fmt::format("pmusim: platform {}: {}\n", p.name, e.what());
        return nullptr;
    }
}

std::string encoding_text(const Register& r) {
    std::string s;
    for (const auto& [space, key] : r.encodings) {
        if (!s.empty()) s += "; ";
        if (space == EncodingSpace::a64_sysreg) s += isa::a64::generic_name(key);
        else if (space == EncodingSpace::cp15)
            s += fmt::format("p15, {}, c{}, c{}, {}", key >> 11, (key >> 7) & 15u, (key >> 3) & 15u, key & 7u);
        else s += fmt::format("CSR {:#05x}", key);
    }
    return s.empty() ? "-" : s;
}

std::string offsets_text(const Register& r) {
    std::string s;
    for (const auto& [off, shift] : r.offsets) s += fmt::format("{}{:#05x}", s.empty() ? "" : ",", off);
    return s.empty() ? "-" : s;
}

std::string bits_text(const Field& f) {
    return f.width == 1 ? fmt::format("[{}]", f.lsb) : fmt::format("[{}:{}]", f.msb(), f.lsb);
}

std::string hexw(uint64_t v, unsigned width) { return fmt::format("{:#0{}x}", v, width / 4 + 2); }

}  // namespace

int cmd_platforms(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim platforms: options");
    desc.add_options()("json", "print JSON instead of a table");
    Parsed p;
    int status = 0;
    if (!parse(args, desc, nullptr, p, out, err, "usage: pmusim platforms [--json]", status)) return status;
    if (p.vm.count("json")) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& pl : all_platforms())
            j.push_back({{"name", pl.name}, {"family", pl.family}, {"pmu", pl.pmu}, {"counters", pl.counters},
                         {"description", pl.description}});
        out << j.dump(2) << "\n";
        return 0;
    }
    out << fmt::format("{:<16} {:<14} {:<9} {:>8}  {}\n", "PLATFORM", "FAMILY", "PMU", "COUNTERS", "DESCRIPTION");
    for (const auto& pl : all_platforms())
        out << fmt::format("{:<16} {:<14} {:<9} {:>8}  {}\n", pl.name, pl.family, pl.pmu, pl.counters, pl.description);
    return 0;
}

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

int cmd_run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim run: options");
    replay::Options o;
    std::vector<std::string> kvs;
    std::string timing = "model", output = "table", events;
    desc.add_options()("platform,p", po::value<std::string>(&o.platform)->required(), "platform name")(
        "option,o", po::value<std::vector<std::string>>(&kvs), "platform option KEY=VALUE (repeatable)")(
        "trace,t", po::value<std::string>(&o.trace)->required(), "trace file (plain, .gz or .xz), or - for standard input")(
        "format,f", po::value<std::string>(&o.format)->default_value("auto"), "auto, veer, spike, native, native-text")(
        "timing", po::value<std::string>(&timing)->default_value("model"),
        "model (cycles from the timing model), trace (from the trace's timestamps) or cpi1 (one cycle per instruction)")(
        "output", po::value<std::string>(&output)->default_value("table"), "table, csv or json")(
        "events", po::value<std::string>(&events), "comma-separated events to program counters with")(
        "interval", po::value<uint64_t>(&o.interval)->default_value(0), "print the counters every N instructions")(
        "skip-bad-lines", "count malformed lines as warnings instead of stopping")(
        "all", "VeeR exec.log: replay past the end-of-test mailbox store")(
        "vcd", po::value<std::string>(), "replay under SystemC and write a VCD waveform of the PMU to this file");
    Parsed p;
    int status = 0;
    if (!parse(args, desc, nullptr, p, out, err, "usage: pmusim run --platform P --trace FILE [--output json]", status))
        return status;
    if (!parse_options(kvs, o.platform_options, err)) return usage_error;
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
    for (size_t start = 0; !events.empty() && start <= events.size();) {
        const size_t comma = events.find(',', start);
        o.events.push_back(events.substr(start, comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    o.reader.skip_bad_lines = p.vm.count("skip-bad-lines") > 0;
    o.reader.replay_all = p.vm.count("all") > 0;
    o.progress = true;
    const Platform* pl = need_platform(o.platform, err);
    if (!pl) return usage_error;
    try {
        if (p.vm.count("vcd")) {
            std::ostringstream report;
            const int rc = vp::run_replay_systemc(o, p.vm["vcd"].as<std::string>(), report, err);
            out << report.str();
            return rc;
        }
        // The whole report is built first: an error leaves no half-written output.
        std::ostringstream report;
        const replay::Result r = replay::run(o, o.interval ? &out : nullptr);
        replay::print(o, *pl, r, report);
        out << report.str();
        return 0;
    } catch (const trace::TraceError& e) {
        err << "pmusim: error: " << e.what() << "\n";
        return 2;
    } catch (const std::invalid_argument& e) {
        err << "pmusim: " << e.what() << "\n";
        return 2;
    }
}

int cmd_convert(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description desc("pmusim convert: options");
    std::string in, outp, format;
    desc.add_options()("format,f", po::value<std::string>(&format)->default_value("auto"), "input format")(
        "text", "write the native text form (chosen too by an output name ending in .txt, and for standard output)")(
        "binary", "write the binary form even to standard output")(
        "all", "VeeR exec.log: convert past the end-of-test mailbox store")(
        "in", po::value<std::string>(&in)->required(), "input trace")("out", po::value<std::string>(&outp)->required(),
                                                                        "output file (- for standard output)");
    po::positional_options_description pos;
    pos.add("in", 1).add("out", 1);
    Parsed p;
    int status = 0;
    if (!parse(args, desc, &pos, p, out, err, "usage: pmusim convert IN OUT [--text]", status)) return status;
    const bool text = p.vm.count("text") || (outp.size() > 4 && outp.substr(outp.size() - 4) == ".txt") ||
                      (outp == "-" && !p.vm.count("binary"));
    trace::ReaderOptions ro;
    ro.replay_all = p.vm.count("all") > 0;
    try {
        auto reader = trace::open_reader(in, format, ro);
        auto writer = trace::make_native_writer(outp, text);
        trace::TraceRecord r;
        uint64_t n = 0;
        try {
            while (reader->next(r)) {
                writer->write(r);
                ++n;
            }
            writer->finish();
        } catch (...) {
            writer.reset();
            if (outp != "-") std::remove(outp.c_str());  // no half-written output
            throw;
        }
        if (outp != "-") err << fmt::format("pmusim: {} records from {} ({}) to {}\n", n, in, reader->format(), outp);
        return 0;
    } catch (const trace::TraceError& e) {
        err << "pmusim: error: " << e.what() << "\n";
        return 2;
    }
}

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
