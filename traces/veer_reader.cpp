// The VeeR EL2 RTL testbench's exec.log (FORMATS.md §4b):
//   "%10d : %8s 0 %h %h%13s %14s ; %s" = cycle : #n 0 pc insn [abi=value] [c<csr>=value] ; disassembly [addr]
// and late writebacks "<cycle> : <abi>=<value> ; nbL|nbD". A late writeback reaches the replay as a `before`
// register write of the next instruction (it landed before that instruction executed: a consumer of a
// non-blocking load waits for it, PRM ch. 2), so the replay's register file holds what the trace shows in trace
// order. The reader keeps its own register file for store data, and ends the test where the RTL did (below).
#include <deque>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "isa/rv32.hpp"
#include "traces/reader.hpp"

namespace pmusim::trace {

namespace {

// The testbench's mailbox (its console: "mem_mailbox = D0580000"). A byte 0xff stored there ends the test
// (pass), 0x1 too (fail; and the C runtime's "Whisper" termination store).
constexpr uint64_t mailbox = 0xD0580000;

class VeerReader : public TraceReader {
public:
    VeerReader(std::unique_ptr<ByteSource> src, const ReaderOptions& o) : src_(std::move(src)), lines_(*src_) {
        opts_ = o;
    }
    std::string_view format() const override { return "veer"; }
    uint64_t bytes_read() const override { return src_->raw_bytes(); }
    bool has_register_values() const override { return true; }
    bool has_time() const override { return true; }
    bool starts_at_reset() const override { return true; }
    std::string end_note() const override { return note_; }

    // The end of the test (streaming): after the last terminating store before the cycle column freezes. The
    // RTL stops a couple of cycles after the store, then the log goes on with the cycle frozen; VeeR EL2 retires
    // at most one instruction per cycle, so the first instruction line that repeats the previous cycle is the
    // freeze. Records after a terminating store are held until the next terminating store (kept) or the freeze
    // (dropped).
    bool next(TraceRecord& out) override {
        while (ready_.empty()) {
            if (finished_) return false;
            TraceRecord r;
            if (!read_instruction(r)) {
                if (terminated_ && !pending_.empty())
                    note_ = fmt::format("the test ended at the mailbox store on line {}", last_term_line_);
                pending_.clear();
                finished_ = true;
                continue;
            }
            const bool frozen = have_prev_ && r.time == prev_time_;
            have_prev_ = true;
            prev_time_ = r.time;
            if (opts_.replay_all) {
                ready_.push_back(r);
                continue;
            }
            if (frozen && terminated_) {
                note_ = fmt::format("the test ended at the mailbox store on line {} (the cycle column freezes at line {})",
                                    last_term_line_, r.line);
                pending_.clear();
                finished_ = true;
                continue;
            }
            const bool term = terminating_store(r);
            if (term) last_term_line_ = r.line;
            if (terminated_) {
                pending_.push_back(r);
                if (term || pending_.size() > 4096) {  // more test after all: keep what was held
                    for (auto& p : pending_) ready_.push_back(p);
                    pending_.clear();
                    terminated_ = term;
                }
            } else {
                ready_.push_back(r);
                terminated_ = term;
            }
        }
        out = ready_.front();
        ready_.pop_front();
        return true;
    }

private:
    static bool terminating_store(const TraceRecord& r) {
        for (unsigned i = 0; i < r.n_mem; ++i) {
            const MemAccess& m = r.mem[i];
            const uint64_t byte = m.data & 0xFF;
            if (m.is_write && m.addr == mailbox && m.data_known && (byte == 0xFF || byte == 0x01)) return true;
        }
        return false;
    }

    void set_gpr(unsigned reg, uint64_t v) {
        if (reg) gpr_[reg] = v;
    }

    // abi=value: a GPR write.
    bool parse_reg(std::string_view tok, unsigned& reg, uint64_t& v) {
        const size_t eq = tok.find('=');
        if (eq == std::string_view::npos) return false;
        const auto r = isa::rv32::gpr_by_name(tok.substr(0, eq));
        if (!r || !scan::hex(tok.substr(eq + 1), v)) return false;
        reg = *r;
        return true;
    }

    // One record of lookahead: whether an instruction trapped, and the privilege of the next, show in the next
    // instruction's PC.
    bool read_instruction(TraceRecord& out) {
        if (!have_held_) {
            if (!read_raw(held_)) return false;
            have_held_ = true;
            held_.privilege = priv_;
        }
        TraceRecord nxt;
        const bool more = read_raw(nxt);
        if (more) transition(held_, nxt);
        out = held_;
        if (more) held_ = nxt;
        else have_held_ = false;
        return true;
    }

    // The privilege mode, followed from the trace (RISC-V privileged spec 3.1.6.1, 3.3.2): M at reset; mret goes
    // to mstatus.MPP and sets MPP to U; a trap goes to M with MPP = the mode it came from. mstatus and mtvec are
    // known from the values the exec.log's CSR column shows. A trap is an instruction followed by the trap vector
    // (mtvec's base) where it neither falls through nor jumps; a CSR instruction that shows no result there (no
    // rd value, no CSR value) raised the exception (an illegal access: mcounteren, U-mode) and did not retire.
    void transition(TraceRecord& prev, TraceRecord& cur) {
        bool result = false;
        for (unsigned i = 0; i < prev.n_regs; ++i) {
            const RegWrite& w = prev.regs[i];
            if (w.before) continue;
            result = true;
            if (w.kind == RegKind::csr && w.index == 0x300) mpp_ = static_cast<uint8_t>((w.value >> 11) & 3u);
            if (w.kind == RegKind::csr && w.index == 0x305) {
                mtvec_ = w.value & ~uint64_t{3};
                have_mtvec_ = true;
            }
        }
        const auto info = isa::rv32::classify(prev.encoding, false);
        using K = isa::rv32::Klass;
        if (info.klass == K::mret) {
            priv_ = mpp_;
            mpp_ = 0;
        } else if (have_mtvec_ && cur.pc == mtvec_ && cur.pc != prev.pc + prev.size && info.klass != K::branch &&
                   info.klass != K::jal && info.klass != K::jalr) {
            mpp_ = priv_;
            priv_ = 3;
            if (info.klass == K::csr && !result) prev.trapped = true;
        }
        cur.privilege = priv_;
    }

    bool read_raw(TraceRecord& r) {
        std::string_view line;
        while (lines_.next(line)) {
            const uint64_t no = lines_.line_number();
            std::string_view t = scan::trim(line);
            if (t.empty() || t.substr(0, 2) == "//") continue;
            const size_t semi = t.find(';');
            std::string_view fields = t.substr(0, semi);
            const std::string_view dasm = semi == std::string_view::npos ? std::string_view{} : scan::trim(t.substr(semi + 1));
            uint64_t cycle = 0;
            if (!scan::dec(scan::word(fields), cycle) || scan::word(fields) != ":") {
                bad_line(src_->path(), no, "expected '<cycle> : ...' (a VeeR exec.log line)");
                continue;
            }
            const std::string_view w3 = scan::word(fields);
            if (w3.empty() || w3[0] != '#') {
                // A late writeback: "<cycle> : <abi>=<value> ; nbL|nbD".
                unsigned reg;
                uint64_t v;
                if (!parse_reg(w3, reg, v) || (dasm != "nbL" && dasm != "nbD")) {
                    bad_line(src_->path(), no, "expected '#<n>' or a writeback '<reg>=<value> ; nbL|nbD'");
                    continue;
                }
                set_gpr(reg, v);
                if (reg) late_.push_back({reg, v});
                continue;
            }
            uint64_t n, hart, pc, insn;
            if (!scan::dec(w3.substr(1), n) || !scan::dec(scan::word(fields), hart) || !scan::hex(scan::word(fields), pc) ||
                !scan::hex(scan::word(fields), insn) || insn > 0xFFFFFFFFu) {
                bad_line(src_->path(), no, "expected '#<n> 0 <pc hex> <opcode hex>'");
                continue;
            }
            r.clear();
            r.line = no;
            r.pc = pc;
            r.encoding = static_cast<uint32_t>(insn);
            r.isa = IsaState::rv32;
            r.size = (insn & 3u) == 3u ? 4 : 2;
            r.privilege = 3;  // set by transition()
            r.has_time = true;
            r.time = cycle;
            bool ok = true;
            for (const auto& [reg, v] : late_)
                if (!r.add_reg(RegKind::gpr, static_cast<uint16_t>(reg), v, true)) ok = false;
            late_.clear();
            if (!ok) {
                bad_line(src_->path(), no, fmt::format("more than {} register writes for one instruction (late writebacks included)",
                                                       TraceRecord::max_regs));
                continue;
            }
            for (std::string_view tok = scan::word(fields); !tok.empty(); tok = scan::word(fields)) {
                const size_t eq = tok.find('=');
                uint64_t v;
                if (tok[0] == 'c' && eq != std::string_view::npos && tok.substr(0, eq) != "c" &&
                    !isa::rv32::gpr_by_name(tok.substr(0, eq))) {
                    uint64_t csr;
                    if (!scan::hex(tok.substr(1, eq - 1), csr) || !scan::hex(tok.substr(eq + 1), v) || csr > 0xFFF) {
                        ok = false;
                        break;
                    }
                    r.add_reg(RegKind::csr, static_cast<uint16_t>(csr), v);
                } else {
                    unsigned reg;
                    if (!parse_reg(tok, reg, v)) {
                        ok = false;
                        break;
                    }
                    r.add_reg(RegKind::gpr, static_cast<uint16_t>(reg), v);
                }
            }
            if (!ok) {
                bad_line(src_->path(), no, "expected '<abi register>=<hex>' or 'c<csr hex>=<hex>' before ';'");
                continue;
            }
            // The memory address: "[addr]" at the end of the disassembly.
            if (const auto mop = isa::rv32::mem_op(r.encoding)) {
                const size_t lb = dasm.rfind('['), rb = dasm.rfind(']');
                uint64_t addr;
                if (lb != std::string_view::npos && rb != std::string_view::npos && rb > lb &&
                    scan::hex(dasm.substr(lb + 1, rb - lb - 1), addr)) {
                    MemAccess m;
                    m.addr = addr;
                    m.size = static_cast<uint8_t>(mop->size);
                    m.is_write = mop->store;
                    if (mop->store) {
                        m.data = gpr_[mop->data_reg] & (mop->size >= 8 ? ~uint64_t{0} : ((uint64_t{1} << (8 * mop->size)) - 1));
                        m.data_known = true;
                    }
                    r.add_mem(m);
                }
            }
            for (unsigned i = 0; i < r.n_regs; ++i)
                if (r.regs[i].kind == RegKind::gpr && !r.regs[i].before) set_gpr(r.regs[i].index, r.regs[i].value);
            return true;
        }
        return false;
    }

    std::unique_ptr<ByteSource> src_;
    LineReader lines_;
    uint64_t gpr_[32] = {};
    std::vector<std::pair<unsigned, uint64_t>> late_;  // writebacks since the last instruction line, in order
    std::deque<TraceRecord> ready_, pending_;
    bool terminated_ = false, finished_ = false, have_prev_ = false;
    uint64_t prev_time_ = 0, last_term_line_ = 0;
    std::string note_;
    TraceRecord held_;
    bool have_held_ = false, have_mtvec_ = false;
    uint8_t priv_ = 3, mpp_ = 3;  // machine mode at reset
    uint64_t mtvec_ = 0;
};

}  // namespace

std::unique_ptr<TraceReader> make_veer_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<VeerReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
