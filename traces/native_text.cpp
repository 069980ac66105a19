// The native format's text form (docs/trace-formats.md "The native format"): hand-written teaching traces, and
// `pmusim convert --text`.
#include <cctype>

#include <fmt/format.h>

#include "traces/native.hpp"
#include "traces/reader.hpp"

namespace pmusim::trace {

namespace {

// Text form: "# pmusim trace 1 [reset] [no-values] [no-time] [interrupts]" (the header's flags) then one record per line of
// key=value words:
//   pc=0x80000000 enc=0xb0201073 size=4 isa=rv32 priv=3 [time=10] [cf] [trap] [mem=w:1:0xd0580000[:0xff]]
//   [wb=11:0x5] [gpr=5:0x1] [csr=0xb02:0x0] [sys=0xdce0:0x7]
// wb= is a late GPR writeback that landed before the instruction (VeeR EL2 nbL/nbD).
// A register index is decimal unless written with 0x (the writer writes 0x); values are always hex.
class TextWriter : public TraceWriter {
public:
    explicit TextWriter(const std::string& path) : path_(path), file_(path, OutputFile::Kind::text), f_(file_.file()) {}
    void begin(const NativeHeader& h) override {
        if (begun_) return;
        begun_ = true;
        const std::string s = fmt::format("# pmusim trace 1{}{}{}{}\n", h.starts_at_reset ? " reset" : "",
                                          h.register_values ? "" : " no-values", h.timestamps ? "" : " no-time",
                                          h.interrupts ? " interrupts" : "");
        if (std::fputs(s.c_str(), f_) < 0) throw TraceError(path_, 0, "write error");
    }
    void write(const TraceRecord& r) override {
        begin({});
        std::string s = fmt::format("pc={:#x} enc={:#x} size={} isa={} priv={}", r.pc, r.encoding, r.size,
                                    to_lower_isa(r.isa), r.privilege);
        if (r.has_time) s += fmt::format(" time={}", r.time);
        if (r.cond_failed) s += " cf";
        if (r.trapped) s += " trap";
        if (r.interrupt) s += r.cause == TraceRecord::unknown_cause ? std::string(" irq") : fmt::format(" irq={}", r.cause);
        for (unsigned i = 0; i < r.n_mem; ++i) {
            const MemAccess& m = r.mem[i];
            s += fmt::format(" mem={}:{}:{:#x}", m.is_write ? 'w' : 'r', m.size, m.addr);
            if (m.data_known) s += fmt::format(":{:#x}", m.data);
        }
        for (unsigned i = 0; i < r.n_regs; ++i) {
            const RegWrite& g = r.regs[i];
            const char* k = g.before ? "wb" : g.kind == RegKind::gpr ? "gpr" : g.kind == RegKind::csr ? "csr" : "sys";
            s += fmt::format(" {}={:#x}:{:#x}", k, g.index, g.value);
        }
        s += '\n';
        if (std::fputs(s.c_str(), f_) < 0) throw TraceError(path_, 0, "write error");
    }
    void finish() override {
        begin({});
        file_.commit();
    }
    static std::string to_lower_isa(IsaState s) {
        std::string n(to_string(s));
        for (auto& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return n;
    }

private:
    std::string path_;
    OutputFile file_;  // written whole or not at all (traces/output_file.hpp)
    std::FILE* f_;
    bool begun_ = false;
};

class TextReader : public TraceReader {
public:
    TextReader(std::unique_ptr<ByteSource> src, const ReaderOptions& o) : src_(std::move(src)), lines_(*src_) {
        opts_ = o;
        // The header's flags, known before the first record (the replay asks at its start).
        const std::string_view head = src_->peek(4096);
        std::string_view t = scan::trim(head.substr(0, head.find('\n')));
        if (t.substr(0, 14) == "# pmusim trace") {
            t.remove_prefix(14);
            scan::word(t);  // the version
            for (std::string_view w = scan::word(t); !w.empty(); w = scan::word(t)) {
                if (w == "reset") reset_ = true;
                else if (w == "no-values") values_ = false;
                else if (w == "no-time") time_ = false;
                else if (w == "interrupts") interrupts_ = true;
                else throw TraceError(src_->path(), 1, fmt::format("unknown header word '{}' (expected reset, no-values, no-time or interrupts)", w));
            }
        }
    }
    std::string_view format() const override { return "native-text"; }
    uint64_t bytes_read() const override { return src_->raw_bytes(); }
    bool has_register_values() const override { return values_; }
    bool has_time() const override { return time_; }
    bool starts_at_reset() const override { return reset_; }
    bool shows_interrupts() const override { return interrupts_; }

    bool next(TraceRecord& r) override {
        std::string_view line;
        while (lines_.next(line)) {
            std::string_view t = scan::trim(line);
            if (t.empty() || t[0] == '#') continue;
            if (parse(t, r)) return true;
        }
        return false;
    }

private:
    bool parse(std::string_view t, TraceRecord& r) {
        const uint64_t no = lines_.line_number();
        r.clear();
        r.line = no;
        bool have_pc = false;
        for (std::string_view w = scan::word(t); !w.empty(); w = scan::word(t)) {
            if (scan::is(w, "cf")) {
                r.cond_failed = true;
                continue;
            }
            if (scan::is(w, "trap")) {
                r.trapped = true;
                continue;
            }
            if (scan::is(w, "irq")) {  // an interrupt taken before it, cause unknown
                r.interrupt = true;
                continue;
            }
            const size_t eq = scan::find(w, '=');
            const std::string_view k = w.substr(0, eq), v = eq == std::string_view::npos ? std::string_view{} : w.substr(eq + 1);
            uint64_t n = 0;
            bool ok = eq != std::string_view::npos;
            if (!ok) {
            } else if (scan::is(k, "pc")) {
                ok = scan::hex(v, r.pc);
                have_pc = ok;
            } else if (scan::is(k, "enc")) {
                ok = scan::hex(v, n) && n <= 0xFFFFFFFFu;
                r.encoding = static_cast<uint32_t>(n);
            } else if (scan::is(k, "size")) {
                ok = scan::dec(v, n) && (n == 2 || n == 4);
                r.size = static_cast<uint8_t>(n);
            } else if (scan::is(k, "isa")) {
                ok = true;
                if (scan::is(v, "a64")) r.isa = IsaState::a64;
                else if (scan::is(v, "a32")) r.isa = IsaState::a32;
                else if (scan::is(v, "t32")) r.isa = IsaState::t32;
                else if (scan::is(v, "rv32")) r.isa = IsaState::rv32;
                else if (scan::is(v, "rv64")) r.isa = IsaState::rv64;
                else ok = false;
            } else if (scan::is(k, "priv")) {
                ok = scan::dec(v, n) && n <= 3;
                r.privilege = static_cast<uint8_t>(n);
            } else if (scan::is(k, "irq")) {  // irq=N: an interrupt taken before it, cause N (decimal)
                ok = scan::dec(v, n) && n < TraceRecord::unknown_cause;
                r.interrupt = true;
                r.cause = static_cast<uint16_t>(n);
            } else if (scan::is(k, "time")) {
                ok = scan::dec(v, r.time);
                r.has_time = ok;
            } else if (scan::is(k, "mem")) {
                // dir:size:addr[:data]
                MemAccess m;
                std::string_view parts[4];
                size_t np = 0;
                for (std::string_view rest = v; np < 4;) {
                    const size_t c = scan::find(rest, ':');
                    parts[np++] = rest.substr(0, c);
                    if (c == std::string_view::npos) break;
                    rest = rest.substr(c + 1);
                }
                ok = np >= 3 && (scan::is(parts[0], "r") || scan::is(parts[0], "w")) && scan::dec(parts[1], n) && n <= 16 &&
                     scan::hex(parts[2], m.addr) && (np < 4 || scan::hex(parts[3], m.data));
                m.is_write = scan::is(parts[0], "w");
                m.size = static_cast<uint8_t>(n);
                m.data_known = np == 4;
                ok = ok && r.add_mem(m);
            } else if (scan::is(k, "gpr") || scan::is(k, "csr") || scan::is(k, "sys") || scan::is(k, "wb")) {
                const size_t c = scan::find(v, ':');
                uint64_t idx = 0, val = 0;
                // The index is decimal (gpr=15 is x15 / r15) unless written with 0x (csr=0xb02); the value is hex.
                const std::string_view is = c == std::string_view::npos ? v : v.substr(0, c);
                const bool hex_index = is.size() > 2 && is[0] == '0' && (is[1] == 'x' || is[1] == 'X');
                ok = c != std::string_view::npos && (hex_index ? scan::hex(is, idx) : scan::dec(is, idx)) && idx <= 0xFFFF &&
                     scan::hex(v.substr(c + 1), val);
                const bool wb = scan::is(k, "wb");
                const RegKind kind = scan::is(k, "gpr") || wb ? RegKind::gpr : scan::is(k, "csr") ? RegKind::csr : RegKind::sysreg;
                ok = ok && r.add_reg(kind, static_cast<uint16_t>(idx), val, wb);
            } else {
                ok = false;
            }
            if (!ok) {
                bad_line(src_->path(), no, fmt::format("bad word '{}': expected pc=, enc=, size=2|4, isa=, priv=0-3, time=, cf, trap, "
                                                       "mem=r|w:size:addr[:data], wb=|gpr=|csr=|sys=index:value",
                                                       w));
                return false;
            }
        }
        if (!have_pc) {
            bad_line(src_->path(), no, "expected a record with pc=<hex>");
            return false;
        }
        if (r.isa == IsaState::unknown) {
            bad_line(src_->path(), no, "expected isa=a64|a32|t32|rv32|rv64");
            return false;
        }
        return true;
    }

    std::unique_ptr<ByteSource> src_;
    LineReader lines_;
    bool reset_ = false, values_ = true, time_ = true, interrupts_ = false;
};

}  // namespace

std::unique_ptr<TraceWriter> make_native_text_writer(const std::string& path) { return std::make_unique<TextWriter>(path); }

std::unique_ptr<TraceReader> make_native_text_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<TextReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
