// The VeeR EL2 RTL testbench's exec.log (FORMATS.md §4b):
//   "%10d : %8s 0 %h %h%13s %14s ; %s" = cycle : #n 0 pc insn [abi=value] [c<csr>=value] ; disassembly [addr]
// and late writebacks "<cycle> : <abi>=<value> ; nbL|nbD". A late writeback reaches the replay as a `before`
// register write of the next instruction (it landed before that instruction executed: a consumer of a
// non-blocking load waits for it, PRM ch. 2), so the replay's register file holds what the trace shows in trace
// order. The reader keeps its own register file for store data, and ends the test where the RTL did (below).
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "isa/rv32.hpp"
#include "traces/reader.hpp"
#include "traces/record_queue.hpp"

namespace pmusim::trace {

namespace {

// The testbench's mailbox (its console: "mem_mailbox = D0580000"). A byte 0xff stored there ends the test
// (pass), 0x1 too (fail; and the C runtime's "Whisper" termination store).
constexpr uint64_t mailbox = 0xD0580000;
constexpr uint32_t mret_encoding = 0x30200073;  // RISC-V privileged spec 3.3.2

class VeerReader : public TraceReader {
public:
    VeerReader(std::unique_ptr<ByteSource> src, const ReaderOptions& o) : src_(std::move(src)), lines_(*src_) {
        opts_ = o;
    }
    std::string_view format() const override { return "veer"; }
    uint64_t bytes_read() const override { return src_->raw_bytes(); }
    bool has_register_values() const override { return true; }
    bool has_time() const override { return true; }
    bool shows_interrupts() const override { return true; }
    bool starts_at_reset() const override { return true; }
    std::string end_note() const override {
        std::string s = note_;
        auto add = [&s](const std::string& t) { s += (s.empty() ? "" : "; ") + t; };
        if (duplicates_)
            add(fmt::format("{} instruction{} shown twice at an interrupt entry retired once", duplicates_, duplicates_ == 1 ? "" : "s"));
        if (flushed_)
            add(fmt::format("{} instruction{} shown before an interrupt entry, at the address the handler returned to, "
                            "did not retire there (the interrupt flushed it)", flushed_, flushed_ == 1 ? "" : "s"));
        return s;
    }

    // The end of the test (streaming): after the last terminating store before the cycle column freezes. The
    // RTL stops a couple of cycles after the store, then the log goes on with the cycle frozen; VeeR EL2 retires
    // at most one instruction per cycle, so the first instruction line that repeats the previous cycle is the
    // freeze. Records after a terminating store are held until the next terminating store (kept) or the freeze
    // (dropped).
    // A record goes straight to `out` unless records are held; `out` is scratch when this returns false.
    bool next(TraceRecord& out) override {
        if (!ready_.empty()) {
            out = ready_.front();
            ready_.pop_front();
            return true;
        }
        for (;;) {
            if (finished_) return false;
            TraceRecord& r = out;
            if (!resolve(r)) {
                if (terminated_ && !pending_.empty())
                    note_ = fmt::format("the test ended at the mailbox store on line {}", last_term_line_);
                pending_.clear();
                finished_ = true;
                continue;
            }
            const bool frozen = have_prev_ && r.time == prev_time_;
            have_prev_ = true;
            prev_time_ = r.time;
            if (opts_.replay_all) return true;
            if (frozen && terminated_) {
                note_ = fmt::format("the test ended at the mailbox store on line {} (the cycle column freezes at line {})",
                                    last_term_line_, r.line);
                pending_.clear();
                finished_ = true;
                continue;
            }
            const bool term = terminating_store(r);
            if (term) last_term_line_ = r.line;
            if (!terminated_) {
                terminated_ = term;
                return true;
            }
            pending_.push_back(r);
            if (term || pending_.size() > 4096) {  // more test after all: keep what was held
                for (size_t i = 0; i < pending_.size(); ++i) ready_.push_back(pending_[i]);
                pending_.clear();
                terminated_ = term;
                out = ready_.front();
                ready_.pop_front();
                return true;
            }
        }
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

    // Interrupts (resolve()): the record that enters a handler is held with what follows until the handler's
    // mret, which tells where the interrupted program resumes (mepc), and its read of mcause, which tells the
    // cause. The RTL's trace port shows the instruction at mepc once before the entry although the interrupt
    // flushed it (it retires after the handler: tests/veer-rtl/irq); such an instruction is dropped here.
    bool resolve(TraceRecord& out) {
        while (looked_ < 2 && pull()) {
        }
        if (looked_ == 0) return false;
        if (looked_ >= 2 && look_[1].interrupt && !look_[1].trapped) resolve_interrupt();
        out = look_.front();
        look_.pop_front();
        --looked_;
        return true;
    }

    // look_[1] entered a handler after look_[0]: reads on to the handler's mret (nested entries have their own).
    void resolve_interrupt() {
        constexpr size_t limit = 1 << 16;  // a handler longer than this keeps both facts unknown
        size_t depth = 0, i = 1;
        bool cause_known = look_[1].cause != TraceRecord::unknown_cause;
        for (;; ++i) {
            while (i + 1 >= looked_ && looked_ < limit && pull()) {
            }
            if (i + 1 >= looked_) return;  // the trace ends inside the handler
            const TraceRecord& r = look_[i];
            if (i > 1 && r.interrupt) ++depth;
            if (!cause_known && depth == 0) {
                // csrr rd, mcause (any CSR instruction on 0x342 that shows rd): bit 31 set for an interrupt.
                const auto c = isa::rv32::decode_csr(r.encoding);
                if (c && c->csr == 0x342 && c->rd) {
                    for (unsigned k = 0; k < r.n_regs; ++k)
                        if (r.regs[k].kind == RegKind::gpr && !r.regs[k].before && r.regs[k].index == c->rd &&
                            (r.regs[k].value >> 31) & 1u) {
                            look_[1].cause = static_cast<uint16_t>(r.regs[k].value & 0x7FFF);
                            cause_known = true;
                        }
                }
            }
            if (r.encoding == mret_encoding) {
                if (depth) {
                    --depth;
                    continue;
                }
                // look_[i + 1] is where the program resumes: mepc.
                if (look_[i + 1].pc == look_[0].pc && look_[0].pc != look_[1].pc) {
                    for (unsigned k = 0; k < look_[0].n_regs; ++k)  // its late writebacks still land first
                        if (look_[0].regs[k].before) look_[1].add_reg(RegKind::gpr, look_[0].regs[k].index, look_[0].regs[k].value, true);
                    look_.pop_front();
                    --looked_;
                    ++flushed_;
                }
                return;
            }
        }
    }

    // One more complete record in look_; false at the end of the trace.
    bool pull() {
        if (look_end_) return false;
        if (!read_instruction()) {
            look_end_ = true;
            return false;
        }
        return true;
    }

    // One record of lookahead: whether an instruction trapped, the privilege of the next, and an interrupt taken
    // before the next show in the next instruction's PC. The records are read in place at the end of look_: the
    // first looked_ are complete, the one after them (if have_held_) waits for its successor. A record is copied
    // once, from look_ to the caller.
    bool read_instruction() {
        if (!have_held_) {
            bool got;
            try {
                got = read_raw(look_.emplace_back());
            } catch (...) {
                look_.pop_back();
                throw;
            }
            if (!got) {
                look_.pop_back();
                return false;
            }
            held_succ_ = succ_;
            have_held_ = true;
            look_[looked_].privilege = priv_;
        }
        TraceRecord& nxt = look_.emplace_back();
        TraceRecord& held = look_[looked_];  // after emplace_back, which may have moved the ring
        bool more;
        try {
            more = read_raw(nxt);
            // The RTL's trace port may show the instruction before an interrupt entry twice (same PC and encoding,
            // no CSR value) where the first cannot have gone to the second: it retired once (tests/veer-rtl/irq).
            while (more && nxt.pc == held.pc && nxt.encoding == held.encoding && !goes_to(held_succ_, nxt.pc) &&
                   !writes_csr(nxt)) {
                size_t at = 0;  // its late writebacks land before the next instruction, ahead of later ones
                for (unsigned k = 0; k < nxt.n_regs; ++k)
                    if (nxt.regs[k].before) late_.insert(late_.begin() + static_cast<std::ptrdiff_t>(at++), {nxt.regs[k].index, nxt.regs[k].value});
                ++duplicates_;
                more = read_raw(nxt);
            }
        } catch (...) {
            look_.pop_back();  // the held record stays held
            throw;
        }
        const Succ nsucc = succ_;
        if (more) transition(held, nxt);
        ++looked_;  // the held record is complete; the next one is held
        if (more) {
            held_succ_ = nsucc;
        } else {
            look_.pop_back();
            have_held_ = false;
        }
        return true;
    }

    // Where an instruction may go next (RISC-V unprivileged spec 2.5): its fall-through, a branch's target, a
    // jump's; any is accepted after mret (mepc is not followed), none when it is not known.
    struct Succ {
        uint64_t a = 0, b = 0;
        bool any = false;
    };
    Succ successor(const TraceRecord& r) const {
        Succ s{r.pc + r.size, r.pc + r.size, false};
        const auto t = isa::rv32::transfer(r.encoding);
        if (t.kind == isa::rv32::Transfer::relative) {
            s.b = r.pc + static_cast<uint64_t>(static_cast<int64_t>(t.offset));
            if (!t.conditional) s.a = s.b;
        } else if (t.kind == isa::rv32::Transfer::indirect) {
            s.a = s.b = (gpr_[t.rs1] + static_cast<uint64_t>(static_cast<int64_t>(t.offset))) & 0xFFFFFFFEu;
        } else if (r.encoding == mret_encoding) {
            s.any = true;
        }
        return s;
    }
    static bool goes_to(const Succ& s, uint64_t pc) {
        return s.any || pc == s.a || pc == s.b;
    }
    static bool writes_csr(const TraceRecord& r) {
        for (unsigned i = 0; i < r.n_regs; ++i)
            if (r.regs[i].kind == RegKind::csr) return true;
        return false;
    }
    // The first instruction of a trap handler: mtvec's base, or in vectored mode base + 4 x cause (RISC-V
    // privileged spec 3.1.7).
    bool at_vector(uint64_t pc, uint16_t& cause) const {
        if (!have_mtvec_) return false;
        cause = TraceRecord::unknown_cause;
        if (pc == mtvec_) return true;
        if ((mtvec_mode_ & 3u) == 1 && pc > mtvec_ && pc < mtvec_ + 4 * 64 && (pc - mtvec_) % 4 == 0) {
            cause = static_cast<uint16_t>((pc - mtvec_) / 4);
            return true;
        }
        return false;
    }

    // The privilege mode, followed from the trace (RISC-V privileged spec 3.1.6.1, 3.3.2): M at reset; mret goes
    // to mstatus.MPP and sets MPP to U; a trap goes to M with MPP = the mode it came from. mstatus and mtvec are
    // known from the values the exec.log's CSR column shows. A trap is an instruction followed by the trap vector
    // (mtvec's base) where it neither falls through nor jumps; a CSR instruction that shows no result there (no
    // rd value, no CSR value) raised the exception (an illegal access: mcounteren, U-mode) and did not retire.
    // An interrupt is a jump to the trap vector (or, VeeR EL2's fast redirect of external interrupts once meivt
    // is set, anywhere) that the instruction before did not make (RISC-V privileged spec 3.1.9; VeeR EL2 PRM
    // ch. 6: the core reads the handler's address from the meivt table).
    void transition(TraceRecord& prev, TraceRecord& cur) {
        bool result = false;
        for (unsigned i = 0; i < prev.n_regs; ++i) {
            const RegWrite& w = prev.regs[i];
            if (w.before) continue;
            result = true;
            if (w.kind == RegKind::csr && w.index == 0x300) mpp_ = static_cast<uint8_t>((w.value >> 11) & 3u);
            if (w.kind == RegKind::csr && w.index == 0x305) {
                mtvec_ = w.value & ~uint64_t{3};
                mtvec_mode_ = static_cast<uint8_t>(w.value & 3u);
                have_mtvec_ = true;
            }
            if (w.kind == RegKind::csr && w.index == 0xBC8) have_meivt_ = w.value != 0;
        }
        const auto info = isa::rv32::classify(prev.encoding, false);
        using K = isa::rv32::Klass;
        uint16_t cause = TraceRecord::unknown_cause;
        const bool vector = at_vector(cur.pc, cause);
        const bool exception = info.klass == K::ecall || info.klass == K::ebreak || (info.klass == K::csr && !result);
        if (info.klass == K::mret) {
            priv_ = mpp_;
            mpp_ = 0;
        }
        if (!goes_to(held_succ_, cur.pc) && !(vector && exception) && info.klass != K::mret && (vector || have_meivt_)) {
            cur.interrupt = true;
            cur.cause = vector ? cause : uint16_t{11};  // not at mtvec: the fast redirect of an external interrupt
            mpp_ = priv_;
            priv_ = 3;
        } else if (info.klass != K::mret && vector && cur.pc != prev.pc + prev.size && info.klass != K::branch &&
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
            if (t.empty() || (t.size() >= 2 && t[0] == '/' && t[1] == '/')) continue;
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
            succ_ = successor(r);  // a jalr's target from its source register's value before it writes
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
    RingQueue<TraceRecord> ready_, pending_;
    bool terminated_ = false, finished_ = false, have_prev_ = false;
    uint64_t prev_time_ = 0, last_term_line_ = 0;
    std::string note_;
    Succ succ_, held_succ_;  // of the record read_raw() read last, and of the held record
    RingQueue<TraceRecord> look_;
    size_t looked_ = 0;  // complete records at the front of look_
    bool look_end_ = false;
    uint64_t duplicates_ = 0, flushed_ = 0;
    bool have_held_ = false, have_mtvec_ = false, have_meivt_ = false;
    uint8_t mtvec_mode_ = 0;
    uint8_t priv_ = 3, mpp_ = 3;  // machine mode at reset
    uint64_t mtvec_ = 0;
};

}  // namespace

std::unique_ptr<TraceReader> make_veer_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<VeerReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
