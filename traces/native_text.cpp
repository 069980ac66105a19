// The native format's text form (docs/trace-formats.md "The native format"): hand-written teaching traces, and
// `pmusim convert --text`.
#include <cctype>
#include <cstring>

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
    // Keys of key=value words, by the key's length and first letter (each compared whole once found).
    enum class Key { none, pc, wb, enc, isa, irq, mem, gpr, csr, sys, size, priv, time };
    static Key key_of(std::string_view k) {
        switch (k.size()) {
            case 2: return scan::is(k, "pc") ? Key::pc : scan::is(k, "wb") ? Key::wb : Key::none;
            case 3:
                switch (k[0]) {
                    case 'e': return scan::is(k, "enc") ? Key::enc : Key::none;
                    case 'i': return scan::is(k, "isa") ? Key::isa : scan::is(k, "irq") ? Key::irq : Key::none;
                    case 'm': return scan::is(k, "mem") ? Key::mem : Key::none;
                    case 'g': return scan::is(k, "gpr") ? Key::gpr : Key::none;
                    case 'c': return scan::is(k, "csr") ? Key::csr : Key::none;
                    case 's': return scan::is(k, "sys") ? Key::sys : Key::none;
                    default: return Key::none;
                }
            case 4:
                return scan::is(k, "size") ? Key::size : scan::is(k, "priv") ? Key::priv : scan::is(k, "time") ? Key::time : Key::none;
            default: return Key::none;
        }
    }

    // One word of a record into r; false when it is not a word of the form.
    static bool word(std::string_view w, TraceRecord& r, bool& have_pc) {
        if (scan::is(w, "cf")) {
            r.cond_failed = true;
            return true;
        }
        if (scan::is(w, "trap")) {
            r.trapped = true;
            return true;
        }
        if (scan::is(w, "irq")) {  // an interrupt taken before it, cause unknown
            r.interrupt = true;
            return true;
        }
        const size_t eq = scan::find(w, '=');
        if (eq == std::string_view::npos) return false;
        const std::string_view k = w.substr(0, eq), v = w.substr(eq + 1);
        uint64_t n = 0;
        bool ok;
        switch (const Key key = key_of(k)) {
            case Key::pc:
                ok = scan::hex(v, r.pc);
                have_pc = ok;
                return ok;
            case Key::enc:
                ok = scan::hex(v, n) && n <= 0xFFFFFFFFu;
                r.encoding = static_cast<uint32_t>(n);
                return ok;
            case Key::size:
                ok = scan::dec(v, n) && (n == 2 || n == 4);
                r.size = static_cast<uint8_t>(n);
                return ok;
            case Key::isa:
                if (scan::is(v, "a64")) r.isa = IsaState::a64;
                else if (scan::is(v, "a32")) r.isa = IsaState::a32;
                else if (scan::is(v, "t32")) r.isa = IsaState::t32;
                else if (scan::is(v, "rv32")) r.isa = IsaState::rv32;
                else if (scan::is(v, "rv64")) r.isa = IsaState::rv64;
                else return false;
                return true;
            case Key::priv:
                ok = scan::dec(v, n) && n <= 3;
                r.privilege = static_cast<uint8_t>(n);
                return ok;
            case Key::irq:  // irq=N: an interrupt taken before it, cause N (decimal)
                ok = scan::dec(v, n) && n < TraceRecord::unknown_cause;
                r.interrupt = true;
                r.cause = static_cast<uint16_t>(n);
                return ok;
            case Key::time:
                ok = scan::dec(v, r.time);
                r.has_time = ok;
                return ok;
            case Key::mem: {
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
                return ok && r.add_mem(m);
            }
            case Key::gpr:
            case Key::csr:
            case Key::sys:
            case Key::wb: {
                const size_t c = scan::find(v, ':');
                uint64_t idx = 0, val = 0;
                // The index is decimal (gpr=15 is x15 / r15) unless written with 0x (csr=0xb02); the value is hex.
                const std::string_view is = c == std::string_view::npos ? v : v.substr(0, c);
                const bool hex_index = is.size() > 2 && is[0] == '0' && (is[1] == 'x' || is[1] == 'X');
                ok = c != std::string_view::npos && (hex_index ? scan::hex(is, idx) : scan::dec(is, idx)) && idx <= 0xFFFF &&
                     scan::hex(v.substr(c + 1), val);
                const bool wb = key == Key::wb;
                const RegKind kind = key == Key::gpr || wb ? RegKind::gpr : key == Key::csr ? RegKind::csr : RegKind::sysreg;
                return ok && r.add_reg(kind, static_cast<uint16_t>(idx), val, wb);
            }
            case Key::none: return false;
        }
        return false;
    }

    // The words as the writer writes them, read in one pass over the line without splitting it into words first:
    // each key recognised by its first letters, each number read in place (scan::hex_run: eight digits at a time).
    // Anything else (other spellings, a word out of its form, an error) returns false, and parse() reads the line
    // word by word: the fast pass takes only what parse() takes, with the same result.
    static bool fast(const char* p, const char* e, TraceRecord& r) {
        bool have_pc = false;
        // A number that ends the word: hexadecimal (0x optional, as scan::hex) or decimal (up to 19 digits).
        const auto ends = [&p, e] { return p == e || scan::space(*p); };
        const auto hexnum = [&p, e, &ends](uint64_t& v) {
            if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && scan::hex_digit(p[2]) < 16) p += 2;
            return scan::hex_run(p, e, v) && ends();
        };
        const auto decnum = [&p, e, &ends](uint64_t& v) {
            const char* s = p;
            uint64_t n = 0;
            for (; p < e && static_cast<unsigned char>(*p - '0') < 10; ++p) n = n * 10 + static_cast<unsigned>(*p - '0');
            v = n;
            return p != s && p - s <= 19 && ends();
        };
        const auto lit = [&p, e](const auto& s) {  // a literal, its length known at compile time (memcmp inlined)
            constexpr size_t n = sizeof s - 1;
            if (static_cast<size_t>(e - p) < n || std::memcmp(p, s, n) != 0) return false;
            p += n;
            return true;
        };
        for (p = scan::detail::skip_space(p, e); p < e; p = scan::detail::skip_space(p, e)) {
            uint64_t n = 0;
            bool ok = false;
            if (lit("pc=")) {
                ok = have_pc = hexnum(r.pc);
            } else if (lit("enc=")) {
                ok = hexnum(n) && n <= 0xFFFFFFFFu;
                r.encoding = static_cast<uint32_t>(n);
            } else if (lit("size=")) {
                ok = decnum(n) && (n == 2 || n == 4);
                r.size = static_cast<uint8_t>(n);
            } else if (lit("isa=")) {
                ok = true;
                if (lit("rv32")) r.isa = IsaState::rv32;
                else if (lit("a64")) r.isa = IsaState::a64;
                else if (lit("a32")) r.isa = IsaState::a32;
                else if (lit("t32")) r.isa = IsaState::t32;
                else if (lit("rv64")) r.isa = IsaState::rv64;
                else ok = false;
                ok = ok && ends();
            } else if (lit("priv=")) {
                ok = decnum(n) && n <= 3;
                r.privilege = static_cast<uint8_t>(n);
            } else if (lit("time=")) {
                ok = r.has_time = decnum(r.time);
            } else if (p[0] == 'g' || p[0] == 'c' || p[0] == 's' || p[0] == 'w') {
                const bool wb = lit("wb=");
                const RegKind kind = wb || lit("gpr=") ? RegKind::gpr : lit("csr=") ? RegKind::csr
                                                                          : lit("sys=") ? RegKind::sysreg
                                                                                           : RegKind{255};
                uint64_t idx = 0, val = 0;
                // The index in hexadecimal as the writer writes it (0x...): a decimal one is left to parse().
                ok = kind != RegKind{255} && lit("0x") && scan::hex_run(p, e, idx) && idx <= 0xFFFF && lit(":") &&
                     hexnum(val) && r.add_reg(kind, static_cast<uint16_t>(idx), val, wb);
            } else if (lit("mem=")) {
                MemAccess m;
                m.is_write = p < e && *p == 'w';
                ok = (lit("r:") || lit("w:"));
                // dir:size:addr[:data], the size decimal, the address and data with 0x.
                const char* s = p;
                for (; p < e && static_cast<unsigned char>(*p - '0') < 10; ++p) n = n * 10 + static_cast<unsigned>(*p - '0');
                ok = ok && p != s && p - s <= 19 && n <= 16 && lit(":0x") && scan::hex_run(p, e, m.addr);
                m.size = static_cast<uint8_t>(n);
                if (ok && p < e && *p == ':') {
                    ++p;
                    m.data_known = true;
                    ok = hexnum(m.data);
                } else {
                    ok = ok && ends();
                }
                ok = ok && r.add_mem(m);
            } else if (lit("cf")) {
                ok = ends();
                r.cond_failed = true;
            } else if (lit("trap")) {
                ok = ends();
                r.trapped = true;
            } else if (lit("irq")) {
                r.interrupt = true;
                if (ends()) ok = true;
                else if (lit("=")) {
                    ok = decnum(n) && n < TraceRecord::unknown_cause;
                    r.cause = static_cast<uint16_t>(n);
                }
            }
            if (!ok) return false;
        }
        return have_pc && r.isa != IsaState::unknown;
    }

    bool parse(std::string_view t, TraceRecord& r) {
        const uint64_t no = lines_.line_number();
        r.clear();
        r.line = no;
        if (fast(t.data(), t.data() + t.size(), r)) return true;
        r.clear();
        r.line = no;
        bool have_pc = false;
        for (std::string_view w = scan::word(t); !w.empty(); w = scan::word(t)) {
            if (!word(w, r, have_pc)) {
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
