#include "model/timing/timing_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace pmusim::timing {

namespace {

void emit(EventBatch& b, uint32_t ev, uint64_t n = 1) {
    if (ev != no_event) b.add(ev, n);
}

unsigned ctz(uint32_t m) { return static_cast<unsigned>(__builtin_ctz(m)); }

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

// mstatus on entry to a trap handler (RISC-V privileged spec 3.1.6.1): MPIE = MIE, MIE = 0.
uint32_t trap_entry(uint32_t mstatus) { return (mstatus & ~0x88u) | ((mstatus & 8u) ? 0x80u : 0u); }

}  // namespace

TimingModel::TimingModel(const TimingParams& p) : p_(p), bp_(p.predictor), seen_target_(1024, 0) {
    plain_predictor_ = p.predictor.direction != PredictorConfig::Direction::veer_el2;
    if (p.fetch_queue > fetched_.size()) throw std::invalid_argument("timing: fetch_queue is at most 4");
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
            pairs_[o][y] = pairs(static_cast<isa::InsnClass>(o), static_cast<isa::InsnClass>(y));
    if (p.itlb_entries) itlb_.emplace(micro_tlb(p.itlb_entries));
    if (p.dtlb_entries) dtlb_.emplace(micro_tlb(p.dtlb_entries));
    if (p.main_tlb_entries) {
        CacheConfig c = micro_tlb(p.main_tlb_entries);
        c.ways = p.main_tlb_ways;
        main_tlb_.emplace(c);
    }
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

unsigned TimingModel::tlb(std::optional<Cache>& t, uint64_t addr, uint32_t ev, EventBatch& b, uint64_t* walk) {
    if (!t || !t->access(addr, false).refill) return 0;
    emit(b, ev);
    if (!main_tlb_ || !main_tlb_->access(addr, false).refill) return p_.tlb_refill_penalty;
    emit(b, p_.ev_main_tlb_refill);
    if (walk) *walk += p_.walk_penalty;
    return p_.tlb_refill_penalty + p_.walk_penalty;
}

uint64_t TimingModel::fetches_started(uint64_t pc, unsigned size, bool cached, unsigned* span) {
    const unsigned granule = p_.fetch_bytes ? p_.fetch_bytes : 4;
    // In the line a redirect entered at an odd halfword the fetches start there (fetch_keeps_halfword).
    auto fetch_of = [&](uint64_t a) {
        return (cached && phase_line_ != ~uint64_t{0} && l1i_->line_of(a) == phase_line_ ? a - 2 : a) / granule;
    };
    const uint64_t first = fetch_of(pc), last = fetch_of(pc + size - 1);
    if (span) *span = static_cast<unsigned>(last - first + 1);
    const uint64_t n = last - first + (first != last_fetch_ ? 1 : 0);
    last_fetch_ = last;
    return n;
}

void TimingModel::set_mrac(uint32_t value) {
    mrac_ = value;
    cacheable_ = 0;
    for (unsigned r = 0; r < 16; ++r)
        if (((value >> (2 * r)) & 3u) == 1u) cacheable_ = static_cast<uint16_t>(cacheable_ | (1u << r));
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

void TimingModel::set_mstatus(uint32_t value) {
    mstatus_ = value;
    pending_extra_ += p_.mstatus_write_extra;
}

void TimingModel::take_interrupt(unsigned cause, bool from_halt) {
    mstatus_ = trap_entry(mstatus_);
    // Woken from fw-halt: the handler's first instruction takes the fw_halt_wake cycles the core ran in the trace's
    // gap (tests/veer-rtl/irq), its own included.
    pending_extra_ += from_halt && p_.fw_halt_wake ? p_.fw_halt_wake - 1 : p_.interrupt_entry;
    if (cause == 11 && p_.ext_interrupt_freeze) {  // machine external interrupt (privileged spec 3.1.9)
        pending_extra_ += p_.ext_interrupt_freeze;
        pending_freeze_ += p_.ext_interrupt_freeze;
    }
    next_fetch_new_ = true;  // the handler is fetched anew
    refetch_ = true;
}

uint64_t TimingModel::step(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, uint64_t next_pc,
                           const MemRef* mem, unsigned n_mem, EventBatch& b) {
    const unsigned flush = insn.branch ? predict(insn, pc, size, next_pc, b) : 0;
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
    if (t) {
        const isa::RetiredInsn& in = *t->insn;
        key[s + 1] = t->pc;
        key[s + 2] = t->next_pc;
        key[s + 3] = 1u | uint64_t{t->size} << 8 | static_cast<uint64_t>(veer_kind(in)) << 16 |
                     uint64_t{(in.branch & isa::br_taken) != 0} << 24 | uint64_t{in.cond_failed} << 25 |
                     uint64_t{(in.branch & isa::br_exc_return) != 0} << 26;
    }
    if (inner_flush_.size() < m.inner_.size()) inner_flush_.resize(m.inner_.size());
    for (auto& e : m.predicted_)
        if (e.valid && e.key == key) {
            bp_.apply(e.changes);
            std::copy(e.inner_flush.begin(), e.inner_flush.begin() + static_cast<std::ptrdiff_t>(m.inner_.size()), inner_flush_.begin());
            if (t) tail_flush_ = e.tail_flush;
            if (e.mispredicts) emit(b, p_.ev_mispredict, e.mispredicts);
            return;
        }
    const uint64_t mis0 = mispredicts_;
    bp_.group_begin();
    predict_inner(m, b);
    if (t) tail_flush_ = predict(*t->insn, t->pc, t->size, t->next_pc, b);
    BlockMemo::Predicted& e = m.predicted_[m.next_predicted_];
    if (!bp_.group_end(e.changes)) return;
    m.next_predicted_ = (m.next_predicted_ + 1) % BlockMemo::max_predicted;
    e.key = key;
    e.valid = true;
    std::copy(inner_flush_.begin(), inner_flush_.begin() + static_cast<std::ptrdiff_t>(m.inner_.size()), e.inner_flush.begin());
    e.tail_flush = t ? tail_flush_ : 0;
    e.mispredicts = static_cast<uint32_t>(mispredicts_ - mis0);
}

// Branches: direction for conditional ones (an A32/T32 branch whose condition failed is one not taken), target
// for indirect ones. Only the predictor's state is read and written here, and only prediction events are added.
unsigned TimingModel::predict_other(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, uint64_t next_pc, EventBatch& b) {
    const bool taken = (insn.branch & isa::br_taken) && !insn.cond_failed;
    const bool conditional = (insn.branch & isa::br_conditional) || insn.cond_failed;
    if (p_.predictor.direction == PredictorConfig::Direction::veer_el2) {
        if (insn.branch & isa::br_exc_return) return 0;  // mret: a flush, not a prediction
        const auto kind = veer_kind(insn);
        // The last instruction before an interrupt entry (set_next_interrupted): the trace shows the handler as
        // its successor, not where it went: taken to go where predicted.
        const auto o = next_interrupted_ ? bp_.veer_as_predicted(pc, size, kind) : bp_.veer(pc, size, kind, taken, next_pc);
        if (o.mispredicted) {
            emit(b, p_.ev_mispredict);
            ++mispredicts_;
        }
        return o.flush ? p_.mispredict_penalty : 0;
    }
    bool mispredicted = false, predictable = false;
    if (conditional) {
        mispredicted = bp_.conditional(pc, conditional_target(pc, size, next_pc, taken), taken);
        predictable = true;
    }
    if (taken && (insn.branch & isa::br_exc_return) && !p_.predict_exc_return) {
        // a flush, not a prediction
    } else if (taken && (insn.branch & isa::br_register)) {
        const bool ret = insn.branch & isa::br_return;
        const bool miss = bp_.indirect(pc, next_pc, ret);
        mispredicted |= miss;
        predictable = true;
        if (ret && bp_.enabled() && p_.predictor.ras_depth) {
            emit(b, p_.ev_ras_pop);
            emit(b, miss ? p_.ev_ras_miss : p_.ev_ras_hit);
        }
    } else if (taken && !conditional && !bp_.enabled()) {
        mispredicted = true;  // prediction off: even unconditional branches are assumed not taken
    }
    if (taken && (insn.branch & isa::br_call)) {
        bp_.call(pc + size);
        if (bp_.enabled() && p_.predictor.ras_depth) emit(b, p_.ev_ras_push);
    }
    if (predictable) emit(b, p_.ev_predictable);
    return mispredicted ? mispredicted_flush(b) : 0;
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

uint64_t TimingModel::timed(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, const MemRef* mem, unsigned n_mem,
                            EventBatch& b, unsigned flush) {
    using C = isa::InsnClass;
    const size_t cls = static_cast<size_t>(insn.cls);
    if (p_.dbus_queue) {
        if (!dbus_.quiet())
            dbus_ = dbus_canonical(now_);
        else if (dbus_.free < now_)
            dbus_.free = now_;
    }
    // Dual issue: alongside the previous instruction, in its cycle, when the pair is allowed and the sources are
    // ready then (never the older one's own result).
    const uint32_t src = insn.regs.src;
    bool paired = false;
    if (p_.dual_issue && pair_open_ && p_.class_extra[cls] == 0 && pairs_[static_cast<size_t>(prev_cls_)][cls] && !(src & prev_dst_)) {
        paired = true;
        for (uint32_t m = src; m && paired; m &= m - 1)
            if (ready_[ctz(m)] > prev_issue_) paired = false;
    }
    // Result-use stall: the instruction issues when its sources are ready (address registers `early_address`
    // cycles before the rest, the data a store writes `late_store_data` cycles after).
    uint64_t stall = 0;
    if (!paired) {
        uint32_t late = insn.cls == isa::InsnClass::store ? src & ~insn.regs.addr : 0u;
        // A store to a side-effect region over the bus (late_store_data_side_effect false): no slack.
        if (late && !p_.late_store_data_side_effect && n_mem && p_.local_data && !p_.local_data->contains(mem[0].addr) &&
            !region_cacheable(mem[0].addr))
            late = 0;
        for (uint32_t m = src; m; m &= m - 1) {
            const unsigned r = ctz(m);
            const uint64_t need = ready_[r] + ((insn.regs.addr >> r) & 1u ? p_.early_address : 0u);
            // A register ready when the divider frees holds the last division's result (its ready time is the
            // division's time, below).
            const bool from_divider = !p_.late_store_data_div && ready_[r] == divider_free_;
            const unsigned slack = (late >> r) & 1u && !from_divider ? p_.late_store_data : 0u;
            if (need > now_ + stall + slack) stall = need - now_ - slack;
        }
    }
    // A division waits for the divider.
    if (insn.cls == C::div && p_.divider_busy && divider_free_ > now_ + stall) stall = divider_free_ - now_;
    // Pre- and post-sync, and a CSR read behind a write-only CSR instruction (VeeR EL2 el2_dec_decode_ctl.sv:
    // presync_stall, ps_stall, prior_csr_write; the instructions from dec/decode and dec/csrdecode_m).
    const uint16_t csr = next_csr_;
    next_csr_ = 0;
    next_interrupted_ = false;  // read by predict()
    bool postsync = false;
    if (p_.sync_stall) {
        const bool csr_insn = insn.cls == C::csr_read || insn.cls == C::csr_read_write || insn.cls == C::csr_write;
        auto listed = [&](const std::vector<uint16_t>& v) { return csr_insn && std::find(v.begin(), v.end(), csr) != v.end(); };
        const bool both = insn.cls == C::csr_read_write || insn.cls == C::fence_i;
        const bool presync = both || insn.cls == C::fence || (insn.cls == C::csr_read && listed(p_.presync_csrs));
        postsync = both || insn.cls == C::ecall || insn.cls == C::ebreak || insn.cls == C::mret || listed(p_.postsync_csrs);
        // Presync: the older instructions have left X and R sync_stall cycles after the previous one's issue.
        const uint64_t after_prev = prev_issue_ + 1 + p_.sync_stall;
        const uint64_t pre_wait = presync && after_prev > now_ ? after_prev - now_ : 0;
        const uint64_t post_wait = postsync_until_ > now_ ? postsync_until_ - now_ : 0;
        uint64_t block_wait = 0;
        if (p_.csr_write_block && (insn.cls == C::csr_read || insn.cls == C::csr_read_write)) {
            const uint64_t after_write = csr_write_issue_ + 1 + p_.csr_write_block;
            if (after_write > now_) block_wait = after_write - now_;
        }
        stall = std::max({stall, pre_wait, post_wait, block_wait});
        emit(b, p_.ev_presync, pre_wait);  // both count where the two waits overlap (tests/veer-rtl/csr)
        emit(b, p_.ev_postsync, post_wait);
    }
    if (stall) emit(b, p_.ev_dep_stall, stall);
    // It issues after the cycles the previous instruction left to it (a redirect: trap_redirect, interrupt_entry).
    const uint64_t issue = paired ? prev_issue_ : now_ + stall + pending_extra_;
    // A division's time: fixed, or (VeeR EL2) from its operands; the divider is busy as long as its result takes.
    unsigned div_time = p_.divider_busy;
    if (insn.cls == C::div && p_.divider_from_operands)
        div_time = div_known_ ? veer_div_time(p_.result_latency[cls], div_a_, div_b_, div_rem_) : p_.result_latency[cls];
    if (insn.cls == C::div) divider_free_ = issue + div_time;
    if (insn.cls == C::csr_write) csr_write_issue_ = issue;
    // Postsync: the next instruction waits until this one has left X and R (after its own extra cycles).
    postsync_until_ = postsync ? issue + p_.class_extra[cls] + 1 + p_.sync_stall : 0;
    // Loads and stores outside the tightly coupled data memory go on the bus.
    const bool data = (insn.cls == C::load || insn.cls == C::store) && !insn.cond_failed;
    bool bus = false;
    if (data && p_.local_data)
        for (unsigned k = 0; k < n_mem; ++k) bus |= !p_.local_data->contains(mem[k].addr);
    // The D-bus buffer (dbus_queue): an aligned access to memory without side effects goes through it; any other
    // bus access pushes the buffer out and takes the command channel.
    unsigned bus_extra = 0, bus_transactions = 0, bus_busy = 0;
    bool forwarded = false, queued = false;
    if (bus && p_.dbus_queue) {
        const MemRef& m0 = mem[0];
        queued = n_mem == 1 && !split_access(m0) && m0.size && m0.size <= 4 && region_cacheable(m0.addr);
        if (queued) {
            const unsigned r = dbus_access(issue, m0, insn.cls == C::load, bus_transactions, bus_busy);
            forwarded = r == ~0u;
            bus_extra = forwarded ? 0 : r;
        } else {
            dbus_drain(issue + p_.dbus_read_cmd);
            dbus_.free = std::max(dbus_.free, issue + p_.dbus_read_cmd) + 1;
            dbus_.forget_read();
            // A split access across two beats sends two commands of its kind back to back (within one beat the
            // bus buffer merges them: el2_lsu_bus_buffer.sv, obuf_merge_en, buf_samedw): the second waits for the
            // memory (dbus_cmd_gap).
            if (n_mem == 1 && split_access(m0) && crosses_beat(m0) && p_.dbus_cmd_gap)
                bus_busy = p_.dbus_cmd_gap - 1;
        }
        emit(b, p_.ev_dbus_busy, bus_busy);
    }
    // A conditional instruction that fails its condition writes nothing.
    const uint32_t dst = insn.cond_failed ? 0u : insn.regs.dst;
    const uint64_t latency = insn.cls == C::div && p_.divider_from_operands
                                 ? div_time
                                 : p_.result_latency[cls] +
                                       (bus && insn.cls == C::load && !forwarded ? p_.bus_load_latency + bus_extra : 0u);
    for (uint32_t m = dst; m; m &= m - 1) ready_[ctz(m)] = issue + latency;
    uint64_t cycles = (paired ? 0 : 1) + stall + p_.class_extra[cls] + pending_extra_;
    unsigned freeze = 0;  // cycles of a fast interrupt's freeze: decode stalled, interrupts still enabled
    if (pending_extra_) {
        freeze = pending_freeze_;
        if (freeze) emit(b, p_.ev_dep_stall, freeze);
        pending_freeze_ = 0;
    }
    pending_extra_ = 0;
    // ecall, ebreak and mret: the redirect's cycle shows on the next instruction (tests/veer-rtl/traps: mret 1 cycle
    // after its postsync wait, its target 4 after it; irq).
    if (insn.cls == C::ecall || insn.cls == C::ebreak || insn.cls == C::mret) pending_extra_ = p_.trap_redirect;
    // Interrupts disabled: this instruction's cycles count while MIE is 0; a trap clears MIE, mret restores it.
    const bool mie_before = mstatus_ & 8u;
    const bool trap_flush = insn.cls == C::ecall || insn.cls == C::ebreak || insn.cls == C::mret;
    if (insn.cls == C::ecall || insn.cls == C::ebreak)
        mstatus_ = trap_entry(mstatus_);
    else if (insn.cls == C::mret)
        mstatus_ = (mstatus_ & ~8u) | ((mstatus_ & 0x80u) ? 8u : 0u) | 0x80u;
    const uint64_t base = cycles;
    // A branch's flush (predict()): the refetch costs the penalty.
    const uint64_t flush_cycles = flush;
    cycles += flush;
    const uint64_t before_fetch = cycles;
    // After a branch's flush, a 32-bit instruction at an odd halfword that the fetch brings in two pieces takes
    // longer: where fetches keep bit 1 after the redirect (fetch_keeps_halfword) only when its upper half lies in
    // the next line (the line's last fetch is its last halfword alone).
    uint64_t split_cycles = 0;  // not a fetch stall: the fetches are not held up
    if (flushed_ && size == 4 && (pc & 2u) &&
        (!p_.fetch_keeps_halfword || !l1i_ || l1i_->line_of(pc) != l1i_->line_of(pc + 2)))
        split_cycles = p_.split_fetch_after_flush;
    cycles += split_cycles;
    flushed_ = flush != 0;
    uint64_t fetch_walk = 0;  // page-table walks: in the cycles, not in ev_fetch_stall
    // Instruction fetch: one access per line entered, sequentially or by a taken branch.
    const bool local_code = p_.local_code && p_.local_code->contains(pc);
    uint64_t started = 0;  // the fetches this instruction starts (cached code), and how many it spans
    uint64_t fill_fetches = 0;  // of those, the ones in the line the fill buffer may still serve
    unsigned span = 1;
    bool refilled = false;  // the line missed: the fetch waited for it (wfm), not for room in the buffer
    if (l1i_ && !local_code) {
        const bool redirected = next_fetch_new_;
        if (next_fetch_new_) {
            last_ifetch_line_ = last_fetch_ = ~uint64_t{0};
            phase_line_ = p_.fetch_keeps_halfword && (pc & 2u) ? l1i_->line_of(pc) : ~uint64_t{0};
        }
        // After a taken branch, a trap or mret the next instruction is fetched anew (a redirect).
        const bool redirect = (insn.branch & isa::br_taken) && !insn.cond_failed;
        next_fetch_new_ = redirect || insn.cls == C::ecall || insn.cls == C::ebreak || insn.cls == C::mret;
        if (p_.follows_mrac && !region_cacheable(pc)) {
            // Not cacheable (VeeR mrac): every fetch goes over the I-bus.
            const uint64_t fetches = fetches_started(pc, size, false);
            emit(b, p_.ev_ibus_access, fetches);
            cycles += fetches * p_.uncached_fetch_penalty;
        } else {
            const uint64_t line = l1i_->line_of(pc);
            bool refill = false;
            // Redirected into the line still being refilled: the fetch waits for the refill (tests/veer-rtl/irq,
            // its first window: a loop's branch back into the line it missed on, and a jump within a line a
            // straddling store missed on, both commit their target 16 cycles after the line's first instruction).
            if (p_.fill_redirect_commit && redirected && line == fill_line_) {
                const uint64_t due = fill_start_ + p_.fill_redirect_commit, at = now_ + cycles;
                if (due > at) cycles += due - at;
            }
            if (line != last_ifetch_line_) {
                last_ifetch_line_ = line;
                cycles += tlb(itlb_, pc, p_.ev_itlb_refill, b, &fetch_walk);
                const auto r = l1i_->access(pc, false);
                if (!r.refill) fill_line_ = ~uint64_t{0};  // a line entered from the cache, not the fill buffer
                emit(b, p_.ev_l1i_access);
                if (r.refill) {
                    refill = true;
                    refilled = true;
                    const bool sequential = p_.l1i_sequential_refill_penalty && line == last_miss_line_ + 1;
                    last_miss_line_ = line;
                    fill_line_ = line;
                    fill_start_ = issue;
                    cycles += (sequential ? p_.l1i_sequential_refill_penalty : p_.l1i_refill_penalty) + next_level(pc, false, b);
                    emit(b, p_.ev_l1i_refill);
                    emit(b, p_.ev_ibus_access, p_.l1i->line / p_.ibus_beat);
                    if (p_.ibus_read_gap) emit(b, p_.ev_ibus_busy, (p_.l1i->line / p_.ibus_beat - 1) * (p_.ibus_read_gap - 1));
                }
            }
            if (p_.fetch_bytes) {  // hits: the fetches this instruction starts, but a refill's first
                const uint64_t fetches = fetches_started(pc, size, true, &span);
                started = fetches;
                if (p_.fill_buffer_fetches && line == fill_line_) {
                    if (refill) emit(b, p_.ev_l1i_hit);  // the rest of the line comes from the fill buffer
                    // Until fill_buffer_cycles after the refill: the fetches' cycles decide (the fetch queue below).
                    if (p_.fill_buffer_cycles && p_.fetch_queue) fill_fetches = fetches - (refill ? 1 : 0);
                } else if (fetches > (refill ? 1u : 0u)) {
                    emit(b, p_.ev_l1i_hit, fetches - (refill ? 1 : 0));
                }
            }
        }
    }
    const uint64_t fetch_cycles = cycles - before_fetch;
    // VeeR EL2's fetch buffer (tests/veer-rtl, measured cycle by cycle on a copy of the RTL that prints each fetch and
    // the buffer's state: tests/veer-rtl/fetch_trace.sh). The fetch brings 4 bytes a cycle (a predicted taken branch
    // redirects it without a gap) into a buffer of `fetch_queue` (3) entries (el2_ifu_ifc_ctl.sv: fb_full_f), and an
    // entry is free again once the instruction that ends in it leaves for decode: a fetch can happen no sooner than
    // the commit of the last instruction in the entry `fetch_queue` fetches before it (`exec` here is the model's
    // commit cycle), and no later than 2 cycles before its own instruction commits, as it does after a flush or a
    // refill.
    //  - Event 28 (ifu_pmu_fetch_stall): the cycles the fetch waits with the buffer full and nothing consumed (all
    //    but the one in which room is made), plus the cycles waiting for an I-cache refill (wfm; fetch_cycles below).
    //  - Event 2 counts every fetch in F that hits until exu_flush_final drops it (el2_ifu_mem_ctl.sv:
    //    ic_act_hit_f): past a flush, the fetch goes on down the wrong path, a fetch a cycle while the buffer has
    //    room (the wrong path's own entries are never consumed), until the flush lands: a branch's a cycle before it
    //    commits (el2_exu.sv, exu_flush_final from the i0 branch), that of ecall, ebreak and mret a cycle after
    //    (el2_dec_tlu_ctl.sv, dec_tlu_flush_lower_wb).
    // Without a fetch queue, fixed counts of wrong-path fetches per flush.
    if (p_.fetch_queue && l1i_ && !local_code) {
        // Cycles in this model are counted from 0: the first instructions' fetches are taken at cycle 0 at the earliest.
        const uint64_t exec = std::max<uint64_t>(issue + fetch_cycles, 2);
        const size_t q = p_.fetch_queue;
        if (refilled) fill_at_ = exec - 2;
        // A fetch in the refilled line after the fill buffer has written it to the cache is a hit (el2_ifu_mem_ctl.sv:
        // ic_byp_hit_f, then ic_act_hit_f; tests/veer-rtl/busgap on fetch_trace.sh's copy: 16 cycles after the
        // refill's first fetch, whatever the fetches in between).
        auto from_cache = [&](uint64_t k, uint64_t at) {
            if (k + fill_fetches >= started && at >= fill_at_ + p_.fill_buffer_cycles) emit(b, p_.ev_l1i_hit);
        };
        if (refetch_) {  // emptied by the flush: the fetch starts again here (in this entry when a branch not
                         // taken flushed)
            fetched_.fill(0);
            fetch_at_ = exec - 2;
            if (fill_fetches)
                for (uint64_t k = 0; k < started; ++k) from_cache(k, fetch_at_);
        } else {
            for (uint64_t k = 0; k < started; ++k) {  // each takes the room of the oldest entry, fetched_[0]
                const uint64_t at = refilled ? exec - 2 : std::min(exec - 2, std::max(fetch_at_ + 1, fetched_[0]));
                if (!refilled && at > fetch_at_ + 2) emit(b, p_.ev_fetch_stall, at - fetch_at_ - 2);
                fetch_at_ = at;
                if (fill_fetches) from_cache(k, at);
                std::copy(fetched_.begin() + 1, fetched_.begin() + static_cast<std::ptrdiff_t>(q), fetched_.begin());
            }
        }
        // The entries this instruction lies in are consumed when it is (the last instruction in each so far).
        for (size_t k = 1; k <= span && k <= q; ++k) fetched_[q - k] = exec;
        refetch_ = flush || trap_flush;
        if (refetch_) {
            const uint64_t lands = flush ? exec - 1 : exec + 1;
            uint64_t at = fetch_at_, wrong = 0, stalled = 0;
            for (size_t k = 0;; ++k) {
                const uint64_t room = k < q ? fetched_[k] : ~uint64_t{0};
                const uint64_t next = std::max(at + 1, room);
                if (next >= lands) {  // no room (or no time) left before the flush
                    if (room > at + 1) stalled += room > lands ? lands - 1 - at : room - at - 2;
                    break;
                }
                if (next > at + 2) stalled += next - at - 2;
                ++wrong;
                at = next;
            }
            emit(b, p_.ev_l1i_hit, wrong);
            emit(b, p_.ev_fetch_stall, stalled);
        }
    } else {
        if (flush) emit(b, p_.ev_l1i_hit, p_.flush_fetch_hits);
        if (trap_flush) emit(b, p_.ev_l1i_hit, p_.trap_flush_fetch_hits);
    }
    if (data) {
        for (unsigned k = 0; k < n_mem; ++k) {
            const bool sequential = p_.count_line_once && k && l1d_ && l1d_->line_of(mem[k].addr) == l1d_->line_of(mem[k - 1].addr);
            if (sequential) {  // the line the previous access brought in: a hit, not counted again
                l1d_->access(mem[k].addr, mem[k].write);
                continue;
            }
            cycles += tlb(dtlb_, mem[k].addr, p_.ev_dtlb_refill, b);
            if (!l1d_) continue;
            const auto r = l1d_->access(mem[k].addr, mem[k].write);
            emit(b, p_.ev_l1d_access);
            emit(b, p_.ev_l1d_access_cacheable);
            if (r.writeback) {
                emit(b, p_.ev_l1d_writeback, r.dirty_parts);
                cycles += next_level(r.victim, true, b);
            }
            if (r.refill) {
                cycles += p_.l1d_refill_penalty + next_level(mem[k].addr, false, b);
                emit(b, p_.ev_l1d_refill);
            }
            if (!r.hit) emit(b, p_.ev_l1d_external);
        }
    }
    uint64_t bus_hold = 0;  // a misaligned bus access's hold (the LSU buffers' commits)
    bool split_bus = false;  // a misaligned bus access split in two (split_access)
    if (bus) {
        for (unsigned k = 0; k < n_mem; ++k) {
            if (p_.local_data->contains(mem[k].addr)) continue;
            // Two transactions when the access crosses a bus beat.
            const bool split = crosses_beat(mem[k]);
            emit(b, p_.ev_bus_access, queued ? bus_transactions : split ? 2 : 1);
            // A split load holds decode until its data returns; a split store, once per bus transaction, until the
            // bus buffer drains (the RTL stalls the next load or store at decode): decode stalls. (On tests/veer-rtl/
            // splitma a split load within one beat, lh 3 or lw 1 over and over, holds the add after it only as an
            // aligned load would; on misaligned, between split stores, it holds as one across beats: not followed.)
            if (insn.unaligned && split_access(mem[k])) {
                split_bus = true;
                emit(b, p_.ev_bus_misaligned);
                const unsigned hold = insn.cls == C::load ? p_.bus_misaligned_load_penalty
                                                          : p_.bus_misaligned_store_penalty * (split ? 2u : 1u);
                cycles += hold;
                bus_hold += hold;
                emit(b, p_.ev_dep_stall, hold);
            }
        }
        emit(b, insn.cls == C::load ? p_.ev_bus_load : p_.ev_bus_store);
        if (insn.cls == C::load) {
            cycles += p_.bus_load_penalty;
        } else {
            bool side_effect = !p_.store_penalty_side_effect_only;
            for (unsigned k = 0; k < n_mem && !side_effect; ++k)
                side_effect = !region_cacheable(mem[k].addr);
            if (side_effect) cycles += p_.bus_store_penalty;
        }
    }
    // Stall cycles by cause: fetch misses and refetch after a misprediction starve the front end; result-use
    // waits, multi-cycle execution and data misses hold the back end.
    if (fetch_cycles > fetch_walk + split_cycles) {
        emit(b, p_.ev_fetch_stall, fetch_cycles - fetch_walk - split_cycles);
    }
    if (fetch_cycles + flush_cycles) emit(b, p_.ev_stall_frontend, fetch_cycles + flush_cycles);
    const uint64_t back = cycles - fetch_cycles - flush_cycles - (paired ? 0 : 1);
    if (back) emit(b, p_.ev_stall_backend, back);
    // The next instruction may pair with this one if it issued alone, took one cycle and did not branch away.
    if (!mie_before) emit(b, p_.ev_irq_disabled, cycles - freeze);
    pair_open_ = !paired && cycles == base && base == 1 + stall && !((insn.branch & isa::br_taken) && !insn.cond_failed);
    prev_issue_ = issue;
    prev_dst_ = dst;
    prev_cls_ = insn.cls;
    now_ += cycles;
    if (lsu_) {
        // The commit the LSU buffers see (lsu_pending_); a bus load's data returns 2 cycles before its value is
        // ready (the exec.log's nbL line), a misaligned one's 2 before the instruction after it (its hold).
        const uint64_t prev = lsu_prev_eff_;
        uint64_t eff;
        if (data && insn.cls == C::load) {
            lsu_pending_ = 0;
            eff = now_ - bus_hold;
        } else {
            if (data) lsu_pending_ += bus_hold;
            eff = now_ - lsu_pending_;
        }
        if (data) {
            uint64_t ret = 0;
            if (bus && insn.cls == C::load) ret = split_bus ? now_ - 1 : issue + latency - 2;
            lsu_commit(insn.cls == C::store, eff, prev, mem, n_mem, ret);
            if (ls_log_) ls_log_->emplace_back(now_, ret);
        }
        lsu_prev_eff_ = eff;
    }
    return cycles;
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
void TimingModel::DbusState::send(uint64_t cmd) {
    cmd = std::max(cmd, free);
    free = cmd + 1;
    sent_word = ibuf_word;
    sent_bytes = ibuf_bytes;
    sent_until = cmd;
    ibuf = ibuf_join = false;
    ibuf_word = ibuf_last = 0;
    ibuf_bytes = 0;
}

TimingModel::DbusState TimingModel::dbus_canonical(uint64_t now) const {
    DbusState d = dbus_;
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
    if (dbus_.ibuf) dbus_.send(std::min(due, dbus_.ibuf_last + p_.ibuf_timeout));
}

unsigned TimingModel::dbus_access(uint64_t at, const MemRef& m, bool load, unsigned& transactions, unsigned& busy) {
    const uint64_t word = m.addr >> 2;
    const uint8_t bytes = static_cast<uint8_t>(((1u << m.size) - 1u) << (m.addr & 3u));
    const uint64_t read = at + p_.dbus_read_cmd;
    transactions = busy = 0;
    if (!load) {
        if (dbus_.ibuf && dbus_.ibuf_join && dbus_.ibuf_word == word && at <= dbus_.ibuf_last + p_.ibuf_merge_window) {
            dbus_.ibuf_bytes |= bytes;  // ibuf_merge_en: the same transaction
            dbus_.ibuf_last = at;
            return 0;
        }
        dbus_drain(read + 1);  // the new store's write pushes the buffered one out (ibuf_wr_en)
        dbus_.ibuf = dbus_.ibuf_join = true;
        dbus_.ibuf_word = word;
        dbus_.ibuf_bytes = bytes;
        dbus_.ibuf_last = at;
        transactions = 1;
        return 0;
    }
    const bool in_ibuf = dbus_.ibuf && dbus_.ibuf_word == word && (bytes & ~dbus_.ibuf_bytes) == 0;
    const bool in_sent = dbus_.sent_word == word && at <= dbus_.sent_until && (bytes & ~dbus_.sent_bytes) == 0;
    // A load 2 or more cycles behind the buffered store pushes it out, its command ahead of the load's; one right
    // behind it leaves it to its timer.
    if (dbus_.ibuf && at >= dbus_.ibuf_last + 2) dbus_drain(read);
    dbus_.ibuf_join = false;  // no store joins one that a load came after (busgap: a store, a load, a store)
    if (in_ibuf || in_sent) return ~0u;
    if (dbus_.read_beat == (m.addr >> 3) && read <= dbus_.read_resp) return 0;  // shares the read before it
    const uint64_t ready = std::max(read, dbus_.free);
    // The memory takes the next read command dbus_cmd_gap cycles after the last one (read_resp - 1) at the
    // earliest: the command waits, valid and not ready, which lsu_pmu_bus_busy counts (event 48).
    const uint64_t gap = dbus_.read_beat != ~uint64_t{0} && p_.dbus_cmd_gap ? dbus_.read_resp - 1 + p_.dbus_cmd_gap : 0;
    const uint64_t cmd = std::max(ready, gap);
    busy = static_cast<unsigned>(cmd - ready);
    dbus_.free = cmd + 1;
    dbus_.read_beat = m.addr >> 3;
    dbus_.read_resp = cmd + 1;
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
