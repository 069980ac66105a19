// An instruction as the replay needs it, decoded once per distinct encoding: its retired class and branch detail,
// its registers, and the register access it makes (a RISC-V CSR instruction; an ARM MRS/MSR, MRC/MCR), with a
// direct-mapped cache of decoded encodings (traces repeat a small set of static instructions).
#pragma once
#include <array>
#include <cstdint>

#include "isa/insn_class.hpp"
#include "isa/rv32.hpp"

namespace pmusim::isa {

// The instruction set an encoding is decoded in, numbered as trace::IsaState (replay/records.hpp checks it).
enum class DecodeMode : uint8_t { a64 = 1, a32 = 2, t32 = 3, rv32 = 4, rv64 = 5 };

struct Decoded {
    RetiredInsn insn;
    uint32_t kind = 0;    // retire_kind(insn) of the encoding alone
    bool retires = true;  // RISC-V ecall/ebreak trap instead of retiring
    bool is_csr = false;
    rv32::CsrInsn csr;
    bool is_sysreg = false;  // ARM MRS/MSR, MRC/MCR
    bool cp15 = false;       // an MRC/MCR of CP15 (else an A64 MRS/MSR)
    uint32_t key = 0;        // a64::key() or a32::cp15_key()
    bool sys_read = false;
    unsigned rt = 0;
};

Decoded decode_rv(uint32_t enc, bool rv64);
Decoded decode_arm(uint32_t enc, DecodeMode mode, uint8_t size);

// Everything a platform's retire() reads of an instruction, as one number (retired instructions are counted by
// kind between two flushes: replay/retire_histogram.hpp).
inline uint32_t retire_kind(const RetiredInsn& i) {
    return static_cast<uint32_t>(i.cls) | (i.compressed ? 1u << 5 : 0u) | (i.cond_failed ? 1u << 6 : 0u) |
           (i.multiple ? 1u << 7 : 0u) | (i.unaligned ? 1u << 8 : 0u) | (static_cast<uint32_t>(i.branch) << 9);
}

// A direct-mapped cache of decoded encodings.
class DecodeCache {
public:
    const Decoded& get(uint32_t enc, DecodeMode mode, uint8_t size) {
        // One key for encoding, mode and size; bit 48 marks a filled slot.
        const uint64_t key = enc | uint64_t{static_cast<uint8_t>(mode)} << 32 | uint64_t{size} << 40 | uint64_t{1} << 48;
        Slot& s = slots_[(enc ^ (enc >> 12) ^ static_cast<uint32_t>(mode)) & (slots_.size() - 1)];
        if (s.key != key) {
            s.key = key;
            s.d = mode == DecodeMode::rv32 || mode == DecodeMode::rv64 ? decode_rv(enc, mode == DecodeMode::rv64)
                                                                        : decode_arm(enc, mode, size);
            s.d.kind = retire_kind(s.d.insn);
        }
        return s.d;
    }

private:
    struct Slot {
        uint64_t key = 0;  // 0: empty
        Decoded d;
    };
    std::array<Slot, 4096> slots_{};
};

}  // namespace pmusim::isa
