// The classes of retired instruction that architectural events count, common to every instruction set.
// Decoders map encodings to these; platforms map them to their event numbers.
#pragma once
#include <cstdint>

namespace pmusim::isa {

enum class InsnClass : uint8_t {
    alu, load, store, branch, jump, mul, div, barrier,
    sysreg,                               // ARM MRS/MSR, MRC/MCR
    csr_read, csr_read_write, csr_write,  // RISC-V CSR instructions (VeeR EL2 events 16, 17, 18)
    ecall, ebreak, mret, fence, fence_i,
};

struct RetiredInsn {
    InsnClass cls = InsnClass::alu;
    bool compressed = false;  // 16-bit encoding (T16, RVC)
};

}  // namespace pmusim::isa
