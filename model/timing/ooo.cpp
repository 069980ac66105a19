// The out-of-order approximation's rules (ooo.hpp has them in words).
#include "model/timing/ooo.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/timing/bits.hpp"

namespace pmusim::timing {

OooInsn::OooInsn(const isa::RetiredInsn& insn, uint64_t at) : cls(insn.cls), pc(at) {
    using C = isa::InsnClass;
    size = insn.compressed ? 2u : 4u;  // the out-of-order cores are ARM ones: A64, A32 and T32
    taken = (insn.branch & isa::br_taken) && !insn.cond_failed;
    src = insn.regs.src;
    addr = insn.cls == C::load || insn.cls == C::store ? insn.regs.addr : 0u;
    dst = insn.cond_failed ? 0u : insn.regs.dst;  // a failed condition writes nothing
    // The flags: A32 and A64 give them as a register (isa::flags_bit, in src and dst: their setter's completion
    // is ready[31]); T32's decoder does not, so a T32 conditional branch reads no register at all and is taken to
    // test the flags the instruction before it set (its compare, as compilers place it). Never both: a branch
    // that reads flags_bit reads a register.
    flags_from_previous = (insn.branch & isa::br_conditional) && !insn.regs.src;
    subword = insn.subword;
    sign_extend = insn.sign_extend;
    // A conditional load: an A32 one reads the flags (flags_bit); T32's decoder gives none (an IT block's loads are
    // taken as unconditional).
    conditional = insn.cls == C::load && (insn.regs.src & isa::flags_bit);
    offset_shift = insn.offset_shift;
    shifter = insn.shifter;
    writeback = insn.writeback;
    call = insn.branch & isa::br_call;
    multiple = insn.multiple && (insn.cls == C::load || insn.cls == C::store);
    // Multiplies: what the decoders mark (isa::RegUse::mul_ops, mul_hi; A32 and T32). An accumulator: a register read
    // and not multiplied (the flags of a condition aside).
    short_mul = insn.cls == C::alu && insn.regs.mul_ops;
    mul_hi = insn.cond_failed ? 0u : insn.regs.mul_hi;
    accumulate = insn.regs.mul_ops && (insn.regs.src & ~insn.regs.mul_ops & ~isa::flags_bit);
    // An arithmetic or logical instruction without a shift (the Cortex-A9 TRM, B.3): the alu class without a
    // shifted operand, and not an extend (isa::RetiredInsn::shifter; neither arithmetic nor logical); moves and
    // bit-field instructions are alu too: not told apart.
    forward_use = insn.cls == C::alu && !insn.regs.shifted && !insn.regs.shape && !insn.shifter;
}

uint64_t RenamePool::free_at(unsigned size, unsigned n) const {
    if (size == 0 || n == 0) return 0;
    n = std::min(n, size);
    // The last of the n writes `size` older than these (retirements are in order: it retired last).
    if (count + n <= size) return 0;
    return retire_at[(count + n - 1) % size] + 1;
}

void RenamePool::take(unsigned size, unsigned n, uint64_t retire) {
    if (size == 0) return;
    for (unsigned k = 0; k < std::min(n, size); ++k) retire_at[(count + k) % size] = retire;
    count += std::min(n, size);
}

std::string OooCore::invalid(const OooConfig& c) {
    if (c.window == 0 || c.window > OooConfig::max_window) return "window is 1 to 128 instructions";
    if (c.dispatch_width == 0 || c.retire_width == 0 || c.mem_bytes == 0)
        return "dispatch_width, retire_width and mem_bytes are at least 1";
    if (c.fetch_bytes < 2 || (c.fetch_bytes & (c.fetch_bytes - 1))) return "fetch_bytes is a power of two, at least 2";
    if (c.rename_regs > OooConfig::max_rename || c.rename_flags > OooConfig::max_rename)
        return "rename_regs and rename_flags are 0 (no limit) to 64";
    if (c.fetch_queue == 1 || c.fetch_queue > OooConfig::max_fetch_queue)
        return "fetch_queue is 0 (no limit) or 2 to 32 blocks";
    unsigned n = 0;
    for (unsigned p : c.pipes) n += p;
    if (n + c.issue_width > OooConfig::max_pipes) return "at most 8 pipelines and issue_width in all";
    for (size_t cls = 0; cls < class_count; ++cls)
        if (c.pipe[cls] >= pipe_kinds || c.pipes[c.pipe[cls]] == 0)
            return "every class's pipe is a kind (0 alu, 1 multi, 2 branch, 3 load, 4 store) with a pipeline";
    return "";
}

OooCore::OooCore(const OooConfig& c, uint64_t start) : c_(c) {
    if (const std::string e = invalid(c); !e.empty()) throw std::invalid_argument("timing: ooo: " + e);
    unsigned n = 0;
    for (size_t k = 0; k < pipe_kinds; ++k) {
        first_[k] = static_cast<uint8_t>(n);
        n += c.pipes[k];
    }
    issue_first_ = n;
    s_.last_dispatch = s_.last_retire = s_.last_complete = start;
    s_.fetch_at = start - 1;  // the first block comes at start
    s_.retire_at.fill(start);
    s_.regs.retire_at.fill(start);
    s_.flags.retire_at.fill(start);
    for (PipeSlots& p : s_.pipes) p.base = start;
}

// The earliest cycle from `at` on that pipeline `p` is free for `busy` cycles (cycles before `dispatch` dropped first).
static uint64_t free_from(PipeSlots& p, uint64_t at, unsigned busy, uint64_t dispatch) {
    const uint64_t run = (uint64_t{1} << busy) - 1;
    if (p.base < dispatch) {  // cycles before this dispatch are never asked for again
        const uint64_t d = dispatch - p.base;
        p.booked = d >= 64 ? 0 : p.booked >> d;
        p.base = dispatch;
    }
    uint64_t t = std::max(at, p.base);
    while (t + busy <= p.base + 64 && (p.booked & (run << (t - p.base)))) ++t;
    return t;
}

static void reserve(PipeSlots& p, uint64_t t, unsigned busy) {
    if (t + busy <= p.base + 64) p.booked |= ((uint64_t{1} << busy) - 1) << (t - p.base);
}

uint64_t OooCore::book(size_t k, uint64_t at, unsigned busy, uint64_t dispatch, unsigned alus) {
    PipeSlots* const alu = &s_.pipes[first_[static_cast<size_t>(PipeKind::alu)]];
    busy = std::clamp(busy, 1u, 63u);
    for (;;) {
        PipeSlots* best = nullptr;
        uint64_t best_t = ~uint64_t{0};
        for (size_t i = first_[k]; i < size_t{first_[k]} + c_.pipes[k]; ++i) {
            const uint64_t t = free_from(s_.pipes[i], at, busy, dispatch);
            if (t < best_t) {
                best_t = t;
                best = &s_.pipes[i];
            }
        }
        // ALU pipelines held the same cycles (OooConfig::mul_alu, mac_alus): all free from the same cycle on (a
        // later cycle than best_t is tried again from the start).
        uint64_t t_also = best_t;
        for (unsigned a = 0; a < alus; ++a) t_also = free_from(alu[a], t_also, busy, dispatch);
        // An issue slot in the first cycle (OooConfig::issue_width): the pipelines after the real ones.
        PipeSlots* slot = nullptr;
        uint64_t t_issue = t_also;
        if (c_.issue_width) {
            t_issue = ~uint64_t{0};
            for (size_t i = issue_first_; i < issue_first_ + c_.issue_width; ++i) {
                const uint64_t t = free_from(s_.pipes[i], t_also, 1, dispatch);
                if (t < t_issue) {
                    t_issue = t;
                    slot = &s_.pipes[i];
                }
            }
        }
        if (t_issue == best_t) {
            reserve(*best, best_t, busy);
            for (unsigned a = 0; a < alus; ++a) reserve(alu[a], best_t, busy);
            if (slot) reserve(*slot, best_t, 1);
            return best_t;
        }
        at = t_issue;
    }
}

OooTiming OooCore::step(const OooInsn& in, std::array<uint64_t, 32>& ready) {
    using C = isa::InsnClass;
    OooTiming t;
    const size_t cls = static_cast<size_t>(in.cls);
    // Fetch: a block a cycle, a new one after a taken branch (taken_bubble cycles later); its misses; the refill
    // after a misprediction.
    // Where fetch_spans, an instruction across two blocks takes the second too: a cycle more.
    const uint64_t block = in.pc / c_.fetch_bytes;
    const uint64_t last = c_.fetch_spans ? (in.pc + in.size - 1) / c_.fetch_bytes : block;
    const bool fresh = s_.fetch_break || block != s_.fetch_block;
    uint64_t front = s_.fetch_at + (s_.fetch_break ? 1 + c_.taken_bubble : fresh ? 1 : 0) + (last - block);
    // Where fetch_queue: each new block waits for a place in the queue, the cycle after the last instruction of the
    // block fetch_queue older dispatched (the last new block waits longest: the ring's cycles never decrease).
    const unsigned fresh_blocks = (fresh ? 1u : 0u) + static_cast<unsigned>(last - block);
    if (c_.fetch_queue && fresh_blocks) {
        s_.blocks += fresh_blocks;
        if (s_.blocks > c_.fetch_queue) front = std::max(front, s_.block_out[(s_.blocks - 1) % c_.fetch_queue] + 1);
    }
    front = std::max(front, s_.redirect) + in.fetch_delay;
    s_.fetch_at = front;
    s_.fetch_block = last;
    s_.fetch_break = in.taken;
    // The cycles a load or store holds its pipeline: a cycle per mem_bytes it moves (from its address's offset in
    // mem_bytes where mem_align), a byte or halfword load subword_load_busy at least.
    // A short multiply where short_mul_latency: in the multiplier a cycle. A multiply with a 64-bit result:
    // long_mul_extra cycles more.
    const bool short_mul = in.short_mul && c_.short_mul_latency;
    const size_t kind = short_mul ? static_cast<size_t>(PipeKind::multi) : c_.pipe[cls];
    unsigned busy = (short_mul ? 1u : std::max<unsigned>(c_.busy[cls], 1)) + (in.mul_hi ? c_.long_mul_extra : 0u);
    const bool data = in.cls == C::load || in.cls == C::store;
    if (data) {
        const unsigned offset = c_.mem_align ? static_cast<unsigned>(in.mem_addr % c_.mem_bytes) : 0u;
        busy = std::max(busy, (offset + in.mem_bytes + c_.mem_bytes - 1) / c_.mem_bytes);
        if (in.cls == C::load && in.subword) busy = std::max(busy, c_.subword_load_busy);
    }
    // Dispatch: in order, dispatch_width slots a cycle (a slot an instruction, or a micro-operation a cycle of its
    // pipeline for a load or store of several registers where multiple_uops); once fetched; a place in the window
    // and a renaming register for each register it writes.
    // A call where call_alone: a cycle of its own, after the last dispatch's, and nothing after it in its cycle.
    const bool alone = in.call && c_.call_alone;
    const unsigned uops = in.multiple && c_.multiple_uops ? busy : 1u;
    const uint64_t slot = s_.dispatched < c_.dispatch_width && !alone ? s_.last_dispatch : s_.last_dispatch + 1;
    uint64_t& oldest = s_.retire_at[s_.count % c_.window];  // the instruction `window` places older
    const unsigned writes = popcount(in.dst & ~isa::flags_bit);
    const unsigned flag_writes = in.dst & isa::flags_bit ? 1u : 0u;
    const uint64_t room = std::max({s_.count >= c_.window ? oldest + 1 : 0, s_.regs.free_at(c_.rename_regs, writes),
                                    s_.flags.free_at(c_.rename_flags, flag_writes)});
    t.dispatch = std::max({slot, front, room});
    // Cycles with no dispatch before this one: the front end's first, the window's the rest.
    if (t.dispatch > s_.last_dispatch + 1) {
        const uint64_t gap = t.dispatch - s_.last_dispatch - 1;
        t.frontend_stall = std::min(gap, front > s_.last_dispatch + 1 ? front - s_.last_dispatch - 1 : 0);
        t.backend_stall = gap - t.frontend_stall;
    }
    // Its micro-operations from the first free slot of its cycle on: the last ones in later cycles.
    const unsigned used = t.dispatch == s_.last_dispatch ? s_.dispatched : 0u;
    const unsigned tail = used + uops - 1;  // its last micro-operation's slot, counted from its cycle's first
    s_.dispatched = alone ? c_.dispatch_width : tail % c_.dispatch_width + 1;
    s_.last_dispatch = t.dispatch + tail / c_.dispatch_width;
    // The blocks it came in (fetch_queue): it is their last instruction so far.
    if (c_.fetch_queue)
        for (uint64_t k = 0; k <= last - block && k < s_.blocks; ++k)
            s_.block_out[(s_.blocks - 1 - k) % c_.fetch_queue] = s_.last_dispatch;
    // Execution: sources ready, a pipeline free; serialising instructions after every older one has retired.
    uint64_t at = t.dispatch + 1;
    const uint32_t early = in.forward_use ? s_.forwarded : 0u;  // sources a load forwards to it early
    for (uint32_t m = in.src; m; m &= m - 1) {
        const unsigned reg = ctz(m);
        const uint64_t sooner = (early >> reg) & 1u ? c_.load_forward : 0u;
        const uint64_t later = (in.addr & s_.loaded) >> reg & 1u ? c_.load_address_latency : 0u;
        at = std::max<uint64_t>(at, ready[reg] > sooner ? ready[reg] - sooner + later : later);
    }
    if (in.flags_from_previous) at = std::max(at, s_.last_complete);
    if (in.cls == C::barrier || in.cls == C::sysreg) at = std::max(at, s_.last_retire);
    // A multiply where mul_alu: the first ALU pipeline is held the same cycles as the multiplier; a
    // multiply-accumulate with a 32-bit result where mac_alus: every ALU pipeline.
    const bool multi = kind == static_cast<size_t>(PipeKind::multi);
    const unsigned alu_pipes = c_.pipes[static_cast<size_t>(PipeKind::alu)];
    const unsigned alus = multi && c_.mac_alus && in.accumulate && !in.mul_hi ? alu_pipes
                          : multi && c_.mul_alu                              ? std::min(alu_pipes, 1u)
                                                                             : 0u;
    t.exec = book(kind, at, busy, t.dispatch, alus);
    if (data && in.writeback && c_.writeback_alu) book(static_cast<size_t>(PipeKind::alu), t.exec, 1, t.dispatch);
    const unsigned later = (in.cls == C::load && in.offset_shift ? c_.offset_shift_latency : 0u) +
                           (in.shifter ? c_.shifter_latency : 0u);
    const unsigned latency = short_mul ? c_.short_mul_latency : std::max<unsigned>(c_.latency[cls], 1);
    // A 64-bit result: the low half after the latency, the high half and the flags mul_hi_latency later.
    const unsigned hi = in.mul_hi ? c_.mul_hi_latency : 0u;
    t.complete = t.exec + (data ? busy - 1 : 0) + latency + later + in.mem_delay + hi;
    for (uint32_t m = in.dst; m; m &= m - 1) ready[ctz(m)] = t.complete;
    for (uint32_t m = in.dst & ~in.mul_hi & ~isa::flags_bit; hi && m; m &= m - 1) ready[ctz(m)] -= hi;
    const bool forwards = in.cls == C::load && !in.sign_extend && !in.conditional && c_.load_forward;
    s_.forwarded = forwards ? s_.forwarded | in.dst : s_.forwarded & ~in.dst;
    if (c_.load_address_latency) s_.loaded = in.cls == C::load ? s_.loaded | in.dst : s_.loaded & ~in.dst;
    s_.last_complete = t.complete;
    // Retirement: in order, retire_width a cycle.
    t.retire = std::max(t.complete, s_.last_retire);
    if (t.retire == s_.last_retire && s_.retired >= c_.retire_width) ++t.retire;
    s_.retired = t.retire == s_.last_retire ? s_.retired + 1 : 1;
    t.cycles = t.retire - s_.last_retire;
    s_.last_retire = t.retire;
    oldest = t.retire;
    ++s_.count;
    s_.regs.take(c_.rename_regs, writes, t.retire);
    s_.flags.take(c_.rename_flags, flag_writes, t.retire);
    // A misprediction: the wrong path fills the dispatch slots until the branch resolves (at most a window's worth);
    // the right path dispatches `refill` cycles after it.
    if (in.mispredicted) {
        t.wrong_path = std::min<uint64_t>(c_.window, (t.complete - t.dispatch) * c_.dispatch_width);
        s_.redirect = t.complete + c_.refill;
    }
    return t;
}

}  // namespace pmusim::timing
