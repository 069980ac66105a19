// QEMU's plugin-free logs (FORMATS.md §3c): `-d in_asm,exec,nochain` with or without `-singlestep`, and with
// `cpu` the register file before each translation block. "IN:" listings ("0x<pc>:  <encoding>  <disassembly>")
// give each block's instructions; each "Trace <n>: 0x<host> [<cs_base>/<pc>/<flags>/<cflags>]" line executes the
// block at <pc>. With `cpu`, the dump after a Trace line is the state before that block, so the registers a block
// wrote are the differences with the next dump; they are attached to the block's last instruction (exact with
// -singlestep, where a block is one instruction). A64 (X00=, PSTATE ... ELnh) and A32 (R00=, PSR/CPSR with the
// mode) dumps are read; the instruction set otherwise comes from the platform. On ARM the listing says Thumb: QEMU
// prints a Thumb instruction's encoding as halfwords ("bc02", "f04f 0b00") and an A32 one as a word ("e92d4010").
//
// What QEMU's own log says about blocks that did not run to their end (QEMU 7.2 accel/tcg/cpu-exec.c,
// translate-all.c):
// * "Stopped execution of TB chain before <host> [<pc>]": the block just traced did not start (its instruction
//   budget under -icount ran out, or an exit was requested): none of its instructions retired.
// * "cpu_io_recompile: rewound execution of TB to <pc>": an I/O access under -icount in the middle of the block;
//   the instructions before it retired, the rest did not, and execution resumes at the I/O instruction in a new
//   block: the block just traced retires the instructions before the pc where the next block starts.
// * A block translated again (after such a rewind, a budget cut or a flush) is listed again under IN:; the new
//   listing replaces the old one for the next execution of that pc, and each host address of a translation keeps
//   the listing it was translated from (a shortened block and the full one can both be in use).
// A system-register or CSR read's value is taken from the dump after its block when no later instruction of the
// block writes the same register (always with -singlestep), whether or not the value changed.
#include <array>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "isa/a32_coproc.hpp"
#include "isa/a64_sysreg.hpp"
#include "isa/arm_classify.hpp"
#include "isa/reg_use.hpp"
#include "isa/rv32.hpp"
#include "traces/reader.hpp"
#include "traces/record_queue.hpp"

namespace pmusim::trace {

namespace {

struct Insn {
    uint64_t pc;
    uint32_t enc;
    uint8_t size;
    bool halfwords;  // listed as halfwords ("bc02", "f04f 0b00"): on ARM, QEMU decoded it as Thumb
};

class QemuLogReader : public TraceReader {
public:
    QemuLogReader(std::unique_ptr<ByteSource> src, const ReaderOptions& o) : src_(std::move(src)), lines_(*src_) {
        opts_ = o;
    }
    std::string_view format() const override { return "qemu-log"; }
    uint64_t bytes_read() const override { return src_->raw_bytes(); }
    bool has_register_values() const override { return saw_dump_; }

    bool next(TraceRecord& out) override {
        while (ready_.empty()) {
            std::string_view line;
            if (!lines_.next(line)) {
                if (!eof_) {
                    eof_ = true;
                    close_block();
                    flush_previous(nullptr);
                    continue;
                }
                return false;
            }
            parse(line);
        }
        out = ready_.front();
        ready_.pop_front();
        return true;
    }

private:
    void parse(std::string_view line) {
        const uint64_t no = lines_.line_number();
        std::string_view t = scan::trim(line);
        if (t.empty()) {
            in_listing_ = false;
            return;
        }
        if (t.substr(0, 3) == "---") return;
        if (t.substr(0, 3) == "IN:") {
            in_listing_ = true;
            listing_start_ = 0;
            listing_ = std::make_shared<std::vector<Insn>>();
            return;
        }
        if (in_listing_ && t.substr(0, 2) == "0x") {
            listing(t, no);
            return;
        }
        in_listing_ = false;
        if (t.substr(0, 6) == "Trace ") {
            trace_line(t, no);
            return;
        }
        if (t.substr(0, 32) == "Stopped execution of TB chain be") {
            // The block just traced never started: it retires nothing (its dump is the state before the next).
            close_block();
            previous_.clear();
            return;
        }
        if (t.substr(0, 18) == "cpu_io_recompile: ") {
            rewound_ = true;  // cut at the pc where the next block starts
            return;
        }
        if (dump_open_) {
            dump(t);
            return;
        }
        bad_line(src_->path(), no, "expected 'IN:', a '0x<pc>: <encoding>' listing line, 'Trace <n>: ...' or a register dump");
    }

    void listing(std::string_view t, uint64_t no) {
        std::string_view rest = t;
        std::string_view pcw = scan::word(rest);
        if (!pcw.empty() && pcw.back() == ':') pcw.remove_suffix(1);
        uint64_t pc, a, b;
        const std::string_view e1 = scan::word(rest);
        if (!scan::hex(pcw, pc) || !scan::hex(e1, a)) {
            bad_line(src_->path(), no, "expected '0x<pc>:  <encoding>  <disassembly>' in an IN: listing");
            return;
        }
        Insn in{pc, static_cast<uint32_t>(a), static_cast<uint8_t>(e1.size() <= 4 ? 2 : 4), e1.size() <= 4};
        // A T32 instruction may be listed as two halfwords: "f04f 0b00".
        std::string_view peek = rest;
        const std::string_view e2 = scan::word(peek);
        if (e1.size() == 4 && e2.size() == 4 && scan::hex(e2, b) && isa::arm::t32_is_32bit(static_cast<uint32_t>(a))) {
            in.enc = static_cast<uint32_t>((a << 16) | b);
            in.size = 4;
        }
        if (listing_->empty()) {
            listing_start_ = pc;
            blocks_[pc] = listing_;  // a new translation replaces the old listing (never appended to it)
            fresh_[pc] = listing_;
        }
        listing_->push_back(in);
    }

    void trace_line(std::string_view t, uint64_t no) {
        close_block();
        const size_t lb = t.find('['), rb = t.find(']');
        uint64_t pc = 0, host = 0;
        {
            std::string_view w = t.substr(6);
            scan::word(w);  // "<cpu>:"
            if (!scan::hex(scan::word(w), host)) host = 0;
        }
        bool ok = lb != std::string_view::npos && rb != std::string_view::npos;
        if (ok) {
            std::string_view inner = t.substr(lb + 1, rb - lb - 1);
            const size_t s1 = inner.find('/');
            inner = s1 == std::string_view::npos ? std::string_view{} : inner.substr(s1 + 1);
            ok = scan::hex(inner.substr(0, inner.find('/')), pc);
        }
        if (!ok) {
            bad_line(src_->path(), no, "expected 'Trace <n>: 0x<host> [<cs_base>/<pc>/<flags>/<cflags>]'");
            return;
        }
        // A block rewound by cpu_io_recompile retires the instructions before the one this block starts at.
        if (rewound_) {
            rewound_ = false;
            for (size_t k = 0; k < previous_.size(); ++k)
                if (previous_[k].pc == pc) {
                    previous_.resize(k);
                    break;
                }
        }
        std::shared_ptr<std::vector<Insn>> block;
        if (const auto f = fresh_.find(pc); f != fresh_.end()) {  // the first run of a new translation
            block = f->second;
            fresh_.erase(f);
            if (host) by_host_[host] = block;
        } else if (const auto h = host ? by_host_.find(host) : by_host_.end(); h != by_host_.end() && !h->second->empty() &&
                                                                           h->second->front().pc == pc) {
            block = h->second;
        } else if (const auto b = blocks_.find(pc); b != blocks_.end()) {
            block = b->second;
            if (host) by_host_[host] = block;
        }
        if (!block) {
            bad_line(src_->path(), no, fmt::format("no IN: listing for the block at {:#x} (run QEMU with -d in_asm,exec)", pc));
            return;
        }
        current_.clear();
        for (const Insn& in : *block) {
            TraceRecord& r = current_.emplace_back();
            r.line = no;
            r.pc = in.pc;
            r.encoding = in.enc;
            r.size = in.size;
            r.isa = opts_.isa;
            if (r.isa == IsaState::a32 && in.halfwords) r.isa = IsaState::t32;  // T16 and T32 alike
            r.privilege = opts_.isa == IsaState::rv32 || opts_.isa == IsaState::rv64 ? 3 : 1;
        }
        dump_open_ = true;
        snap_.fill(0);
        snap_valid_.fill(false);
        snap_any_ = false;
    }

    // "X00=..." / "R00=..." / "SP=" / "PC=" words, and the PSTATE/CPSR line with the exception level or mode.
    void dump(std::string_view t) {
        for (std::string_view rest = t, w = scan::word(rest); !w.empty(); w = scan::word(rest)) {
            const size_t eq = w.find('=');
            if (eq == std::string_view::npos) {
                // "EL1h" after PSTATE, or an A32 mode name after the PSR
                if (w.size() >= 3 && (w[0] == 'E' || w[0] == 'e') && (w[1] == 'L' || w[1] == 'l') && w[2] >= '0' && w[2] <= '3')
                    priv_ = static_cast<uint8_t>(w[2] - '0');
                else if (w == "usr") priv_ = 0;
                else if (w == "svc" || w == "irq" || w == "fiq" || w == "abt" || w == "und" || w == "sys") priv_ = 1;
                else if (w == "hyp") priv_ = 2;
                else if (w == "mon") priv_ = 3;
                continue;
            }
            const std::string_view name = w.substr(0, eq), val = w.substr(eq + 1);
            uint64_t v, n;
            if (!scan::hex(val, v)) continue;
            int idx = -1;
            if ((name[0] == 'X' || name[0] == 'R') && scan::dec(name.substr(1), n) && n < 32) {
                idx = static_cast<int>(n);
                isa_ = name[0] == 'X' ? IsaState::a64 : IsaState::a32;
            } else if (name == "SP") {
                idx = 31;
            }
            if (idx >= 0) {
                snap_[static_cast<size_t>(idx)] = v;
                snap_valid_[static_cast<size_t>(idx)] = true;
                snap_any_ = true;
            }
        }
    }

    // The dump of the block just traced is complete: the previous block's register writes are the differences.
    void close_block() {
        if (!dump_open_) return;
        dump_open_ = false;
        if (snap_any_) saw_dump_ = true;
        for (auto& r : current_) {
            if (isa_ != IsaState::unknown)
                r.isa = isa_ == IsaState::a32 && (r.size == 2 || r.isa == IsaState::t32) ? IsaState::t32 : isa_;
            r.privilege = priv_;
        }
        flush_previous(snap_any_ ? &snap_ : nullptr);
        previous_.swap(current_);  // both keep their storage: no allocation per block
        current_.clear();
        if (snap_any_) {
            last_ = snap_;
            last_valid_ = snap_valid_;
            have_last_ = true;
        }
    }

    void flush_previous(const std::array<uint64_t, 32>* after) {
        if (previous_.empty()) return;
        if (after && have_last_) {
            // A system-register or CSR read whose destination no later instruction of the block writes: its value
            // is in the dump, changed or not.
            uint32_t written_later = 0;
            for (size_t k = previous_.size(); k-- > 0;) {
                TraceRecord& r = previous_[k];
                const int rt = read_destination(r);
                if (rt >= 0 && snap_valid_[static_cast<size_t>(rt)] && !(written_later & (1u << rt)))
                    r.add_reg(RegKind::gpr, static_cast<uint16_t>(rt), (*after)[static_cast<size_t>(rt)]);
                written_later |= dst_regs(r);
            }
            TraceRecord& tail = previous_.back();
            for (size_t k = 0; k < 32; ++k)
                if (snap_valid_[k] && last_valid_[k] && (*after)[k] != last_[k] && !has_gpr(tail, k))
                    tail.add_reg(RegKind::gpr, static_cast<uint16_t>(k), (*after)[k]);
        }
        for (auto& r : previous_) ready_.push_back(r);
        previous_.clear();
    }

    static bool has_gpr(const TraceRecord& r, size_t k) {
        for (unsigned i = 0; i < r.n_regs; ++i)
            if (r.regs[i].kind == RegKind::gpr && r.regs[i].index == k) return true;
        return false;
    }

    // The general-purpose register a system-register (MRS, MRC p15) or CSR read writes, or -1.
    static int read_destination(const TraceRecord& r) {
        if (r.isa == IsaState::a64) {
            const auto m = isa::a64::decode(r.encoding);
            return m && m->is_read && m->rt != 31 ? static_cast<int>(m->rt) : -1;
        }
        if (r.isa == IsaState::a32 || r.isa == IsaState::t32) {
            const auto m = r.isa == IsaState::a32 ? isa::a32::decode_a32(r.encoding)
                                                  : (r.size == 4 ? isa::a32::decode_t32(r.encoding) : std::nullopt);
            return m && m->coproc == 15 && m->is_read && m->rt < 15 ? static_cast<int>(m->rt) : -1;
        }
        if (r.isa == IsaState::rv32 || r.isa == IsaState::rv64) {
            const auto c = isa::rv32::decode_csr(r.encoding);
            return c && c->rd ? static_cast<int>(c->rd) : -1;
        }
        return -1;
    }

    // The registers an instruction writes (isa/reg_use.hpp); a system-register read writes its Rt too.
    static uint32_t dst_regs(const TraceRecord& r) {
        uint32_t d = 0;
        switch (r.isa) {
            case IsaState::a64: d = isa::a64_reg_use(r.encoding).dst; break;
            case IsaState::a32: d = isa::a32_reg_use(r.encoding).dst; break;
            case IsaState::t32: d = isa::t32_reg_use(r.encoding, r.size == 4).dst; break;
            case IsaState::rv32:
            case IsaState::rv64: d = isa::rv_reg_use(r.encoding, r.isa == IsaState::rv64).dst; break;
            default: break;
        }
        const int rt = read_destination(r);
        return rt >= 0 ? d | (1u << rt) : d;
    }

    std::unique_ptr<ByteSource> src_;
    LineReader lines_;
    // Listings by start pc (the latest translation), new translations not yet run, and by translation host address.
    std::unordered_map<uint64_t, std::shared_ptr<std::vector<Insn>>> blocks_, fresh_, by_host_;
    std::shared_ptr<std::vector<Insn>> listing_ = std::make_shared<std::vector<Insn>>();
    uint64_t listing_start_ = 0;
    bool rewound_ = false;
    bool in_listing_ = false, dump_open_ = false, eof_ = false, saw_dump_ = false;
    std::vector<TraceRecord> current_, previous_;
    RingQueue<TraceRecord> ready_;
    std::array<uint64_t, 32> snap_{}, last_{};
    std::array<bool, 32> snap_valid_{}, last_valid_{};
    bool snap_any_ = false, have_last_ = false;
    IsaState isa_ = IsaState::unknown;
    uint8_t priv_ = 1;
};

}  // namespace

std::unique_ptr<TraceReader> make_qemu_log_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<QemuLogReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
