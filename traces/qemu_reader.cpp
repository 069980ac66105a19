// QEMU's execlog plugin output (FORMATS.md §3a):
//   <vcpu>, 0x<pc>, 0x<opcode>, "<disassembly>"{, load|store, 0x<addr>[, <device>]}
// The log carries no instruction-set state, no register values, no access sizes and no condition-failed flag.
// The opcode is a raw 32-bit little-endian read: for RVC and T16 the upper half is the next halfword, and a
// T32 instruction shows its halfwords swapped. The instruction set comes from the platform (ReaderOptions::isa).
// On ARMv7 the log does not say A32 or Thumb: the reader follows interworking branches. It starts in A32; a
// halfword-aligned PC is Thumb; an A32 BLX (immediate) enters Thumb and a T32 BLX (immediate) leaves it; after a
// BX or BLX to a register, the next PC decides (halfword-aligned: Thumb, word-aligned: A32). A Thumb branch to a
// register that lands on a word-aligned Thumb instruction is therefore taken for A32 (docs/trace-formats.md).
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
        while (lines_.next(line)) {
            const uint64_t no = lines_.line_number();
            std::string_view t = scan::trim(line);
            if (t.empty()) continue;
            // QEMU's own -d int messages between instructions: "Taking exception 16 [...] on CPU 0", "...from EL1".
            if (t.substr(0, 16) == "Taking exception" || t.substr(0, 3) == "...") continue;
            const size_t q1 = t.find('"'), q2 = t.rfind('"');
            if (q1 == std::string_view::npos || q2 == q1) {
                bad_line(src_->path(), no, "expected '<vcpu>, 0x<pc>, 0x<opcode>, \"<disassembly>\"'");
                continue;
            }
            std::string_view head = t.substr(0, q1), tail = t.substr(q2 + 1);
            uint64_t vcpu, pc, op;
            std::string_view f[3];
            for (auto& x : f) {
                const size_t c = head.find(',');
                x = scan::trim(head.substr(0, c));
                head = c == std::string_view::npos ? std::string_view{} : head.substr(c + 1);
            }
            if (!scan::dec(f[0], vcpu) || !scan::hex(f[1], pc) || !scan::hex(f[2], op) || op > 0xFFFFFFFFu) {
                bad_line(src_->path(), no, "expected '<vcpu>, 0x<pc>, 0x<opcode>, \"<disassembly>\"'");
                continue;
            }
            r.clear();
            r.line = no;
            r.pc = pc;
            r.isa = opts_.isa;
            const uint32_t raw = static_cast<uint32_t>(op);
            r.encoding = raw;
            r.size = 4;
            if (r.isa == IsaState::rv32 || r.isa == IsaState::rv64) {
                if ((raw & 3u) != 3u) {
                    r.encoding = raw & 0xFFFFu;
                    r.size = 2;
                }
            } else if (r.isa == IsaState::a32) {
                if (pc & 2u) thumb_ = true;
                else if (interworking_) thumb_ = false;
                interworking_ = false;
                if (thumb_) r.isa = IsaState::t32;
            }
            if (r.isa == IsaState::t32) {
                const uint32_t hw1 = raw & 0xFFFFu;
                if (isa::arm::t32_is_32bit(hw1)) r.encoding = (hw1 << 16) | (raw >> 16);
                else {
                    r.encoding = hw1;
                    r.size = 2;
                }
                // BLX (immediate) to A32; BX/BLX (register): the next PC decides.
                if (r.size == 4 && (r.encoding & 0xF800D001u) == 0xF000C000u) thumb_ = false;
                if (r.size == 2 && (r.encoding & 0xFF00u) == 0x4700u) interworking_ = true;
            } else if (r.isa == IsaState::a32) {
                if ((raw & 0xFE000000u) == 0xFA000000u) thumb_ = true;                         // BLX (immediate)
                if ((raw & 0x0FFFFFD0u) == 0x012FFF10u && (raw >> 28) != 0xFu) interworking_ = true;  // BX, BLX (register)
            }
            r.privilege = r.isa == IsaState::rv32 || r.isa == IsaState::rv64 ? 3 : 1;
            // ", load, 0x<addr>, RAM" / ", store, ...": the accesses of this instruction, each with an optional
            // device name after its address.
            // (Read token by token: no vector per line.)
            std::string_view rest = tail;
            bool more = true;
            const auto token = [&rest, &more]() {  // the next non-empty comma-separated token, empty at the end
                while (more) {
                    const size_t c = scan::find(rest, ',');
                    const std::string_view x = scan::trim(rest.substr(0, c));
                    if (c == std::string_view::npos) more = false;
                    else rest = rest.substr(c + 1);
                    if (!x.empty()) return x;
                }
                return std::string_view{};
            };
            bool ok = true;
            for (std::string_view kind = token(); !kind.empty();) {
                MemAccess m;
                const std::string_view addr = token();
                ok = (scan::is(kind, "load") || scan::is(kind, "store")) && !addr.empty() && scan::hex(addr, m.addr);
                if (!ok) break;
                m.is_write = scan::is(kind, "store");
                r.add_mem(m);
                kind = token();
                if (!kind.empty() && !scan::is(kind, "load") && !scan::is(kind, "store")) kind = token();  // the device
            }
            if (!ok) {
                bad_line(src_->path(), no, "expected ', load|store, 0x<address>[, <device>]' after the disassembly");
                continue;
            }
            return true;
        }
        return false;
    }

private:
    std::unique_ptr<ByteSource> src_;
    LineReader lines_;
    bool thumb_ = false, interworking_ = false;
};

}  // namespace

std::unique_ptr<TraceReader> make_qemu_execlog_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<QemuExeclogReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
