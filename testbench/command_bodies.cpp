#include "testbench/command_bodies.hpp"

#include <algorithm>
#include <ostream>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/number.hpp"
#include "isa/rv32.hpp"
#include "testbench/platform_args.hpp"
#include "testbench/waveform.hpp"

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

Table register_table(Pmu& pmu) {
    Table t{{"REGISTER", "ENCODING", "OFFSET", "WIDTH", "RESET", "DESCRIPTION"}, {}};
    for (const auto& r : pmu.bank().all())
        t.rows.push_back({r->name, encoding_text(*r), offsets_text(*r), std::to_string(r->width),
                          r->state && !r->undefined ? hexw(r->read(), r->width) : "-", r->description});
    return t;
}

Table field_table(const Register& r) {
    Table t{{"BITS", "FIELD", "ACCESS", "RESET", "DESCRIPTION"}, {}};
    for (auto it = r.fields.rbegin(); it != r.fields.rend(); ++it)
        t.rows.push_back({bits_text(*it), it->name, r.undefined ? "UNDEFINED" : std::string(to_string(it->kind)),
                          fmt::format("{:#x}", field_reset(r, *it)), it->description});
    return t;
}

Table event_table(const Platform& p, const Pmu& pmu, const std::vector<bool>& modelled) {
    Table t{{"NUMBER", "NAME", "IMPLEMENTED", "MODELLED", "DESCRIPTION"}, {}};
    if (modelled.empty()) t.columns.erase(t.columns.begin() + 3);
    for (const auto& e : p.event_names()) {
        const bool impl = p.implements(pmu, e.number);
        std::vector<std::string> row{fmt::format("{:#x}", e.number), e.name, impl ? "yes" : "no", e.description};
        if (!modelled.empty()) row.insert(row.begin() + 3, impl && modelled.at(e.number) ? "yes" : "no");
        t.rows.push_back(std::move(row));
    }
    return t;
}

int explain(const ExplainArgs& a, Explained& x, std::ostream& err) {
    ScriptConfig cfg;
    std::string platform = a.platform;
    if (!parse_options(a.options, cfg.options, err)) return usage_error;
    if (!resolve_platform(platform, a.platform_file, false, err)) return usage_error;
    cfg.default_platform = platform;
    if (platform.empty() && a.after.empty()) {
        err << "pmusim: explain needs a platform: --platform P, or a `platform` line in the --after script\n";
        return usage_error;
    }
    // The --after script's own reads are not this command's output; its diagnostics and failures go to stderr.
    x.runner = std::make_unique<ScriptRunner>(cfg, x.script_out, err);
    ScriptRunner& runner = *x.runner;
    const int st = a.after.empty() ? runner.run_text("", "explain") : runner.run_file(a.after);
    if (st == script_malformed) return usage_error;
    if (st == script_failed) {
        err << fmt::format("pmusim: explain: an expectation of {} failed: nothing explained\n", a.after);
        return st;
    }
    const Platform* pl = runner.platform();
    if (!pl || !runner.pmu()) {
        err << fmt::format("pmusim: explain needs a platform: {} selects none; pass --platform P\n", a.after);
        return usage_error;
    }
    x.platform = pl;
    if (a.el && a.priv) {
        err << "pmusim: explain takes --el or --priv, not both\n";
        return usage_error;
    }
    for (const auto& [opt, text] : {std::pair{"el", a.el}, std::pair{"priv", a.priv}}) {
        if (!text) continue;
        std::string error;
        const auto level = parse_privilege(*pl, *runner.pmu(), *text, error);
        if (!level) {
            err << fmt::format("pmusim: --{}: {}\n", opt, error);
            return usage_error;
        }
        runner.set_privilege(*level);
    }
    const std::vector<unsigned> sources = source_registers(pl->isa, a.access);
    for (const auto& kv : a.sets) {
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
    auto e = runner.explain(a.access, error);
    if (!e) {
        err << fmt::format("pmusim: {}\n", error);
        return usage_error;
    }
    x.explanation = std::move(*e);
    return 0;
}

int run_script_recorded(const ScriptConfig& cfg, const std::string& text, const std::string& name,
                        uint64_t sample_period, std::ostream& out, std::ostream& err, plot::Figure& figure) {
    PlatformOptions opts;
    const Platform* p = platform_before_run(cfg, text, name, "with a plot", opts, err);
    if (!p) return script_malformed;
    std::unique_ptr<Pmu> pmu;
    try {
        pmu = p->make(opts);
    } catch (const std::invalid_argument& e) {
        err << fmt::format("{}: error: platform {}: {}\n", name, p->name, e.what());
        return script_malformed;
    }
    ScriptConfig rc = cfg;
    rc.options = opts;
    ScriptRunner runner(rc, out, err);
    runner.attach(*p, *pmu);
    wave::Recorder rec("", sample_period);
    rec.add(*pmu, "pmu");
    rec.keep_history();
    uint64_t now = 0;  // the cycle the next batch starts at
    runner.set_advance_hook([&](const EventBatch& b) {
        const AdvanceResult r = rec.advance(*pmu, b, now);
        now += b.cycles;
        return r;
    });
    rec.start();
    const int status = runner.run_text(text, name);
    if (status == script_malformed) return status;
    rec.finish(now);
    figure = rec.figure(fmt::format("{} on {}", name, p->name));
    return status;
}

}  // namespace pmusim::cli
