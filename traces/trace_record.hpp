// One retired (or condition-failed) instruction, as every trace reader produces it: a plain struct, no heap.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace pmusim::trace {

enum class IsaState : uint8_t { unknown, a64, a32, t32, rv32, rv64 };
std::string_view to_string(IsaState s);

enum class RegKind : uint8_t {
    gpr,     // x0-x31 / r0-r15 / X0-X30 by number
    csr,     // RISC-V CSR by number
    sysreg,  // ARM system register by encoding key (model/core/register.hpp a64_key / cp15_key)
};

struct RegWrite {
    RegKind kind = RegKind::gpr;
    uint16_t index = 0;
    uint64_t value = 0;
    // A late writeback that landed before this instruction executed (VeeR EL2's nbL/nbD lines: a non-blocking
    // load's or a divide's result), not a result of this instruction. The register file takes it first.
    bool before = false;
};

struct MemAccess {
    uint64_t addr = 0;
    uint64_t data = 0;
    uint8_t size = 0;  // bytes; 0 when the trace does not say
    bool is_write = false;
    bool data_known = false;
};

// CSR mepc (RISC-V privileged spec, chapter 2, the machine-level CSR addresses): an interrupt entry's write of it, where the program resumes, is on
// the entry's record where the reader knows it (a VeeR EL2 exec.log, which shows the handler's mret).
constexpr uint16_t mepc_csr = 0x341;

// Not CSRs (a RISC-V CSR number has 12 bits): written on an interrupt entry, where the reader knows them (a VeeR EL2
// exec.log), as writes of these two numbers, which the native formats carry as they carry any CSR write. The
// instruction at mepc, which the trace port showed before the entry and the reader drops, went through execute before
// the entry's flush killed it (tests/veer-rtl/irq): its encoding, and where it went when it ran again after the
// handler's mret (its successor then), which is where it went in execute the first time (TimingModel::predict_other).
constexpr uint16_t flushed_encoding_csr = 0x1000;
constexpr uint16_t flushed_next_csr = 0x1001;

struct TraceRecord {
    static constexpr unsigned max_mem = 4;
    static constexpr unsigned max_regs = 8;

    uint64_t pc = 0;
    uint32_t encoding = 0;
    uint8_t size = 4;  // bytes: 2 for T16 and RVC
    IsaState isa = IsaState::unknown;
    uint8_t privilege = 0;  // ARM EL, RISC-V M = 3 / S = 1 / U = 0
    bool cond_failed = false;
    // The instruction raised an exception (the trace shows it writing nothing, and the next instruction is the trap
    // vector): it did not retire (RISC-V privileged spec 3.3.1; minstret counts retired instructions only).
    bool trapped = false;
    // An interrupt was taken just before this instruction: the trace shows the core entering a handler that no
    // instruction went to (RISC-V privileged spec 3.1.9; VeeR EL2 PRM ch. 6, fast interrupt redirect). `cause` is
    // its exception code (mcause without the interrupt bit), or unknown_cause where the trace does not tell.
    static constexpr uint16_t unknown_cause = 0xFFFF;
    bool interrupt = false;
    uint16_t cause = unknown_cause;
    bool has_time = false;
    uint64_t time = 0;     // the trace's timestamp (VeeR: cycle; Tarmac: its unit)
    uint64_t line = 0;     // source line, for messages
    uint8_t n_mem = 0;
    uint8_t n_regs = 0;
    std::array<MemAccess, max_mem> mem{};
    std::array<RegWrite, max_regs> regs{};

    void clear() { *this = TraceRecord{}; }
    bool add_reg(RegKind k, uint16_t index, uint64_t value, bool before = false) {
        if (n_regs == max_regs) return false;
        regs[n_regs++] = RegWrite{k, index, value, before};
        return true;
    }
    bool add_mem(const MemAccess& m) {
        if (n_mem == max_mem) return false;
        mem[n_mem++] = m;
        return true;
    }
};

}  // namespace pmusim::trace
