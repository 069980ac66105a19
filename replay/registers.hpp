// The traced program's register accesses at their points in the trace: RISC-V CSR instructions, ARM system
// registers (MRS/MSR, MRC/MCR), and the interrupts the trace shows taken (VeeR EL2's fw-halt among them). Each
// flushes the batch so the PMU's state is exact there; reads are checked against the trace (read-backs).
#pragma once
#include <cstdint>

#include "platforms/timing_follows.hpp"
#include "replay/core.hpp"
#include "replay/session.hpp"

namespace pmusim::replay {

class RegisterAccess {
public:
    RegisterAccess(Session& s, Core& c);
    // A CSR instruction (the traced program programs its own PMU), `cycles` its timing.
    void csr(const TraceRecord& rec, const isa::Decoded& d, const isa::RetiredInsn& insn, uint64_t cycles);
    // An ARM system-register instruction: the access first, then its events (docs/script.md).
    void sysreg(const TraceRecord& rec, const isa::Decoded& d, const isa::RetiredInsn& insn, uint64_t cycles);
    // An interrupt taken before `rec` (TraceRecord::interrupt).
    void interrupt(const TraceRecord& rec);
    // A system-register access that sysreg() retires as any other instruction: none of the PMU's registers (say
    // TPIDR_EL0, DCZID_EL0), and none whose writes the timing follows (SCTLR on ARM). A block may go on through it.
    bool plain_sysreg(const isa::Decoded& d) const {
        return !follows_.follows(space(d), d.key) && s_.pmu->bank().find(space(d), d.key) == nullptr;
    }
    bool irq_seen() const { return irq_seen_; }
    uint64_t slept() const { return slept_; }

private:
    static EncodingSpace space(const isa::Decoded& d) { return d.cp15 ? EncodingSpace::cp15 : EncodingSpace::a64_sysreg; }

    Session& s_;
    Core& c_;
    const TimingFollows& follows_;  // the platform's registers outside the PMU that the timing follows
    bool noted_values_ = false;
    bool irq_seen_ = false, halt_pending_ = false;  // an interrupt in the trace; an mpmc fw-halt not yet woken
    uint64_t slept_ = 0;                             // cycles in pmu/fw-halt
};

}  // namespace pmusim::replay
