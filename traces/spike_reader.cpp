// Spike's commit log, `-l --log-commits` (FORMATS.md §2):
//   core   N: <priv> 0x<pc> (0x<insn>) {x<n> 0x<v> | f<n> 0x<v> | c<dec>_<name> 0x<v> | mem 0x<a> [0x<d>] | ...}
// The `-l` disassembly lines ("core   N: 0x<pc> (0x<insn>) <dasm>"), symbol lines ("core   N: >>>>  sym"),
// exception lines ("core   N: exception ...", "tval ...") carry no retired instruction and are skipped.
#include <fmt/format.h>

#include "isa/rv32.hpp"
#include "traces/reader.hpp"

namespace pmusim::trace {

namespace {

class SpikeReader : public TraceReader {
public:
    SpikeReader(std::unique_ptr<ByteSource> src, const ReaderOptions& o) : src_(std::move(src)), lines_(*src_) {
        opts_ = o;
    }
    std::string_view format() const override { return "spike"; }
    uint64_t bytes_read() const override { return src_->raw_bytes(); }
    bool has_register_values() const override { return true; }

    bool next(TraceRecord& r) override {
        std::string_view line;
        while (lines_.next(line)) {
            const uint64_t no = lines_.line_number();
            std::string_view t = scan::trim(line);
            if (t.empty()) continue;
            if (scan::word(t) != "core") {
                bad_line(src_->path(), no, "expected 'core N: ...' (a Spike log line)");
                continue;
            }
            std::string_view hart = scan::word(t);
            if (hart.empty() || hart.back() != ':') hart = scan::word(t);  // "core   0:" has the colon attached
            const std::string_view first = scan::word(t);
            uint64_t priv;
            if (first.size() != 1 || !scan::dec(first, priv)) continue;  // -l, symbol, exception or tval line
            uint64_t pc, insn;
            const std::string_view pcw = scan::word(t), insw = scan::word(t);
            if (!scan::hex(pcw, pc) || insw.size() < 5 || insw.front() != '(' || insw.back() != ')' ||
                !scan::hex(insw.substr(1, insw.size() - 2), insn)) {
                bad_line(src_->path(), no, "expected '<priv> 0x<pc> (0x<instruction>)'");
                continue;
            }
            r.clear();
            r.line = no;
            r.pc = pc;
            r.encoding = static_cast<uint32_t>(insn);
            r.size = insw.size() - 4 <= 4 ? 2 : 4;  // "(0x9e16)": 4 digits for RVC
            r.isa = pcw.size() - 2 > 8 ? IsaState::rv64 : IsaState::rv32;
            r.privilege = static_cast<uint8_t>(priv);
            bool ok = true;
            while (ok) {
                const std::string_view w = scan::word(t);
                if (w.empty()) break;
                uint64_t v, n;
                if (w == "mem") {
                    MemAccess m;
                    ok = scan::hex(scan::word(t), m.addr);
                    // A data word follows for a store; a load shows only its address.
                    std::string_view peek = scan::trim(t);
                    if (ok && peek.substr(0, 2) == "0x") {
                        const std::string_view d = scan::word(t);
                        ok = scan::hex(d, m.data);
                        m.is_write = m.data_known = true;
                        m.size = static_cast<uint8_t>((d.size() - 2) / 2);
                    } else if (const auto mop = isa::rv32::mem_op(r.encoding)) {
                        m.size = static_cast<uint8_t>(mop->size);
                    }
                    if (ok) r.add_mem(m);
                } else if (w[0] == 'x' && scan::dec(w.substr(1), n) && n < 32) {
                    ok = scan::hex(scan::word(t), v) && r.add_reg(RegKind::gpr, static_cast<uint16_t>(n), v);
                } else if (w[0] == 'c' && w.find('_') != std::string_view::npos &&
                           scan::dec(w.substr(1, w.find('_') - 1), n) && n <= 0xFFF) {
                    ok = scan::hex(scan::word(t), v) && r.add_reg(RegKind::csr, static_cast<uint16_t>(n), v);
                } else if ((w[0] == 'f' || w[0] == 'v') && scan::dec(w.substr(1), n)) {
                    scan::word(t);  // an FPR or vector register value: not needed by the PMU
                } else if ((w[0] == 'e' || w[0] == 'm' || w[0] == 'l') && w.size() > 1) {
                    // vector configuration "e<sew> m<lmul> l<vl>": no value follows
                } else {
                    ok = false;
                }
            }
            if (!ok) {
                bad_line(src_->path(), no, "expected commit records 'x<n> 0x<v>', 'c<n>_<name> 0x<v>' or 'mem 0x<addr> [0x<data>]'");
                continue;
            }
            return true;
        }
        return false;
    }

private:
    std::unique_ptr<ByteSource> src_;
    LineReader lines_;
};

}  // namespace

std::unique_ptr<TraceReader> make_spike_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<SpikeReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
