// QEMU's execlog plugin output (FORMATS.md §3a):
//   <vcpu>, 0x<pc>, 0x<opcode>, "<disassembly>"{, load|store, 0x<addr>[, <device>]}
// The log carries no instruction-set state, no register values, no access sizes and no condition-failed flag.
// The opcode is a raw 32-bit little-endian read: for RVC and T16 the upper half is the next halfword, and a
// T32 instruction shows its halfwords swapped. The instruction set comes from the platform (ReaderOptions::isa).
// On ARM the log does not say A32 or Thumb: the reader follows interworking (docs/trace-formats.md, "QEMU execlog
// details"). It starts in A32; a halfword-aligned PC is Thumb; an A32 BLX (immediate) enters Thumb and a T32 BLX
// (immediate) leaves it. Where the PC is not the previous instruction's fall-through and that instruction is not
// one that keeps the state (a direct branch, TBB/TBH, a T16 ADD/MOV of the PC), the next PC decides: the
// instruction interworked (BX, BLX to a register, a load of the PC, an A32 data-processing write of the PC), returned
// from an exception (SUBS PC, LR, RFE: the state comes from the SPSR or memory) or an exception was taken (SVC, UDF,
// an interrupt: the state is SCTLR.TE's, Arm ARM DDI 0406C B1.8.3). Halfword-aligned is Thumb; word-aligned is the
// caller's state if it is the return address of one of the last calls (BL/BLX), else A32. A word-aligned Thumb
// target that is no recent call's return address is therefore taken for A32, and so is an exception vector of a
// Thumb kernel (SCTLR.TE set); an interrupt taken just after a direct branch is not seen.
#include <cstring>

#include <fmt/format.h>

#include "isa/arm_classify.hpp"
#include "traces/reader.hpp"

namespace pmusim::trace {

namespace {

class QemuExeclogReader : public TraceReader {
public:
    QemuExeclogReader(std::unique_ptr<ByteSource> src, const ReaderOptions& o) : src_(std::move(src)), lines_(*src_) {
        opts_ = o;
        if (opts_.isa == IsaState::unknown)
            throw TraceError(src_->path(), 0, "a QEMU execlog does not say its instruction set: give a platform (--platform; convert also takes --isa)");
    }
    std::string_view format() const override { return "qemu-execlog"; }
    uint64_t bytes_read() const override { return src_->raw_bytes(); }
    bool has_register_values() const override { return false; }

    bool next(TraceRecord& r) override {
        std::string_view line;
        while (lines_.next(line))
            if (parse(line, r)) return true;
        return false;
    }

private:
    static constexpr const char* head_expected = "expected '<vcpu>, 0x<pc>, 0x<opcode>, \"<disassembly>\"'";

    // One line, read in place with pointers (no string_view per field, no search but for the quotes): true when it
    // is a record (in r); false for a line that is skipped (blank, QEMU's own messages) or bad.
    bool parse(std::string_view line, TraceRecord& r) {
        const uint64_t no = lines_.line_number();
        const char* b = scan::detail::skip_space(line.data(), line.data() + line.size());
        const char* e = scan::detail::skip_space_back(b, line.data() + line.size());
        if (b == e) return false;
        const std::string_view t(b, static_cast<size_t>(e - b));
        // QEMU's own -d int messages between instructions: "Taking exception 16 [...] on CPU 0", "...from EL1".
        if ((*b == 'T' && scan::starts(t, "Taking exception")) || (*b == '.' && scan::starts(t, "..."))) return false;
        // The disassembly lies between the first and the last double quote (it may hold quotes and commas itself).
        const char* q1 = static_cast<const char*>(std::memchr(b, '"', t.size()));
        const char* q2 = q1 ? static_cast<const char*>(memrchr(q1 + 1, '"', static_cast<size_t>(e - q1 - 1))) : nullptr;
        if (!q2) {
            bad_line(src_->path(), no, head_expected);
            return false;
        }
        // Before the first quote: three comma-separated fields (more are ignored), each with spaces around it.
        uint64_t vcpu, pc, op;
        const char* p = b;
        const bool head_ok = field(p, q1, vcpu, false) && field(p, q1, pc, true) && field(p, q1, op, true);
        if (!head_ok || op > 0xFFFFFFFFu) {
            bad_line(src_->path(), no, head_expected);
            return false;
        }
        r.clear();
        r.line = no;
        r.pc = pc;
        set_encoding(r, static_cast<uint32_t>(op));
        // ", load, 0x<addr>, RAM" / ", store, ...": the accesses of this instruction, each with an optional
        // device name after its address. Tokens are comma-separated, spaces around them ignored, empty ones skipped.
        p = q2 + 1;
        bool ok = true;
        for (std::string_view kind = token(p, e); !kind.empty();) {
            MemAccess m;
            const std::string_view addr = token(p, e);
            const bool load = scan::is(kind, "load"), store = !load && scan::is(kind, "store");
            ok = (load || store) && !addr.empty() && scan::hex(addr, m.addr);
            if (!ok) break;
            m.is_write = store;
            r.add_mem(m);
            kind = token(p, e);
            if (!kind.empty() && !scan::is(kind, "load") && !scan::is(kind, "store")) kind = token(p, e);  // the device
        }
        if (!ok) {
            bad_line(src_->path(), no, "expected ', load|store, 0x<address>[, <device>]' after the disassembly");
            return false;
        }
        return true;
    }

    // The next field of the head [p, end): the text up to the next comma (or end), spaces around it ignored, as a
    // decimal or (`hex`) a hexadecimal number with or without 0x, as scan::dec and scan::hex read it; p passes the
    // comma. False when the text is not such a number. The digits are read in place, and what follows them must
    // end the word.
    static bool field(const char*& p, const char* end, uint64_t& v, bool hex) {
        const char* w = p < end && *p == ' ' ? p + 1 : p;  // the plugin's one space
        if (w < end && scan::space(*w)) w = scan::detail::skip_space(w, end);
        const char* x = w;
        bool ok;
        if (hex) {
            if (end - x > 2 && x[0] == '0' && (x[1] == 'x' || x[1] == 'X')) x += 2;
            ok = scan::hex_run(x, end, v);
        } else {
            uint64_t n = 0;
            for (; x < end && static_cast<unsigned char>(*x - '0') < 10; ++x) n = n * 10 + static_cast<unsigned>(*x - '0');
            v = n;
            ok = x != w && (x - w <= 19 || scan::dec(std::string_view(w, static_cast<size_t>(x - w)), v));  // 20: overflow?
        }
        if (!ok) return false;
        if (x < end && *x == ',') {  // the plugin's layout: the comma just after the number
            p = x + 1;
            return true;
        }
        if (x < end && !scan::space(*x)) return false;  // more in the word
        x = scan::detail::skip_space(x, end);
        if (x < end && *x != ',') return false;  // more than one word before the comma
        p = x < end ? x + 1 : end;
        return true;
    }

    // The next non-empty comma-separated token of [p, e) without the spaces around it; empty at the end.
    static std::string_view token(const char*& p, const char* e) {
        while (p < e) {
            const char* c = scan::detail::find_char(p, e, ',');
            const char* w = p < c && *p == ' ' ? p + 1 : p;  // the plugin's one space after the comma
            if (w < c && scan::space(*w)) w = scan::detail::skip_space(w, c);
            const char* x = w < c && !scan::space(c[-1]) ? c : scan::detail::skip_space_back(w, c);
            p = c < e ? c + 1 : e;
            if (x != w) return std::string_view(w, static_cast<size_t>(x - w));
        }
        return {};
    }

    // The opcode as the plugin prints it (a 32-bit little-endian read) and the instruction set, followed on ARM.
    void set_encoding(TraceRecord& r, uint32_t raw) {
        const uint64_t pc = r.pc;
        r.isa = opts_.isa;
        r.encoding = raw;
        r.size = 4;
        if (r.isa == IsaState::rv32 || r.isa == IsaState::rv64) {
            if ((raw & 3u) != 3u) {
                r.encoding = raw & 0xFFFFu;
                r.size = 2;
            }
        } else if (r.isa == IsaState::a32) {
            if (pc != fall_through_ && !keeps_state(last_)) thumb_ = returned_to_thumb(pc) || (pc & 2u);
            else if (pc & 2u) thumb_ = true;
            if (thumb_) r.isa = IsaState::t32;
        }
        if (r.isa == IsaState::t32) {
            const uint32_t hw1 = raw & 0xFFFFu;
            if (isa::arm::t32_is_32bit(hw1)) r.encoding = (hw1 << 16) | (raw >> 16);
            else {
                r.encoding = hw1;
                r.size = 2;
            }
            const uint32_t e = r.encoding;
            last_ = thumb_bit | e;
            if (r.size == 4) {
                if ((e & 0xF800D001u) == 0xF000C000u) thumb_ = false;                               // BLX (immediate)
                if ((e & 0xF800D000u) == 0xF000D000u || (e & 0xF800D001u) == 0xF000C000u) call(pc + 4, true);  // BL, BLX
            } else if ((e & 0xFF80u) == 0x4780u) call(pc + 2, true);                                 // BLX (register)
        } else if (r.isa == IsaState::a32) {
            last_ = raw;
            if ((raw >> 28) != 0xFu) {
                if ((raw & 0x0F000000u) == 0x0B000000u || (raw & 0x0FFFFFF0u) == 0x012FFF30u)  // BL, BLX (register)
                    call(pc + 4, false);
            } else if ((raw & 0xFE000000u) == 0xFA000000u) {                                        // BLX (immediate)
                call(pc + 4, false);
                thumb_ = true;
            }
        }
        fall_through_ = pc + r.size;
        r.privilege = r.isa == IsaState::rv32 || r.isa == IsaState::rv64 ? 3 : 1;
    }

    // Whether the previous instruction (`last_`: its encoding, with `thumb_bit` for Thumb) keeps the instruction-set
    // state when it goes elsewhere than its fall-through: the direct branches, A32 B/BL/BLX (immediate) (A5.7: 101x
    // in bits 27:25, any condition), T16 B<c>/B (A6.2.6: 1101 cccc, c not 111x; 11100), CBZ/CBNZ (1011 x0x1), T32
    // B/B<c>/BL/BLX (immediate) (A6.3.4: 11110 / 1x0x, not B<c>'s space of op 111x, the misc. controls with SUBS PC,
    // LR), whose state a BLX has already switched; TBB/TBH (A6.3.5: E8D0 F00x/F01x) and the T16 ADD/MOV of the PC
    // (A6.2.3: 0100 01x0 1xxx x111), BranchWritePC in Thumb state. Any other has written the PC by interworking
    // (BX, BLX to a register, LoadWritePC from ARMv5T, ALUWritePC in ARM state from ARMv7), returned from an exception
    // (SUBS PC, LR, RFE, LDM with ^: the SPSR's or memory's state) or was followed by an exception entry (SVC, UDF,
    // BKPT, an abort or an interrupt: SCTLR.TE's state, B1.8.3). Only looked at when the PC is not the fall-through.
    // (On ARMv6 an A32 data-processing write of the PC does not interwork, but BranchWritePC clears bits 1:0: a
    // word-aligned PC, which the next-PC rule reads as A32 too, so the reader needs no architecture version.)
    static bool keeps_state(uint64_t last) {
        const auto e = static_cast<uint32_t>(last);
        if (!(last & thumb_bit)) return (e & 0x0E000000u) == 0x0A000000u;
        if (e > 0xFFFFu)
            return ((e & 0xF8008000u) == 0xF0008000u && ((e & 0x5000u) != 0 || (e & 0x03800000u) != 0x03800000u)) ||
                   (e & 0xFFF0FFE0u) == 0xE8D0F000u;
        return ((e & 0xF000u) == 0xD000u && (e & 0x0E00u) != 0x0E00u) || (e & 0xF800u) == 0xE000u ||
               (e & 0xF500u) == 0xB100u || (e & 0xFD87u) == 0x4487u;
    }

    // A call's return address and state (bit 0: Thumb, as the call writes LR), kept for the last `calls` calls.
    void call(uint64_t ret, bool thumb) {
        depth_ = (depth_ + 1) % calls;
        returns_[depth_] = ret | (thumb ? 1u : 0u);
    }

    // Whether a PC the next-PC rule decides (see keeps_state) is the return address of one of the last calls, made
    // in Thumb state; that call and those after it are then returned from. (A return to a halfword-aligned PC is
    // Thumb whatever this says; it is looked up so that the calls it returns from leave the table.)
    bool returned_to_thumb(uint64_t pc) {
        for (unsigned k = 0, d = depth_; k < calls; ++k, d = (d + calls - 1) % calls)
            if ((returns_[d] & ~uint64_t{1}) == pc) {
                const bool thumb = returns_[d] & 1u;
                returns_[d] = none;
                depth_ = (d + calls - 1) % calls;
                return thumb;
            }
        return false;
    }

    std::unique_ptr<ByteSource> src_;
    LineReader lines_;
    bool thumb_ = false;
    uint64_t fall_through_ = 0;  // the PC after the previous record's, were it not a branch
    static constexpr uint64_t thumb_bit = uint64_t{1} << 32;
    uint64_t last_ = 0;          // the previous record's encoding, with thumb_bit if it was Thumb (keeps_state)
    static constexpr unsigned calls = 16;
    static constexpr uint64_t none = ~uint64_t{0};  // an empty entry: no 32-bit PC
    uint64_t returns_[calls] = {none, none, none, none, none, none, none, none, none, none, none, none, none, none, none, none};
    unsigned depth_ = 0;
};

}  // namespace

std::unique_ptr<TraceReader> make_qemu_execlog_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<QemuExeclogReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
