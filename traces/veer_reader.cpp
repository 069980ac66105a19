// The VeeR EL2 RTL testbench's exec.log (FORMATS.md §4b):
//   "%10d : %8s 0 %h %h%13s %14s ; %s" = cycle : #n 0 pc insn [abi=value] [c<csr>=value] ; disassembly [addr]
// and late writebacks "<cycle> : <abi>=<value> ; nbL|nbD". A late writeback reaches the replay as a `before`
// register write of the next instruction (it landed before that instruction executed: a consumer of a
// non-blocking load waits for it, PRM ch. 2), so the replay's register file holds what the trace shows in trace
// order. The reader keeps its own register file for store data, and ends the test where the RTL did (below).
#include <cstdio>
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

    // What the reader needs of an encoding, decoded once per distinct encoding (a real exec.log has a few hundred:
    // 613 in the shared Dhrystone log): its class (isa::rv32::classify, RV32), where it goes (transfer: an offset
    // from the PC, or a register and immediate, never a target), its memory operand (mem_op). Each is a function of
    // the 32-bit encoding alone, so a cache keyed by the whole encoding gives what the three calls give; the PC and
    // the register values are applied per record (successor()).
    struct Decoded {
        uint32_t encoding = 0;
        int32_t offset = 0;  // transfer's
        isa::rv32::Klass klass = isa::rv32::Klass::illegal;
        isa::rv32::Transfer::Kind kind = isa::rv32::Transfer::none;
        uint8_t rs1 = 0;
        bool valid = false, conditional = false;
        bool mem = false, store = false;  // a load or store; which
        uint8_t mem_size = 0, data_reg = 0;
        // c.lw and c.sw whose offset the testbench prints wrong (tb_offset_fix): the offset it prints and what its
        // "[address]" has too much.
        uint8_t tb_offset = 0, tb_excess = 0;
    };
    // The RTL testbench's disassembler (testbench/dasm.svi, dasm16_cl) takes bits 6:5 of a c.lw or c.sw as offset
    // bits 7:6, where the ISA has bit 6 as offset bit 2 and bit 5 as offset bit 6 (RISC-V unprivileged spec,
    // "Compressed Register-Based Loads and Stores"): with bit 6 set it prints offset + 124 and an address 124 too
    // high. The RTL's own bus reads go to the right one (tests/veer-rtl/busmix: `c.lw a2,128(a5) [801000a4]`,
    // encoding 43d0, reads 0x80100028). The address is mended when the line shows the testbench's offset.
    static void tb_offset_fix(Decoded& d, uint32_t enc) {
        const uint32_t f3 = (enc >> 13) & 7u;
        if ((enc & 3u) != 0 || (f3 != 2 && f3 != 6) || !((enc >> 6) & 1u)) return;
        d.tb_offset = static_cast<uint8_t>(((enc >> 10) & 7u) << 3 | ((enc >> 5) & 3u) << 6);
        d.tb_excess = 124;
    }
    // Whether the disassembly shows the testbench's offset: ",<offset>(".
    static bool shows_tb_offset(std::string_view dasm, unsigned offset) {
        char want[8];
        const int n = std::snprintf(want, sizeof want, ",%u(", offset);
        return n > 0 && dasm.find(std::string_view(want, static_cast<size_t>(n))) != std::string_view::npos;
    }
    // An open-addressed table (linear probing), at most half full: emptied when a trace has more distinct
    // encodings than that, and filled again as they come.
    static constexpr unsigned decoded_bits = 11;
    static constexpr size_t decoded_limit = size_t{1} << (decoded_bits - 1);
    const Decoded& decode(uint32_t enc) {
        constexpr size_t mask = (size_t{1} << decoded_bits) - 1;
        size_t i = ((enc ^ (enc >> 15)) * 0x9E3779B1u) >> (32 - decoded_bits);
        for (; decoded_[i].valid; i = (i + 1) & mask)
            if (decoded_[i].encoding == enc) return decoded_[i];
        if (decoded_count_ == decoded_limit) {
            for (Decoded& e : decoded_) e.valid = false;
            decoded_count_ = 0;
            return decode(enc);
        }
        ++decoded_count_;
        Decoded& d = decoded_[i];
        d.encoding = enc;
        d.valid = true;
        d.klass = isa::rv32::classify(enc, false).klass;
        const auto t = isa::rv32::transfer(enc);
        d.kind = t.kind;
        d.conditional = t.conditional;
        d.offset = t.offset;
        d.rs1 = static_cast<uint8_t>(t.rs1);
        const auto mop = isa::rv32::mem_op(enc);
        d.mem = mop.has_value();
        d.store = mop && mop->store;
        d.mem_size = static_cast<uint8_t>(mop ? mop->size : 0);
        d.data_reg = static_cast<uint8_t>(mop ? mop->data_reg : 0);
        d.tb_offset = d.tb_excess = 0;
        tb_offset_fix(d, enc);
        return d;
    }

    void set_gpr(unsigned reg, uint64_t v) {
        if (reg) gpr_[reg] = v;
    }

    // abi=value: a GPR write; `eq` is the position of the '=' (npos: none).
    static bool parse_reg(std::string_view tok, size_t eq, unsigned& reg, uint64_t& v) {
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
                // Another interrupt taken at this mret (its entry marked by transition(): tests/veer-rtl/irqpair):
                // the program resumes where that handler's mret goes; its entry is not a nested one.
                if (look_[i + 1].interrupt) {
                    ++i;
                    continue;
                }
                // look_[i + 1] is where the program resumes: mepc, which the entry wrote (privileged spec 3.1.14).
                // The entry shows it as a write of CSR mepc (0x341): the record before it went there
                // (TimingModel::predict_other).
                look_[1].add_reg(RegKind::csr, mepc_csr, look_[i + 1].pc);
                if (look_[i + 1].pc == look_[0].pc && look_[0].pc != look_[1].pc) {
                    // The dropped instruction went through execute before the entry killed it; where it went then
                    // is where it goes when it runs again after the mret (trace_record.hpp, flushed_next_csr).
                    while (i + 2 >= looked_ && pull()) {
                    }
                    using K = isa::rv32::Klass;
                    const K kl = decode(look_[0].encoding).klass;  // a control transfer's (the predictor's)
                    if ((kl == K::branch || kl == K::jal || kl == K::jalr) && i + 2 < looked_ &&
                        look_[0].encoding == look_[i + 1].encoding &&
                        look_[1].add_reg(RegKind::csr, flushed_encoding_csr, look_[0].encoding))
                        look_[1].add_reg(RegKind::csr, flushed_next_csr, look_[i + 2].pc);
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
            // At an entry the port shows the instruction in its writeback register (el2_dec.sv: trace_rv_i_*_ip
            // from dec_i0_inst_wb and dec_i0_pc_wb, valid with dec_tlu_int_valid_wb1): an mret right before the
            // entry is shown again too (tests/veer-rtl/irqpair: an interrupt pending when the handler of another
            // returns). mret may go anywhere (mepc is not followed), but not to itself: mepc would have to hold its
            // own address, and nothing would ever leave it. The entry after it is an interrupt (transition()).
            while (more && nxt.pc == held.pc && nxt.encoding == held.encoding &&
                   (!goes_to(held_succ_, nxt.pc) || held.encoding == mret_encoding) && !writes_csr(nxt)) {
                if (held.encoding == mret_encoding) entry_after_mret_ = true;
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
    // With it, the instruction's class (transition()).
    struct Succ {
        uint64_t a = 0, b = 0;
        bool any = false;
        isa::rv32::Klass klass = isa::rv32::Klass::illegal;
    };
    Succ successor(const TraceRecord& r, const Decoded& d) const {
        Succ s{r.pc + r.size, r.pc + r.size, false, d.klass};
        if (d.kind == isa::rv32::Transfer::relative) {
            s.b = r.pc + static_cast<uint64_t>(static_cast<int64_t>(d.offset));
            if (!d.conditional) s.a = s.b;
        } else if (d.kind == isa::rv32::Transfer::indirect) {
            s.a = s.b = (gpr_[d.rs1] + static_cast<uint64_t>(static_cast<int64_t>(d.offset))) & 0xFFFFFFFEu;
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
        using K = isa::rv32::Klass;
        const K klass = held_succ_.klass;  // prev's
        uint16_t cause = TraceRecord::unknown_cause;
        const bool vector = at_vector(cur.pc, cause);
        const bool exception = klass == K::ecall || klass == K::ebreak || (klass == K::csr && !result);
        const bool after_mret = entry_after_mret_;  // an mret shown twice: an interrupt entry follows it
        entry_after_mret_ = false;
        if (klass == K::mret) {
            priv_ = mpp_;
            mpp_ = 0;
        }
        if (((!goes_to(held_succ_, cur.pc) && klass != K::mret) || after_mret) && !(vector && exception) && (vector || have_meivt_)) {
            cur.interrupt = true;
            cur.cause = vector ? cause : uint16_t{11};  // not at mtvec: the fast redirect of an external interrupt
            mpp_ = priv_;
            priv_ = 3;
        } else if (klass != K::mret && vector && cur.pc != prev.pc + prev.size && klass != K::branch &&
                   klass != K::jal && klass != K::jalr) {
            mpp_ = priv_;
            priv_ = 3;
            if (klass == K::csr && !result) prev.trapped = true;
        }
        cur.privilege = priv_;
    }

    // The next instruction line as a record (late writebacks on the way are kept for it); false at the end.
    bool read_raw(TraceRecord& r) {
        std::string_view line;
        while (lines_.next(line)) {
            const uint64_t no = lines_.line_number();
            Columns c;
            if (!rtl_columns(line, c) && !split(line, no, c)) continue;
            if (build(r, no, c)) return true;
        }
        return false;
    }

    // An instruction line's columns: cycle, PC, encoding, the register and CSR writes (before the ';') and the
    // disassembly (after it; with its white space or not: only its brackets are read).
    struct Columns {
        uint64_t cycle = 0, pc = 0, insn = 0;
        std::string_view writes, dasm;
        // rtl_columns() may have read the writes already: none, or one GPR write (`gpr`, `value`).
        bool writes_read = false;
        int gpr = -1;
        uint64_t value = 0;
    };

    // The RTL testbench's own layout, "%10d : %8s 0 %h %h%13s %14s ; %s" (FORMATS.md §4b): the columns at fixed
    // places, read eight characters at a time without searching for them. A line is taken here only where split()
    // would find the same columns: every fixed character checked, the leading runs of spaces (no other white
    // space), the cycle and the instruction number decimal, PC and encoding eight hex digits, no ';' before the one
    // at column 70. Anything else (other spacing, a wider cycle, a late writeback, a comment, an error) goes
    // through split().
    static bool rtl_columns(std::string_view l, Columns& c) {
        using scan::detail::load8;
        using scan::detail::has_byte;
        if (l.size() < 72) return false;
        const char* s = l.data();
        if (s[10] != ' ' || s[11] != ':' || s[12] != ' ' || s[21] != ' ' || s[22] != '0' || s[23] != ' ' || s[32] != ' ' ||
            s[41] != ' ' || s[69] != ' ' || s[70] != ';')
            return false;
        if (s[0] == ' ' && s[1] == ' ') {
            if (!scan::detail::right_dec8(load8(s + 2), c.cycle)) return false;
        } else if (!scan::dec(std::string_view(s, 10), c.cycle)) {  // ten digits
            return false;
        }
        // "#<n>" right-aligned in eight: the '#' read as a space, then where it was checked (the last space).
        const uint64_t n8 = load8(s + 13), hash = scan::detail::bytes_equal(n8, '#');
        const uint64_t spaces = scan::detail::bytes_equal(n8, ' ') | hash;
        uint64_t n;
        if (!hash || hash != (spaces & ~(spaces >> 8)) || !scan::detail::right_dec8(n8 ^ ((hash >> 7) * ('#' ^ ' ')), n))
            return false;
        if (!scan::detail::hex8(load8(s + 24), c.pc) || !scan::detail::hex8(load8(s + 33), c.insn)) return false;
        constexpr uint64_t blank = scan::detail::spaces;
        c.writes_read = false;
        if (load8(s + 55) == blank && load8(s + 61) == blank) {  // no CSR column
            const uint64_t w0 = load8(s + 41), w1 = load8(s + 47);
            if (has_byte(w0, ';') || has_byte(w1, ';')) return false;
            c.writes = std::string_view(s + 41, 14);
            if (w0 == blank && w1 == blank) {  // no register column either
                c.writes_read = true;
                c.gpr = -1;
            } else {
                rtl_gpr_write(s, c);
            }
        } else {
            if (has_byte(load8(s + 41), ';') || has_byte(load8(s + 49), ';') || has_byte(load8(s + 57), ';') ||
                has_byte(load8(s + 61), ';'))
                return false;
            c.writes = std::string_view(s + 41, 28);
        }
        c.dasm = std::string_view(s + 71, l.size() - 71);
        return true;
    }

    // The register column alone, "<abi>=<eight hex digits>" right-aligned in [41, 54): read in place (writes_read)
    // where the words of `writes` would give the same; anything else is left to build().
    static void rtl_gpr_write(const char* s, Columns& c) {
        if (s[45] != '=' || s[54] != ' ' || !scan::detail::hex8(scan::detail::load8(s + 46), c.value)) return;
        size_t p = 45;
        while (s[p - 1] != ' ') --p;  // s[41] is a space
        for (size_t i = 42; i < p; ++i)
            if (s[i] != ' ') return;
        const auto reg = isa::rv32::gpr_by_name(std::string_view(s + p, 45 - p));
        if (!reg) return;  // (a CSR name, or a bad one: build() tells)
        c.gpr = static_cast<int>(*reg);
        c.writes_read = true;
    }

    // Any spacing: the columns of an instruction line (true); a late writeback (kept for the next instruction), a
    // comment, a blank line or a bad line (reported) give false.
    bool split(std::string_view line, uint64_t no, Columns& c) {
        std::string_view t = scan::trim(line);
        if (t.empty() || (t.size() >= 2 && t[0] == '/' && t[1] == '/')) return false;
        const size_t semi = t.find(';');
        std::string_view fields = t.substr(0, semi);
        c.dasm = semi == std::string_view::npos ? std::string_view{} : scan::trim(t.substr(semi + 1));
        if (!scan::dec(scan::word(fields), c.cycle) || scan::word(fields) != ":") {
            bad_line(src_->path(), no, "expected '<cycle> : ...' (a VeeR exec.log line)");
            return false;
        }
        const std::string_view w3 = scan::word(fields);
        if (w3.empty() || w3[0] != '#') {
            // A late writeback: "<cycle> : <abi>=<value> ; nbL|nbD".
            unsigned reg;
            uint64_t v;
            if (!parse_reg(w3, scan::find(w3, '='), reg, v) || (c.dasm != "nbL" && c.dasm != "nbD")) {
                bad_line(src_->path(), no, "expected '#<n>' or a writeback '<reg>=<value> ; nbL|nbD'");
                return false;
            }
            set_gpr(reg, v);
            if (reg) late_.push_back({reg, v});
            return false;
        }
        uint64_t n, hart;
        if (!scan::dec(w3.substr(1), n) || !scan::dec(scan::word(fields), hart) || !scan::hex(scan::word(fields), c.pc) ||
            !scan::hex(scan::word(fields), c.insn) || c.insn > 0xFFFFFFFFu) {
            bad_line(src_->path(), no, "expected '#<n> 0 <pc hex> <opcode hex>'");
            return false;
        }
        c.writes = fields;
        c.writes_read = false;
        return true;
    }

    // The record of an instruction line's columns: false for a bad line (reported).
    bool build(TraceRecord& r, uint64_t no, const Columns& c) {
        r.clear();
        r.line = no;
        r.pc = c.pc;
        r.encoding = static_cast<uint32_t>(c.insn);
        r.isa = IsaState::rv32;
        r.size = (c.insn & 3u) == 3u ? 4 : 2;
        r.privilege = 3;  // set by transition()
        r.has_time = true;
        r.time = c.cycle;
        bool ok = true;
        for (const auto& [reg, v] : late_)
            if (!r.add_reg(RegKind::gpr, static_cast<uint16_t>(reg), v, true)) ok = false;
        late_.clear();
        if (!ok) {
            bad_line(src_->path(), no, fmt::format("more than {} register writes for one instruction (late writebacks included)",
                                                   TraceRecord::max_regs));
            return false;
        }
        std::string_view fields = c.writes_read ? std::string_view{} : c.writes;
        if (c.writes_read && c.gpr >= 0) r.add_reg(RegKind::gpr, static_cast<uint16_t>(c.gpr), c.value);
        for (std::string_view tok = scan::word(fields); !tok.empty(); tok = scan::word(fields)) {
            const size_t eq = scan::find(tok, '=');
            uint64_t v;
            if (tok[0] == 'c' && eq != std::string_view::npos && eq != 1 && !isa::rv32::gpr_by_name(tok.substr(0, eq))) {
                uint64_t csr;
                if (!scan::hex(tok.substr(1, eq - 1), csr) || !scan::hex(tok.substr(eq + 1), v) || csr > 0xFFF) {
                    ok = false;
                    break;
                }
                r.add_reg(RegKind::csr, static_cast<uint16_t>(csr), v);
            } else {
                unsigned reg;
                if (!parse_reg(tok, eq, reg, v)) {
                    ok = false;
                    break;
                }
                r.add_reg(RegKind::gpr, static_cast<uint16_t>(reg), v);
            }
        }
        if (!ok) {
            bad_line(src_->path(), no, "expected '<abi register>=<hex>' or 'c<csr hex>=<hex>' before ';'");
            return false;
        }
        const Decoded& d = decode(r.encoding);
        // The memory address: "[addr]" at the end of the disassembly.
        uint64_t addr;
        if (d.mem && bracketed_hex(c.dasm, addr)) {
            MemAccess m;
            if (d.tb_excess && addr >= d.tb_excess && shows_tb_offset(c.dasm, d.tb_offset)) addr -= d.tb_excess;
            m.addr = addr;
            m.size = d.mem_size;
            m.is_write = d.store;
            if (d.store) {
                m.data = gpr_[d.data_reg] & (d.mem_size >= 8 ? ~uint64_t{0} : ((uint64_t{1} << (8 * d.mem_size)) - 1));
                m.data_known = true;
            }
            r.add_mem(m);
        }
        succ_ = successor(r, d);  // a jalr's target from its source register's value before it writes
        for (unsigned i = 0; i < r.n_regs; ++i)
            if (r.regs[i].kind == RegKind::gpr && !r.regs[i].before) set_gpr(r.regs[i].index, r.regs[i].value);
        return true;
    }

    // The hex number between the last '[' and the last ']' of `s`, the ']' after the '['. The RTL prints eight
    // digits at the end of the line: that case first.
    static bool bracketed_hex(std::string_view s, uint64_t& v) {
        const size_t n = s.size();
        if (n >= 10 && s[n - 1] == ']' && s[n - 10] == '[' && scan::detail::hex8(scan::detail::load8(s.data() + n - 9), v))
            return true;
        size_t rb = std::string_view::npos;
        for (size_t i = n; i-- > 0;) {
            if (s[i] == '[') return rb != std::string_view::npos && scan::hex(s.substr(i + 1, rb - i - 1), v);
            if (s[i] == ']' && rb == std::string_view::npos) rb = i;
        }
        return false;
    }

    std::unique_ptr<ByteSource> src_;
    LineReader lines_;
    std::vector<Decoded> decoded_ = std::vector<Decoded>(size_t{1} << decoded_bits);
    size_t decoded_count_ = 0;
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
    bool entry_after_mret_ = false;  // the held mret was shown twice: the next record enters a handler
    uint8_t mtvec_mode_ = 0;
    uint8_t priv_ = 3, mpp_ = 3;  // machine mode at reset
    uint64_t mtvec_ = 0;
};

}  // namespace

std::unique_ptr<TraceReader> make_veer_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<VeerReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
