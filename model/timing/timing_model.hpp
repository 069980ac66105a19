// The cycle-approximate timing model: turns each retired instruction into cycles and microarchitectural events
// from platform data (docs/accuracy.md). In-order, single or dual issue: one cycle per instruction (none when it
// pairs with the one before), plus result-use stalls from a register scoreboard, the extra cycles of its class, a
// misprediction penalty, and TLB (with page-table walks), cache, L2 and bus penalties. Speculation is not
// simulated: a misprediction adds a fixed wrong path to the speculative events. An out-of-order core
// (TimingParams::ooo: Cortex-A9, A15, A57, A72) is timed instead by a simple approximation (ooo.hpp): fetch
// blocks, in-order dispatch into a window, execution when the sources and a pipeline of the class are ready,
// completion after the class's latency and the data misses, in-order retirement, a refill after a misprediction;
// it leaves out issue-queue limits, load/store ordering, store buffers and wrong-path side effects,
// and its wrong path is what it dispatched before the branch resolved. No virtual calls; one call per instruction
// from the replay, which hands the events to the PMU in batches.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "isa/insn_class.hpp"
#include "model/core/pmu.hpp"
#include "model/timing/arm_rules.hpp"
#include "model/timing/bits.hpp"
#include "model/timing/block_memo.hpp"
#include "model/timing/branch_predictor.hpp"
#include "model/timing/cache.hpp"
#include "model/timing/key_policy.hpp"
#include "model/timing/lsu_buffers.hpp"
#include "model/timing/ooo.hpp"
#include "model/timing/pipeline_state.hpp"
#include "model/timing/timing_params.hpp"

namespace pmusim::timing {

// What VeeR EL2's decoder makes of a control transfer (el2_dec_decode_ctl.sv: pcall, pja, pret; timing_model.cpp).
BranchPredictor::VeerKind veer_kind(const isa::RetiredInsn& insn);
// A VeeR EL2 branch that predict_inner and predict_grouped's tail hand to veer() themselves with its own taken bit
// (where no interrupt is taken before it), as predict_other would: not an mret (a flush, not a prediction) and its
// condition passed (a failed one goes through predict_other, which predicts it as not taken).
inline bool veer_predicted_directly(const isa::RetiredInsn& insn) {
    return !(insn.branch & isa::br_exc_return) && !insn.cond_failed;
}

// Adds `n` of a model event the platform may not have.
inline void emit(EventBatch& b, uint32_t ev, uint64_t n = 1) {
    if (ev != no_event) b.add(ev, n);
}
// mstatus on entry to a trap handler (RISC-V privileged spec 3.1.6.1): MPIE = MIE, MIE = 0.
inline uint32_t trap_entry(uint32_t mstatus) { return (mstatus & ~0x88u) | ((mstatus & 8u) ? 0x80u : 0u); }

class TimingModel {
public:
    explicit TimingModel(const TimingParams& p);

    // One retired instruction at `pc` (`size` bytes) whose successor is at `next_pc`; `insn.branch` carries
    // br_taken. `in`: what the trace tells about it beyond the instruction (pipeline_state.hpp): the CSR it accesses,
    // whether an interrupt entry follows it, a division's operands. Returns its cycles and adds its
    // microarchitectural events to `b`.
    uint64_t step(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, uint64_t next_pc, const MemRef* mem,
                  unsigned n_mem, EventBatch& b, const StepInputs& in = StepInputs{});

    // The body of a block (BlockMemo) with its data accesses: `mem` holds every instruction's accesses one after
    // the other, `n_mem[i]` how many are instruction i's. Times them exactly as BlockMemo::size() calls of step()
    // would (the same cycles, returned as their sum; the same events in `b`; the same state after), recording what
    // step() does the first time an entry state is seen and replaying that recording after.
    //
    // The entry state a recording is keyed by is everything step() reads for an instruction that is not a branch
    // (whoever adds state to step() must add it here, in body_key() (block_key.cpp) and its list body_key_fields.hpp,
    // and to the Recording's exit state, or make such bodies unusable in prepare()):
    //  - s_.pending_extra; s_.mstatus MIE; s_.flushed; with dual issue, s_.pair_open and then s_.prev_cls,
    //    s_.prev_shape, s_.prev_dst and s_.now - s_.prev_issue;
    //  - per live-in register r (read before the body writes it): s_.ready[r] - s_.now, or "ready" (no word, a bit
    //    clear in the word of those not ready) when it can no longer delay the body (s_.ready[r] + earliest_need() <= s_.now, and <= s_.prev_issue when a pair is open);
    //  - if the body divides: s_.divider_free - s_.now (0 when the divider is free);
    //  - s_.lsu_free - s_.now (0 when past) where multiple_holds_lsu (in the divider's word);
    //  - s_.postsync_until - s_.now (0 when past): the first instruction's wait behind a postsync one (sync_stall;
    //    with it, bodies hold no CSR, fence or fence.i instruction, so StepInputs::csr is 0 and s_.csr_write_issue unused);
    //  - the fetch state: s_.next_fetch_new, s_.last_ifetch_line and s_.last_fetch as the first instruction sees them,
    //    s_.fill_line, s_.phase_line as the first instruction leaves it, and the mrac cacheability of the body's region (a body lies in one 256 MiB region, and wholly
    //    in or out of local_code);
    //  - per instruction how many accesses (those of the first execution: other counts are stepped), and per
    //    access its direction, whether it leaves local_data (goes
    //    on the bus), crosses a dbus_beat, lies in a side-effect region, shares its line with the previous access
    //    (count_line_once);
    //  - with dbus_queue: the D-bus buffer as it acts from now on and, per bus access, its place in its word only where
    //    its bytes can matter (else whether it is split or crosses a word: dbus_runs), its word's and beat's relations
    //    to the entry's buffered words and last read, whether its word is one of the last two runs of the body's
    //    stores before it (dbus_runs) and, for a load, which earlier loads share its beat (key_dbus);
    //  - the flush's cycles of each branch in the body (predict(), made for all of them before the body);
    //  - with a tail (the block's last branch): whether it was taken and its flush's cycles (predict()).
    // The LSU buffers (store_buffer) are not keyed: they do not change the timing; a replay feeds them the commits
    // its recording kept, or sets their result from the recording's LsuMemo where their state and the addresses
    // are those of an earlier replay (lsu_replay).
    // Its data (conditions failed, unaligned accesses) must not change the decoded instructions: the caller steps
    // such runs. A recording is replayed only when every ITLB, I-cache, DTLB and D-cache access of the body hits
    // (probed first, changing nothing; then made in step()'s order, per cache); on any miss step() runs per
    // instruction. Branch prediction, the caches' misses and L2 stay step()'s alone.
    uint64_t step_block(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b);
    // The body and then the block's last instruction (`tail`, BlockMemo::set_tail), as step() would time them
    // one after the other. The tail's prediction runs on its own each time (predict()); its timing joins the
    // body's recording, keyed by whether it was taken and flushed.
    uint64_t step_block(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, const BlockTail& tail, EventBatch& b);
    // Test hook: every replayed recording is also stepped on a copy of the model and compared (cycles, events,
    // state); a difference throws std::logic_error.
    void set_check_blocks(bool on) { check_blocks_ = on; }
    // Test hook: how many replayed recordings set the LSU buffers from their memo (lsu_replay) instead of feeding them.
    uint64_t lsu_memo_hits() const { return lsu_memo_hits_; }

    // Stretches that repeat (replay/replay.cpp, Replayer::loop_unit; model/timing/loop_state.cpp). A stretch of
    // the trace that leaves the model in the state it found it in, shifted in time, does the same again when the
    // same instructions with the same data addresses follow it: the replay then adds the stretch's events and
    // shifts the model (skip_loop) instead of timing it again.
    //  - loop_state() appends the state as words, every cycle in it relative to s_.now where it is recent (less than
    //    loop_fresh cycles ago, or to come) and as it is where it is old (loop_stale cycles ago or more), or as
    //    "past" where no rule can tell it from any earlier cycle (a register ready for any use, a divider free);
    //    it returns false where a cycle lies between recent and old or the LSU buffers cannot be saved.
    //  - The caches are left out of the words. A stretch counts as repeatable where each cache either took in
    //    and wrote back no line in it (loop_hits_only on the marks before and after: every access hit, so the same
    //    accesses hit again from any LRU order, and leave the order among the lines they touch as the stretch left
    //    it), or, with the journal on (loop_journal), holds at the end in every set the stretch accessed what it
    //    held at the start (Cache::same_since): the same lines, dirty parts and LRU order, so the same accesses
    //    miss, evict and hit again as they did, and leave it so again.
    static constexpr uint64_t loop_fresh = uint64_t{1} << 20, loop_stale = uint64_t{1} << 21;
    static constexpr size_t n_caches = 6;  // the caches and TLBs (caches_of)
    struct LoopMarks {
        uint64_t now = 0;
        std::array<uint64_t, 3 * n_caches> caches{};  // per cache (caches_of's order): accesses, refills, write-backs
        uint32_t journal = 0;                   // the caches' journal mark (loop_mark; 0: none)
    };
    bool loop_state(std::vector<uint64_t>& out, std::vector<uint64_t>* addrs = nullptr) const;
    // A stretch that walks through memory (loop_state with `addrs`, skip_loop with a shift). Where no data cache or
    // TLB looks at data addresses (shift_invariant), step() reads one only for: whether it lies in local_data, its
    // 256 MiB region (region_cacheable), its bits 3:0 (alignment, a bus beat of 8 bytes, the DCCM bank of the LSU
    // buffers) and whether two accesses share a word or a beat (the LSU and D-bus buffers). Moving every data
    // address of a stretch and of the state it starts from by one d, a multiple of loop_shift_unit, with each
    // address's kind kept (same_data_kind), keeps all of them: the stretch times the same. loop_state() then puts
    // the state's addresses in `addrs` instead of its words (LsuBuffers::save_split, the D-bus buffer's), and
    // skip_loop() moves them on by `shift`.
    static constexpr uint64_t loop_shift_unit = 16;
    bool shift_invariant() const { return !l1d_ && !dtlb_; }
    // Whether any cache or TLB is modelled: a stretch repeated from its hits alone (skip_loop) is then exact only
    // right after it was timed, when the lines it touches are the most recent, in its own order.
    bool has_caches() const {
        for (const std::optional<Cache>* c : caches_of(*this))
            if (*c) return true;
        return false;
    }
    bool same_data_kind(uint64_t a, uint64_t b) const;
    LoopMarks loop_marks() const;
    static bool loop_hits_only(const LoopMarks& from, const LoopMarks& to);
    // The caches' journals (Cache::set_journal) on or off; loop_mark() marks them all (the number in the marks
    // it returns); loop_forget() drops what only marks before `m`'s need.
    void loop_journal(bool on);
    LoopMarks loop_mark();
    void loop_forget(const LoopMarks& m);
    // Whether, at `to` (now), every cache leaves a repeat of the stretch from `from` to `to` exact (above): it hit
    // throughout, or its journal finds every set the stretch accessed as it was at `from`.
    bool loop_same_caches(const LoopMarks& from, const LoopMarks& to);
    // The stretch from `from` to `to` again, from a state loop_state() puts in the same words as at `to`: every
    // recent cycle moves on by to.now - from.now, the caches count the stretch's accesses, refills and write-backs.
    void skip_loop(const LoopMarks& from, const LoopMarks& to, uint64_t shift = 0);

    // The event numbers this model produces on this platform; those that need the trace's data addresses.
    std::vector<uint32_t> produced_events() const;
    std::vector<uint32_t> address_events() const;
    const TimingParams& params() const { return p_; }
    BranchPredictor& predictor() { return bp_; }
    // VeeR EL2 mrac: region r (address bits 31:28) is cacheable when bit 2r is set and bit 2r+1 (side effect)
    // is clear (PRM ch. 3 "Region Access Control Register"; both set is not a legal combination and reads as
    // side effect only).
    void set_mrac(uint32_t value);
    uint32_t mrac() const { return s_.mrac; }
    // mstatus (CSR 0x300) as written by the program: MIE (bit 3), MPIE (bit 7). The write's extra cost
    // (mstatus_write_extra) goes to the next instruction.
    void set_mstatus(uint32_t value);
    // VeeR EL2: a division's cycles from issue to result, and the divider's, from its operands (`full`: without
    // a shortcut).
    static unsigned veer_div_time(unsigned full, uint32_t a, uint32_t b, bool rem);
    uint32_t mstatus() const { return s_.mstatus; }
    // An interrupt taken before the next instruction (RISC-V privileged spec 3.1.6.1: MPIE = MIE, MIE = 0), with
    // its exception code (`cause`) and whether it woke the core from pmu/fw-halt; its cost (interrupt_entry, or
    // fw_halt_wake, and ext_interrupt_freeze) goes to that instruction, the handler's first.
    void take_interrupt(unsigned cause = 0, bool from_halt = false);
    // VeeR EL2 mpmc with haltie (PRM ch. 5): entering fw-halt sets mstatus.MIE, at no cost of its own.
    void set_mie() { s_.mstatus |= 8u; }
    // Whether a branch's cycles fit below predict()'s marks (the constructor refuses parameters that do not).
    static bool branch_cycles_fit(const TimingParams& p);
private:
    // The next level for an L1 refill (write: an L1 write-back): extra cycles beyond the L1 refill penalty.
    unsigned next_level(uint64_t addr, bool write, EventBatch& b);
    // A micro TLB lookup: its refill cost, page-table walk included (also added to `walk`); inline in step.cpp, its
    // refill (tlb_refill: the main TLB, a walk; the refill's cycles and the walk's) out of line.
    unsigned tlb(std::optional<Cache>& t, uint64_t addr, uint32_t ev, EventBatch& b, uint64_t& walk);
    unsigned tlb_refill(uint64_t addr, uint32_t ev, EventBatch& b);
    static bool pairs(isa::InsnClass older, isa::InsnClass younger);
    // The most cycles before its ready cycle a register can be needed (as an address, a shifted operand: step.cpp).
    static unsigned earliest_need(const TimingParams& p) {
        return p.early_address + std::max(p.shifted_operand_early, p.mul_operand_early);
    }
    // step() in two: a branch's prediction (the predictor's state and events alone; returns the flush's cycles,
    // 0 when none), then the timing, which depends on the prediction only through those cycles.
    // The answer is one word, as the block engine keys and replays it: the cycles the branch adds (branch_cycles)
    // and two marks: branch_flag_distance, the cycles are a misprediction's, to which the flags' distance adds
    // (mispredict_flag_window); branch_folded, the branch was folded and takes no issue cycle (TRM 5.2.4);
    // branch_bubble, the cycles are a taken branch's fetch bubble, which the branch's own wait to issue overlaps.
    static constexpr unsigned branch_flag_distance = 1u << 14, branch_folded = 1u << 15, branch_bubble = 1u << 16;
    static constexpr unsigned branch_cycles = branch_flag_distance - 1;
    // A store multiple's lock latency of its k-th register (multiple_write_lock), and the longest (its 16th).
    static unsigned stm_lock_latency(const TimingParams& p, unsigned k) { return 1 + (k + 1) * 4 / std::max(1u, p.store_multiple_bytes); }
    static unsigned stm_lock_span(const TimingParams& p) { return p.multiple_write_lock ? stm_lock_latency(p, 15) : 0u; }
    // A conditional direct branch that is not a call, its condition not failed, with a predictor of counters (not
    // VeeR EL2's), the common case, inline; predict_other() the rest. The same rules (predict_other's comments).
    __attribute__((always_inline)) unsigned predict(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, uint64_t next_pc, EventBatch& b) {
        if (!counted_branch(insn)) return predict_other(insn, pc, size, next_pc, b);
        const unsigned flush = predict_counted(insn.branch & isa::br_taken, pc, size, next_pc, b);
        if (p_.ev_predictable != no_event) b.add(p_.ev_predictable);
        return flush;
    }
    // A VeeR EL2 prediction's event 25 and flush (predict_other; predict_inner calls veer() itself).
    __attribute__((always_inline)) unsigned veer_flush(BranchPredictor::VeerOutcome o, EventBatch& b) {
        if (o.mispredicted) {
            emit(b, p_.ev_mispredict);
            ++mispredicts_;
        }
        return o.flush ? p_.mispredict_penalty : 0;
    }
    bool counted_branch(const isa::RetiredInsn& insn) const {
        constexpr uint8_t other = isa::br_register | isa::br_call | isa::br_exc_return;
        return plain_predictor_ && (insn.branch & isa::br_conditional) && !(insn.branch & other) && !insn.cond_failed;
    }
    // predict() of a counted_branch() but for its event (predictable: the caller adds it); `taken` its br_taken.
    __attribute__((always_inline)) unsigned predict_counted(bool taken, uint64_t pc, unsigned size, uint64_t next_pc,
                                                            EventBatch& b) {
        if (bp_.counts()) return predict_table(taken, pc, next_pc, b);
        return counted_flush(bp_.conditional(pc, conditional_target(pc, size, next_pc, taken), taken), taken, pc, next_pc, b);
    }
    // predict_counted() where bp_.counts(): the counters read no target, only a taken branch's is recorded.
    __attribute__((always_inline)) unsigned predict_table(bool taken, uint64_t pc, uint64_t next_pc, EventBatch& b) {
        if (taken) note_target(pc, next_pc);
        return counted_flush(bp_.counted(pc, taken), taken, pc, next_pc, b);
    }
    __attribute__((always_inline)) unsigned counted_flush(bool mispredicted, bool taken, uint64_t pc, uint64_t next_pc, EventBatch& b) {
        if (mispredicted) return mispredicted_flush(b) | branch_flag_distance;
        return taken ? taken_bubble(pc, next_pc) : 0u;
    }
    // A taken branch predicted right: its fetch bubble (TimingParams::taken_extra, or btic_taken_extra on a BTIC
    // hit), marked branch_bubble; 0 where the core has none.
    __attribute__((always_inline)) unsigned taken_bubble(uint64_t pc, uint64_t target) {
        if (!p_.taken_extra) return 0;
        const bool hit = p_.btic_bytes && bp_.btic(pc, target, p_.btic_bytes);
        return (hit ? p_.btic_taken_extra : p_.taken_extra) | branch_bubble;
    }
    // The target a conditional branch is predicted with. A trace shows a branch's target only when taken: an untaken
    // one uses the target it last went to (unknown: taken as forward, the usual layout of an if). A taken one
    // records its target (note_target: seen_target_, and loop_state's signature of it, s_.seen_sig).
    __attribute__((always_inline)) uint64_t conditional_target(uint64_t pc, unsigned size, uint64_t next_pc, bool taken) {
        if (taken) return note_target(pc, next_pc);
        const uint64_t seen = seen_target_[(pc >> 1) & (seen_target_.size() - 1)];
        return seen ? seen : pc + size;
    }
    __attribute__((always_inline)) uint64_t note_target(uint64_t pc, uint64_t next_pc) {
        const size_t si = (pc >> 1) & (seen_target_.size() - 1);
        uint64_t& seen = seen_target_[si];
        if (seen != next_pc) {
            s_.seen_sig ^= mix64(seen ^ mix64(si)) ^ mix64(next_pc ^ mix64(si));
            seen = next_pc;
        }
        return next_pc;
    }
    unsigned predict_other(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, uint64_t next_pc, EventBatch& b);
    // VeeR EL2: the control transfer an interrupt entry killed after it went through execute (StepInputs::killed_kind).
    void killed_at_entry(uint64_t handler);
    // The btac direction's prediction of a branch (predict_other): whether mispredicted, and its cycles when right.
    struct BtacCost {
        bool mispredicted = false, folded = false;
        unsigned extra = 0;
    };
    BtacCost predict_btac(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, uint64_t next_pc, bool taken,
                          bool conditional);
    // A misprediction's events and the flush's cycles (a plain predictor's).
    unsigned mispredicted_flush(EventBatch& b);
    bool addr_by_producer_ = false;  // a class has an address_latency: s_.addr_ready is kept
    bool plain_predictor_ = false;  // p_.predictor.direction is neither VeeR EL2's nor btac (predict_other's)
    uint64_t timed(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, const MemRef* mem, unsigned n_mem,
                   EventBatch& b, unsigned flush);
    // An out-of-order core (p_.ooo): the same fetch and data stages, then ooo_'s dispatch, execution, retirement.
    std::optional<OooCore> ooo_;
    // timed()'s stages (step.cpp) and what they hand each other: a local of the step's kernel, defined in step.cpp.
    struct StepScratch;
public:
    // Whether any parameter turns on a VeeR EL2 mechanism (FullStepParams: the DCCM and ICCM, mrac, the D-bus and
    // LSU buffers, the divider's operand times, pre- and post-sync, the fetch buffer and its fetches, the fill
    // buffer): where none is on, the model takes the lean step (kFull false, step.cpp), which gives the same results.
    static bool needs_full_step(const TimingParams& p);
    // Whether any parameter turns on an ARM core's issue or result rule (ArmRuleParams: dual issue, early and late
    // operands, multiples, shifts and multiplies over several cycles, the flags' mispredict window, the taken
    // bubble): where none is on, the full step takes the kernel without them (arm_rules_none, step.cpp), which gives
    // the same results.
    static bool needs_arm_rules(const TimingParams& p);
    // The ARM rules of the kernel the model takes (arm_rules.hpp): of the sets its kernels come in (the lean step:
    // arm_rules_cortex, arm_rules_all; the full one: arm_rules_none, arm_rules_all), the first that holds every rule
    // p turns on (arm_rules_used).
    static ArmRules arm_kernel(const TimingParams& p);
private:
    unsigned multiple_cycles(const StepScratch& st) const;
    static unsigned access_bytes(const StepScratch& st);
    // kFull: 0 the lean step, 1 the full one, 2 the full one in VeeR EL2's configuration (veer_shape_), its
    // mechanisms' tests constants.
    template <int kFull, ArmRules kArm>
    uint64_t timed_k(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, const MemRef* mem, unsigned n_mem,
                     EventBatch& b, unsigned flush);
    template <int kFull, ArmRules kArm>
    void issue_stage(StepScratch& st, EventBatch& b);
    uint64_t sync_stage(StepScratch& st, uint16_t csr, uint64_t stall, EventBatch& b);
    template <int kFull>
    void bus_issue_stage(StepScratch& st);
    template <int kFull, ArmRules kArm>
    void result_stage(StepScratch& st, EventBatch& b);
    template <int kFull>
    void fetch_stage(StepScratch& st, EventBatch& b);
    template <int kFull>
    void fetch_queue_stage(StepScratch& st, EventBatch& b);
    void data_stage(StepScratch& st, EventBatch& b);
    void bus_stage(StepScratch& st, EventBatch& b);
    void lsu_stage(const StepScratch& st);
    uint64_t ooo_timed(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, const MemRef* mem, unsigned n_mem,
                       EventBatch& b, unsigned flush);
    // Whether a VeeR EL2 mechanism is on (needs_full_step): timed() takes the full step, else the lean one; and
    // the ARM rules of its kernel (arm_kernel).
    bool full_ = true;
    ArmRules arm_rules_ = arm_rules_all;
public:
    // Whether the parameters are VeeR EL2's shape (veer_shape): the full step without the ARM rules, every mechanism
    // the step tests on, a fetch buffer of 3 entries of 4 bytes. timed() then takes the kernel that has these tests
    // as constants (kFull 2, step.cpp), which gives the same results as the full one.
    static bool veer_shape(const TimingParams& p);
    // VeeR EL2's fetch buffer in that shape (veer() in platforms/timing_params.cpp): 3 entries of 4-byte fetches.
    static constexpr unsigned veer_fetch_queue = 3, veer_fetch_shift = 2;
private:
    bool veer_shape_ = false;
    unsigned fetch_shift_ = 0;  // log2 of the fetch granule (fetch_bytes, 4 if 0)
    // The block timing (model/timing/block_timing.cpp; its key: block_key.cpp).
    void prepare(BlockMemo& m, const uint8_t* n_mem) const;
    // The entry state as the key's words (inlined into block_k, its one user); its parts, in the key's order: each
    // appends its words to `key` at `n` and returns false where the entry state cannot be keyed (a distance too far
    // to fit). The pipeline state they read, field by field: body_key_fields.hpp.
    template <bool kLean>
    size_t body_key(const BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, uint64_t* __restrict key,
                    bool with_tail) const;
    // Whether body_key() may take its lean form (lean_key_): none of the mechanisms its tests fold away is on.
    static bool lean_key(const TimingParams& p, bool lsu, bool l1d);
    bool lean_key_ = false;
    template <bool kLean>
    bool key_issue(const BlockMemo& m, uint64_t* __restrict key, size_t& n) const;
    template <bool kLean>
    bool key_fetch(const BlockMemo& m, uint64_t* __restrict key, size_t& n) const;
    bool key_live_ins(const BlockMemo& m, uint64_t* __restrict key, size_t& n) const;
    void key_lock(uint64_t* __restrict key, size_t& n) const;
    template <bool kLean>
    bool key_accesses(const BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, uint64_t* __restrict key, size_t& n,
                      const MemRef** bus, size_t& nb) const;
    void dbus_runs(const MemRef* const* bus, size_t nb, const DbusState& d, uint8_t* rel, bool* bytes) const;
    bool key_dbus(const MemRef* const* bus, size_t nb, uint64_t* __restrict key, size_t& n) const;
    bool key_inner_flushes(const BlockMemo& m, uint64_t* __restrict key, size_t& n) const;
    bool key_lsu_bus(const BlockMemo& m, const MemRef* mem, uint64_t* __restrict key, size_t& n) const;
    // f(cache, line, dirty part, slot) per lookup of the recording's body, in step()'s order per cache, until one
    // returns false; `self` a const model (the caches const) or not. The instruction fetches' (ITLB, I-cache) and
    // the data's (DTLB, D-cache): caches apart, so either may go first. Each walks its list instruction by
    // instruction (the lookups' `later` flags): at_insn() before an instruction's first lookup. Defined in
    // block_timing.cpp, their only user.
    // Each returns the body index of the instruction whose lookup f refused (all_hit: none), and makes only those
    // of the instructions before `upto`.
    static constexpr size_t all_hit = ~size_t{0};
    struct NoMark {
        void operator()() const {}
    };
    template <class Self, class F, class G = NoMark>
    static size_t fetch_lookups(Self& self, const BlockMemo::Recording& r, F&& f, size_t upto = all_hit, G&& at_insn = {});
    template <class Self, class F, class G = NoMark>
    static size_t data_lookups(Self& self, const BlockMemo& m, const MemRef* mem, F&& f, size_t upto = all_hit,
                               G&& at_insn = {});
    bool probe_body(const BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem) const;
    bool claim_body(const BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem);
    void release_claims();
    void replay_body(BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem, EventBatch& b);  // block_exit.hpp
    void replay_dbus(const BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem, uint64_t now0);
    uint64_t replay_checked(BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem, const uint8_t* n_mem,
                            EventBatch& b, bool with_tail);
    uint64_t record_body(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b, const uint64_t* key,
                         size_t key_len, bool with_tail);
    uint64_t step_body(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b, bool with_tail);
    uint64_t record_prefixes(const BlockMemo& m, BlockMemo::Recording& r, const MemRef* mem, const uint8_t* n_mem,
                             size_t stepped, uint64_t now0, uint64_t lsu_free0, uint64_t stm_issue0);
    // Body instructions [from, to) step() by step() (to m.size() + 1: the tail too, tail_insn_).
    uint64_t step_range(const BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b, size_t from, size_t to);
    // Partial replay (BlockMemo::Prefix): kept and used where no LSU or D-bus buffer is modelled (their state is not
    // in an Exit).
    bool partial_ok() const { return !lsu_ && !p_.dbus_queue; }
    uint64_t replay_partial(BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem, const uint8_t* n_mem,
                            EventBatch& b, bool with_tail);
    // After a partial replay stepped body instruction `from` - 1: the rest as a body of its own (BlockMemo::suffixes_)
    // where one can be timed so, else stepped.
    uint64_t time_suffix(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b, size_t from, bool with_tail);
    // The state after the body's first `n` instructions (`cycles` from the entry at now0; the events so far in
    // body_events_) into `e`; restore_exit() sets it again (its events added to `b`), from an entry at now0, but
    // s_.now.
    void save_exit(BlockMemo::Exit& e, const BlockMemo& m, size_t n, uint64_t cycles, uint64_t now0, uint64_t lsu_free0,
                   uint64_t stm_issue0) const;
    void restore_exit(const BlockMemo::Exit& e, uint64_t now0, EventBatch& b);
    uint64_t block(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b, bool with_tail);
    template <bool kLean>  // block() with the key's form chosen (lean_key_; block_key.cpp)
    uint64_t block_k(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b, bool with_tail);
    static void keep_recording(BlockMemo& m, BlockMemo::Recording&& r);
    bool same_state(const TimingModel& o) const;
    // loop_state() (`out`, d = 0) and skip_loop() (no `out`: the state moved on by `d`) in one walk
    // (model/timing/loop_state.cpp).
    bool loop_walk(std::vector<uint64_t>* out, uint64_t d, std::vector<uint64_t>* addrs = nullptr);
    struct LoopWalk;  // its visitor of the state (PipelineState::visit)
    // The fetches of `fetch_bytes` (4 if 0) an instruction starts: it may straddle two, or share one with the last.
    // `cached`: through the I-cache, where fetch_keeps_halfword applies (the uncached fetches' cost was calibrated
    // on 4-byte aligned fetches: hello_world).
    template <int kFull>
    uint64_t fetches_started(uint64_t pc, unsigned size, bool cached, unsigned& span);
    // The cycles an I-cache refill of `cost` adds to its instruction, where the fetch ran ahead (fetch_queue).
    uint64_t refill_wait(StepScratch& st, uint64_t cost);
    void refill_events(EventBatch& b);
    // The cycles an instruction waits for fetches the full fetch buffer held back (fetch_queue).
    template <int kFull>
    uint64_t fetch_room_wait(const StepScratch& st) const;

    TimingParams p_;
    std::array<std::array<bool, class_count>, class_count> pairs_{};  // pairs(older, younger), tabulated
    BranchPredictor bp_;
    std::optional<Cache> l1d_, l1i_, l2_, itlb_, dtlb_, main_tlb_;
    // Every cache and TLB once, in one order: what walks them all (has_caches, same_state, loop_state.cpp) is
    // written from it. `M` is TimingModel or const TimingModel.
    template <class M>
    static auto caches_of(M& m) -> std::array<decltype(&m.l1d_), n_caches> {
        return {&m.l1d_, &m.l1i_, &m.l2_, &m.itlb_, &m.dtlb_, &m.main_tlb_};
    }
    std::vector<uint64_t> seen_target_;
    PipelineState s_;  // the state between two instructions (pipeline_state.hpp)
    // Which of the state's cycles a rule can still tell from any earlier one (PipelineState::visit's `live`),
    // judged on the state as it is when made: a register ready for any use by the previous issue (a pair's, even
    // as an address or a shifted operand), a divider free, a wait over, a fetch entry that can no longer hold a
    // fetch back is past.
    struct StateLiveness {
        const TimingParams& p;
        uint64_t now, prev_issue, fetch_base;
        bool fetch_queue, lsu;
        StateLiveness(const TimingModel& m)
            : p(m.p_), now(m.s_.now), prev_issue(m.s_.prev_issue),
              fetch_base(std::min(m.s_.fetch_at + 1, m.s_.now - 2)), fetch_queue(m.p_.fetch_queue && !m.s_.refetch),
              lsu(m.lsu_.has_value()), fetch_at(m.s_.fetch_at) {}
        bool ready(uint64_t r) const { return r + TimingModel::earliest_need(p) > prev_issue; }
        bool addr(uint64_t t) const { return t > prev_issue; }
        bool divider(uint64_t t) const { return t > now; }
        bool postsync(uint64_t t) const { return t > now; }
        bool lsu_busy(uint64_t t) const { return t > now; }
        bool stm_lock(uint64_t t) const { return t + TimingModel::stm_lock_span(p) > now; }
        bool csr_write(uint64_t t) const { return t + 1 + p.csr_write_block > now; }
        bool fill_at(uint64_t t) const { return fetch_queue && t + p.fill_buffer_cycles > fetch_base; }
        bool fill_start(uint64_t t) const { return t + p.fill_redirect_commit > now; }
        bool fill_data(uint64_t t) const { return t + p.fill_next_miss > now; }
        bool mie_on(uint64_t t) const { return t + p.interrupt_after_enable > now + 1; }
        bool queue() const { return fetch_queue; }
        bool fetched(uint64_t f) const { return fetch_queue && f > fetch_at + 1; }
        bool lsu_followed() const { return lsu; }

    private:
        uint64_t fetch_at;
    };
    uint64_t mispredicts_ = 0;  // predict()'s mispredictions (VeeR EL2): a group's are the difference across it
    bool region_cacheable(uint64_t addr) const { return (s_.cacheable >> ((addr >> 28) & 15u)) & 1u; }  // its region's bit
    void state_words(std::vector<uint64_t>& out) const;
    // A misaligned access that the LSU splits in two (split_bytes).
    bool split_access(const MemRef& m) const {
        if (m.size <= 1) return false;
        return p_.split_bytes ? m.addr / p_.split_bytes != (m.addr + m.size - 1) / p_.split_bytes : m.addr % m.size != 0;
    }
    // An access across two 32-bit words (VeeR EL2: ldst_dual, lsu_buffers.hpp): two entries, a dual one.
    static bool crosses_word(const MemRef& m) { return (m.addr >> 2) != ((m.addr + (m.size ? m.size - 1u : 0u)) >> 2); }
    // An access across two dbus_beat-byte beats of the bus: two transactions.
    bool crosses_beat(const MemRef& m) const {
        return p_.dbus_beat && m.size > 1 && m.addr / p_.dbus_beat != (m.addr + m.size - 1) / p_.dbus_beat;
    }
    // s_.fetched[k], or 0 where it can no longer hold a fetch back (at or before s_.fetch_at + 1).
    uint64_t fetched_held(size_t k) const {
        return s_.fetched[k] > s_.fetch_at + 1 ? s_.fetched[k] : 0;
    }
    bool check_blocks_ = false;
    std::array<uint64_t, BlockMemo::max_key_words> key_{};  // step_block's scratch
    // The lookups claim_body() made, to undo (release_claims) where a later one misses, and those a failed claim
    // keeps for replay_partial() (claim_changes_, claim_touches_): per cache (ClaimSlot: the DTLB, the L1 D-cache,
    // the ITLB, the I-cache) the changes its touches made, latest last, and how many it made.
    enum ClaimSlot : size_t { claim_dtlb, claim_l1d, claim_itlb, claim_l1i, claim_slots };
    static constexpr size_t claim_max = 4 * BlockMemo::max_insns + 2;  // a cache's lookups in a body, at most
    std::array<std::array<Cache::Undo, claim_max>, claim_slots> claim_undo_{};
    std::array<size_t, claim_slots> claim_changes_{};
    std::array<uint64_t, claim_slots> claim_touches_{};
    // The body index of the instruction whose data lookup claim_body() last found missing (all_hit: the data all
    // hit, an instruction fetch missed): replay_partial() starts from it, the data lookups before it kept, instead of
    // probing and making the data again.
    size_t claim_data_miss_ = all_hit;
    EventBatch body_events_;
    // The tail of the block being timed (step_block with a tail): its instruction as executed and its flush.
    const isa::RetiredInsn* tail_insn_ = nullptr;
    unsigned tail_flush_ = 0;
    // The flushes of the branches in the body being timed (BlockMemo::inner_), predicted before it (predict_inner).
    std::vector<unsigned> inner_flush_;
    void predict_inner(const BlockMemo& m, EventBatch& b);
    // predict_inner() and, with `t`, the tail's predict() into tail_flush_: with the VeeR EL2 predictor's memo on,
    // as one group from BlockMemo::predicted_ where the same state meets the same branches again.
    void predict_body(BlockMemo& m, const BlockTail* t, EventBatch& b) {
        if (bp_.memo() && bp_.enabled() && !s_.next.interrupted && (t || !m.inner_.empty())) return predict_grouped(m, t, b);
        predict_inner(m, b);
        if (t) tail_flush_ = predict(*t->insn, t->pc, t->size, t->next_pc, b);
    }
    void predict_grouped(BlockMemo& m, const BlockTail* t, EventBatch& b);
    DbusState dbus_entry_;  // record_body's scratch
    // The LSU buffers (store_buffer > 0): fed by timed() with each load's and store's commit, and by a replayed
    // recording with the commits it recorded; their count is handed out by step() and step_block() alone, so that
    // no recording holds it. ls_log_: record_body's list of the body's commit and data-return cycles (nullptr when
    // not recording; the model's commits, before s_.lsu_pending).
    std::optional<LsuBuffers> lsu_;
    std::vector<std::pair<uint64_t, uint64_t>>* ls_log_ = nullptr;
    std::array<uint64_t, 2 + LsuBuffers::max_snapshot + 2 * 4 * BlockMemo::max_insns> lsu_key_{};  // lsu_replay's
    std::array<uint64_t, LsuBuffers::max_snapshot> lsu_exit_{};
    void lsu_replay(const BlockMemo::Recording& r, const MemRef* mem, uint64_t now0);
    // lsu_replay's memo: the distinct data words of the key (the entry state's and the accesses'), in order of first
    // use, and how many replays it applied to (lsu_memo_hits: a test hook).
    std::array<uint64_t, LsuBuffers::max_snapshot + 2 * BlockMemo::max_insns> lsu_words_{};
    uint64_t lsu_memo_hits_ = 0;
    // An access's bytes and where they go (the first of `n_mem` accesses at `mem`; none: no address).
    void lsu_place(LsuAccess& a, const MemRef* mem, unsigned n_mem) const {
        if (n_mem && p_.local_data) {
            a.first = mem[0].addr;
            a.last = a.first + (mem[0].size ? mem[0].size - 1 : 0);
            a.dccm = p_.local_data->contains(a.first);
            a.bus = !a.dccm;
        }
    }
    void lsu_commit(bool store, uint64_t commit, uint64_t prev, const MemRef* mem, unsigned n_mem, uint64_t data) {
        LsuAccess a;
        a.commit = commit;
        a.prev_commit = prev;
        a.store = store;
        a.data = data;
        lsu_place(a, mem, n_mem);
        lsu_->commit(a);
    }
    void emit_lsu_buffers(EventBatch& b) {
        if (lsu_) {
            lsu_->settle(s_.lsu_prev_eff);
            if (const uint64_t n = lsu_->take()) b.add(p_.ev_store_buffer_full, n);
        }
    }
    // The state as it acts from `now` on (the same behaviour, a canonical form): a channel free in the past free
    // now, a store whose timer ran out long ago gone, a store or read no load can meet any more forgotten. timed()
    // starts from it; the block timing keys on it.
    DbusState dbus_canonical(uint64_t now) const;
    // Where a body's exit address comes from: 0 none, 1-3 the entry's ibuf word, sent word, read beat, 4 + j the
    // word of the body's bus access j (the latest store of that word: a buffered word is a store's), 4 + max_bus + j
    // its beat (the latest load of that beat: the last read is a load's); 255: not found. The key holds which of
    // the body's stores (loads) these are at every entry with the key (key_dbus).
    uint8_t dbus_source(uint64_t v, bool beat, const DbusState& entry, const MemRef* const* bus, size_t n_bus) const;
    // The body's bus accesses, in order (at most BlockMemo::max_bus); returns how many.
    size_t bus_accesses(const BlockMemo& m, const MemRef* mem, const MemRef** out) const;
    // The write-coalescing buffer leaves for the command channel: its command at `due` or when its timer runs out,
    // whichever is first, and no sooner than the channel is free.
    void dbus_drain(uint64_t due);
    // An aligned bus load or store that issues at `at` (dbus_queue): the load's extra result latency, or ~0u when
    // it takes its value from the buffer; `transactions` gets the bus transactions it starts, `busy` the cycles its
    // command waits for the memory (dbus_cmd_gap).
    unsigned dbus_access(uint64_t at, const MemRef& m, bool load, unsigned& transactions, unsigned& busy);
};

}  // namespace pmusim::timing
