// The interfaces through which a SystemC virtual platform drives a pmusim PMU module.
#pragma once
#include <cstdint>

#include <systemc>

#include "model/core/pmu.hpp"

namespace pmusim::sc {

// A system-register or CSR access from an instruction-set simulator: MRS/MSR (EncodingSpace::a64_sysreg, key
// a64_key(op0, op1, CRn, CRm, op2)), MRC/MCR (cp15, cp15_key(opc1, CRn, CRm, opc2)) or a RISC-V CSR instruction
// (csr, the CSR number). `ctx` carries the privilege (ARM EL 0-3, RISC-V M = 3 / U = 0) and security state.
struct SysRegRequest {
    EncodingSpace space = EncodingSpace::a64_sysreg;
    uint32_t key = 0;
    bool is_write = false;
    uint64_t value = 0;
    AccessContext ctx;
};

// The call an ISS makes for each system-register instruction. The returned record says whether the access
// traps (UNDEFINED / illegal instruction: the ISS takes the exception; nothing changed) and what it read.
// `local_offset` is the ISS's time ahead of sc_time_stamp() under temporal decoupling: interrupt edges the
// access causes are placed at sc_time_stamp() + local_offset.
class SysRegIf : public virtual sc_core::sc_interface {
public:
    virtual AccessRecord sysreg_access(const SysRegRequest& req, const sc_core::sc_time& local_offset) = 0;
};

// How a core model reports what it did: `batch.cycles` cycles starting at sc_time_stamp() + local_offset, and
// the events of that span, at the privilege and security state last set.
class PmuEventIf : public virtual sc_core::sc_interface {
public:
    virtual void report(const EventBatch& batch, const sc_core::sc_time& local_offset) = 0;
    virtual void set_exec_context(const ExecContext& ctx) = 0;
};

}  // namespace pmusim::sc
