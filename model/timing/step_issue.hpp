// The per-instruction step's issue and result stages (TimingModel::issue_stage, sync_stage, result_stage) and what
// the step's stages hand each other (TimingModel::StepScratch). Included by step.cpp alone, whose kernel (timed_k)
// inlines them: each is compiled once for each kernel, with that kernel's ARM rules (kArm) and VeeR EL2 mechanisms
// (kFull).
#pragma once
#include <algorithm>
#include <type_traits>

#include "model/timing/arm_rules.hpp"
#include "model/timing/timing_model.hpp"
#include "model/timing/veer_shape.hpp"

namespace pmusim::timing {

// What timed()'s stages hand each other: a local of the kernel (timed_k), whose address never leaves it, so that
// the compiler keeps its fields in registers and sets up only those the kernel reads. Not an aggregate: the fields
// a stage always sets before any stage reads them (the second group) are left unset, so that the step does not
// clear them on every instruction; the rest start at 0 (one short run of stores, StepScratch's cost in the step:
// docs/performance.md).
struct TimingModel::StepScratch {
    // `f`: predict()'s answer (its cycles and marks).
    StepScratch(const isa::RetiredInsn& i, uint64_t p, unsigned s, const MemRef* m, unsigned n, unsigned f)
        : insn(i), pc(p), size(s), mem(m), n_mem(n), flush(f & branch_cycles), flag_distance(f & branch_flag_distance),
          folded(f & branch_folded), bubble(f & branch_bubble) {}
    const isa::RetiredInsn& insn;
    uint64_t pc;
    unsigned size;
    const MemRef* mem;
    unsigned n_mem;
    unsigned flush;  // the branch's flush (predict(): its branch_cycles)
    bool flag_distance, folded, bubble;  // predict()'s marks (branch_flag_distance, branch_folded, branch_bubble)
    // Set by the stage named before any stage reads them: issue_stage (stall, issue, div_time), result_stage (dst,
    // latency, base, before_fetch), timed_k after fetch_stage (fetch_cycles), bus_issue_stage where st.queued
    // (bus_transactions) and where st.bus and dbus_queue (bus_busy), the only cases that read them. ooo_timed sets
    // issue itself (fetch_stage reads it at a refill).
    uint64_t stall, issue, latency, base, before_fetch, fetch_cycles;
    uint32_t dst;
    unsigned div_time, bus_transactions, bus_busy;
    // Set by some paths only, or added to: 0 unless a stage says otherwise.
    bool paired = false, postsync = false, data = false, bus = false, queued = false, forwarded = false;
    bool trap_flush = false, mie_before = false, mie_set = false, local_code = false, refilled = false;
    bool split_bus = false;  // a misaligned bus access split in two (split_access)
    unsigned bus_extra = 0, freeze = 0, span = 1;
    unsigned multiple_extra = 0;  // a load or store multiple's issue cycles beyond the first (multiple_cycles)
    unsigned shift_extra = 0;     // a shift by a register's issue cycles beyond the first (shift_register_extra)
    unsigned mul_extra = 0;       // a long or flag-setting multiply's issue cycles beyond its kin's (long_mul_extra)
    unsigned offset_extra = 0;    // a load's by its shifted register offset (offset_shift_extra)
    uint64_t cycles = 0, split_cycles = 0, fetch_walk = 0, started = 0, fill_fetches = 0, bus_hold = 0;
    uint64_t refill_hidden = 0;  // a refill's cycles behind the instructions before it (refill_wait)
    uint64_t room_wait = 0;      // the cycles it waited for fetches held back by a full buffer (fetch_room_wait)
};

// The bytes a load or store moves: as its encoding says (isa::RetiredInsn::bytes, A64), else the sum of its
// accesses' sizes (an access of unknown size counts 4 bytes).
[[gnu::always_inline]] inline unsigned TimingModel::access_bytes(const StepScratch& st) {
    if (st.insn.bytes) return st.insn.bytes;
    unsigned bytes = 0;
    for (unsigned k = 0; k < st.n_mem; ++k) bytes += st.mem[k].size ? st.mem[k].size : 4u;
    return bytes;
}

// The cycles a load or store multiple issues over: its bytes at load_multiple_bytes or store_multiple_bytes a
// cycle, at least 1 and at most multiple_max_cycles (where set). A single load or store wider than that (A64 LDR
// of a Q register) issues so too.
[[gnu::always_inline]] inline unsigned TimingModel::multiple_cycles(const StepScratch& st) const {
    const unsigned per = st.insn.cls == isa::InsnClass::load ? p_.load_multiple_bytes : p_.store_multiple_bytes;
    if (!per || !st.data || !(st.insn.multiple || st.insn.bytes > per)) return 1;
    const unsigned n = std::max(1u, (access_bytes(st) + per - 1) / per);
    return p_.multiple_max_cycles ? std::min(n, p_.multiple_max_cycles) : n;
}

// Issue: alongside the previous instruction (dual issue), or when its sources are ready, the divider free and
// the pre- and post-sync waits over.
template <int kFull, ArmRules kArm>
[[gnu::always_inline]] inline void TimingModel::issue_stage(StepScratch& st, EventBatch& b) {
    using C = isa::InsnClass;
    const isa::RetiredInsn& insn = st.insn;
    const size_t cls = static_cast<size_t>(insn.cls);
    // Dual issue: alongside the previous instruction, in its cycle, when the pair is allowed and the sources are
    // needed no sooner than they are ready (never the older one's own result).
    const uint32_t src = insn.regs.src;
    st.data = (insn.cls == C::load || insn.cls == C::store) && !insn.cond_failed;
    // A source is needed when it is ready, `early_address` cycles before that to form an address (or, where a class
    // has an address_latency, when its address ready cycle says), `shifted_operand_early` before as a shifted operand.
    const uint32_t shifted = insn.regs.shifted | (has_rule(kArm, rule_shifted_early) && p_.extend_in_shifter ? insn.regs.rotated : 0u);
    // A rule the kernel leaves out has its parameter at 0 (arm_kernel): its term is 0.
    const unsigned shifted_early = has_rule(kArm, rule_shifted_early) ? p_.shifted_operand_early : 0u;
    const unsigned mul_early = has_rule(kArm, rule_mul_early) ? p_.mul_operand_early : 0u;
    auto need = [&](unsigned r) -> uint64_t {
        uint64_t at = s_.ready[r];
        if (has_rule(kArm, rule_early_address)) {
            const bool addr = (insn.regs.addr >> r) & 1u;
            at = addr && addr_by_producer_ ? s_.addr_ready[r] : at + (addr ? p_.early_address : 0u);
        }
        if (has_rule(kArm, rule_shifted_early) || has_rule(kArm, rule_mul_early))
            at += (shifted >> r) & 1u ? shifted_early : (insn.regs.mul_ops >> r) & 1u ? mul_early : 0u;
        return at;
    };
    // A load or store multiple issues over several cycles (load_multiple_bytes) and pairs with nothing. Two shifts
    // by a register never pair (single_shift_register), nor does an EXTR take a younger partner
    // (extract_second_slot).
    if (has_rule(kArm, rule_multiple_cycles) && p_.multiple_holds_issue) st.multiple_extra = multiple_cycles(st) - 1;
    if (has_rule(kArm, rule_shift_register) && p_.shift_register_extra && (insn.regs.shape & isa::shape_shift_register)) st.shift_extra = p_.shift_register_extra;
    // A multiply with a 64-bit result, or one that sets the flags (ARM1176 TRM Table 16-10), issues over more cycles.
    if (has_rule(kArm, rule_mul_cycles) && insn.regs.mul_hi) st.mul_extra = p_.long_mul_extra;
    if (has_rule(kArm, rule_mul_cycles) && insn.cls == C::mul && (insn.regs.dst & isa::flags_bit)) st.mul_extra += p_.mul_flags_extra;
    // A load with a shifted register offset but LSL #2 issues over more cycles (Cortex-A8 TRM 16.8, Example 16-6).
    if (has_rule(kArm, rule_offset_shift) && insn.offset_shift && insn.cls == C::load) st.offset_extra = p_.offset_shift_extra;
    const unsigned shape_conflict = (p_.single_shift_register ? insn.regs.shape & unsigned{isa::shape_shift_register} : 0u) |
                                    (p_.extract_second_slot ? unsigned{isa::shape_extract} : 0u);
    if (has_rule(kArm, rule_dual_issue) && p_.dual_issue && s_.pair_open && p_.class_extra[cls] == 0 && !st.multiple_extra && !st.shift_extra && !st.mul_extra && !st.offset_extra &&
        pairs_[static_cast<size_t>(s_.prev_cls)][cls] && popcount(src) <= p_.pair_max_src[cls] &&
        !(src & s_.prev_dst & (p_.flag_latency ? ~0u : ~isa::flags_bit)) && !(s_.prev_shape & shape_conflict)) {
        st.paired = true;
        for (uint32_t m = src; m && st.paired; m &= m - 1)
            if (need(ctz(m)) > s_.prev_issue) st.paired = false;
    }
    // Result-use stall: the instruction issues when its sources are ready (address registers `early_address`
    // cycles before the rest, the data a store writes `late_store_data` cycles after, a shift by a register's
    // sources but its amount `shift_register_extra` after).
    uint64_t stall = 0;
    if (!st.paired) {
        // The registers with slack (none where late_store_data and shift_register_extra are 0), and its cycles.
        uint32_t late = has_rule(kArm, rule_late_store) && insn.cls == C::store && p_.late_store_data ? src & ~insn.regs.addr : 0u;
        unsigned late_by = p_.late_store_data;
        if (has_rule(kArm, rule_shift_register) && st.shift_extra) {
            late = src & ~insn.regs.amount;
            late_by = st.shift_extra;
        }
        // A store to a side-effect region over the bus (late_store_data_side_effect false): no slack.
        if (kFull && late && !p_.late_store_data_side_effect && st.n_mem && p_.local_data &&
            !p_.local_data->contains(st.mem[0].addr) && !region_cacheable(st.mem[0].addr))
            late = 0;
        // One loop, instantiated with and without the slack's test (the common case: no slack).
        auto wait_for_sources = [&](auto with_slack) {
            for (uint32_t m = src; m; m &= m - 1) {
                const unsigned r = ctz(m);
                const uint64_t at = need(r);
                // A register ready when the divider frees holds the last division's result (its ready time is
                // the division's time, below).
                unsigned slack = 0;
                if constexpr (decltype(with_slack)::value) {
                    const bool from_divider = !p_.late_store_data_div && s_.ready[r] == s_.divider_free && !st.shift_extra;
                    slack = (late >> r) & 1u && !from_divider ? late_by : 0u;
                }
                if (at > s_.now + stall + slack) stall = at - s_.now - slack;
            }
        };
        if (late) wait_for_sources(std::true_type{});
        else wait_for_sources(std::false_type{});
    }
    // A register a store multiple has not stored yet is locked: an instruction that writes it issues no sooner than
    // the register's lock latency after the store multiple (multiple_write_lock; ARM1176 TRM 16.12, Table 16-18).
    if (has_rule(kArm, rule_write_lock) && p_.multiple_write_lock && (insn.regs.dst & s_.stm_regs))
        for (uint32_t m = insn.regs.dst & s_.stm_regs; m; m &= m - 1) {
            const unsigned r = ctz(m);
            const uint64_t at = s_.stm_issue + stm_lock_latency(p_, popcount(s_.stm_regs & ((1u << r) - 1u)));
            if (at > s_.now + stall) stall = at - s_.now;
        }
    // A division waits for the divider; a load or store for the load/store unit (multiple_holds_lsu).
    if (insn.cls == C::div && p_.divider_busy && s_.divider_free > s_.now + stall) stall = s_.divider_free - s_.now;
    if (has_rule(kArm, rule_holds_lsu) && st.data && p_.multiple_holds_lsu && s_.lsu_free > s_.now + stall) stall = s_.lsu_free - s_.now;
    const uint16_t csr = s_.next.csr;
    s_.next.csr = 0;
    s_.next.interrupted = false;  // read by predict()
    s_.next.resume = 0;
    s_.next.killed_kind = 0;
    const uint64_t before_sync = stall;
    if (kFull && veer_on<kFull, &TimingParams::sync_stall>(p_)) stall = sync_stage(st, csr, stall, b);
    // An interrupt handler's first instruction (take_interrupt, interrupt_after_enable): the postsync wait was the
    // interrupted instruction's, at decode until the flush (events 30 and 31 count it), not the handler's, whose
    // time runs from the flush (pending_extra).
    const uint64_t sync_wait = veer_on<kFull, &TimingParams::interrupt_after_enable>(p_) && s_.pending_entry_stall ? stall - before_sync : 0;
    // A load or store waits at decode while the D-bus buffer is full (VeeR EL2, el2_lsu.sv: lsu_load_stall_any,
    // lsu_store_stall_any = lsu_bus_buffer_full_any; el2_dec_decode_ctl.sv, i0_load_stall_d: a decode stall, event
    // 30). Issuing at now + stall it commits a cycle later (the buffers' cycles: less lsu_pending), at decode 3
    // cycles before its commit.
    if (kFull && veer_on<kFull, &TimingParams::store_buffer>(p_) && veer_on<kFull, &TimingParams::local_data>(p_) && st.n_mem && !st.paired && (insn.cls == C::load || insn.cls == C::store) &&
        !insn.cond_failed) {
        const MemRef& m0 = st.mem[0];
        const bool dual = crosses_word(m0);
        const uint64_t c0 = s_.now + stall + s_.pending_extra + 1 - s_.lsu_pending;
        if (c0 >= 3) stall += lsu_->bus_wait(c0 - 3, dual);
    }
    if (stall) emit(b, p_.ev_dep_stall, stall);
    st.stall = stall - sync_wait;
    // It issues after the cycles the previous instruction left to it (a redirect: trap_redirect, interrupt_entry).
    st.issue = st.paired ? s_.prev_issue : s_.now + st.stall + s_.pending_extra;
    // A division's time: fixed, or (VeeR EL2) from its operands; the divider is busy as long as its result takes.
    st.div_time = p_.divider_busy;
    if (kFull && insn.cls == C::div && p_.divider_from_operands)
        st.div_time = s_.next.div_known ? veer_div_time(p_.result_latency[cls], s_.next.div_a, s_.next.div_b, s_.next.div_rem)
                                        : p_.result_latency[cls];
    if (insn.cls == C::div) s_.divider_free = st.issue + st.div_time;
    if (has_rule(kArm, rule_holds_lsu) && insn.multiple && st.data && p_.multiple_holds_lsu) s_.lsu_free = st.issue + multiple_cycles(st);
    // A store multiple's registers (not its base) stay locked (multiple_write_lock).
    if (has_rule(kArm, rule_write_lock) && p_.multiple_write_lock && insn.multiple && st.data && insn.cls == C::store) {
        s_.stm_issue = st.issue;
        s_.stm_regs = insn.regs.src & ~insn.regs.addr & 0xFFFFu;
    }
    if (insn.cls == C::csr_write) s_.csr_write_issue = st.issue;
    // Postsync: the next instruction waits until this one has left X and R (after its own extra cycles).
    s_.postsync_until = st.postsync ? st.issue + p_.class_extra[cls] + 1 + p_.sync_stall : 0;
}

// Pre- and post-sync, and a CSR read behind a write-only CSR instruction (VeeR EL2 el2_dec_decode_ctl.sv:
// presync_stall, ps_stall, prior_csr_write; the instructions from dec/decode and dec/csrdecode_m). Returns the
// stall with their waits.
[[gnu::always_inline]] inline uint64_t TimingModel::sync_stage(StepScratch& st, uint16_t csr, uint64_t stall, EventBatch& b) {
    using C = isa::InsnClass;
    const C cls = st.insn.cls;
    // Not a CSR instruction, fence or trap (isa/insn_class.hpp: the classes from csr_read on) and no postsync wait
    // left: none of the waits below applies (most instructions; the same result, kept cheap).
    static_assert(C::csr_read_write > C::csr_read && C::csr_write > C::csr_read && C::ecall > C::csr_read && C::ebreak > C::csr_read &&
                  C::mret > C::csr_read && C::fence > C::csr_read && C::fence_i > C::csr_read, "the classes the waits read");
    if (cls < C::csr_read && s_.postsync_until <= s_.now) return stall;
    const bool csr_insn = cls == C::csr_read || cls == C::csr_read_write || cls == C::csr_write;
    auto listed = [&](const std::vector<uint16_t>& v) { return csr_insn && std::find(v.begin(), v.end(), csr) != v.end(); };
    const bool both = cls == C::csr_read_write || cls == C::fence_i;
    const bool presync = both || cls == C::fence || (cls == C::csr_read && listed(p_.presync_csrs));
    st.postsync = both || isa::is_trap(cls) || listed(p_.postsync_csrs);
    // Presync: the older instructions have left X and R sync_stall cycles after the previous one's issue.
    const uint64_t after_prev = s_.prev_issue + 1 + p_.sync_stall;
    const uint64_t pre_wait = presync && after_prev > s_.now ? after_prev - s_.now : 0;
    const uint64_t post_wait = s_.postsync_until > s_.now ? s_.postsync_until - s_.now : 0;
    uint64_t block_wait = 0;
    if (p_.csr_write_block && (cls == C::csr_read || cls == C::csr_read_write)) {
        const uint64_t after_write = s_.csr_write_issue + 1 + p_.csr_write_block;
        if (after_write > s_.now) block_wait = after_write - s_.now;
    }
    // Both count where the two waits overlap (tests/veer-rtl/csr). Most instructions wait for neither: nothing added.
    if (pre_wait) emit(b, p_.ev_presync, pre_wait);
    if (post_wait) emit(b, p_.ev_postsync, post_wait);
    return std::max({stall, pre_wait, post_wait, block_wait});
}

// The result's latency and the instruction's own cycles: issue, its class's extra cycles, what the previous
// instruction left to it, a trap's redirect, mstatus, the branch's flush.
template <int kFull, ArmRules kArm>
[[gnu::always_inline]] inline void TimingModel::result_stage(StepScratch& st, EventBatch& b) {
    using C = isa::InsnClass;
    const isa::RetiredInsn& insn = st.insn;
    const size_t cls = static_cast<size_t>(insn.cls);
    // A conditional instruction that fails its condition writes nothing.
    st.dst = insn.cond_failed ? 0u : insn.regs.dst;
    st.latency = kFull && insn.cls == C::div && p_.divider_from_operands
                     ? st.div_time
                     : (has_rule(kArm, rule_mul_cycles) && p_.short_mul_latency && insn.cls == C::alu && insn.regs.mul_ops ? p_.short_mul_latency
                                                                                         : p_.result_latency[cls]) +
                           (kFull && st.bus && insn.cls == C::load && !st.forwarded ? p_.bus_load_latency + st.bus_extra : 0u) +
                           st.shift_extra + st.offset_extra +
                           // A load multiple of the PC loads it first, the rest a cycle later (load_pc_latency_extra).
                           (has_rule(kArm, rule_load_pc) && insn.multiple && insn.branch && insn.cls == C::load ? p_.load_pc_latency_extra : 0u);
    if (has_rule(kArm, rule_multiple_cycles) && insn.multiple && p_.load_multiple_bytes && st.data && insn.cls == C::load && st.n_mem) {
        // A load multiple's registers, in order, as its memory cycles bring them (load_multiple_bytes).
        const uint64_t each = access_bytes(st) / st.n_mem;
        unsigned k = 0;
        for (uint32_t m = st.dst; m; m &= m - 1, ++k) s_.ready[ctz(m)] = st.issue + st.latency + k * each / p_.load_multiple_bytes;
    } else {
        for (uint32_t m = st.dst; m; m &= m - 1) s_.ready[ctz(m)] = st.issue + st.latency;
        // The high half of a multiply's 64-bit result comes later (mul_hi_latency).
        if (has_rule(kArm, rule_mul_cycles))
            for (uint32_t m = st.dst & insn.regs.mul_hi; m; m &= m - 1) s_.ready[ctz(m)] += p_.mul_hi_latency;
    }
    // A register's address ready cycle (address_latency): its class's cycles after the issue, never before it is
    // ready; a class without one, early_address after it is ready (as need() has it).
    if (has_rule(kArm, rule_early_address) && addr_by_producer_)
        for (uint32_t m = st.dst & ~isa::flags_bit; m; m &= m - 1) {
            const unsigned r = ctz(m);
            const uint64_t a = p_.address_latency[cls];
            s_.addr_ready[r] = a ? std::max(s_.ready[r], st.issue + a) : s_.ready[r] + p_.early_address;
        }
    if (st.dst & isa::flags_bit) s_.ready[31] = st.issue + p_.flag_latency + st.shift_extra;
    st.cycles = (st.paired || st.folded ? 0 : 1) + st.stall + p_.class_extra[cls] + st.multiple_extra + st.shift_extra +
                st.mul_extra + st.offset_extra + s_.pending_extra;
    if (s_.pending_extra) {
        st.freeze = s_.pending_freeze;  // interrupts still enabled (event 49), no instruction at decode (not event 30)
        s_.pending_freeze = 0;
    }
    if (s_.pending_entry_stall) {  // an interrupt entry's flush at decode (take_interrupt)
        emit(b, p_.ev_dep_stall, s_.pending_entry_stall);
        s_.pending_entry_stall = 0;
    }
    s_.pending_extra = 0;
    // ecall, ebreak and mret: the redirect's cycle shows on the next instruction (tests/veer-rtl/traps: mret 1 cycle
    // after its postsync wait, its target 4 after it; irq).
    st.trap_flush = isa::is_trap(insn.cls);
    if (st.trap_flush) s_.pending_extra = p_.trap_redirect;
    // Interrupts disabled: this instruction's cycles count while MIE is 0; a trap clears MIE, mret restores it.
    st.mie_before = s_.mstatus & 8u;
    if (insn.cls == C::ecall || insn.cls == C::ebreak) {
        s_.mstatus = trap_entry(s_.mstatus);
    } else if (insn.cls == C::mret) {
        s_.mstatus = (s_.mstatus & ~8u) | ((s_.mstatus & 0x80u) ? 8u : 0u) | 0x80u;
        st.mie_set = !st.mie_before && (s_.mstatus & 8u);  // its commit: mie_on (interrupt_after_enable)
    }
    st.base = st.cycles;
    // A branch's flush (predict()): the refetch costs the penalty, and a mispredicted branch (branch_flag_distance)
    // that reads the flags up to mispredict_flag_window more, one fewer per cycle between the flag-setting instruction's issue and its own
    // beyond the first.
    if (has_rule(kArm, rule_flag_window) && st.flag_distance && p_.mispredict_flag_window && (insn.regs.src & isa::flags_bit) && s_.ready[31] >= p_.flag_latency) {
        const uint64_t set = s_.ready[31] - p_.flag_latency, gap = st.issue > set ? st.issue - set - 1 : 0;
        if (gap < p_.mispredict_flag_window) st.flush += static_cast<unsigned>(p_.mispredict_flag_window - gap);
    }
    // A taken branch's fetch bubble (taken_extra): the redirect comes at decode, so the cycles the branch waited to
    // issue overlap it (Chips and Cheese, "ARM's Cortex A53: Tiny But Important", 2023: the target is known once the
    // branch is fetched and decoded). A branch that issued beside an older instruction that waited is not credited.
    if (has_rule(kArm, rule_taken_bubble) && st.bubble && st.stall) st.flush -= static_cast<unsigned>(std::min<uint64_t>({st.stall, st.flush, p_.taken_extra}));
    st.cycles += st.flush;
    st.before_fetch = st.cycles;
    // After a branch's flush, a 32-bit instruction at an odd halfword that the fetch brings in two pieces takes
    // longer: where fetches keep bit 1 after the redirect (fetch_keeps_halfword) only when its upper half lies in
    // the next line (the line's last fetch is its last halfword alone).
    if (kFull && s_.flushed && st.size == 4 && (st.pc & 2u) &&
        (!p_.fetch_keeps_halfword || !l1i_ || l1i_->line_of(st.pc) != l1i_->line_of(st.pc + 2)))
        st.split_cycles = p_.split_fetch_after_flush;  // not a fetch stall: the fetches are not held up
    st.cycles += st.split_cycles;
    s_.flushed = st.flush != 0 && !st.bubble;
}

}  // namespace pmusim::timing
