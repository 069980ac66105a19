// Arm Tarmac (FORMATS.md §1): instruction lines IT/IS/IF (Fast Models, gem5, RTL) and ES ("Tarmac Text Rev 3t"),
// register lines R (GPRs kept; other registers read past), memory lines M[RW]n / R0n / W0n and the Cortex-M
// forms, and the LD/ST byte diagrams with their continuation lines. A record is complete when the next
// instruction line (or the end) arrives, since its R and memory lines follow it. Text-only events (E, EXC, BR,
// CADI, P, CACHE, TTW, SIGNAL, INFO_*, the header) are skipped.
#include <cctype>

#include <fmt/format.h>

#include "traces/reader.hpp"

namespace pmusim::trace {

namespace {

bool is_unit(std::string_view w) {
    return w == "clk" || w == "ns" || w == "cs" || w == "cyc" || w == "tic" || w == "ps" || w == "us";
}

// "1359353", "10.356000us", "271ns": a timestamp, with the unit attached or not.
bool timestamp(std::string_view w, uint64_t& t) {
    size_t i = 0;
    while (i < w.size() && (std::isdigit(static_cast<unsigned char>(w[i])) || w[i] == '.')) ++i;
    if (i == 0 || (i < w.size() && !is_unit(w.substr(i)))) return false;
    const size_t dot = w.find('.');
    return scan::dec(w.substr(0, std::min(dot, i)), t);
}

std::string lower(std::string_view s) {
    std::string o(s);
    for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return o;
}

// Exception level from the mode column: EL3h_s, el0t_ns, svc_s, usr, thread, handler_s, ...
uint8_t privilege(std::string_view mode) {
    const std::string m = lower(mode);
    if (m.size() >= 3 && m[0] == 'e' && m[1] == 'l' && m[2] >= '0' && m[2] <= '3') return static_cast<uint8_t>(m[2] - '0');
    if (m.rfind("usr", 0) == 0 || m.rfind("thr", 0) == 0) return 0;
    if (m.rfind("hyp", 0) == 0) return 2;
    if (m.rfind("mon", 0) == 0) return 3;
    return 1;  // svc, irq, fiq, abt, und, sys, handler
}

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
            TraceRecord r;
            if (!parse(line, r)) continue;
            // A new instruction: the previous one is complete.
            const bool had = have_;
            if (had) out = cur_;
            cur_ = r;
            have_ = true;
            if (had) return true;
        }
        if (have_) {
            out = cur_;
            have_ = false;
            return true;
        }
        return false;
    }

private:
    // Parses one line; true when it starts a new instruction record (in r). Other lines update cur_.
    bool parse(std::string_view line, TraceRecord& r) {
        const uint64_t no = lines_.line_number();
        std::string_view t = scan::trim(line);
        if (t.empty() || t[0] == '#') return false;
        if (t == "Tarmac Text Rev 3t") return false;
        // An LD/ST continuation line: indented, an address, then byte cells ("........", "3e000a73", "##").
        if (in_diagram_ && !line.empty() && std::isspace(static_cast<unsigned char>(line[0]))) {
            std::string_view u = t;
            const std::string_view a = scan::word(u), cell = scan::word(u);
            uint64_t v;
            bool cells = cell.size() == 8;
            for (char c : cell) cells = cells && (std::isxdigit(static_cast<unsigned char>(c)) || c == '.' || c == '#');
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
        if (w.size() > 3 && w.substr(0, 3) == "cpu") w = scan::word(rest);  // gem5 and multi-core FVPs
        if (w == "IT" || w == "IS" || w == "IF") return instruction(w == "IS", rest, no, r);
        if (w == "ES") return es(rest, no, r);
        if (w == "R") {
            reg(rest);
            return false;
        }
        if (w == "LD" || w == "ST") {
            diagram_store_ = w == "ST";
            diagram(rest, no);
            return false;
        }
        if (memory(w, rest, no)) return false;
        // Text-only events.
        static const char* text_only[] = {"E", "EXC", "BR", "CADI", "P", "CACHE", "TTW", "SIGNAL:", "SIGNAL"};
        for (const char* k : text_only)
            if (w == k) return false;
        if (w.rfind("INFO_", 0) == 0) return false;
        bad_line(src_->path(), no, fmt::format("expected a Tarmac line (IT, IS, IF, ES, R, MR/MW, LD/ST or an event), got '{}'", w));
        return false;
    }

    static std::string_view strip_addr(std::string_view a) {
        const size_t c = a.find_first_of(":,");
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
        if (state == "O") r.isa = IsaState::a64;
        else if (state == "A") r.isa = IsaState::a32;
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
            } else if (w[2] == "A" || w[2] == "T" || w[2] == "T16" || w[2] == "T32" || w[2] == "O") {
                addr = inner;  // (address) encoding state
                k = 1;
            } else {
                k = 1;  // (index) address encoding state
            }
        }
        if (addr.empty()) addr = w[k++];
        const std::string_view enc = w[k], state = w[k + 1];
        uint64_t pc;
        if (enc == "--------") return false;  // the fetch failed: not an instruction
        if (!scan::hex(strip_addr(addr), pc)) {
            bad_line(src_->path(), no, "expected an instruction address after IT/IS/IF");
            return false;
        }
        std::string_view mode = k + 2 < 6 ? w[k + 2] : std::string_view{};
        if (mode == ":") mode = {};
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
        if (enc == "--------") return false;  // the fetch failed: not an instruction
        const std::string_view state = scan::word(rest);
        std::string_view mode = scan::word(rest);
        if (!mode.empty() && mode.back() == ':') mode.remove_suffix(1);
        const bool ccfail = scan::word(rest) == "CCFAIL";
        if (!set_instruction(r, no, pc, enc, state, mode, ccfail)) {
            bad_line(src_->path(), no, "expected a hexadecimal instruction encoding");
            return false;
        }
        return true;
    }

    // R name [(extra)] [<hi:lo>] contents: general-purpose registers are kept (their value after the instruction).
    void reg(std::string_view rest) {
        if (!have_) return;  // the initial register dump before the first instruction
        const std::string name = lower(scan::word(rest));
        std::string_view w = scan::word(rest);
        if (!w.empty() && w.front() == '(') w = scan::word(rest);
        if (!w.empty() && w.front() == '<') return;  // a partial update
        std::string hex;
        for (; !w.empty(); w = scan::word(rest)) {
            bool h = true;
            for (char c : w)
                if (!std::isxdigit(static_cast<unsigned char>(c)) && c != '_' && c != ':') h = false;
            if (!h) break;  // an interpretation such as "__C_", or "--" unknown bytes
            for (char c : w)
                if (c != '_' && c != ':') hex += c;
        }
        uint64_t v;
        if (hex.empty() || hex.size() > 16 || !scan::hex(hex, v)) return;
        int idx = -1;
        auto number = [&](size_t from) {
            uint64_t n;
            const size_t us = name.find('_', from);
            return scan::dec(std::string_view(name).substr(from, us == std::string::npos ? std::string::npos : us - from), n)
                       ? static_cast<int>(n)
                       : -1;
        };
        if ((name[0] == 'x' || name[0] == 'w') && name.size() > 1 && std::isdigit(static_cast<unsigned char>(name[1]))) {
            idx = number(1);
            if (idx > 30) idx = -1;
            if (name[0] == 'w') v &= 0xFFFFFFFFu;
        } else if (name[0] == 'r' && name.size() > 1 && std::isdigit(static_cast<unsigned char>(name[1]))) {
            idx = number(1);
            if (idx > 15) idx = -1;
        } else if (name.rfind("sp", 0) == 0) {
            idx = cur_.isa == IsaState::a64 ? 31 : 13;
        } else if (name.rfind("lr", 0) == 0) {
            idx = cur_.isa == IsaState::a64 ? 30 : 14;
        }
        if (idx >= 0) cur_.add_reg(RegKind::gpr, static_cast<uint16_t>(idx), v);
    }

    // M[NSC]?[RW]<size>[flags] [X] vaddr[:paddr] ["(" ... ")"] contents | R0n / W0n forms.
    bool memory(std::string_view w, std::string_view rest, uint64_t no) {
        std::string_view t = w;
        if (!t.empty() && t[0] == 'M') t.remove_prefix(1);
        if (!t.empty() && (t[0] == 'N' || t[0] == 'S')) t.remove_prefix(1);
        if (!t.empty() && t[0] == 'C') return true;  // a coprocessor transfer: not a memory access
        if (t.size() < 2 || (t[0] != 'R' && t[0] != 'W') || !std::isdigit(static_cast<unsigned char>(t[1]))) return false;
        size_t i = 1;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
        uint64_t size;
        if (!scan::dec(t.substr(1, i - 1), size)) return false;
        std::string_view a = scan::word(rest);
        if (a == "X") a = scan::word(rest);
        if (!a.empty() && a.front() == '(') a = scan::word(rest);  // "(instruction:serial)" before the address
        MemAccess m;
        m.is_write = t[0] == 'W';
        m.size = static_cast<uint8_t>(size > 255 ? 0 : size);
        if (!scan::hex(strip_addr(a), m.addr)) {
            bad_line(src_->path(), no, "expected a memory address after the memory access type");
            return true;
        }
        std::string_view d = scan::word(rest);
        if (d == "(ABORTED)") return true;
        if (!d.empty() && d.front() == '(') d = scan::word(rest);
        std::string hex;
        for (char c : d)
            if (c != '_') hex += c;
        if (hex.size() <= 16 && scan::hex(hex, m.data)) m.data_known = true;
        if (have_) cur_.add_mem(m);
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
        std::string cells;
        for (int k = 0; k < 4; ++k) cells += std::string(scan::word(rest));
        if (cells.size() != 32) {
            bad_line(src_->path(), no, "expected four groups of byte cells after the LD/ST address");
            return;
        }
        int lo = -1, hi = -1;
        uint64_t data = 0;
        bool known = true;
        for (int byte = 0; byte < 16; ++byte) {
            const std::string_view cell = std::string_view(cells).substr(static_cast<size_t>(30 - 2 * byte), 2);
            if (cell == "..") continue;
            if (lo < 0) lo = byte;
            hi = byte;
            uint64_t b;
            if (cell == "##" || !scan::hex(cell, b)) known = false;
            else if (byte - lo < 8) data |= b << (8 * (byte - lo));
        }
        if (lo < 0 || !have_) return;
        MemAccess m;
        m.addr = base + static_cast<uint64_t>(lo);
        m.size = static_cast<uint8_t>(hi - lo + 1);
        m.is_write = diagram_store_;
        m.data = data;
        m.data_known = known && m.size <= 8;
        cur_.add_mem(m);
    }

    std::unique_ptr<ByteSource> src_;
    LineReader lines_;
    TraceRecord cur_;
    bool have_ = false, have_time_ = false, in_diagram_ = false, diagram_store_ = false;
    uint64_t time_ = 0;
};

}  // namespace

std::unique_ptr<TraceReader> make_tarmac_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<TarmacReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
