#include "model/timing/timing_model.hpp"

namespace pmusim::timing {

TimingModel::TimingModel(const TimingParams& p) : p_(p), bp_(p.predictor), seen_target_(1024, 0) {
    if (p.l1d) l1d_.emplace(*p.l1d);
    if (p.l1i) l1i_.emplace(*p.l1i);
}

uint64_t TimingModel::step(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, uint64_t next_pc,
                           const MemRef* mem, unsigned n_mem, EventBatch& b) {
    using C = isa::InsnClass;
    uint64_t cycles = 1 + p_.class_extra[static_cast<size_t>(insn.cls)];
    // Branches: direction for conditional ones, target for indirect ones; a miss costs the penalty.
    if (insn.branch && !insn.cond_failed) {
        const bool taken = insn.branch & isa::br_taken;
        bool mispredicted = false;
        if (insn.branch & isa::br_conditional) {
            // A trace shows a branch's target only when taken: an untaken one uses the target it last went to
            // (unknown: taken as forward, the usual layout of an if).
            uint64_t& seen = seen_target_[(pc >> 1) & (seen_target_.size() - 1)];
            if (taken) seen = next_pc;
            const uint64_t target = taken ? next_pc : (seen ? seen : pc + size);
            mispredicted = bp_.conditional(pc, target, taken);
            if (p_.ev_predictable) b.add(p_.ev_predictable);
        } else if (insn.branch & isa::br_register) {
            mispredicted = bp_.indirect(pc, next_pc, insn.branch & isa::br_return);
            if (p_.ev_predictable) b.add(p_.ev_predictable);
        } else if (!p_.predictor.enabled && taken) {
            mispredicted = true;  // prediction off: even unconditional branches are assumed not taken
        }
        if (insn.branch & isa::br_call) bp_.call(pc + size);
        if (mispredicted) {
            cycles += p_.mispredict_penalty;
            if (p_.ev_mispredict) b.add(p_.ev_mispredict);
        }
    }
    // Instruction fetch: one access per line entered.
    if (l1i_) {
        const uint64_t line = pc / p_.l1i->line;
        if (line != last_ifetch_line_) {
            last_ifetch_line_ = line;
            const auto r = l1i_->access(pc, false);
            if (p_.ev_l1i_access) b.add(p_.ev_l1i_access);
            if (r.refill) {
                cycles += p_.l1i_refill_penalty;
                if (p_.ev_l1i_refill) b.add(p_.ev_l1i_refill);
            }
        }
    }
    if (l1d_ && (insn.cls == C::load || insn.cls == C::store) && !insn.cond_failed) {
        for (unsigned k = 0; k < n_mem; ++k) {
            const auto r = l1d_->access(mem[k].addr, mem[k].write);
            if (p_.ev_l1d_access) b.add(p_.ev_l1d_access);
            if (r.refill) {
                cycles += p_.l1d_refill_penalty;
                if (p_.ev_l1d_refill) b.add(p_.ev_l1d_refill);
            }
            if (r.writeback && p_.ev_l1d_writeback) b.add(p_.ev_l1d_writeback);
        }
    }
    return cycles;
}

std::vector<uint32_t> TimingModel::produced_events() const {
    std::vector<uint32_t> v;
    for (uint32_t e : {p_.ev_mispredict, p_.ev_predictable})
        if (e) v.push_back(e);
    if (p_.l1d)
        for (uint32_t e : {p_.ev_l1d_access, p_.ev_l1d_refill, p_.ev_l1d_writeback})
            if (e) v.push_back(e);
    if (p_.l1i)
        for (uint32_t e : {p_.ev_l1i_access, p_.ev_l1i_refill})
            if (e) v.push_back(e);
    return v;
}

}  // namespace pmusim::timing
