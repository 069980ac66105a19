// Arm Tarmac (FORMATS.md §1): instruction lines IT/IS/IF (Fast Models, gem5, RTL) and ES ("Tarmac Text Rev 3t"),
// register lines R (GPRs kept; other registers read past), memory lines M[RW]n / R0n / W0n and the Cortex-M
// forms, and the LD/ST byte diagrams with their continuation lines. A record is complete when the next
// instruction line (or the end) arrives, since its R and memory lines follow it. Text-only events (E, EXC, BR,
// CADI, P, CACHE, TTW, SIGNAL, INFO_*, the header) are skipped.
#include <fmt/format.h>

#include "traces/reader.hpp"

namespace pmusim::trace {

namespace {

// ASCII tests inline (the C locale's isdigit, isxdigit, tolower): no library call per character.
bool digit(char c) { return c >= '0' && c <= '9'; }
bool xdigit(char c) { return scan::hex_digit(c) < 16; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Whether `s` begins with the lower-case `prefix`, in either case.
template <size_t N>
bool starts_nocase(std::string_view s, const char (&prefix)[N]) {
    if (s.size() < N - 1) return false;
    for (size_t i = 0; i + 1 < N; ++i)
        if (lower(s[i]) != prefix[i]) return false;
    return true;
}

bool is_unit(std::string_view w) {
    return scan::is(w, "clk") || scan::is(w, "ns") || scan::is(w, "cs") || scan::is(w, "cyc") || scan::is(w, "tic") ||
           scan::is(w, "ps") || scan::is(w, "us");
}

// "1359353", "10.356000us", "271ns": a timestamp, with the unit attached or not.
bool timestamp(std::string_view w, uint64_t& t) {
    size_t i = 0;
    while (i < w.size() && (digit(w[i]) || w[i] == '.')) ++i;
    if (i == 0 || (i < w.size() && !is_unit(w.substr(i)))) return false;
    const size_t dot = scan::find(w, '.');
    return scan::dec(w.substr(0, std::min(dot, i)), t);
}

// Exception level from the mode column: EL3h_s, el0t_ns, svc_s, usr, thread, handler_s, ...
uint8_t privilege(std::string_view m) {
    if (m.size() >= 3 && lower(m[0]) == 'e' && lower(m[1]) == 'l' && m[2] >= '0' && m[2] <= '3')
        return static_cast<uint8_t>(m[2] - '0');
    if (starts_nocase(m, "usr") || starts_nocase(m, "thr")) return 0;
    if (starts_nocase(m, "hyp")) return 2;
    if (starts_nocase(m, "mon")) return 3;
    return 1;  // svc, irq, fiq, abt, und, sys, handler
}

// Hexadecimal digits gathered from a register's or a memory line's contents without their separators: 16 at
// most fit, more make the value unknown.
struct HexBuffer {
    char c[16];
    size_t n = 0;
    void add(char x) {
        if (n < sizeof c) c[n] = x;
        ++n;
    }
    bool value(uint64_t& v) const { return n <= sizeof c && scan::hex(std::string_view(c, n), v); }
};

class TarmacReader : public TraceReader {
public:
    TarmacReader(std::unique_ptr<ByteSource> src, const ReaderOptions& o) : src_(std::move(src)), lines_(*src_) {
        opts_ = o;
    }
    std::string_view format() const override { return "tarmac"; }
    uint64_t bytes_read() const override { return src_->raw_bytes(); }
    bool has_register_values() const override { return true; }
    bool has_time() const override { return true; }

    bool next(TraceRecord& out) override {
        std::string_view line;
        while (lines_.next(line)) {
            // An instruction line is read into the other slot, which becomes the current record: no copy but to out.
            if (!parse(line, slot_[cur_slot_ ^ 1u])) continue;
            // A new instruction: the previous one is complete.
            const bool had = have_;
            cur_slot_ ^= 1u;
            have_ = true;
            if (had) {
                out = slot_[cur_slot_ ^ 1u];
                return true;
            }
        }
        if (have_) {
            out = cur();
            have_ = false;
            return true;
        }
        return false;
    }

private:
    TraceRecord& cur() { return slot_[cur_slot_]; }

    // Parses one line; true when it starts a new instruction record (in r). Other lines update cur().
    bool parse(std::string_view line, TraceRecord& r) {
        const uint64_t no = lines_.line_number();
        std::string_view t = scan::trim(line);
        if (t.empty() || t[0] == '#') return false;
        if (t == "Tarmac Text Rev 3t") return false;
        // An LD/ST continuation line: indented, an address, then byte cells ("........", "3e000a73", "##").
        if (in_diagram_ && !line.empty() && scan::space(line[0])) {
            std::string_view u = t;
            const std::string_view a = scan::word(u), cell = scan::word(u);
            uint64_t v;
            bool cells = cell.size() == 8;
            for (char c : cell) cells = cells && (xdigit(c) || c == '.' || c == '#');
            if (scan::hex(a, v) && cells) {
                diagram(t, no);
                return false;
            }
        }
        std::string_view rest = t;
        std::string_view w = scan::word(rest);
        uint64_t ts;
        if (timestamp(w, ts)) {
            time_ = ts;
            have_time_ = true;
            w = scan::word(rest);
            if (is_unit(w)) w = scan::word(rest);
        }
        if (w.size() > 3 && scan::starts(w, "cpu")) w = scan::word(rest);  // gem5 and multi-core FVPs
        if (scan::is(w, "IT") || scan::is(w, "IS") || scan::is(w, "IF")) return instruction(scan::is(w, "IS"), rest, no, r);
        if (scan::is(w, "ES")) return es(rest, no, r);
        if (scan::is(w, "R")) {
            reg(rest);
            return false;
        }
        if (scan::is(w, "LD") || scan::is(w, "ST")) {
            diagram_store_ = scan::is(w, "ST");
            diagram(rest, no);
            return false;
        }
        if (memory(w, rest, no)) return false;
        // Text-only events.
        static const char* text_only[] = {"E", "EXC", "BR", "CADI", "P", "CACHE", "TTW", "SIGNAL:", "SIGNAL"};
        for (const char* k : text_only)
            if (w == k) return false;
        if (scan::starts(w, "INFO_")) return false;
        bad_line(src_->path(), no, fmt::format("expected a Tarmac line (IT, IS, IF, ES, R, MR/MW, LD/ST or an event), got '{}'", w));
        return false;
    }

    static std::string_view strip_addr(std::string_view a) {
        size_t c = 0;
        while (c < a.size() && a[c] != ':' && a[c] != ',') ++c;
        return a.substr(0, c);
    }

    bool set_instruction(TraceRecord& r, uint64_t line, uint64_t pc, std::string_view enc, std::string_view state,
                         std::string_view mode, bool cond_failed) {
        uint64_t e;
        if (!scan::hex(enc, e) || e > 0xFFFFFFFFu) return false;
        r.clear();
        r.line = line;
        r.pc = pc;
        r.encoding = static_cast<uint32_t>(e);
        r.cond_failed = cond_failed;
        if (scan::is(state, "O")) r.isa = IsaState::a64;
        else if (scan::is(state, "A")) r.isa = IsaState::a32;
        else r.isa = IsaState::t32;  // T, T16, T32, or an implicit-Thumb producer
        r.size = r.isa == IsaState::t32 && enc.size() <= 4 ? 2 : 4;
        // A64 has no condition-failed instructions: Fast Models print IS for an untaken B.cond, which is still
        // architecturally executed (gem5 prints IT for it). Whether a branch was taken shows in the next PC.
        if (r.isa == IsaState::a64) r.cond_failed = false;
        r.privilege = privilege(mode);
        r.has_time = have_time_;
        r.time = time_;
        in_diagram_ = false;
        return true;
    }

    // IT|IS|IF ["(" index ")"] address encoding state mode ":" disasm; or "(" address ")" encoding state ...;
    // or "(" address ":" index ")" address encoding state [mode] [":"] ...; or implicit Thumb: address encoding.
    bool instruction(bool cond_failed, std::string_view rest, uint64_t no, TraceRecord& r) {
        std::string_view w[6];
        for (auto& x : w) x = scan::word(rest);
        size_t k = 0;
        std::string_view addr;
        if (!w[0].empty() && w[0].front() == '(') {
            const std::string_view inner = w[0].substr(1, w[0].size() - 2);
            if (inner.find(':') != std::string_view::npos) {
                k = 1;  // (address:index) address ...
            } else if (scan::is(w[2], "A") || scan::is(w[2], "T") || scan::is(w[2], "T16") || scan::is(w[2], "T32") ||
                       scan::is(w[2], "O")) {
                addr = inner;  // (address) encoding state
                k = 1;
            } else {
                k = 1;  // (index) address encoding state
            }
        }
        if (addr.empty()) addr = w[k++];
        const std::string_view enc = w[k], state = w[k + 1];
        uint64_t pc;
        if (scan::is(enc, "--------")) return false;  // the fetch failed: not an instruction
        if (!scan::hex(strip_addr(addr), pc)) {
            bad_line(src_->path(), no, "expected an instruction address after IT/IS/IF");
            return false;
        }
        std::string_view mode = k + 2 < 6 ? w[k + 2] : std::string_view{};
        if (scan::is(mode, ":")) mode = {};
        if (!set_instruction(r, no, pc, enc, state, mode, cond_failed)) {
            bad_line(src_->path(), no, "expected a hexadecimal instruction encoding");
            return false;
        }
        return true;
    }

    // ES "(" address ":" encoding ")" state mode ":" [CCFAIL] disasm; "ES EXC ..." and "ES Reset" are events.
    bool es(std::string_view rest, uint64_t no, TraceRecord& r) {
        const std::string_view first = scan::word(rest);
        if (first.empty() || first.front() != '(') return false;  // EXC, Reset
        const size_t colon = first.find(':'), close = first.find(')');
        uint64_t pc;
        if (colon == std::string_view::npos || close == std::string_view::npos ||
            !scan::hex(first.substr(1, colon - 1), pc)) {
            bad_line(src_->path(), no, "expected 'ES (<address>:<encoding>) <state> <mode>:'");
            return false;
        }
        const std::string_view enc = first.substr(colon + 1, close - colon - 1);
        if (scan::is(enc, "--------")) return false;  // the fetch failed: not an instruction
        const std::string_view state = scan::word(rest);
        std::string_view mode = scan::word(rest);
        if (!mode.empty() && mode.back() == ':') mode.remove_suffix(1);
        const bool ccfail = scan::is(scan::word(rest), "CCFAIL");
        if (!set_instruction(r, no, pc, enc, state, mode, ccfail)) {
            bad_line(src_->path(), no, "expected a hexadecimal instruction encoding");
            return false;
        }
        return true;
    }

    // R name [(extra)] [<hi:lo>] contents: general-purpose registers are kept (their value after the instruction).
    void reg(std::string_view rest) {
        if (!have_) return;  // the initial register dump before the first instruction
        const std::string_view name = scan::word(rest);  // in either case: X0, x0, R13_svc, SP_EL1, ...
        std::string_view w = scan::word(rest);
        if (!w.empty() && w.front() == '(') w = scan::word(rest);
        if (!w.empty() && w.front() == '<') return;  // a partial update
        HexBuffer hex;
        for (; !w.empty(); w = scan::word(rest)) {
            bool h = true;
            for (char c : w)
                if (!xdigit(c) && c != '_' && c != ':') h = false;
            if (!h) break;  // an interpretation such as "__C_", or "--" unknown bytes
            for (char c : w)
                if (c != '_' && c != ':') hex.add(c);
        }
        uint64_t v;
        if (hex.n == 0 || !hex.value(v) || name.empty()) return;
        int idx = -1;
        auto number = [&](size_t from) {
            uint64_t n;
            const size_t us = scan::find(name.substr(from), '_');
            return scan::dec(name.substr(from, us), n) ? static_cast<int>(n) : -1;
        };
        const char n0 = lower(name[0]);
        if ((n0 == 'x' || n0 == 'w') && name.size() > 1 && digit(name[1])) {
            idx = number(1);
            if (idx > 30) idx = -1;
            if (n0 == 'w') v &= 0xFFFFFFFFu;
        } else if (n0 == 'r' && name.size() > 1 && digit(name[1])) {
            idx = number(1);
            if (idx > 15) idx = -1;
        } else if (starts_nocase(name, "sp")) {
            idx = cur().isa == IsaState::a64 ? 31 : 13;
        } else if (starts_nocase(name, "lr")) {
            idx = cur().isa == IsaState::a64 ? 30 : 14;
        }
        if (idx >= 0) cur().add_reg(RegKind::gpr, static_cast<uint16_t>(idx), v);
    }

    // M[NSC]?[RW]<size>[flags] [X] vaddr[:paddr] ["(" ... ")"] contents | R0n / W0n forms.
    bool memory(std::string_view w, std::string_view rest, uint64_t no) {
        std::string_view t = w;
        if (!t.empty() && t[0] == 'M') t.remove_prefix(1);
        if (!t.empty() && (t[0] == 'N' || t[0] == 'S')) t.remove_prefix(1);
        if (!t.empty() && t[0] == 'C') return true;  // a coprocessor transfer: not a memory access
        if (t.size() < 2 || (t[0] != 'R' && t[0] != 'W') || !digit(t[1])) return false;
        size_t i = 1;
        while (i < t.size() && digit(t[i])) ++i;
        uint64_t size;
        if (!scan::dec(t.substr(1, i - 1), size)) return false;
        std::string_view a = scan::word(rest);
        if (scan::is(a, "X")) a = scan::word(rest);
        if (!a.empty() && a.front() == '(') a = scan::word(rest);  // "(instruction:serial)" before the address
        MemAccess m;
        m.is_write = t[0] == 'W';
        m.size = static_cast<uint8_t>(size > 255 ? 0 : size);
        if (!scan::hex(strip_addr(a), m.addr)) {
            bad_line(src_->path(), no, "expected a memory address after the memory access type");
            return true;
        }
        std::string_view d = scan::word(rest);
        if (scan::is(d, "(ABORTED)")) return true;
        if (!d.empty() && d.front() == '(') d = scan::word(rest);
        HexBuffer hex;
        for (char c : d)
            if (c != '_') hex.add(c);
        if (hex.value(m.data)) m.data_known = true;
        if (have_) cur().add_mem(m);
        return true;
    }

    // LD|ST base cells(4 x 8 chars, byte base+15 leftmost) attributes; a continuation line omits LD/ST.
    void diagram(std::string_view rest, uint64_t no) {
        in_diagram_ = true;
        uint64_t base;
        if (!scan::hex(scan::word(rest), base)) {
            bad_line(src_->path(), no, "expected an address after LD/ST");
            return;
        }
        char cells[32];
        size_t n_cells = 0;
        for (int k = 0; k < 4; ++k)
            for (const char c : scan::word(rest)) {
                if (n_cells < sizeof cells) cells[n_cells] = c;
                ++n_cells;
            }
        if (n_cells != sizeof cells) {
            bad_line(src_->path(), no, "expected four groups of byte cells after the LD/ST address");
            return;
        }
        int lo = -1, hi = -1;
        uint64_t data = 0;
        bool known = true;
        for (int byte = 0; byte < 16; ++byte) {
            const std::string_view cell(cells + 30 - 2 * byte, 2);
            if (scan::is(cell, "..")) continue;
            if (lo < 0) lo = byte;
            hi = byte;
            uint64_t b;
            if (scan::is(cell, "##") || !scan::hex(cell, b)) known = false;
            else if (byte - lo < 8) data |= b << (8 * (byte - lo));
        }
        if (lo < 0 || !have_) return;
        MemAccess m;
        m.addr = base + static_cast<uint64_t>(lo);
        m.size = static_cast<uint8_t>(hi - lo + 1);
        m.is_write = diagram_store_;
        m.data = data;
        m.data_known = known && m.size <= 8;
        cur().add_mem(m);
    }

    std::unique_ptr<ByteSource> src_;
    LineReader lines_;
    TraceRecord slot_[2];  // the current record (its R and memory lines still to come) and the next one's
    unsigned cur_slot_ = 0;
    bool have_ = false, have_time_ = false, in_diagram_ = false, diagram_store_ = false;
    uint64_t time_ = 0;
};

}  // namespace

std::unique_ptr<TraceReader> make_tarmac_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<TarmacReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
