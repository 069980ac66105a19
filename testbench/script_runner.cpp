#include "testbench/script_runner.hpp"

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <fstream>
#include <iostream>
#include <ostream>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "isa/a64_sysreg.hpp"
#include "isa/number.hpp"
#include "isa/rv32.hpp"
#include "traces/message.hpp"

namespace pmusim {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// Splits off the first whitespace-separated word.
std::string_view next_word(std::string_view& s) {
    s = trim(s);
    size_t i = 0;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::string_view w = s.substr(0, i);
    s = trim(s.substr(i));
    return w;
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    while (!trim(s).empty()) out.push_back(next_word(s));
    return out;
}

// `#` starts a comment, except directly before a digit or '-', where it is an ARM immediate (`#0x8`).
std::string_view strip_comment(std::string_view line) {
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] != '#') continue;
        const char next = i + 1 < line.size() ? line[i + 1] : ' ';
        if (std::isdigit(static_cast<unsigned char>(next)) || next == '-') continue;
        return line.substr(0, i);
    }
    return line;
}

}  // namespace

struct ScriptRunner::Operand {
    Register* reg = nullptr;
    bool mmio = false;
    uint64_t offset = 0;
    bool software = false;     // sw@OFFSET: software through the memory map (subject to its software lock)
    bool unallocated = false;  // a well-formed encoding that names no register: UNDEFINED when accessed
    std::string text;
    unsigned width = 32;
};

ScriptRunner::ScriptRunner(ScriptConfig cfg, std::ostream& out, std::ostream& err)
    : cfg_(std::move(cfg)), out_(out), err_(err) {}

ScriptRunner::~ScriptRunner() = default;

std::string ScriptRunner::where() const { return fmt::format("{}:{}", file_, line_); }

int ScriptRunner::run_file(const std::string& path) {
    std::string text, why;
    if (!read_script_file(path, text, why)) {
        err_ << fmt::format("{}: error: {}\n", printable(path), why);
        file_ = path;
        log({{"error", why}});
        return finish(script_malformed);
    }
    return run_text(text, script_name(path));
}

namespace {

// A script is at most 64 MiB (docs/script.md, Limits): a device that never ends (/dev/zero) is refused once that
// much is read, not after the memory is gone.
constexpr size_t max_script_bytes = size_t{64} << 20;

// Reads `in` whole into `text`, in chunks; false with `why` on a read error or past max_script_bytes.
bool read_script_stream(std::istream& in, std::string& text, std::string& why, const char* from) {
    text.clear();
    char chunk[65536];
    while (in.read(chunk, sizeof chunk), in.gcount() > 0) {
        if (text.size() + static_cast<size_t>(in.gcount()) > max_script_bytes) {
            why = fmt::format("longer than {} MiB: not a script", max_script_bytes >> 20);
            return false;
        }
        text.append(chunk, static_cast<size_t>(in.gcount()));
    }
    if (in.bad()) {
        why = fmt::format("cannot read the script {}", from);
        return false;
    }
    return true;
}

// First `platform` line of a script: its name and options. False when no line names a platform.
bool prescan_platform(const std::string& text, std::string& name, PlatformOptions& opts) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line.substr(0, line.find('#')));
        std::string kw;
        if (!(words >> kw) || to_lower(kw) != "platform") continue;
        words >> name;
        for (std::string kv; words >> kv;) {
            const size_t eq = kv.find('=');
            if (eq != std::string::npos) opts[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
        return !name.empty();
    }
    return false;
}

}  // namespace

const Platform* platform_before_run(const ScriptConfig& cfg, const std::string& text, const std::string& name,
                                    const std::string& host, PlatformOptions& opts, std::ostream& err) {
    std::string platform = cfg.default_platform;
    opts = cfg.options;
    PlatformOptions script_opts = cfg.options;
    if (prescan_platform(text, platform, script_opts)) opts = script_opts;
    const Platform* p = platform.empty() ? nullptr : find_platform(platform);
    if (!p)
        err << fmt::format("{}: error: {} ({} the platform must be known before the script runs)\n", name,
                           platform.empty() ? "no platform: add a 'platform' line or pass --platform"
                                            : fmt::format("unknown platform '{}'", platform),
                           host);
    return p;
}

bool read_script_file(const std::string& path, std::string& text, std::string& why) {
    if (path == "-") return read_script_stream(std::cin, text, why, "from standard input");
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        why = fmt::format("cannot open the script file: {}", std::strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        why = "is a folder, expected a script file";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = fmt::format("cannot open the script file: {}", std::strerror(errno));
        return false;
    }
    return read_script_stream(in, text, why, "file");
}

int ScriptRunner::run_text(std::string_view text, const std::string& name) {
    file_ = name;
    line_ = 0;
    if (!cfg_.default_platform.empty() && !attached_) {
        try {
            select_platform(cfg_.default_platform, cfg_.options);
        } catch (const Malformed& m) {
            err_ << fmt::format("{}: error: {}\n", printable(name), printable(m.message, 2 * message_limit));
            log({{"error", m.message}});
            return finish(script_malformed);
        }
    }
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        ++line_;
        line = strip_comment(line);
        line = trim(line);
        if (line.empty()) continue;
        try {
            exec(line);
        } catch (const Malformed& m) {
            err_ << fmt::format("{}: error: {}\n", printable(where()), printable(m.message, 2 * message_limit));
            log({{"line", line_}, {"error", m.message}});
            return finish(script_malformed);
        }
    }
    spdlog::debug("{}: {} lines, {} expectations, {} failed, {} cycles", file_, line_, expectations_, failures_, now_);
    if (failures_) {
        err_ << fmt::format("{}: {} of {} expectations failed\n", file_, failures_, expectations_);
        return finish(script_failed);
    }
    return finish(script_ok);
}

namespace {

// A JSON value as one member of the document: indented by `indent` more spaces (dump(2) of the whole document
// would nest it so); text that is not UTF-8 replaced.
std::string json_member(const nlohmann::json& v, unsigned indent) {
    const std::string pad(indent, ' ');
    std::string s = v.dump(2, ' ', false, nlohmann::json::error_handler_t::replace), out;
    out.reserve(s.size() + s.size() / 8);
    for (char c : s) {
        out += c;
        if (c == '\n') out += pad;
    }
    return out;
}

}  // namespace

void ScriptRunner::json_begin() {
    if (json_open_) return;
    json_open_ = true;
    json_entries_ = 0;
    out_ << "{\n  \"file\": " << json_member(file_, 2) << ",\n  \"log\": [";
}

void ScriptRunner::log(nlohmann::json entry) {
    if (!cfg_.json) return;
    json_begin();
    out_ << (json_entries_++ ? ",\n    " : "\n    ") << json_member(entry, 4);
}

int ScriptRunner::finish(int status) {
    if (cfg_.json) {
        json_begin();
        out_ << (json_entries_ ? "\n  ]" : "]") << ",\n  \"cycles\": " << now_ << ",\n  \"expectations\": " << expectations_
             << ",\n  \"failures\": " << failures_ << ",\n  \"platform\": " << json_member(platform_ ? platform_->name : "", 2)
             << ",\n  \"status\": " << status << "\n}\n";
        json_open_ = false;
    }
    return status;
}

void ScriptRunner::set_privilege(unsigned level) {
    privilege_ = level;
    if (pmu_) pmu_->set_exec_context(ExecContext{privilege_, secure_ || (!platform_->riscv && privilege_ == 3)});
}

void ScriptRunner::set_core_register(unsigned index, uint64_t value) {
    if (platform_ && index < core_.size() && index != zero_register(platform_->isa)) core_[index] = value;
}

std::optional<Explanation> ScriptRunner::explain(std::string_view access, std::string& error) {
    try {
        return explain_access(access);
    } catch (const Malformed& m) {
        error = m.message;
        return std::nullopt;
    }
}

// `explain ACCESS`: makes the access as the statement or instruction would, and returns what every register
// access it made did (an instruction that reads and writes a CSR makes two).
Explanation ScriptRunner::explain_access(std::string_view access) {
    need_pmu("explain");
    Explanation e;
    e.access = std::string(trim(access));
    e.privilege = privilege_;
    std::string_view body = access;
    const std::string kw = to_lower(next_word(body));
    struct Capture {
        std::vector<AccessRecord>*& slot;
        ~Capture() { slot = nullptr; }
    } capture{capture_};
    if (kw == "read" || kw == "write") {
        capture_ = &e.records;
        exec(access);
        return e;
    }
    const ParseOutcome p = parse_instruction(platform_->isa, access);
    if (!p.is_instruction)
        throw Malformed{fmt::format("explain expects \"write REG VALUE\", \"read REG\" or an instruction of platform {}, "
                                    "got '{}'",
                                    platform_->name, e.access)};
    if (!p.insn) throw Malformed{fmt::format("malformed instruction '{}': {}", e.access, p.error)};
    const ScriptInsn& i = *p.insn;
    const IsaKind isa = platform_->isa;
    if (i.kind == ScriptInsn::Kind::sys_read || i.kind == ScriptInsn::Kind::sys_write) {
        const Operand op = i.has_cp15 ? resolve_cp15(i) : resolve(i.sysreg);
        const bool w = i.kind == ScriptInsn::Kind::sys_write;
        const uint64_t v = i.reg == zero_register(isa) ? 0 : core_[i.reg];
        e.summary = fmt::format("{} is a {} of {} ({}){}", e.access, w ? "write" : "read", op.text,
                                i.encoding ? fmt::format("encoding {:#010x}", i.encoding) : "system register",
                                w ? fmt::format(", {} = {:#x}", core_register_name(isa, i.reg), v) : "");
    } else if (i.kind == ScriptInsn::Kind::csr) {
        const isa::rv32::CsrInsn ci{static_cast<isa::rv32::CsrOp>(i.csr_op), i.csr_imm, i.reg, i.csr_src, 0};
        const bool reads = isa::rv32::csr_reads(ci), writes = isa::rv32::csr_writes(ci);
        const Operand op = resolve_csr(i.sysreg);
        const uint32_t csr = op.reg ? op.reg->encodings.front().second : 0;
        // Zicsr: csrrw writes rs1; csrrs sets and csrrc clears the bits set in rs1 (read-modify-write).
        const char* how = i.csr_op == 0 ? "a write of" : i.csr_op == 1 ? "a set of bits in" : "a clear of bits in";
        const std::string src = i.csr_imm ? fmt::format("uimm = {:#x}", i.csr_src)
                                          : fmt::format("{} = {:#x}", core_register_name(isa, i.csr_src),
                                                        i.csr_src == 0 ? 0 : core_[i.csr_src]);
        e.summary = fmt::format("{} is {} {}{}{}", e.access,
                                writes ? (reads ? fmt::format("a read and {}", how) : std::string(how)) : "a read of",
                                op.text, op.reg ? fmt::format(" (CSR {:#05x})", csr) : "",
                                writes ? ", " + src : "");
    } else {
        throw Malformed{fmt::format("explain takes an access: '{}' accesses no register", e.access)};
    }
    capture_ = &e.records;
    exec_instruction(access, false);
    return e;
}

void ScriptRunner::attach(const Platform& platform, Pmu& pmu) {
    platform_ = &platform;
    pmu_ = &pmu;
    attached_ = true;
    privilege_ = platform.riscv ? 3 : 1;
    pmu_->set_exec_context(ExecContext{privilege_, secure_});
}

void ScriptRunner::select_platform(std::string_view name, const PlatformOptions& opts) {
    if (attached_) {
        if (to_lower(name) != platform_->name || opts != cfg_.options)
            throw Malformed{fmt::format("the simulation was built for platform {}: a script run under SystemC cannot "
                                        "change it (platform '{}')",
                                        platform_->name, name)};
        return;
    }
    const Platform* p = find_platform(name);
    if (!p) {
        std::string known;
        for (const auto& q : all_platforms()) known += (known.empty() ? "" : ", ") + q.name;
        throw Malformed{fmt::format("unknown platform '{}' (expected one of: {})", name, known)};
    }
    try {
        owned_ = p->make(opts);
        pmu_ = owned_.get();
    } catch (const std::invalid_argument& e) {
        throw Malformed{fmt::format("platform {}: {}", p->name, e.what())};
    }
    spdlog::debug("platform {} ({} {}, {} counters)", p->name, p->family, p->pmu, p->counters);
    platform_ = p;
    privilege_ = p->riscv ? 3 : 1;  // RISC-V starts in M-mode; ARM scripts default to EL1
    core_.fill(0);
    now_ = 0;
    pmu_->set_exec_context(ExecContext{privilege_, secure_});
}

Pmu& ScriptRunner::need_pmu(std::string_view what) {
    if (!pmu_) throw Malformed{fmt::format("'{}' needs a platform: add 'platform NAME' first or pass --platform", what)};
    return *pmu_;
}

uint64_t ScriptRunner::parse_value(std::string_view text, std::string_view what) const {
    const auto v = isa::parse_number(text);
    if (!v)
        throw Malformed{fmt::format("expected {} (decimal, 0x hex or 0b binary, up to 64 bits), got '{}'", what, text)};
    return *v;
}

AccessContext ScriptRunner::context() const {
    AccessContext c;
    c.privilege = privilege_;
    c.secure = secure_ || privilege_ == 3;
    return c;
}

ScriptRunner::Operand ScriptRunner::resolve(std::string_view text) {
    Pmu& pmu = need_pmu(text);
    Operand op;
    op.text = std::string(text);
    const bool software = text.size() > 3 && to_lower(text.substr(0, 3)) == "sw@";
    if (software || (!text.empty() && text.front() == '@')) {
        const auto off = isa::parse_number(text.substr(software ? 3 : 1));
        if (!off) throw Malformed{fmt::format("expected a byte offset after '@', got '{}'", text)};
        op.mmio = true;
        op.software = software;
        op.offset = *off;
        return op;
    }
    if (Register* r = pmu.bank().find(text)) {
        op.reg = r;
        op.width = r->width;
        op.text = r->name;
        return op;
    }
    if (platform_->isa == IsaKind::a64) {
        if (const auto key = isa::a64::parse_generic_name(text)) {
            op.reg = pmu.bank().find(EncodingSpace::a64_sysreg, *key);
            if (op.reg) {
                op.width = op.reg->width;
            } else {
                op.unallocated = true;
                op.text = isa::a64::generic_name(*key);
            }
            return op;
        }
    }
    throw Malformed{fmt::format("unknown register '{}' on platform {} (see `pmusim regs --platform {}`)", text,
                                platform_->name, platform_->name)};
}

ScriptRunner::InsnOutcome ScriptRunner::exec_csr(const ScriptInsn& i, bool expect_trap) {
    // Zicsr: csrrw reads unless rd = x0; csrrs/csrrc write unless rs1 = x0 (uimm = 0).
    const isa::rv32::CsrInsn ci{static_cast<isa::rv32::CsrOp>(i.csr_op), i.csr_imm, i.reg, i.csr_src, 0};
    const bool reads = isa::rv32::csr_reads(ci), writes = isa::rv32::csr_writes(ci);
    const Operand op = resolve_csr(i.sysreg);
    if (op.unallocated) {
        report(pmu_->unallocated(op.text, writes), expect_trap);
        return InsnOutcome::trapped;
    }
    // Every access the instruction makes is checked first: a trapping instruction changes nothing.
    for (const bool w : {false, true}) {
        if (w ? !writes : !reads) continue;
        const AccessRecord probe = pmu_->check(*op.reg, w, context());
        if (probe.trapped()) {
            report(probe, expect_trap);
            return InsnOutcome::trapped;
        }
    }
    uint64_t old = 0;
    if (reads) {
        const AccessRecord rec = do_read(op);  // samples the counter before this instruction's own events
        report(rec, expect_trap);
        old = rec.value_read;
    }
    const uint64_t src = i.csr_imm ? i.csr_src : core_[i.csr_src];
    const uint64_t value = i.csr_op == 0 ? src : i.csr_op == 1 ? (old | src) : (old & ~src);
    // VeeR EL2 (veer §4.1): the instruction's events count under the old selectors and inhibits, then its write
    // lands and wins over its own increment.
    if (platform_->events_before_write) retire(i);
    if (writes) report(do_write(op, value & 0xFFFFFFFFu), expect_trap);
    if (!platform_->events_before_write) retire(i);
    if (i.reg != zero_register(platform_->isa)) core_[i.reg] = old;
    return InsnOutcome::retired;
}

ScriptRunner::Operand ScriptRunner::resolve_csr(const std::string& text) {
    Operand op;
    op.text = text;
    op.reg = pmu_->bank().find(text);
    if (!op.reg) {
        auto n = isa::parse_number(text);
        if (!n) {
            if (const auto k = isa::rv32::standard_counter_csr(to_lower(text))) n = *k;
        }
        if (!n) throw Malformed{fmt::format("unknown CSR '{}' on platform {} (see `pmusim regs --platform {}`)", text,
                                            platform_->name, platform_->name)};
        if (*n > 0xFFF) throw Malformed{fmt::format("expected a CSR number 0-0xfff, got '{}'", text)};
        op.reg = pmu_->bank().find(EncodingSpace::csr, static_cast<uint32_t>(*n));
        if (!op.reg) {
            if (!pmu_->in_pmu_space(EncodingSpace::csr, static_cast<uint32_t>(*n)))
                throw Malformed{fmt::format("CSR {:#05x} is not a performance-monitoring CSR: pmusim models those only", *n)};
            op.unallocated = true;
            op.text = fmt::format("CSR {:#05x}", *n);
            return op;
        }
    }
    op.width = op.reg->width;
    op.text = op.reg->name;
    return op;
}

void ScriptRunner::retire(const ScriptInsn& i) {
    batch_.clear();
    platform_->retire(i.cls, i.retired, batch_);
    advance(batch_);
}

ScriptRunner::Operand ScriptRunner::resolve_cp15(const ScriptInsn& i) {
    Operand op;
    op.text = i.sysreg;
    op.reg = pmu_->bank().find(EncodingSpace::cp15, i.cp15);
    if (op.reg) {
        op.width = op.reg->width;
        op.text = op.reg->name;
        return op;
    }
    // An unallocated encoding inside the PMU's space is UNDEFINED; outside it, it is not pmusim's to model.
    if (pmu_->in_pmu_space(EncodingSpace::cp15, i.cp15)) {
        op.unallocated = true;
        return op;
    }
    throw Malformed{fmt::format("'{}' is not a PMU register: pmusim models the PMU registers only", i.sysreg)};
}

AccessRecord ScriptRunner::do_read(const Operand& op) {
    accessed_ = true;
    if (op.unallocated) return pmu_->unallocated(op.text, false);
    if (op.mmio) {
        AccessContext c = context();
        c.origin = op.software ? AccessOrigin::memory_mapped : AccessOrigin::external_debug;
        return pmu_->read_offset(op.offset, c);
    }
    return pmu_->read(*op.reg, context());
}

AccessRecord ScriptRunner::do_write(const Operand& op, uint64_t value) {
    accessed_ = true;
    if (op.unallocated) return pmu_->unallocated(op.text, true, value);
    if (op.mmio) {
        AccessContext c = context();
        c.origin = op.software ? AccessOrigin::memory_mapped : AccessOrigin::external_debug;
        return pmu_->write_offset(op.offset, value, c);
    }
    return pmu_->write(*op.reg, value, context());
}

void ScriptRunner::report(const AccessRecord& rec, bool trap_expected) {
    if (capture_) {
        capture_->push_back(rec);
        return;
    }
    for (const auto& d : rec.diagnostics) {
        if (trap_expected && (d.code == diag::undefined || d.code == diag::trap)) continue;
        if (cfg_.quiet && d.severity == Severity::info) continue;
        // A request raised by a write is reported as one raised by events (docs/script.md), at the current cycle.
        if (d.code == diag::irq || d.code == diag::fiq) {
            err_ << fmt::format("{}: info [{}] {} request asserted at cycle {} (by the write of {})\n", where(), d.code,
                                d.code == diag::irq ? "interrupt" : "FIQ", now_, rec.reg);
            log({{"line", line_}, {std::string(d.code), now_}});
        } else {
            err_ << fmt::format("{}: {} [{}] {}\n", where(), to_string(d.severity), d.code, d.message);
            log({{"line", line_},
                 {"diagnostic", {{"severity", to_string(d.severity)}, {"code", d.code}, {"message", d.message}}}});
        }
    }
}

void ScriptRunner::fail(const std::string& message) {
    ++failures_;
    err_ << fmt::format("{}: FAIL: {}\n", where(), message);
    log({{"line", line_}, {"fail", message}});
}

void ScriptRunner::advance(EventBatch& batch) {
    const AdvanceResult r = advance_hook_ ? advance_hook_(batch) : pmu_->advance(batch);
    if (r.irq_rose && !cfg_.quiet) {
        err_ << fmt::format("{}: info [irq] interrupt request asserted at cycle {}\n", where(), now_ + r.irq_cycle);
        log({{"line", line_}, {"irq", now_ + r.irq_cycle}});
    }
    if (r.fiq_rose && !cfg_.quiet) {
        err_ << fmt::format("{}: info [fiq] FIQ request asserted at cycle {}\n", where(), now_ + r.fiq_cycle);
        log({{"line", line_}, {"fiq", now_ + r.fiq_cycle}});
    }
    now_ += batch.cycles;
}

std::string ScriptRunner::snapshot() const {
    std::string s;
    for (const auto& r : pmu_->bank().all())
        if (r->state) s += fmt::format("{}={:x};", r->name, r->read());
    s += fmt::format("irq={};fiq={}", pmu_->irq(), pmu_->fiq());
    return s;
}

void ScriptRunner::exec(std::string_view line) {
    // Every loop a script can ask for is bounded (docs/script.md, "Limits"): a runaway script is an error, not a hang.
    if (++steps_ > max_script_steps)
        throw Malformed{fmt::format("the script runs more than {} statements (repeat counts multiply): split it or lower "
                                    "the counts", max_script_steps)};
    std::string_view rest = line;
    const std::string kw = to_lower(next_word(rest));
    const auto args = words(rest);
    auto need_args = [&](size_t lo, size_t hi, const char* usage) {
        if (args.size() < lo || args.size() > hi) throw Malformed{fmt::format("expected '{}'", usage)};
    };

    if (kw == "platform") {
        if (args.empty()) throw Malformed{"expected 'platform NAME [KEY=VALUE ...]'"};
        if (accessed_) throw Malformed{"'platform' must come before the first access"};
        PlatformOptions opts = cfg_.options;
        for (size_t i = 1; i < args.size(); ++i) {
            const size_t eq = args[i].find('=');
            if (eq == std::string_view::npos || eq == 0)
                throw Malformed{fmt::format("expected a platform option KEY=VALUE, got '{}'", args[i])};
            opts[std::string(args[i].substr(0, eq))] = std::string(args[i].substr(eq + 1));
        }
        select_platform(args[0], opts);
        return;
    }
    if (kw == "el") {
        need_args(1, 1, "el N");
        if (platform_ && platform_->riscv)
            throw Malformed{fmt::format("platform {} is RISC-V: use 'priv M|U' instead of 'el'", platform_->name)};
        const auto v = isa::parse_number(args[0]);
        if (!v || *v > 3) throw Malformed{fmt::format("expected an exception level 0-3, got '{}'", args[0])};
        privilege_ = static_cast<unsigned>(*v);
        if (pmu_) pmu_->set_exec_context(ExecContext{privilege_, secure_ || privilege_ == 3});
        return;
    }
    if (kw == "priv") {
        need_args(1, 1, "priv M|U");
        const std::string p = to_lower(args[0]);
        if (p != "m" && p != "u") throw Malformed{fmt::format("expected M or U, got '{}'", args[0])};
        if (platform_ && !platform_->riscv)
            throw Malformed{fmt::format("platform {} is not RISC-V: use 'el N' instead of 'priv'", platform_->name)};
        const unsigned priv = p == "m" ? 3 : 0;
        if (pmu_ && !pmu_->supports_privilege(priv))
            throw Malformed{fmt::format("platform {} has no U-mode (platform option user_mode=1 adds it)", platform_->name)};
        privilege_ = priv;
        if (pmu_) pmu_->set_exec_context(ExecContext{privilege_, secure_});
        return;
    }
    if (kw == "security") {
        need_args(1, 1, "security secure|non-secure");
        const std::string s = to_lower(args[0]);
        if (s != "secure" && s != "non-secure") throw Malformed{fmt::format("expected secure or non-secure, got '{}'", args[0])};
        secure_ = s == "secure";
        if (pmu_) pmu_->set_exec_context(ExecContext{privilege_, secure_ || privilege_ == 3});
        return;
    }
    if (kw == "state") {
        need_args(1, 1, "state run|debug|fw-halt|db-halt|sleep");
        const auto s = parse_core_state(args[0]);
        if (!s) throw Malformed{fmt::format("expected run, debug, fw-halt, db-halt or sleep, got '{}'", args[0])};
        Pmu& pmu = need_pmu("state");
        if (!pmu.supports_state(*s))
            throw Malformed{fmt::format("platform {} has no '{}' state", platform_->name, args[0])};
        pmu.set_state(*s);
        return;
    }
    if (kw == "read") {
        need_args(1, 1, "read REG");
        const Operand op = resolve(args[0]);
        const AccessRecord rec = do_read(op);
        report(rec, false);
        if (rec.trapped() || capture_) return;
        if (cfg_.json) log({{"line", line_}, {"read", op.text}, {"value", rec.value_read}});
        else out_ << fmt::format("{} = {}\n", op.text, hex_width(rec.value_read, op.mmio ? 32 : op.width));
        return;
    }
    if (kw == "write") {
        need_args(2, 2, "write REG VALUE");
        const Operand op = resolve(args[0]);
        // An event name stands for its number (`write PMEVTYPER0_EL0 INST_RETIRED`).
        const auto named = isa::parse_number(args[1]) ? std::nullopt : find_event(*platform_, args[1]);
        const uint64_t v = named ? named->number : parse_value(args[1], "a value or an event name");
        report(do_write(op, v), false);
        return;
    }
    if (kw == "expect") {
        exec_expect(rest);
        return;
    }
    if (kw == "expect-trap") {
        exec_expect_trap(rest);
        return;
    }
    if (kw == "tick") {
        need_args(1, 1, "tick N");
        need_pmu("tick");
        batch_.clear();
        batch_.cycles = parse_value(args[0], "a cycle count");
        advance(batch_);
        return;
    }
    if (kw == "event") {
        need_args(1, 2, "event EVENT [N]");
        Pmu& pmu = need_pmu("event");
        const auto e = find_event(*platform_, args[0]);
        if (!e || !platform_->implements(pmu, e->number))
            throw Malformed{fmt::format("unknown event '{}': not an event that platform {} implements", args[0],
                                        platform_->name)};
        batch_.clear();
        batch_.add(e->number, args.size() == 2 ? parse_value(args[1], "an event count") : 1);
        advance(batch_);
        return;
    }
    if (kw == "explain") {
        if (trim(rest).empty()) throw Malformed{"expected 'explain read REG', 'explain write REG VALUE' or 'explain INSTRUCTION'"};
        const Explanation e = explain_access(rest);
        if (cfg_.json) log({{"line", line_}, {"explain", explanation_json(*platform_, *pmu_, e)}});
        else print_explanation(out_, *platform_, *pmu_, e);
        return;
    }
    if (kw == "repeat") {
        std::string_view body = rest;
        const std::string_view n = next_word(body);
        if (n.empty() || body.empty()) throw Malformed{"expected 'repeat N LINE'"};
        const uint64_t count = parse_value(n, "a repeat count");
        if (count > max_repeat_count)
            throw Malformed{fmt::format("a repeat count is at most {}, got {}", max_repeat_count, count)};
        if (repeat_depth_ == max_repeat_depth)
            throw Malformed{fmt::format("repeats nest at most {} deep", max_repeat_depth)};
        // The statements this line will run, nested repeats multiplied out, against what the script may still run.
        uint64_t total = count;
        for (std::string_view inner = body; total <= max_script_steps;) {
            if (to_lower(next_word(inner)) != "repeat") break;
            const auto m = isa::parse_number(next_word(inner));
            if (!m) break;  // malformed: reported when that line runs
            total = *m == 0 ? 0 : (total > max_script_steps / *m ? max_script_steps + 1 : total * *m);
        }
        if (total > max_script_steps - std::min(steps_, max_script_steps))
            throw Malformed{fmt::format("the script runs more than {} statements (repeat counts multiply): split it or "
                                        "lower the counts", max_script_steps)};
        ++repeat_depth_;
        struct Leave {
            unsigned& depth;
            ~Leave() { --depth; }
        } leave{repeat_depth_};
        for (uint64_t i = 0; i < count; ++i) exec(body);
        return;
    }
    if (exec_instruction(line, false) == InsnOutcome::not_instruction)
        throw Malformed{fmt::format("unknown keyword or instruction '{}'", kw)};
}

void ScriptRunner::exec_expect(std::string_view rest) {
    // expect LHS [& MASK] == VALUE
    const auto a = words(rest);
    const char* usage = "expect REG|irq|fiq|CORE_REG [& MASK] == VALUE";
    if (!(a.size() == 3 || a.size() == 5) || a[a.size() - 2] != "==" || (a.size() == 5 && a[1] != "&"))
        throw Malformed{fmt::format("expected '{}'", usage)};
    const uint64_t mask = a.size() == 5 ? parse_value(a[2], "a mask") : ~uint64_t{0};
    const uint64_t want = parse_value(a.back(), "a value");
    const std::string lhs = to_lower(a[0]);
    uint64_t got = 0;
    std::string label(a[0]);
    Pmu& pmu = need_pmu("expect");
    unsigned width = 32;
    if (lhs == "irq") {
        got = pmu.irq();
    } else if (lhs == "fiq") {
        if (!pmu.has_fiq()) throw Malformed{fmt::format("platform {} has no FIQ request", platform_->name)};
        got = pmu.fiq();
    } else if (const auto r = core_register(platform_->isa, a[0])) {
        got = *r == zero_register(platform_->isa) ? 0 : core_[*r];
        width = 64;
    } else {
        const Operand op = resolve(a[0]);
        const AccessRecord rec = do_read(op);
        report(rec, false);
        label = op.text;
        width = op.mmio ? 32 : op.width;
        ++expectations_;
        if (rec.trapped()) {
            fail(fmt::format("expected {} == {} but the read trapped", label, hex_width(want, width)));
            return;
        }
        got = rec.value_read;
        if ((got & mask) != want)
            fail(fmt::format("expected {}{} == {}, got {}", label, a.size() == 5 ? fmt::format(" & {:#x}", mask) : "",
                             hex_width(want, width), hex_width(got & mask, width)));
        return;
    }
    ++expectations_;
    if ((got & mask) != want)
        fail(fmt::format("expected {}{} == {:#x}, got {:#x}", label, a.size() == 5 ? fmt::format(" & {:#x}", mask) : "",
                         want, got & mask));
}

void ScriptRunner::exec_expect_trap(std::string_view rest) {
    std::string_view body = rest;
    std::string_view first = next_word(body);
    const std::string kw = to_lower(first);
    need_pmu("expect-trap");
    ++expectations_;
    const std::string before = snapshot();
    bool trapped = false;
    std::string what;
    if (kw == "read" || kw == "write") {
        const auto a = words(body);
        if (kw == "read" ? a.size() != 1 : a.size() != 2)
            throw Malformed{kw == "read" ? "expected 'expect-trap read REG'" : "expected 'expect-trap write REG VALUE'"};
        const Operand op = resolve(a[0]);
        const AccessRecord rec = kw == "read" ? do_read(op) : do_write(op, parse_value(a[1], "a value"));
        report(rec, true);
        trapped = rec.trapped();
        what = fmt::format("{} {}", kw, op.text);
    } else {
        if (trim(rest).empty())
            throw Malformed{"expected 'expect-trap read REG', 'expect-trap write REG VALUE' or 'expect-trap INSTRUCTION'"};
        const InsnOutcome o = exec_instruction(rest, true);
        if (o == InsnOutcome::not_instruction) throw Malformed{fmt::format("unknown instruction '{}'", first)};
        trapped = o == InsnOutcome::trapped;
        what = std::string(trim(rest));
    }
    if (!trapped) fail(fmt::format("expected '{}' to trap, but it was allowed", what));
    else if (snapshot() != before) fail(fmt::format("'{}' trapped but changed state", what));
}

ScriptRunner::InsnOutcome ScriptRunner::exec_instruction(std::string_view text, bool expect_trap) {
    if (!platform_) {
        // Without a platform there is no instruction set to parse with.
        throw Malformed{fmt::format("unknown keyword '{}' (instructions need a platform: add 'platform NAME' first)",
                                    text.substr(0, text.find(' ')))};
    }
    const ParseOutcome p = parse_instruction(platform_->isa, text);
    if (!p.is_instruction) return InsnOutcome::not_instruction;
    if (!p.insn) throw Malformed{fmt::format("malformed instruction '{}': {}", trim(text), p.error)};
    const ScriptInsn& i = *p.insn;
    const unsigned zr = zero_register(platform_->isa);
    // A system-register access happens first (a read samples the register before the instruction's own
    // events; a write takes effect before them); then the instruction retires: its events, no cycles. A
    // trapping instruction retires nothing (docs/script.md).
    if (i.kind == ScriptInsn::Kind::csr) return exec_csr(i, expect_trap);
    if (i.kind == ScriptInsn::Kind::sys_read || i.kind == ScriptInsn::Kind::sys_write) {
        const Operand op = i.has_cp15 ? resolve_cp15(i) : resolve(i.sysreg);
        if (op.mmio) throw Malformed{"a system-register instruction cannot name a memory-mapped @OFFSET"};
        const bool is_read = i.kind == ScriptInsn::Kind::sys_read;
        const AccessRecord rec = is_read ? do_read(op) : do_write(op, i.reg == zr ? 0 : core_[i.reg]);
        report(rec, expect_trap);
        if (rec.trapped()) return InsnOutcome::trapped;
        if (is_read && i.reg != zr) core_[i.reg] = rec.value_read;
    } else if (i.kind == ScriptInsn::Kind::set_imm && i.reg != zr) {
        core_[i.reg] = i.imm;
    }
    retire(i);
    return InsnOutcome::retired;
}

}  // namespace pmusim
