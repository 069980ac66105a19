// The record stepper: one record at a time, the definition every faster path is tested against
// (tests/unit/test_replay_engines.cpp). step() retires a record with its successor at hand (whether a branch was
// taken shows in the successor's PC); the block engine falls back to it for any record it does not take.
#pragma once
#include <cstdint>

#include "replay/core.hpp"
#include "replay/registers.hpp"
#include "replay/session.hpp"

namespace pmusim::replay {

class RecordStepper {
public:
    RecordStepper(Session& s, Core& c, RegisterAccess& regs) : s_(s), c_(c), regs_(regs) {}

    // The reference engine: every record of `reader` through step(). One record is held back: whether a branch was
    // taken shows in the next record's PC.
    void run(trace::TraceReader& reader);
    // One record, `next` its successor (nullptr at the end of the trace).
    void step(const TraceRecord& rec, const TraceRecord* next);

    // The timing model's cycles for one instruction (which also adds its events to the batch); `csr`: the CSR it
    // accesses (0: none).
    uint64_t model_cycles(const isa::RetiredInsn& insn, const TraceRecord& rec, const TraceRecord* next, uint16_t csr = 0) {
        timing::StepInputs in;
        in.csr = csr;  // its pre- and post-sync
        if (insn.cls == isa::InsnClass::div && c_.tm->params().divider_from_operands) div_operands(rec, in);
        timing::MemRef mem[trace::TraceRecord::max_mem];
        for (unsigned i = 0; i < rec.n_mem; ++i) mem[i] = timing::MemRef{rec.mem[i].addr, rec.mem[i].is_write, rec.mem[i].size};
        c_.mem_seen |= rec.n_mem != 0;
        in.interrupted = next && next->interrupt;
        if (in.interrupted)  // where the program resumes: the entry's write of mepc (0x341), where the trace shows it
            for (unsigned i = 0; i < next->n_regs; ++i)
                if (next->regs[i].kind == trace::RegKind::csr && next->regs[i].index == 0x341) in.resume = next->regs[i].value;
        return step_raw(insn, rec.pc, rec.size, next ? next->pc : rec.pc + rec.size, mem, rec.n_mem, in);
    }
    // The timing model's step of one instruction (which also adds its events to the batch).
    uint64_t step_raw(const isa::RetiredInsn& insn, uint64_t pc, uint8_t size, uint64_t next_pc, const timing::MemRef* mem,
                      unsigned n_mem, const timing::StepInputs& in = timing::StepInputs{}) {
        return c_.tm->step(insn, pc, size, next_pc, mem, n_mem, s_.batch, in);
    }

private:
    // A RISC-V division's operands for the timing model (into `in`), from the register file with the late
    // writebacks that land before it.
    void div_operands(const TraceRecord& rec, timing::StepInputs& in) const;

    Session& s_;
    Core& c_;
    RegisterAccess& regs_;
};

}  // namespace pmusim::replay
