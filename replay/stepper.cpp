#include "replay/stepper.hpp"

namespace pmusim::replay {

void RecordStepper::run(trace::TraceReader& reader) {
    const Options& o = c_.o;
    Result& r = s_.r;
    TraceRecord recs[2];
    unsigned cur = 0;
    bool held = false;
    while (reader.next(recs[cur])) {
        const TraceRecord& rec = recs[cur];
        ++r.records;
        c_.check_isa(rec);
        if (held) step(recs[cur ^ 1], &rec);
        held = true;
        cur ^= 1;
        if (o.on_progress && (r.records & 0x3FFFF) == 0) o.on_progress(Progress{r.records, reader.bytes_read(), false});
        if (o.stop && *o.stop) break;  // Ctrl-C: the records read so far are counted
    }
    // Ctrl-C during the last read (a pipe that stalls): the counts are the records read before it.
    if (o.stop && *o.stop) r.interrupted = true;
    if (held) step(recs[cur ^ 1], nullptr);
}

void RecordStepper::step(const TraceRecord& rec, const TraceRecord* next) {
    const bool rv = is_rv(rec.isa);
    // Late writebacks (VeeR EL2 nbL/nbD) land before the instruction reads its sources.
    for (unsigned i = 0; i < rec.n_regs; ++i)
        if (rec.regs[i].before) c_.set_gpr(rec.regs[i], rv);
    if (rec.interrupt) regs_.interrupt(rec);
    if (rec.privilege != c_.priv) {
        s_.flush();
        c_.priv = rec.privilege;
        s_.pmu->set_exec_context(ExecContext{c_.priv, false});
    }
    const isa::Decoded& d = decode_record(c_.decode, rec);
    if (s_.roi.active() && d.retires && !rec.trapped) {
        if (s_.roi.step(rec.pc)) {  // a region boundary ends the batch
            s_.flush();
            s_.roi.commit();
        }
        s_.roi.retired();
    }
    if (d.retires && !rec.trapped) ++s_.r.instructions;
    const isa::RetiredInsn insn = complete(d.insn, rec, next);
    // Cycles: the timing model's (which also adds its microarchitectural events), or the trace's timestamps.
    uint64_t cycles = 1;
    if (c_.tm) cycles = model_cycles(insn, rec, next, d.is_csr ? static_cast<uint16_t>(d.csr.csr) : 0);
    if (c_.o.timing == Timing::trace) cycles = c_.trace_cycles(rec);
    if (c_.o.timing == Timing::cpi1) cycles = 1;
    c_.prev_time = rec.time;
    if (d.is_csr) {
        regs_.csr(rec, d, insn, cycles);
    } else if (rec.trapped) {
        s_.batch.cycles += cycles;  // an instruction that trapped: its cycles pass, it does not retire
    } else if (d.is_sysreg && !rec.cond_failed) {
        regs_.sysreg(rec, d, insn, cycles);
    } else {
        s_.batch.cycles += cycles;
        s_.hist.add(insn, kind_of(d.kind, insn));
        if (++s_.pending >= 4096 || s_.total_cycles + s_.batch.cycles >= s_.next_sample) s_.flush();
    }
    for (unsigned i = 0; i < rec.n_regs; ++i)
        if (!rec.regs[i].before) c_.set_gpr(rec.regs[i], rv);
    if (d.retires && s_.interval_due()) s_.interval_point();
}

void RecordStepper::div_operands(const TraceRecord& rec, timing::StepInputs& in) const {
    uint64_t v[2];
    for (unsigned k = 0; k < 2; ++k) {
        const unsigned r = div_source(rec.encoding, k);
        v[k] = c_.gpr[r];
        for (unsigned i = 0; i < rec.n_regs; ++i)
            if (rec.regs[i].before && rec.regs[i].kind == trace::RegKind::gpr && rec.regs[i].index == r && r) v[k] = rec.regs[i].value;
    }
    in.div_a = static_cast<uint32_t>(v[0]);
    in.div_b = static_cast<uint32_t>(v[1]);
    in.div_rem = div_is_rem(rec.encoding);
    in.div_known = c_.reader->has_register_values();
}

}  // namespace pmusim::replay
