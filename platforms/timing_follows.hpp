// Registers outside the PMU whose writes a core's timing follows: VeeR EL2's mrac (fetch cacheability) and mstatus
// (MIE, event 49), ARM11's SCTLR.Z (branch prediction). Platform behaviour, by PMU family: the replay hands each
// such write here and the family's hook tells the timing model (trace -> replay -> hook -> timing model, one way).
#pragma once
#include <cstdint>

#include "model/core/register.hpp"
#include "model/timing/timing_model.hpp"
#include "platforms/platform.hpp"

namespace pmusim {

// A write of the traced program to a register, as the instruction makes it: a RISC-V CSR instruction writes,
// sets or clears the bits of its operand (RISC-V privileged spec, Zicsr: csrrw, csrrs, csrrc); an ARM MSR or MCR
// writes its operand.
struct RegisterWrite {
    EncodingSpace space = EncodingSpace::csr;
    uint32_t key = 0;  // the CSR number; an A64 or CP15 register's key (isa/a64_sysreg.hpp, isa/a32_coproc.hpp)
    enum class Op : uint8_t { write, set, clear } op = Op::write;
    uint64_t operand = 0;
    // The register's value after the write, from its value before.
    uint64_t apply(uint64_t prev) const { return op == Op::write ? operand : op == Op::set ? (prev | operand) : (prev & ~operand); }
};

class TimingFollows {
public:
    virtual ~TimingFollows() = default;
    // Whether the timing follows writes to register `key` of `space`: an access to it is stepped alone (never
    // inside a replayed block).
    virtual bool follows(EncodingSpace space, uint32_t key) const = 0;
    // A write to such a register, its value known (the trace carries register values); others are ignored.
    virtual void write(const RegisterWrite& w, timing::TimingModel& tm) const = 0;
    // A trace from reset (trace::TraceReader::starts_at_reset): the registers' reset values.
    virtual void reset(timing::TimingModel&) const {}
    // The core enters the halt the program requested (PMU state fw_halt), by a write of `value`.
    virtual void halt(uint64_t /*value*/, timing::TimingModel&) const {}
};

// The hook of platform p's family (one that follows no register: a hook that does nothing).
const TimingFollows& timing_follows(const Platform& p);

}  // namespace pmusim
