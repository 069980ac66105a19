#include "model/timing/timing_model.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "model/timing/veer_shape.hpp"

namespace pmusim::timing {

// What VeeR EL2's decoder makes of a control transfer (el2_dec_decode_ctl.sv: pcall, pja, pret): a JAL whose
// offset fits 13 signed bits is a call when it links x1 or x5, else a jump; a JALR x0 through x1 or x5 a return;
// other JALs and JALRs are not predicted.
BranchPredictor::VeerKind veer_kind(const isa::RetiredInsn& insn) {
    using K = BranchPredictor::VeerKind;
    if (insn.branch & isa::br_conditional) return K::cond;
    const uint32_t link = isa::reg_bit(1) | isa::reg_bit(5);
    if (insn.branch & isa::br_register) return insn.regs.dst == 0 && (insn.regs.src & link) ? K::ret : K::other;
    if (insn.branch & isa::br_far) return K::other;  // beyond the BTB's 12-bit offset
    return insn.regs.dst & link ? K::call : K::jump;
}

namespace {

// Whether a VeeR EL2 control transfer of `kind` at `pc` that went to `went` was taken: a jump always, a conditional
// branch unless it fell through (where only its successor is known: an interrupt entry's resume address).
bool veer_taken(BranchPredictor::VeerKind kind, uint64_t pc, unsigned size, uint64_t went) {
    return kind != BranchPredictor::VeerKind::cond || went != pc + size;
}

// A visit()'s fields' values, in its order (an array's element by element; an optional's presence, then its
// members where present; the key and a limit not kept).
struct VisitedValues {
    std::vector<uint64_t> v;
    void operator()(const char*, uint64_t x, unsigned = 0) { v.push_back(x); }
    void address(const char*, uint64_t x) { v.push_back(x); }
    template <class A>
    void per_class(const char*, const A& a) {
        v.insert(v.end(), a.begin(), a.end());
    }
    template <class T, class F>
    void optional(const char*, const std::optional<T>& o, F visit) {
        v.push_back(o.has_value());
        if (o) visit(*this, *o);
    }
};

// Whether any of the group G's parameters in p (G::visit's fields) leaves its default.
template <class G>
bool leaves_defaults(const TimingParams& p) {
    const G off{};
    VisitedValues set, defaults;
    G::visit(static_cast<const G&>(p), set);
    G::visit(off, defaults);
    return set.v != defaults.v;
}

}  // namespace

TimingModel::TimingModel(const TimingParams& p) : p_(p), bp_(p.predictor), seen_target_(1024, 0) {
    full_ = needs_full_step(p);
    arm_rules_ = arm_kernel(p);
    veer_shape_ = veer_shape(p);
    if (p.ooo) {
        if (full_) throw std::invalid_argument("timing: an out-of-order core has none of VeeR EL2's mechanisms");
        ooo_.emplace(*p.ooo, s_.now);
    }
    for (const uint8_t a : p.address_latency) addr_by_producer_ |= a != 0;
    plain_predictor_ = p.predictor.direction != PredictorConfig::Direction::veer_el2 &&
                       p.predictor.direction != PredictorConfig::Direction::btac;
    if (!branch_cycles_fit(p))
        throw std::invalid_argument("timing: a branch's cycles (mispredict_penalty, mispredict_flag_window, return_*_extra, "
                                    "load_return_miss_extra, load_pc_other_extra, static_taken_extra) are at most 16382 in all");
    if (p.fetch_queue > s_.fetched.size()) throw std::invalid_argument("timing: fetch_queue is at most 4");
    // The fetch granule, a power of two as platform_json.cpp checks: fetches_started() shifts by it.
    const unsigned granule = p.fetch_bytes ? p.fetch_bytes : 4;
    if (granule & (granule - 1)) throw std::invalid_argument("timing: fetch_bytes is 0 or a power of two");
    while ((1u << fetch_shift_) < granule) ++fetch_shift_;
    if (p.store_buffer > 8 || p.bus_buffer > 8) throw std::invalid_argument("timing: store_buffer and bus_buffer are at most 8");
    // dbus_canonical forgets a read once no later one can share it, which is also when none can wait behind it
    // only while the gap is at most 2.
    if (p.dbus_cmd_gap > 2) throw std::invalid_argument("timing: dbus_cmd_gap is at most 2");
    if (p.store_buffer) {
        LsuBuffers::Config c;
        c.store_depth = p.store_buffer;
        c.bus_depth = p.bus_buffer;
        c.ibuf_timeout = p.ibuf_timeout;
        c.ibuf_merge_window = p.ibuf_merge_window;
        lsu_.emplace(c);
    }
    if (p.l1d) l1d_.emplace(*p.l1d);
    if (p.l1i) l1i_.emplace(*p.l1i);
    if (p.l2) l2_.emplace(*p.l2);
    auto micro_tlb = [&](unsigned entries) {
        CacheConfig c;  // a fully associative cache of page-sized lines
        c.size = entries * p.page_size;
        c.ways = entries;
        c.line = p.page_size;
        c.write_back = false;
        return c;
    };
    for (size_t o = 0; o < class_count; ++o)
        for (size_t y = 0; y < class_count; ++y)
            pairs_[o][y] = p.pair_table ? (p.pair_with[o] >> y) & 1u
                                        : pairs(static_cast<isa::InsnClass>(o), static_cast<isa::InsnClass>(y));
    if (p.itlb_entries) itlb_.emplace(micro_tlb(p.itlb_entries));
    if (p.dtlb_entries) dtlb_.emplace(micro_tlb(p.dtlb_entries));
    if (p.main_tlb_entries) {
        CacheConfig c = micro_tlb(p.main_tlb_entries);
        c.ways = p.main_tlb_ways;
        main_tlb_.emplace(c);
    }
    lean_key_ = lean_key(p, lsu_.has_value(), l1d_.has_value());
}

unsigned TimingModel::next_level(uint64_t addr, bool write, EventBatch& b) {
    if (!l2_) return 0;
    const auto r = l2_->access(addr, write);
    emit(b, p_.ev_l2_access);
    if (r.writeback) emit(b, p_.ev_l2_writeback);
    if (!r.refill) return 0;
    emit(b, p_.ev_l2_refill);
    return write ? 0 : p_.l2_refill_penalty;  // a write-back goes to a buffer: no stall
}

// A micro TLB's refill (tlb(), step.cpp): the main TLB, and a walk when it misses too. Returns the cycles: the
// refill's, plus the walk's when there is one.
unsigned TimingModel::tlb_refill(uint64_t addr, uint32_t ev, EventBatch& b) {
    emit(b, ev);
    if (!main_tlb_ || !main_tlb_->access(addr, false).refill) return p_.tlb_refill_penalty;
    emit(b, p_.ev_main_tlb_refill);
    return p_.tlb_refill_penalty + p_.walk_penalty;
}

void TimingModel::set_mrac(uint32_t value) {
    s_.mrac = value;
    s_.cacheable = 0;
    for (unsigned r = 0; r < 16; ++r)
        if (((value >> (2 * r)) & 3u) == 1u) s_.cacheable = static_cast<uint16_t>(s_.cacheable | (1u << r));
}

// VeeR EL2's divider (el2_exu_div_ctl.sv, el2_exu_div_new_4bit_fullshortq, the default build's DIV_NEW = 1,
// DIV_BIT = 4): 4 quotient bits a step, 8 steps for 32 bits. When the divisor's leading sign bits less the
// dividend's, plus 1 (0 if negative), is below 28, a shift skips the quotient's known zero bits and only
// 1 + that / 4 steps run; a division by zero, and a division (not a remainder) whose operands are both below 16 or
// whose dividend is 0, finish at once. Measured (exec.log nbD lines): the result is written `steps` cycles after
// the division retires with the shortcut (tests/veer-rtl/muldiv: 5 and 6), 7 without (dhrystone_like: 0 % 5),
// and a consumer, like the next division, issues 4 cycles after that. `full` is the time without a shortcut
// (result_latency[div]); an immediate finish is taken as a 1-step one (no probe has one).
unsigned TimingModel::veer_div_time(unsigned full, uint32_t a, uint32_t b, bool rem) {
    if (full < 7) return full;
    if (b == 0 || (!rem && (a == 0 || (a < 16 && b < 16)))) return full - 6;
    // Leading sign bits, not counting the sign itself (el2_exu_div_cls): a positive value's leading zeros, a
    // negative one's leading ones less 1; 0 for 0.
    auto cls = [](uint32_t x) -> int {
        if (x == 0) return 0;
        if (!(x >> 31)) return __builtin_clz(x);
        return x == ~uint32_t{0} ? 31 : __builtin_clz(~x) - 1;
    };
    const int shortq = std::max(cls(b) - cls(a) + 1, 0);
    if (shortq >= 28) return full;
    return full - 7 + static_cast<unsigned>(shortq / 4) + 1;
}

// The mechanisms the lean step (kFull false, step.cpp) leaves out: each reads a parameter of FullStepParams, and with
// all of them at their defaults none changes a result. Compared field by field by FullStepParams::visit(), so that a
// parameter added there is never left out here.
bool TimingModel::needs_full_step(const TimingParams& p) { return leaves_defaults<FullStepParams>(p); }

// The rules the full step's kernel without them (arm_rules_none, step.cpp) leaves out: each reads a parameter of
// ArmRuleParams, and with all of them at their defaults none changes a result (arm_rules.hpp: visit_arm_rules names
// each with its rule; tests/unit/test_timing.cpp sets each alone).
bool TimingModel::needs_arm_rules(const TimingParams& p) { return arm_rules_used(p) != 0; }

ArmRules TimingModel::arm_kernel(const TimingParams& p) {
    const ArmRules used = arm_rules_used(p);
    if (needs_full_step(p)) return used ? arm_rules_all : arm_rules_none;
    return (used & ~arm_rules_cortex) ? arm_rules_all : arm_rules_cortex;
}

// The tests the kernel in VeeR EL2's shape (kFull 2, step.cpp) takes as true: each mechanism's parameter it takes
// as on set (VeerMechanisms, the one list: veer_shape.hpp), the fetch buffer's depth and granule as VeeR EL2's
// (veer() in platforms/timing_params.cpp), no ARM rule and no out-of-order core.
bool TimingModel::veer_shape(const TimingParams& p) {
    return needs_full_step(p) && !needs_arm_rules(p) && !p.ooo && p.fetch_queue == veer_fetch_queue &&
           p.fetch_bytes == 1u << veer_fetch_shift && VeerMechanisms::all_set(p);
}

bool TimingModel::branch_cycles_fit(const TimingParams& p) {
    // The most predict() adds (a mispredicted return, a branch onto a folded one's) and the flags' distance.
    return uint64_t{p.mispredict_penalty} + p.mispredict_flag_window +
               std::max({p.return_hit_extra, p.return_miss_extra, p.load_return_miss_extra, p.load_pc_other_extra}) + p.static_taken_extra +
               std::max(p.taken_extra, p.btic_taken_extra) + 1 <=
           branch_cycles;
}

void TimingModel::set_mstatus(uint32_t value) {
    if (!(s_.mstatus & 8u) && (value & 8u)) s_.mie_on = s_.now;  // MIE set by the write, which has committed
    s_.mstatus = value;
    s_.pending_extra += p_.mstatus_write_extra;
}

void TimingModel::take_interrupt(unsigned cause, bool from_halt) {
    s_.mstatus = trap_entry(s_.mstatus);
    // Woken from fw-halt: the handler's first instruction takes the fw_halt_wake cycles the core ran in the trace's
    // gap (tests/veer-rtl/irq), its own included.
    if (from_halt && p_.fw_halt_wake) {
        s_.pending_extra += p_.fw_halt_wake - 1;
    } else if (p_.interrupt_after_enable) {
        // The flush (dec_tlu_flush_lower_r, interrupt_valid_r) lands a cycle after the last commit, where the next
        // instruction would have committed, or, right after the instruction that set mstatus.MIE, no sooner than
        // interrupt_after_enable cycles after it (el2_dec_tlu_ctl.sv: no interrupt is taken while
        // dec_csr_stall_int_ff, the cycle after a write to mstatus, nor with mret_r); the handler's first
        // instruction commits interrupt_entry cycles after the flush. The flush takes the place of what the
        // interrupted instruction waited for: a trap's redirect (pending_extra) and a postsync (issue_stage).
        // tests/veer-rtl/irqpair: csrw mstatus commits at 1527, the flush at 1529 (the trace port shows the csrw
        // again), the handler's c.addi at 1532; mret at 1551, the flush at 1553, the handler at 1556 (not the
        // 1530 and 1555 of a postsync or an mret's redirect before the 3 of the entry).
        const uint64_t flush = std::max(s_.now + 1, s_.mie_on + p_.interrupt_after_enable);
        s_.pending_extra = static_cast<unsigned>(flush - s_.now - 1) + p_.interrupt_entry;
    } else {
        s_.pending_extra += p_.interrupt_entry;
    }
    // The TLU's flush of the entry (dec_tlu_flush_lower_r) finds the next instruction at decode and stops it there:
    // a decode stall (el2_dec_decode_ctl.sv, dec_pmu_decode_stall = i0_valid_d & ~dec_i0_decode_d, decode killed by
    // the flush), one per entry but the wake from fw-halt, where nothing is at decode (tests/veer-rtl/irq and
    // irqpair, rtl_trace.sh dec: event 30 is the postsync stalls and one such cycle per entry; the external
    // interrupt's freeze, dec_extint_stall, holds no instruction at decode and is not counted).
    s_.pending_entry_stall = from_halt ? 0u : 1u;
    if (cause == 11 && p_.ext_interrupt_freeze) {  // machine external interrupt (privileged spec 3.1.9)
        s_.pending_extra += p_.ext_interrupt_freeze;
        s_.pending_freeze += p_.ext_interrupt_freeze;
    }
    s_.next_fetch_new = true;  // the handler is fetched anew
    s_.refetch = true;
}

uint64_t TimingModel::step(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, uint64_t next_pc,
                           const MemRef* mem, unsigned n_mem, EventBatch& b, const StepInputs& in) {
    s_.next = in;  // read by predict() and timed(), which clear what only this step may see
    const unsigned flush = insn.branch ? predict(insn, pc, size, next_pc, b) : 0;
    if (s_.next.killed_kind) killed_at_entry(next_pc);
    const uint64_t cycles = timed(insn, pc, size, mem, n_mem, b, flush);
    emit_lsu_buffers(b);
    return cycles;
}

// A body's predictions as one group (VeeR EL2 with the predictor's memo on): the same branches (the body's, fixed
// by the BlockMemo and its exit address, and the tail's address, successor and kind) from the same predictor state
// make the same flushes, mispredictions and predictor changes, which a BlockMemo keeps for its last few states.
void TimingModel::predict_grouped(BlockMemo& m, const BlockTail* t, EventBatch& b) {
    std::array<uint64_t, BranchPredictor::state_words + 4> key{};
    bp_.state_key(key.data());
    constexpr size_t s = BranchPredictor::state_words;
    key[s] = m.after_;
    auto tail_kind = BranchPredictor::VeerKind::other;
    if (t) {
        const isa::RetiredInsn& in = *t->insn;
        tail_kind = veer_kind(in);
        key[s + 1] = t->pc;
        key[s + 2] = t->next_pc;
        key[s + 3] = 1u | uint64_t{t->size} << 8 | static_cast<uint64_t>(tail_kind) << 16 |
                     uint64_t{(in.branch & isa::br_taken) != 0} << 24 | uint64_t{in.cond_failed} << 25 |
                     uint64_t{(in.branch & isa::br_exc_return) != 0} << 26;
    }
    if (inner_flush_.size() < m.inner_.size()) inner_flush_.resize(m.inner_.size());
    // Word by word, not memcmp: most entries differ in the first words (the histories, the signature).
    auto same = [&key](const BlockMemo::Predicted& e) {
        for (size_t k = 0; k < key.size(); ++k)
            if (e.key[k] != key[k]) return false;
        return true;
    };
    for (auto& e : m.predicted_)
        if (e.valid && same(e)) {
            bp_.apply(e.changes);
            std::copy(e.inner_flush.begin(), e.inner_flush.begin() + static_cast<std::ptrdiff_t>(m.inner_.size()), inner_flush_.begin());
            if (t) tail_flush_ = e.tail_flush;
            if (e.mispredicts) emit(b, p_.ev_mispredict, e.mispredicts);
            return;
        }
    const uint64_t mis0 = mispredicts_;
    bp_.group_begin();
    predict_inner(m, b);
    if (t) {  // (the memo is VeeR EL2's, and no interrupt is taken: predict_other's first case, as predict_inner's)
        const isa::RetiredInsn& in = *t->insn;
        tail_flush_ = veer_predicted_directly(in)
                          ? veer_flush(bp_.veer(t->pc, t->size, tail_kind, (in.branch & isa::br_taken) != 0, t->next_pc), b)
                          : predict(in, t->pc, t->size, t->next_pc, b);
    }
    BlockMemo::Predicted& e = m.predicted_[m.next_predicted_];
    if (!bp_.group_end(e.changes)) return;
    m.next_predicted_ = (m.next_predicted_ + 1) % BlockMemo::max_predicted;
    e.key = key;
    e.valid = true;
    std::copy(inner_flush_.begin(), inner_flush_.begin() + static_cast<std::ptrdiff_t>(m.inner_.size()), e.inner_flush.begin());
    e.tail_flush = t ? tail_flush_ : 0;
    e.mispredicts = static_cast<uint32_t>(mispredicts_ - mis0);
}

// VeeR EL2: the control transfer at mepc (StepInputs::killed_kind), which the trace shows before an interrupt entry
// and the reader drops, went through execute before the entry's flush killed it in R, going where it goes when it
// runs again after the mret (StepInputs::killed_next). Its prediction was checked in X: a misprediction writes its
// counter and a BTB entry (el2_ifu_bp_ctl.sv bht_wr_en0 and btb_wr_en_way0/1 from exu_mp_pkt, valid at
// i0_flush_upper_x, before the kill), and a predicted one puts its outcome in execute's history (el2_exu.sv ghr_x_ns
// from i0_valid_x and i0_taken_x), which the entry's flush hands to fetch (el2_ifu_bp_ctl.sv fghr_ns from exu_mp_fghr
// at exu_flush_final), fetching the handler at `handler`. It never commits: no event 25 (el2_dec_tlu_ctl.sv
// MHPME_BRANCH_MP needs tlu_i0_commit_cmt) and no cycles of its own. tests/veer-rtl/irq, rtl_trace.sh bht: the
// `c.beqz` at 0x80000496 killed at the third window's entry (t=29855), whose handler reads with its bit (history
// 0x7f; the model read 0x3f without this).
void TimingModel::killed_at_entry(uint64_t handler) {
    const uint64_t at = s_.next.resume, went = s_.next.killed_next;
    const unsigned size = s_.next.killed_size;
    const auto kind = static_cast<BranchPredictor::VeerKind>(s_.next.killed_kind - 1);
    s_.next.killed_kind = 0;
    if (p_.predictor.direction != PredictorConfig::Direction::veer_el2 || !s_.next.interrupted || !at || !went) return;
    bp_.veer(at, size, kind, veer_taken(kind, at, size, went), went);
    bp_.veer_flush_to(handler, went);
}

// Branches: direction for conditional ones (an A32/T32 branch whose condition failed is one not taken), target
// for indirect ones. Only the predictor's state is read and written here, and only prediction events are added.
unsigned TimingModel::predict_other(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, uint64_t next_pc, EventBatch& b) {
    const bool taken = (insn.branch & isa::br_taken) && !insn.cond_failed;
    const bool conditional = (insn.branch & isa::br_conditional) || insn.cond_failed;
    if (p_.predictor.direction == PredictorConfig::Direction::veer_el2) {
        if (insn.branch & isa::br_exc_return) {
            // mret: a flush, not a prediction. Its flush (dec_tlu_flush_lower_wb, exu_flush_final) restores fetch's
            // global history from execute's as a branch's does (el2_ifu_bp_ctl.sv, fghr_ns): irqpair's wait loop
            // after an entry, its exit mispredicted as on the RTL (event 25 5; -1.1% to -0.6%).
            bp_.veer_flush_to(next_pc, pc + size);
            return 0;
        }
        const auto kind = veer_kind(insn);
        // The last instruction before an interrupt entry (StepInputs::interrupted): the trace shows the handler as
        // its successor, not where it went. It committed, so it went where the program resumes after the handler
        // (mepc, StepInputs::resume), and the predictor was trained with that outcome: a taken branch the BTB missed
        // is allocated, a mispredicted one writes its counter, and its bit goes into execute's history, which the
        // entry's flush hands to fetch (el2_ifu_bp_ctl.sv: btb_wr_en_way0/1 and bht_wr_en0 from exu_mp_pkt at the
        // branch's flush; fghr_ns from exu_mp_fghr, el2_exu.sv ghr_x, at the TLU's flush, exu_flush_final).
        // tests/veer-rtl/irq, rtl_trace.sh bht: the cold `c.beqz` at 0x80000496 taken just before the first entry
        // writes counter 0x24 (W0, t=2045) and hits at its next fetch (t=2605); the `bgeu` at 0x800004c4 taken before
        // internal timer 0's entry writes 0x8f (W0, t=3505) and the handler's `bne` reads with its bit (ghr 0x7f).
        // Where the resume address is not known: taken to go where predicted.
        const uint64_t resume = s_.next.resume;
        return veer_flush(!s_.next.interrupted ? bp_.veer(pc, size, kind, taken, next_pc)
                          : resume  ? bp_.veer(pc, size, kind, veer_taken(kind, pc, size, resume), resume)
                                    : bp_.veer_as_predicted(pc, size, kind),
                          b);
    }
    // BR_PRED, "predictable branch speculatively executed" (Arm ARM, PMUv3 common events, 0x12; ARMv7 ARM C12.8):
    // every branch of a kind the core's prediction resources handle, whether they predicted it well, badly or (off)
    // not at all: conditional ones (their condition failed too), unconditional immediate ones (B, BL), indirect
    // ones and returns. An exception return the core does not predict (predict_exc_return off) is a flush and no
    // predictable branch. BR_MIS_PRED (0x10, "mispredicted or not predicted") counts the subset whose prediction
    // was wrong or absent (docs/models.md, "Branch events").
    bool mispredicted = false, ldm_pc = false;
    unsigned return_extra = 0;
    const bool predictable = !(taken && (insn.branch & isa::br_exc_return) && !p_.predict_exc_return);
    const bool btac = p_.predictor.direction == PredictorConfig::Direction::btac;
    BtacCost cost;
    if (btac) {
        cost = predict_btac(insn, pc, size, next_pc, taken, conditional);
        mispredicted = cost.mispredicted;
    } else if (conditional) {
        mispredicted = bp_.conditional(pc, conditional_target(pc, size, next_pc, taken), taken);
    }
    if (!predictable) {
        // a flush, not a prediction
    } else if (taken && (insn.branch & isa::br_register)) {
        const bool ret = insn.branch & isa::br_return;
        const bool empty = bp_.return_stack_empty();
        const bool miss = bp_.indirect(pc, next_pc, ret);
        mispredicted |= miss;
        if (ret && bp_.enabled() && p_.predictor.ras_depth) {
            emit(b, p_.ev_ras_pop);
            emit(b, miss ? p_.ev_ras_miss : p_.ev_ras_hit);
            // A return's own cycles beyond a predicted branch's (return_hit_extra, return_miss_extra).
            return_extra = !miss ? p_.return_hit_extra : empty ? 0u : p_.return_miss_extra;
            // A conditional return (btac) costs as a misprediction, whatever the stack held (TRM Table 16-11).
            if (btac && conditional) return_extra = 0;
            // A return by LDM (TRM Table 16-19): wrong, empty or conditional, load_return_miss_extra more.
            ldm_pc = insn.multiple && p_.load_return_miss_extra;
            if (ldm_pc && (miss || (btac && conditional))) return_extra = p_.load_return_miss_extra;
        } else if (!ret && insn.multiple && miss && p_.load_pc_other_extra) {
            // A load multiple of the PC from another base (TRM Table 16-19): never predicted, load_pc_other_extra more.
            ldm_pc = true;  // its cost does not grow with the flags' distance either
            return_extra = p_.load_pc_other_extra;
        }
    } else if (taken && !conditional && !bp_.enabled()) {
        mispredicted = true;  // prediction off: even unconditional branches are assumed not taken
    }
    if (taken && (insn.branch & isa::br_call)) {
        bp_.call(pc + size);
        if (bp_.enabled() && p_.predictor.ras_depth) emit(b, p_.ev_ras_push);
    }
    if (predictable) emit(b, p_.ev_predictable);
    // A misprediction's cost grows as the flags are set closer before it (mispredict_flag_window), but for an LDM
    // of the PC (Table 16-19: a return 9 cycles, from another base 8).
    if (mispredicted) return (mispredicted_flush(b) + return_extra + cost.extra) | (ldm_pc ? 0u : branch_flag_distance);
    const unsigned bubble = taken && predictable ? taken_bubble(pc, next_pc) : 0u;
    return (return_extra + cost.extra + (bubble & branch_cycles)) | (bubble & branch_bubble) |
           (cost.folded ? branch_folded : 0u);
}

// The btac direction (ARM1176 TRM 5.2, Table 16-11). A direct branch (B, BL, BLX immediate) goes through the BTAC
// (BranchPredictor::direct); predicted right, it takes one cycle (a hit, or not taken by the static rule), four when
// the static rule predicted it taken (static_taken_extra), none when a hit predicted it taken and it is folded
// (5.2.4: not a BL or BLX, whose link would be lost). The BTAC holds no branch through a register: a conditional
// one is predicted not taken ("BX<cond> <reg>": 1 cycle not taken, 5-7 taken, a conditional return 5-7); an
// unconditional one is the return stack's or the target buffer's (predict_other). A branch right at the target of
// the branch folded last is a predicted branch onto a branch: that one was not folded, and its cycle is charged here.
TimingModel::BtacCost TimingModel::predict_btac(const isa::RetiredInsn& insn, uint64_t pc, unsigned size,
                                                uint64_t next_pc, bool taken, bool conditional) {
    BtacCost c;
    if (bp_.take_folded(pc)) c.extra = 1;
    // How many instructions this branch comes after the branch before it (btac_reach); it is the last one now.
    const unsigned since = bp_.since_branch(pc, size);
    bp_.branch_seen(next_pc);
    if (!(insn.branch & isa::br_immediate)) {
        c.mispredicted = conditional && taken;
        return c;
    }
    const auto d = bp_.direct(pc, conditional_target(pc, size, next_pc, taken), taken, conditional,
                              since >= p_.predictor.btac_reach);
    c.mispredicted = d.mispredicted;
    if (d.mispredicted || !taken) return c;
    if (!d.hit) {
        c.extra += p_.static_taken_extra;
    } else if (p_.fold_predicted_taken && !(insn.branch & isa::br_call)) {
        c.folded = true;
        bp_.set_folded(next_pc);
    }
    return c;
}

unsigned TimingModel::mispredicted_flush(EventBatch& b) {
    emit(b, p_.ev_mispredict);
    if (p_.flush_fetch_stall) emit(b, p_.ev_fetch_stall, p_.flush_fetch_stall);
    if (p_.wrong_path) {
        for (uint32_t ev : p_.ev_spec) emit(b, ev, p_.wrong_path);
        emit(b, p_.ev_l1i_hit, p_.wrong_path);
    }
    return p_.mispredict_penalty;
}

// VeeR EL2's D-bus buffer (el2_lsu_bus_buffer.sv; the times measured on tests/veer-rtl/busgap and busmix with a
// copy of the RTL that prints every AXI handshake and the ibuf's writes, merges and drains):
//  - ibuf_drain_vld: the ibuf drains on its timer, or when a bus access reaches M with nothing in R
//    (ibuf_force_drain: the access issues 2 or more cycles after the store; one right behind it does not push it);
//  - obuf: one command a cycle, the buffer's entries in order (a store that left the ibuf before a load's command
//    goes first, and the load's command a cycle later: busgap, loads 2-9 cycles behind a store, 6 cycles to their
//    use instead of 5);
//  - ld_full_hit: a load whose bytes a buffered store holds takes them (busgap: 1 cycle to its use);
//  - obuf_nosend: a load of the beat of the read before it, while that read waits for its response, sends nothing
//    (busmix's struct copy: 4 word loads, 2 reads).
// The ibuf's store leaves for the command channel: its command at `cmd`, no sooner than the channel is free.
void DbusState::send(uint64_t cmd) {
    cmd = std::max(cmd, free);
    free = cmd + 1;
    sent_word = ibuf_word;
    sent_bytes = ibuf_bytes;
    sent_until = cmd;
    ibuf = ibuf_join = false;
    ibuf_word = ibuf_last = 0;
    ibuf_bytes = 0;
}

DbusState TimingModel::dbus_canonical(uint64_t now) const {
    DbusState d = s_.dbus;
    if (d.ibuf && d.ibuf_last + p_.ibuf_timeout < now) d.send(d.ibuf_last + p_.ibuf_timeout);  // gone on its timer
    if (d.ibuf && d.ibuf_join && now > d.ibuf_last + p_.ibuf_merge_window) d.ibuf_join = false;
    if (d.free < now) d.free = now;
    if (d.sent_until < now) {
        d.sent_word = ~uint64_t{0};
        d.sent_until = 0;
        d.sent_bytes = 0;
    }
    if (d.read_resp < now + p_.dbus_read_cmd) d.forget_read();
    return d;
}

void TimingModel::dbus_drain(uint64_t due) {
    if (s_.dbus.ibuf) s_.dbus.send(std::min(due, s_.dbus.ibuf_last + p_.ibuf_timeout));
}

unsigned TimingModel::dbus_access(uint64_t at, const MemRef& m, bool load, unsigned& transactions, unsigned& busy) {
    const uint64_t word = m.addr >> 2;
    const uint8_t bytes = static_cast<uint8_t>(((1u << m.size) - 1u) << (m.addr & 3u));
    const uint64_t read = at + p_.dbus_read_cmd;
    transactions = busy = 0;
    if (!load) {
        if (s_.dbus.ibuf && s_.dbus.ibuf_join && s_.dbus.ibuf_word == word && at <= s_.dbus.ibuf_last + p_.ibuf_merge_window) {
            s_.dbus.ibuf_bytes |= bytes;  // ibuf_merge_en: the same transaction
            s_.dbus.ibuf_last = at;
            return 0;
        }
        dbus_drain(read + 1);  // the new store's write pushes the buffered one out (ibuf_wr_en)
        s_.dbus.ibuf = s_.dbus.ibuf_join = true;
        s_.dbus.ibuf_word = word;
        s_.dbus.ibuf_bytes = bytes;
        s_.dbus.ibuf_last = at;
        transactions = 1;
        return 0;
    }
    const bool in_ibuf = s_.dbus.ibuf && s_.dbus.ibuf_word == word && (bytes & ~s_.dbus.ibuf_bytes) == 0;
    const bool in_sent = s_.dbus.sent_word == word && at <= s_.dbus.sent_until && (bytes & ~s_.dbus.sent_bytes) == 0;
    // A load 2 or more cycles behind the buffered store pushes it out, its command ahead of the load's; one right
    // behind it leaves it to its timer.
    if (s_.dbus.ibuf && at >= s_.dbus.ibuf_last + 2) dbus_drain(read);
    s_.dbus.ibuf_join = false;  // no store joins one that a load came after (busgap: a store, a load, a store)
    if (in_ibuf || in_sent) return ~0u;
    if (s_.dbus.read_beat == (m.addr >> 3) && read <= s_.dbus.read_resp) return 0;  // shares the read before it
    const uint64_t ready = std::max(read, s_.dbus.free);
    // The memory takes the next read command dbus_cmd_gap cycles after the last one (read_resp - 1) at the
    // earliest: the command waits, valid and not ready, which lsu_pmu_bus_busy counts (event 48).
    const uint64_t gap = s_.dbus.read_beat != ~uint64_t{0} && p_.dbus_cmd_gap ? s_.dbus.read_resp - 1 + p_.dbus_cmd_gap : 0;
    const uint64_t cmd = std::max(ready, gap);
    busy = static_cast<unsigned>(cmd - ready);
    s_.dbus.free = cmd + 1;
    s_.dbus.read_beat = m.addr >> 3;
    s_.dbus.read_resp = cmd + 1;
    transactions = 1;
    return static_cast<unsigned>(cmd - read);
}

bool TimingModel::pairs(isa::InsnClass older, isa::InsnClass younger) {
    using C = isa::InsnClass;
    auto single = [](C c) { return c == C::alu || c == C::load || c == C::store || c == C::branch || c == C::jump || c == C::mul; };
    if (!single(older) || !single(younger)) return false;
    auto mem = [](C c) { return c == C::load || c == C::store; };
    auto br = [](C c) { return c == C::branch || c == C::jump; };
    if ((mem(older) && mem(younger)) || (older == C::mul && younger == C::mul)) return false;
    return !(br(older) && br(younger));
}

std::vector<uint32_t> TimingModel::produced_events() const {
    std::vector<uint32_t> v;
    for (uint32_t e : {p_.ev_mispredict, p_.ev_predictable, p_.ev_stall_frontend, p_.ev_stall_backend, p_.ev_fetch_stall,
                       p_.ev_dep_stall, p_.ev_spec[0], p_.ev_spec[1], p_.ev_irq_disabled, p_.ev_presync, p_.ev_postsync})
        if (e != no_event) v.push_back(e);
    if (p_.predictor.ras_depth)
        for (uint32_t e : {p_.ev_ras_push, p_.ev_ras_pop, p_.ev_ras_hit, p_.ev_ras_miss})
            if (e != no_event) v.push_back(e);
    if (p_.l1i)
        for (uint32_t e : {p_.ev_l1i_access, p_.ev_l1i_refill, p_.ev_ibus_access, p_.fetch_bytes ? p_.ev_l1i_hit : no_event})
            if (e != no_event) v.push_back(e);
    if (p_.itlb_entries && p_.ev_itlb_refill != no_event) v.push_back(p_.ev_itlb_refill);
    if (p_.l1i && p_.ibus_read_gap && p_.ev_ibus_busy != no_event) v.push_back(p_.ev_ibus_busy);
    // Main TLB misses come from both micro TLBs: without data addresses they are incomplete.
    for (uint32_t e : address_events()) v.push_back(e);
    return v;
}

std::vector<uint32_t> TimingModel::address_events() const {
    std::vector<uint32_t> v;
    if (p_.l1d)
        for (uint32_t e : {p_.ev_l1d_access, p_.ev_l1d_refill, p_.ev_l1d_writeback})
            if (e != no_event) v.push_back(e);
    if (p_.dtlb_entries && p_.ev_dtlb_refill != no_event) v.push_back(p_.ev_dtlb_refill);
    if (p_.main_tlb_entries && p_.ev_main_tlb_refill != no_event) v.push_back(p_.ev_main_tlb_refill);
    if (p_.l1d)
        for (uint32_t e : {p_.ev_l1d_access_cacheable, p_.ev_l1d_external})
            if (e != no_event) v.push_back(e);
    // L2 traffic comes from data refills and write-backs too: without data addresses it is incomplete.
    if (p_.l2)
        for (uint32_t e : {p_.ev_l2_access, p_.ev_l2_refill, p_.ev_l2_writeback})
            if (e != no_event) v.push_back(e);
    if (p_.local_data)
        for (uint32_t e : {p_.ev_bus_access, p_.ev_bus_load, p_.ev_bus_store, p_.ev_bus_misaligned})
            if (e != no_event) v.push_back(e);
    if (p_.local_data && p_.dbus_queue && p_.dbus_cmd_gap && p_.ev_dbus_busy != no_event) v.push_back(p_.ev_dbus_busy);
    if (p_.store_buffer && p_.ev_store_buffer_full != no_event) v.push_back(p_.ev_store_buffer_full);
    return v;
}

}  // namespace pmusim::timing
