// The classes of retired instruction that architectural events count, common to every instruction set.
// Decoders map encodings to these; platforms map them to their event numbers.
#pragma once
#include <cstdint>

namespace pmusim::isa {

enum class InsnClass : uint8_t {
    alu, load, store, branch, jump, mul, div, barrier,
    bitmanip,                             // RISC-V Zba, Zbb, Zbc, Zbs (VeeR EL2 event 54)
    sysreg,                               // ARM MRS/MSR, MRC/MCR
    csr_read, csr_read_write, csr_write,  // RISC-V CSR instructions (VeeR EL2 events 16, 17, 18)
    ecall, ebreak, mret, fence, fence_i,
};

// A trap or the return from one (RISC-V ECALL, EBREAK, MRET): the pipeline is redirected after it.
constexpr bool is_trap(InsnClass c) { return c == InsnClass::ecall || c == InsnClass::ebreak || c == InsnClass::mret; }

// Branch detail (ARM events BR_IMMED_RETIRED, BR_RETURN_RETIRED, PC_WRITE_RETIRED, EXC_RETURN).
enum BranchFlags : uint8_t {
    br_immediate = 1,    // target in the encoding
    br_register = 2,     // target from a register
    br_return = 4,       // procedure return (RET, BX lr, POP {pc}, LDM with pc)
    br_call = 8,         // BL, BLR, JAL with a link register
    br_conditional = 16,
    br_exc_return = 32,  // ERET, MRET, SUBS pc, lr / LDM ^ ...
    br_taken = 64,       // set by the replay from the next PC
    br_far = 128,        // target in the encoding beyond a conditional branch's reach (RISC-V JAL: outside -4096..4094)
};

// The general-purpose registers an instruction reads and writes, as bit masks (bit n: register n), for the
// timing model's result-use stalls. `addr` is the subset of `src` that forms a memory address (ARM11 needs these
// a cycle early). Registers that are never a dependency (A64 SP/ZR, RISC-V x0, the ARM PC) are left out.
constexpr uint8_t no_reg = 0xFF;
// The operand shapes some pipelines time apart (RegUse::shape).
enum OperandShape : uint8_t {
    shape_shift_register = 1,  // a shift by a register amount (A64 LSLV/LSRV/ASRV/RORV; A32 register-shifted
                               // register operands; T32 LSL/LSR/ASR/ROR (register))
    shape_extract = 2,         // A64 EXTR (and its alias ROR (immediate))
};
// `shifted` is the subset of `src` that is a data-processing instruction's shifted or extended register operand
// (a shift amount of 0 and an extension that changes nothing are no shift), with an A32 shift's amount register, and
// an A64 load's or store's register offset scaled by its access size (LSL #1 to #3).
// `amount` is, in a shift by a register (shape_shift_register), the register that holds the shift amount.
// `mul_ops` is the subset of `src` that a multiply multiplies (A32 Rm and Rs, T32 Rn and Rm; not an accumulator),
// marked on the multiplies of class `mul` and on the halfword and dual multiplies (SMULxy, SMLAxy, SMULWy, SMLAWy,
// SMUAD, SMUSD, SMLAD, SMLSD: class `alu` in A32, `mul` in T32); A64 does not mark it, nor SMMUL and kin.
// `mul_hi` is the subset of `dst` that holds the high half of a multiply's 64-bit result (RdHi of UMULL, SMULL,
// UMLAL, SMLAL, UMAAL, and of SMLALxy, SMLALD, SMLSLD, A32 and T32, their multiplicands in mul_ops); 0 otherwise.
// `rotated` is, in an A32/T32 extend (SXTB, SXTH, UXTB, UXTH, SXTB16, UXTB16 and their accumulating forms SXTAB,
// ..., UXTAH), the register it rotates and extends (Rm; not the accumulating Rn); 0 otherwise.
struct RegUse {
    uint32_t dst = 0, src = 0, addr = 0, shifted = 0, amount = 0, mul_ops = 0, mul_hi = 0, rotated = 0;
    uint8_t shape = 0;  // OperandShape bits
};
constexpr uint32_t reg_bit(uint8_t r) { return r < 32 ? uint32_t{1} << r : 0u; }
// ARM (A32 and A64): the condition flags, as the register of bit 31, which neither set uses (A32 has r0-r15, and A64
// leaves out register 31, SP or ZR); T32 does not track them.
constexpr uint32_t flags_bit = uint32_t{1} << 31;

struct RetiredInsn {
    InsnClass cls = InsnClass::alu;
    bool compressed = false;  // 16-bit encoding (T16, RVC)
    uint8_t branch = 0;       // BranchFlags, for branch/jump classes (and loads that write the PC)
    bool cond_failed = false; // A32/T32 condition check failed: executed but without effect
    bool multiple = false;    // load/store multiple or pair
    uint8_t bytes = 0;        // the bytes an A64 load or store moves, from its encoding (arm::a64_access_bytes; 0:
                              // not decoded, A32/T32 and RISC-V, where a trace's access sizes stand)
    bool unaligned = false;   // a memory access not aligned to its size (known from a trace's addresses)
    bool subword = false;     // a single load or store of a byte or a halfword (LDRB, STRH, LDRSB, ...)
    bool sign_extend = false; // a load that sign-extends what it reads (A32/T32 LDRSB, LDRSH; A64 LDRSB, LDRSH,
                              // LDRSW): the Cortex-A9 forwards its result no sooner (its TRM, B.3)
    bool offset_shift = false;  // A32/T32: a single load or store whose register offset is shifted by anything but
                                // LSL #2 (the Cortex-A9 gives its result a cycle later: its TRM, Table B-2)
    bool writeback = false;     // A32/T32: a load or store that writes its base register back (pre- or post-indexed,
                                // LDM/STM with !, PUSH, POP): the Cortex-A9 writes it through an ALU pipeline's E2
                                // (GCC's cortex-a9.md)
    bool shifter = false;       // A32/T32: a data-processing instruction other than MOV/MVN whose register operand
                                // is shifted (by an immediate or a register), or an extend (SXTB, UXTAH, ...): the
                                // Cortex-A9 runs it through its shift stage, E1 (GCC's cortex-a9.md, Arm's integer
                                // pipeline: cortex_a9_dp_shift, types arlo_shift, arlo_shift_reg and extend)
    RegUse regs;              // registers read and written (isa/reg_use.hpp), where decoded
};

}  // namespace pmusim::isa
