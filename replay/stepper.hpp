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
        if (in.interrupted) entry_inputs(*next, in);
        return step_raw(insn, rec.pc, rec.size, next ? next->pc : rec.pc + rec.size, mem, rec.n_mem, in);
    }
    // The timing model's step of one instruction (which also adds its events to the batch).
    uint64_t step_raw(const isa::RetiredInsn& insn, uint64_t pc, uint8_t size, uint64_t next_pc, const timing::MemRef* mem,
                      unsigned n_mem, const timing::StepInputs& in = timing::StepInputs{}) {
        return c_.tm->step(insn, pc, size, next_pc, mem, n_mem, s_.batch, in);
    }

private:
    // At an interrupt entry `e`: where the program resumes, the entry's write of mepc (0x341), and the control
    // transfer there the entry killed (trace::flushed_encoding_csr, flushed_next_csr), where the trace shows them.
    void entry_inputs(const TraceRecord& e, timing::StepInputs& in) {
        uint64_t enc = 0, next = 0;
        bool has_enc = false;
        for (unsigned i = 0; i < e.n_regs; ++i) {
            if (e.regs[i].kind != trace::RegKind::csr) continue;
            if (e.regs[i].index == trace::mepc_csr) in.resume = e.regs[i].value;
            if (e.regs[i].index == trace::flushed_encoding_csr) enc = e.regs[i].value, has_enc = true;
            if (e.regs[i].index == trace::flushed_next_csr) next = e.regs[i].value;
        }
        if (!has_enc || !next || !is_rv(e.isa)) return;
        const uint8_t size = (enc & 3u) == 3u ? 4 : 2;  // RISC-V unprivileged spec 1.5: a 32-bit one ends in 0b11
        const isa::Decoded& d = c_.decode.get(static_cast<uint32_t>(enc), static_cast<isa::DecodeMode>(e.isa), size);
        if (!d.insn.branch) return;
        in.killed_kind = static_cast<uint8_t>(1 + static_cast<unsigned>(timing::veer_kind(d.insn)));
        in.killed_size = size;
        in.killed_next = next;
    }

    // A RISC-V division's operands for the timing model (into `in`), from the register file with the late
    // writebacks that land before it.
    void div_operands(const TraceRecord& rec, timing::StepInputs& in) const;

    Session& s_;
    Core& c_;
    RegisterAccess& regs_;
};

}  // namespace pmusim::replay
