#include "replay/registers.hpp"

#include <algorithm>

#include <fmt/format.h>


namespace pmusim::replay {

using trace::RegKind;

RegisterAccess::RegisterAccess(Session& s, Core& c) : s_(s), c_(c), follows_(timing_follows(c.p)) {}

// After a pmu/fw-halt (an mpmc write) the core slept until this interrupt woke it (veer-el2-mhpm.md §5): the trace's
// gap before `rec`, less the cycles of waking and entering (fw_halt_wake), passes in pmu/fw-halt, where mcycle and
// events 1-56 stop and events 512-516 count. Without timestamps the sleep is not known and none passes.
void RegisterAccess::interrupt(const TraceRecord& rec) {
    irq_seen_ = true;
    s_.flush();
    const bool woke = halt_pending_;
    if (halt_pending_) {
        halt_pending_ = false;
        const unsigned wake = c_.p.timing ? c_.p.timing->fw_halt_wake : 0;
        const uint64_t gap = rec.has_time ? rec.time - std::min(rec.time, c_.prev_time) : 0;
        if (gap > wake) {
            EventBatch sleep;
            sleep.cycles = gap - wake;
            s_.pmu->set_state(CoreState::fw_halt);
            s_.advance(sleep);
            s_.pmu->set_state(CoreState::run);
            if (c_.o.timing == Timing::trace) c_.prev_time += gap - wake;  // the rest of the gap is the entry's
            slept_ += gap - wake;
        }
    }
    if (c_.p.interrupt) c_.p.interrupt(rec.cause, s_.batch);
    if (c_.tm) c_.tm->take_interrupt(rec.cause, woke);
}

// The value written comes from the register file when the trace has register values.
void RegisterAccess::sysreg(const TraceRecord& rec, const isa::Decoded& d, const isa::RetiredInsn& insn, uint64_t cycles) {
    // A register the timing follows (ARM11: SCTLR.Z): the platform's hook tells the timing model.
    if (c_.tm && !d.sys_read && follows_.follows(space(d), d.key) && c_.reader->has_register_values())
        follows_.write(RegisterWrite{space(d), d.key, RegisterWrite::Op::write, c_.gpr[d.rt]}, *c_.tm);
    Register* reg = s_.pmu->bank().find(space(d), d.key);
    if (reg) {
        s_.flush();
        AccessContext ctx;
        ctx.privilege = c_.priv;
        if (d.sys_read) {
            const AccessRecord a = s_.pmu->read(*reg, ctx);
            for (unsigned i = 0; i < rec.n_regs && !a.trapped(); ++i) {
                if (rec.regs[i].kind != RegKind::gpr || rec.regs[i].before || rec.regs[i].index != d.rt) continue;
                const uint64_t mask = reg->width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << reg->width) - 1);
                s_.readback(rec, rec.regs[i].value, a.value_read & mask, reg->name);
            }
        } else if (c_.reader->has_register_values()) {  // asked each time: some formats show it as they go
            const uint64_t v = (rec.isa == IsaState::a64 && d.rt == 31) ? 0 : c_.gpr[d.rt];
            s_.pmu->write(*reg, v, ctx);
        } else if (!noted_values_) {
            noted_values_ = true;
            s_.r.notes.push_back(fmt::format("the trace carries no register values: writes to PMU registers (the first: "
                                             "{} on line {}) are not applied; events are counted only",
                                             reg->name, rec.line));
        }
    }
    s_.batch.cycles += cycles;
    c_.p.retire(insn, 1, s_.batch);
    if (reg) s_.flush();
}

void RegisterAccess::csr(const TraceRecord& rec, const isa::Decoded& d, const isa::RetiredInsn& insn, uint64_t cycles) {
    auto& tm = c_.tm;
    auto& r = s_.r;
    s_.flush();
    Register* reg = s_.pmu->bank().find(EncodingSpace::csr, d.csr.csr);
    AccessContext ctx;
    ctx.privilege = c_.priv;
    const bool reads = isa::rv32::csr_reads(d.csr), writes = isa::rv32::csr_writes(d.csr);
    if (rec.trapped) {
        // The access trapped in the trace: it wrote nothing and did not retire. The check is that the model
        // refuses it too (a read-back of a trap).
        if (reg) {
            const AccessRecord a = reads ? s_.pmu->read(*reg, ctx) : AccessRecord{};
            if (reads) {
                ++r.readbacks_checked;
                if (a.trapped()) ++r.readbacks_matched;
                else r.mismatches.push_back({rec.line, reg->name, 0, a.value_read, Readback::Trap::traced});
            }
        }
        s_.batch.cycles += cycles;
        s_.flush();
        return;
    }
    uint64_t old = 0;
    if (reg && reads) {
        AccessRecord a = s_.pmu->read(*reg, ctx);
        old = a.value_read;
        // Under --timing trace a running counter is read csr_read_lead cycles before the instruction commits
        // (TimingParams::csr_read_lead): one of its cycles passes first, which shows how fast the register
        // counts cycles (0 when inhibited or counting something else), and the value read is moved by as many
        // cycles as the sample point lies from there (earlier or later).
        const unsigned lead = c_.p.timing ? c_.p.timing->csr_read_lead : 0;
        if (c_.o.timing == Timing::trace && lead && cycles >= 1 && !a.trapped()) {
            s_.batch.cycles = 1;
            s_.flush();
            --cycles;
            a = s_.pmu->read(*reg, ctx);
            const uint64_t rate = a.value_read - old;
            const int64_t shift = static_cast<int64_t>(cycles) - static_cast<int64_t>(lead);  // from prev + 1
            old = a.value_read + static_cast<uint64_t>(shift * static_cast<int64_t>(rate));
            a.value_read = old;
        }
        // Read-back: the traced value the instruction returned, against the prediction.
        for (unsigned i = 0; i < rec.n_regs && d.csr.rd; ++i) {
            if (rec.regs[i].kind != RegKind::gpr || rec.regs[i].before || rec.regs[i].index != d.csr.rd) continue;
            if (a.trapped()) {  // the trace shows a value where the model refuses the access
                ++r.readbacks_checked;
                r.mismatches.push_back({rec.line, reg->name, rec.regs[i].value, 0, Readback::Trap::predicted});
                continue;
            }
            s_.readback(rec, rec.regs[i].value, old, reg->name);
        }
    }
    using Op = RegisterWrite::Op;
    const RegisterWrite w{EncodingSpace::csr, d.csr.csr,
                          d.csr.op == isa::rv32::CsrOp::rw ? Op::write : d.csr.op == isa::rv32::CsrOp::rs ? Op::set : Op::clear,
                          d.csr.immediate ? d.csr.src : c_.gpr[d.csr.src]};
    const uint64_t value = w.apply(old);
    // A register outside the PMU the timing follows (VeeR EL2: mrac, mstatus): the platform's hook tells the model.
    if (tm && writes && follows_.follows(w.space, w.key) && c_.reader->has_register_values()) follows_.write(w, *tm);
    s_.batch.cycles += cycles;
    c_.p.retire(insn, 1, s_.batch);
    // VeeR EL2 (veer-el2-mhpm.md §4.1): the instruction's own events count before its write lands.
    if (c_.p.events_before_write) s_.flush();
    if (reg && writes) s_.pmu->write(*reg, value & 0xFFFFFFFFu, ctx);
    // pmu/fw-halt (VeeR EL2 mpmc): the core drains the instructions already in its pipeline, which the trace
    // shows retiring, then sleeps until an interrupt (interrupt() above), so the PMU goes on counting here.
    if (s_.pmu->state() == CoreState::fw_halt) {
        s_.pmu->set_state(CoreState::run);
        halt_pending_ = true;
        if (c_.p.fw_halt) c_.p.fw_halt(s_.batch);
        if (tm) follows_.halt(value, *tm);  // VeeR EL2 haltie: MIE set on the way into fw-halt
    }
    s_.flush();
}

}  // namespace pmusim::replay
