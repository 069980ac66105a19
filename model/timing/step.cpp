// The per-instruction step (TimingModel::timed), the definition every shortcut is tested against: one retired
// instruction's issue, its instruction fetch, its data accesses and its stall events, in that order, each a
// stage of its own. It is compiled three times (kFull): with every VeeR EL2 mechanism (the D-bus buffer, pre- and
// post-sync, the fetch buffer, the LSU buffers, the DCCM and ICCM, mrac, the divider from operands, the fill
// buffer), and without them, chosen once when the model is built (TimingModel::full_) from whether the
// parameters turn any of them on; and (kFull 2) with them in VeeR EL2's shape (TimingModel::veer_shape: each on,
// a fetch buffer of 3 entries of 4 bytes), where their tests are constants. All give the same results where
// they apply: each leaves out tests whose answer is fixed there. Each comes with a set of the ARM cores' issue and
// result rules (kArm, arm_rules.hpp) and leaves out the rest: the full one with all or none (VeeR EL2), the lean
// one with all (ARM11, Cortex-A8) or the Cortex-A53's and A7's (arm_rules_cortex), chosen when the model is built
// (TimingModel::arm_kernel) from the rules the parameters turn on.
#include <algorithm>
#include <type_traits>

#include "model/timing/step_issue.hpp"
#include "model/timing/timing_model.hpp"
#include "model/timing/veer_shape.hpp"

namespace pmusim::timing {

using P = TimingParams;  // veer_on<kFull, &P::x>: a VeeR EL2 mechanism's test (veer_shape.hpp)

// A micro TLB lookup: a hit costs nothing; a refill (tlb_refill) its penalty, a walk's included (also added to
// `walk`).
[[gnu::always_inline]] inline unsigned TimingModel::tlb(std::optional<Cache>& t, uint64_t addr, uint32_t ev, EventBatch& b,
                                                        uint64_t& walk) {
    if (!t || !t->access(addr, false).refill) return 0;
    const unsigned cost = tlb_refill(addr, ev, b);
    walk += cost - p_.tlb_refill_penalty;  // the walk's part (tlb_refill)
    return cost;
}

// The fetches of `fetch_bytes` (4 if 0) an instruction starts (`span`: how many fetch granules it lies in).
template <int kFull>
[[gnu::always_inline]] inline uint64_t TimingModel::fetches_started(uint64_t pc, unsigned size, bool cached, unsigned& span) {
    // In the line a redirect entered at an odd halfword the fetches start there (fetch_keeps_halfword).
    auto fetch_of = [&](uint64_t a) {
        return (cached && s_.phase_line != ~uint64_t{0} && l1i_->line_of(a) == s_.phase_line ? a - 2 : a) >> (kFull == 2 ? veer_fetch_shift : fetch_shift_);
    };
    const uint64_t first = fetch_of(pc), last = fetch_of(pc + size - 1);
    span = static_cast<unsigned>(last - first + 1);
    const uint64_t n = last - first + (first != s_.last_fetch ? 1 : 0);
    s_.last_fetch = last;
    return n;
}

// An I-cache refill starts when the fetch reaches its line, which it does as soon as the fetch buffer has room
// (fetch_queue: the fetch a cycle after the last one, no sooner than the oldest entry is consumed), not when the
// instruction before it commits: the refill's cost counts from that fetch, and the instruction commits no sooner
// than 2 cycles after its data (as after any refill), so what the instructions before it waited for (a CSR
// instruction's sync, a division) hides part of it (el2_ifu_ifc_ctl.sv: the fetch goes on while fb_full_f is
// clear, a miss moves it to WFM; tests/veer-rtl/ic_trap_u's first window: `addi` at 0x80000480, a line first
// entered there, commits 1 cycle after the c.nop before it, which waited 3 for the counter enable's postsync;
// event 3 counted that miss before the window opened). With the fetch only just ahead (after a flush, or in
// straight-line code at a cycle an instruction) the fetch is 2 cycles before the instruction's own issue plus the
// cost, and the cost is the whole of it, as calibrated (icache_big). The fetch waits in WFM all the same: event 28
// counts the whole cost (ifu_pmu_fetch_stall = wfm | ...).
inline uint64_t TimingModel::refill_wait(StepScratch& st, uint64_t cost) {
    // Not after a flush (the fetch starts again at the instruction), nor before the first fetch (fetch_at 0: the
    // model's cycles start at 256, PipelineState::now).
    if (!p_.fetch_queue || s_.refetch || s_.fetch_at == 0) return cost;
    const uint64_t fetch = std::max(s_.fetch_at + 1, s_.fetched[0]);
    const uint64_t due = fetch + cost + 2, at = st.issue + (st.cycles - st.before_fetch);
    // Never more than the cost: a fetch no earlier than that is the one the cost was calibrated on.
    const uint64_t wait = std::min(cost, due > at ? due - at : 0);
    st.refill_hidden += cost - wait;
    return wait;
}

// VeeR EL2's fetch buffer full holds the instruction back (tests/veer-rtl/splitma on fetch_trace.sh's copy of the
// RTL): a fetch waits for room, no sooner than the entry `fetch_queue` fetches before it is consumed (the commit
// of the last instruction in it: fetched[]), and an instruction goes to decode no sooner than 2 cycles after the
// last fetch it lies in. Usually the fetch runs far enough ahead for this never to bind; it binds where the
// instructions lie in more fetches than there are instructions, 32-bit ones at odd halfwords each spanning two
// entries (el2_ifu_aln_ctl.sv: a 4-byte instruction whose f0 holds one halfword takes its upper half from f1,
// alignval {f1val[0], 1}; el2_ifu_ifc_ctl.sv: ifc_fetch_req_bf is held while fb_full_f_ns and nothing is
// consumed). splitma's loop `sh t0,1(a5)` at 0x8000047e, `c.add`, `c.addi`, `bne` at 0x80000486 is four fetches
// an iteration (0x47e, the line's last halfword alone; 0x480; 0x484; 0x488, the bne's upper half): the bne
// consumes the 0x484 and 0x488 entries (c2 on the trace, t=31735 and 31785), the 0x480 fetch waits for that room
// and comes a cycle later (t=31745), the sh commits 2 cycles after the bne (exec.log 3173, 3175): 5 cycles an
// iteration, not 4. Not after a flush or a refill (the fetch starts at the instruction then).
template <int kFull>
inline uint64_t TimingModel::fetch_room_wait(const StepScratch& st) const {
    if (s_.refetch || st.refilled || !st.started || s_.fetch_at == 0) return 0;
    const size_t q = kFull == 2 ? veer_fetch_queue : p_.fetch_queue;
    uint64_t at = s_.fetch_at;
    for (uint64_t k = 0; k < st.started; ++k) at = std::max(at + 1, s_.fetched[std::min<size_t>(k, q - 1)]);
    const uint64_t exec = std::max<uint64_t>(st.issue + (st.cycles - st.before_fetch), 2);
    return at + 2 > exec ? at + 2 - exec : 0;
}

// An I-cache line refill's events: the refill, the I-bus read commands (one a beat) and the I-bus's busy cycles
// between them.
inline void TimingModel::refill_events(EventBatch& b) {
    emit(b, p_.ev_l1i_refill);
    emit(b, p_.ev_ibus_access, p_.l1i->line / p_.ibus_beat);
    if (p_.ibus_read_gap) emit(b, p_.ev_ibus_busy, (p_.l1i->line / p_.ibus_beat - 1) * (p_.ibus_read_gap - 1));
}

// Loads and stores outside the tightly coupled data memory go on the bus. The D-bus buffer (dbus_queue): an
// aligned access to memory without side effects goes through it; any other bus access pushes the buffer out and
// takes the command channel.
template <int kFull>
[[gnu::always_inline]] inline void TimingModel::bus_issue_stage(StepScratch& st) {
    if (st.data && veer_on<kFull, &P::local_data>(p_))
        for (unsigned k = 0; k < st.n_mem; ++k) st.bus |= !p_.local_data->contains(st.mem[k].addr);
    if (!st.bus || !veer_on<kFull, &P::dbus_queue>(p_)) return;
    const MemRef& m0 = st.mem[0];
    st.queued = st.n_mem == 1 && !split_access(m0) && m0.size && m0.size <= 4 && region_cacheable(m0.addr);
    unsigned busy = 0, transactions = 0;
    if (st.queued) {
        const unsigned r = dbus_access(st.issue, m0, st.insn.cls == isa::InsnClass::load, transactions, busy);
        st.bus_transactions = transactions;
        st.forwarded = r == ~0u;
        st.bus_extra = st.forwarded ? 0 : r;
    } else {
        dbus_drain(st.issue + p_.dbus_read_cmd);
        s_.dbus.free = std::max(s_.dbus.free, st.issue + p_.dbus_read_cmd) + 1;
        s_.dbus.forget_read();
        // A split access across two beats sends two commands of its kind back to back (within one beat the bus
        // buffer merges them: el2_lsu_bus_buffer.sv, obuf_merge_en, buf_samedw): the second waits for the memory
        // (dbus_cmd_gap).
        if (st.n_mem == 1 && split_access(m0) && crosses_beat(m0) && p_.dbus_cmd_gap) busy = p_.dbus_cmd_gap - 1;
        // A split load's data: bus_misaligned_load_penalty more per 64-bit beat it reads; VeeR EL2, inside one beat,
        // only behind writes that leave the D-bus buffer first (tests/veer-rtl/splitma: `lh 3` and `lw 1` over and
        // over, nothing written, as fast as aligned loads; misaligned: `lw 2` after two split stores, a cycle later,
        // its read behind their writes: LsuBuffers::writes_ahead).
        if (st.insn.cls == isa::InsnClass::load && st.n_mem == 1 && split_access(m0)) {
            const bool alone = !crosses_beat(m0) && lsu_ && p_.bus_buffer && !lsu_->writes_ahead(st.issue - 1);
            st.bus_extra = alone ? 0u : p_.bus_misaligned_load_penalty * (crosses_beat(m0) ? 2u : 1u);
        }
    }
    st.bus_busy = busy;
}

// Instruction fetch: one access per line entered, sequentially or by a taken branch.
template <int kFull>
[[gnu::always_inline]] inline void TimingModel::fetch_stage(StepScratch& st, EventBatch& b) {
    const isa::RetiredInsn& insn = st.insn;
    st.local_code = kFull && veer_on<kFull, &P::local_code>(p_) && p_.local_code->contains(st.pc);
    if (!veer_on<kFull, &P::l1i>(p_) || st.local_code) return;
    if (s_.next_fetch_new) {
        s_.last_ifetch_line = s_.last_fetch = ~uint64_t{0};
        s_.phase_line = kFull && veer_on<kFull, &P::fetch_keeps_halfword>(p_) && (st.pc & 2u) ? l1i_->line_of(st.pc) : ~uint64_t{0};
    }
    // After a taken branch, a trap or mret the next instruction is fetched anew (a redirect).
    const bool redirect = (insn.branch & isa::br_taken) && !insn.cond_failed;
    s_.next_fetch_new = redirect || isa::is_trap(insn.cls);
    if (kFull && veer_on<kFull, &P::follows_mrac>(p_) && !region_cacheable(st.pc)) {
        // Not cacheable (VeeR mrac): every fetch goes over the I-bus.
        unsigned span = 0;
        const uint64_t fetches = fetches_started<kFull>(st.pc, st.size, false, span);
        emit(b, p_.ev_ibus_access, fetches);
        st.cycles += fetches * p_.uncached_fetch_penalty;
        return;
    }
    const uint64_t line = l1i_->line_of(st.pc);
    bool refill = false;
    // Entering the line still being refilled anew (a redirect into it, or back into it after the fetch left it),
    // not as the refill's own stream through the fill buffer: the fetch waits for the refill (tests/veer-rtl/irq,
    // its first window: a loop's branch back into the line it missed on, and a jump within a line a straddling
    // store missed on, both commit their target 16 cycles after the line's first instruction; bytecopy and splitma,
    // fetch_trace.sh: a loop whose branch lies in the refilling line goes back to the line before it and enters
    // the refilling one again, sequentially, 16 cycles after its first instruction, 0x80000400 at 695 and 711).
    // el2_ifu_mem_ctl.sv: a taken branch (ifu_bp_hit_taken_q_f) or a flush takes miss_state from STREAM to
    // HIT_U_MISS; there the line before hits (ic_act_hit_f), but a fetch back into imb_ff's line, whose tag is
    // written only with the last beat, misses (ic_ignore_2nd_miss_f) and STALL_SCND_MISS holds it, ic_hit_f low
    // (el2_ifu_ifc_ctl.sv: sel_last_addr_bf fetches the same address again), until bus_ifu_wr_en_ff & last_beat.
    if (kFull && veer_on<kFull, &P::fill_redirect_commit>(p_) && line != s_.last_ifetch_line && line == s_.refill_line) {
        const uint64_t due = s_.fill_start + p_.fill_redirect_commit, at = s_.now + st.cycles;
        if (due > at) st.cycles += due - at;
    }
    // An instruction whose last halfword lies in the next line needs that line too (VeeR EL2: the aligner takes it
    // from the next fetch, el2_ifu_aln_ctl.sv): its miss is this instruction's (where fetch_bytes is followed).
    const uint64_t last_line = kFull && veer_on<kFull, &P::fetch_bytes>(p_) ? l1i_->line_of(st.pc + st.size - 1) : line;
    if (line != s_.last_ifetch_line || last_line != line)  // else no line entered (most instructions): no access
    for (uint64_t l = line; l <= last_line; ++l) {
    if (l != s_.last_ifetch_line) {
        const uint64_t at_pc = l == line ? st.pc : l * p_.l1i->line;
        s_.last_ifetch_line = l;
        st.cycles += tlb(itlb_, at_pc, p_.ev_itlb_refill, b, st.fetch_walk);
        const auto r = l1i_->access(at_pc, false);
        if (!r.refill) s_.fill_line = ~uint64_t{0};  // a line entered from the cache, not the fill buffer
        emit(b, p_.ev_l1i_access);
        if (r.refill) {
            refill = true;
            st.refilled = true;
            const bool sequential = p_.l1i_sequential_refill_penalty && l == s_.last_miss_line + 1;
            s_.last_miss_line = l;
            s_.fill_line = s_.refill_line = l;
            const uint64_t cost = (sequential ? p_.l1i_sequential_refill_penalty : p_.l1i_refill_penalty) +
                                  next_level(at_pc, false, b);
            st.cycles += kFull ? refill_wait(st, cost) : cost;
            // A miss while the last refill's beats are still coming waits for them (el2_ifu_mem_ctl.sv: miss_state
            // HIT_U_MISS to SCND_MISS on ic_miss_under_miss_f; the I-bus takes its read commands after the last
            // refill's): its instruction commits no sooner than fill_next_miss cycles after the last refilling one.
            if (kFull && veer_on<kFull, &P::fill_next_miss>(p_)) {
                const uint64_t due = s_.fill_data + p_.fill_next_miss, at = s_.now + st.cycles;
                if (due > at) st.cycles += due - at;
                s_.fill_data = s_.now + st.cycles;
            }
            s_.fill_start = s_.now + st.cycles;
            refill_events(b);
        }
    }
    }
    if (kFull && veer_on<kFull, &P::fetch_bytes>(p_)) {  // hits: the fetches this instruction starts, but a refill's first
        const uint64_t fetches = fetches_started<kFull>(st.pc, st.size, true, st.span);
        st.started = fetches;
        if (veer_on<kFull, &P::fill_buffer_fetches>(p_) && line == s_.fill_line) {
            if (refill) emit(b, p_.ev_l1i_hit);  // the rest of the line comes from the fill buffer
            // Until fill_buffer_cycles after the refill: the fetches' cycles decide (the fetch queue).
            if (veer_on<kFull, &P::fill_buffer_cycles>(p_) && veer_on<kFull, &P::fetch_queue>(p_)) st.fill_fetches = fetches - (refill ? 1 : 0);
        } else if (fetches > (refill ? 1u : 0u)) {
            emit(b, p_.ev_l1i_hit, fetches - (refill ? 1 : 0));
        }
    }
}

// VeeR EL2's fetch buffer (tests/veer-rtl, measured cycle by cycle on a copy of the RTL that prints each fetch and
// the buffer's state: tests/veer-rtl/fetch_trace.sh). The fetch brings 4 bytes a cycle (a predicted taken branch
// redirects it without a gap) into a buffer of `fetch_queue` (3) entries (el2_ifu_ifc_ctl.sv: fb_full_f), and an
// entry is free again once the instruction that ends in it leaves for decode: a fetch can happen no sooner than
// the commit of the last instruction in the entry `fetch_queue` fetches before it (`exec` here is the model's
// commit cycle), and no later than 2 cycles before its own instruction commits, as it does after a flush or a
// refill.
//  - Event 28 (ifu_pmu_fetch_stall): the cycles the fetch waits with the buffer full and nothing consumed (all
//    but the one in which room is made), plus the cycles waiting for an I-cache refill (wfm; fetch_cycles).
//  - Event 2 counts every fetch in F that hits until exu_flush_final drops it (el2_ifu_mem_ctl.sv:
//    ic_act_hit_f): past a flush, the fetch goes on down the wrong path, a fetch a cycle while the buffer has
//    room (the wrong path's own entries are never consumed), until the flush lands: a branch's a cycle before it
//    commits (el2_exu.sv, exu_flush_final from the i0 branch), that of ecall, ebreak and mret a cycle after
//    (el2_dec_tlu_ctl.sv, dec_tlu_flush_lower_wb).
template <int kFull>
[[gnu::always_inline]] inline void TimingModel::fetch_queue_stage(StepScratch& st, EventBatch& b) {
    // Cycles in this model are counted from 0: the first instructions' fetches are taken at cycle 0 at the earliest.
    const uint64_t exec = std::max<uint64_t>(st.issue + st.fetch_cycles, 2);
    const size_t q = kFull == 2 ? veer_fetch_queue : p_.fetch_queue;
    if (st.refilled) s_.fill_at = exec - 2;
    // A fetch in the refilled line after the fill buffer has written it to the cache is a hit (el2_ifu_mem_ctl.sv:
    // ic_byp_hit_f, then ic_act_hit_f; tests/veer-rtl/busgap on fetch_trace.sh's copy: 16 cycles after the
    // refill's first fetch, whatever the fetches in between).
    auto from_cache = [&](uint64_t k, uint64_t at) {
        if (k + st.fill_fetches >= st.started && at >= s_.fill_at + p_.fill_buffer_cycles) emit(b, p_.ev_l1i_hit);
    };
    if (s_.refetch) {  // emptied by the flush: the fetch starts again here (in this entry when a branch not
                       // taken flushed)
        s_.fetched.fill(0);
        s_.fetch_at = exec - 2;
        if (st.fill_fetches)
            for (uint64_t k = 0; k < st.started; ++k) from_cache(k, s_.fetch_at);
    } else {
        for (uint64_t k = 0; k < st.started; ++k) {  // each takes the room of the oldest entry, fetched[0]
            const uint64_t at =
                st.refilled ? exec - 2 : std::min(exec - 2, std::max(s_.fetch_at + 1, s_.fetched[0]));
            if (!st.refilled && at > s_.fetch_at + 2) emit(b, p_.ev_fetch_stall, at - s_.fetch_at - 2);
            s_.fetch_at = at;
            if (st.fill_fetches) from_cache(k, at);
            for (size_t e = 1; e < q; ++e) s_.fetched[e - 1] = s_.fetched[e];  // at most 3 (fetch_queue <= 4)
        }
    }
    // The entries this instruction lies in are consumed when it is (the last instruction in each so far).
    for (size_t k = 1, n = std::min<size_t>(st.span, q); k <= n; ++k) s_.fetched[q - k] = exec;
    s_.refetch = st.flush || st.trap_flush;
    if (!s_.refetch) return;
    const uint64_t lands = st.flush ? exec - 1 : exec + 1;
    uint64_t at = s_.fetch_at, wrong = 0, stalled = 0;
    const bool past_taken = st.flush && (st.insn.branch & isa::br_taken) && !st.insn.cond_failed;
    for (size_t k = 0;; ++k) {
        const uint64_t room = k < q ? s_.fetched[k] : ~uint64_t{0};
        const uint64_t next = std::max(at + 1, room);
        if (next >= lands) {  // no room (or no time) left before the flush
            if (room > at + 1) stalled += room > lands ? lands - 1 - at : room - at - 2;
            break;
        }
        if (next > at + 2) stalled += next - at - 2;
        at = next;
        // Past a taken branch the wrong path is the fetch running on sequentially, 4 bytes a fetch from the last
        // one. Where it enters a line not in the cache it misses there and refills the line: the flush does not
        // cancel the refill (el2_ifu_mem_ctl.sv, MISS_SM: IDLE, CRIT_BYP_OK and MISS_WAIT go to HIT_U_MISS on
        // exu_flush_final, lines 508, 520, 532; the last beat writes the tag while miss_pending, bus_wren_last,
        // line 1716). The fetch waits for the line (WFM) and fetches nothing more before the flush.
        if (p_.wrong_path_refill && past_taken) {
            const uint64_t addr = (s_.last_fetch + k + 1) << fetch_shift_, l = l1i_->line_of(addr);
            if (l != s_.last_ifetch_line && (!p_.follows_mrac || region_cacheable(addr)) &&
                !(p_.local_code && p_.local_code->contains(addr)) && !l1i_->probe(addr)) {
                l1i_->access(addr, false);
                emit(b, p_.ev_l1i_access);
                refill_events(b);
                break;
            }
        }
        ++wrong;
    }
    emit(b, p_.ev_l1i_hit, wrong);
    emit(b, p_.ev_fetch_stall, stalled);
}

// The data accesses: micro TLB (and main TLB, a walk), L1 D-cache, its write-backs and refills through L2.
[[gnu::always_inline]] inline void TimingModel::data_stage(StepScratch& st, EventBatch& b) {
    const MemRef* mem = st.mem;
    for (unsigned k = 0; k < st.n_mem; ++k) {
        const bool sequential =
            p_.count_line_once && k && l1d_ && l1d_->line_of(mem[k].addr) == l1d_->line_of(mem[k - 1].addr);
        if (sequential) {  // the line the previous access brought in: a hit, not counted again
            l1d_->access(mem[k].addr, mem[k].write);
            continue;
        }
        uint64_t walk = 0;  // not a fetch's
        st.cycles += tlb(dtlb_, mem[k].addr, p_.ev_dtlb_refill, b, walk);
        if (!l1d_) continue;
        const auto r = l1d_->access(mem[k].addr, mem[k].write);
        emit(b, p_.ev_l1d_access);
        emit(b, p_.ev_l1d_access_cacheable);
        if (r.writeback) {
            emit(b, p_.ev_l1d_writeback, r.dirty_parts);
            st.cycles += next_level(r.victim, true, b);
        }
        if (r.refill) {
            st.cycles += p_.l1d_refill_penalty + next_level(mem[k].addr, false, b);
            emit(b, p_.ev_l1d_refill);
        }
        if (!r.hit) emit(b, p_.ev_l1d_external);
    }
}

// The data bus (VeeR EL2: outside the DCCM): transactions, misaligned holds, the load and store penalties.
[[gnu::always_inline]] inline void TimingModel::bus_stage(StepScratch& st, EventBatch& b) {
    using C = isa::InsnClass;
    const isa::RetiredInsn& insn = st.insn;
    const MemRef* mem = st.mem;
    for (unsigned k = 0; k < st.n_mem; ++k) {
        if (p_.local_data->contains(mem[k].addr)) continue;
        // Two transactions when the access crosses a bus beat. VeeR EL2's D-bus buffer (el2_lsu_bus_buffer.sv;
        // lsu_pmu_bus_trxn counts each aw, w or ar handshake, the testbench takes a write's two together): a store
        // that crosses a word is two writes whether or not it crosses a beat (writes never merge in the obuf), its
        // first word's in an entry of its own, its second word's from the ibuf, or one when the ibuf holds its first
        // word (that goes with the ibuf's write: LsuBuffers::joins_ibuf).
        const bool split = crosses_beat(mem[k]);
        unsigned n = st.queued ? st.bus_transactions : split ? 2 : 1;
        if (!st.queued && lsu_ && p_.bus_buffer && insn.cls == C::store && split_access(mem[k]))
            n = lsu_->joins_ibuf(s_.now + st.cycles - s_.lsu_pending, mem[k].addr >> 2) ? 1 : 2;
        emit(b, p_.ev_bus_access, n);
        // A split load holds decode until its data returns; a split store, once per bus transaction, until the bus
        // buffer drains (the RTL stalls the next load or store at decode): decode stalls. (On tests/veer-rtl/splitma
        // a split load within one beat, lh 3 or lw 1 over and over, holds the add after it only as an aligned load
        // would; on misaligned, between split stores, it holds as one across beats: not followed.)
        if (insn.unaligned && split_access(mem[k])) {
            st.split_bus = true;
            emit(b, p_.ev_bus_misaligned);
            const unsigned hold = insn.cls == C::load ? 0u : p_.bus_misaligned_store_penalty * (split ? 2u : 1u);
            st.cycles += hold;
            st.bus_hold += hold;
            emit(b, p_.ev_dep_stall, hold);
        }
    }
    emit(b, insn.cls == C::load ? p_.ev_bus_load : p_.ev_bus_store);
    if (insn.cls == C::load) {
        st.cycles += p_.bus_load_penalty;
        return;
    }
    bool side_effect = !p_.store_penalty_side_effect_only;
    for (unsigned k = 0; k < st.n_mem && !side_effect; ++k) side_effect = !region_cacheable(mem[k].addr);
    if (side_effect) st.cycles += p_.bus_store_penalty;
}

// The commit the LSU buffers see (lsu_pending); a bus load's data returns 2 cycles before its value is ready (the
// exec.log's nbL line).
[[gnu::always_inline]] inline void TimingModel::lsu_stage(const StepScratch& st) {
    using C = isa::InsnClass;
    const uint64_t prev = s_.lsu_prev_eff;
    uint64_t eff;
    if (st.data && st.insn.cls == C::load) {
        s_.lsu_pending = 0;
        eff = s_.now - st.bus_hold;
    } else {
        if (st.data) s_.lsu_pending += st.bus_hold;
        eff = s_.now - s_.lsu_pending;
    }
    if (st.data) {
        uint64_t ret = 0;
        // A split one's entries (two) stay until bus_load_latency after its commit whatever the beats it reads
        // (tests/veer-rtl/misaligned's warm iterations: lw 2(s0) commits at 605, its nbL at 610), not with its value.
        if (st.bus && st.insn.cls == C::load) ret = st.split_bus ? eff + p_.bus_load_latency : st.issue + st.latency - 2;
        lsu_commit(st.insn.cls == C::store, eff, prev, st.mem, st.n_mem, ret);
        if (ls_log_) ls_log_->emplace_back(s_.now, ret);
    }
    s_.lsu_prev_eff = eff;
}

template <int kFull, ArmRules kArm>
[[gnu::noinline]] uint64_t TimingModel::timed_k(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, const MemRef* mem,
                              unsigned n_mem, EventBatch& b, unsigned flush) {
    StepScratch st(insn, pc, size, mem, n_mem, flush);
    if (kFull && veer_on<kFull, &P::dbus_queue>(p_)) {
        if (!s_.dbus.quiet())
            s_.dbus = dbus_canonical(s_.now);
        else if (s_.dbus.free < s_.now)
            s_.dbus.free = s_.now;
    }
    issue_stage<kFull, kArm>(st, b);
    if (kFull) bus_issue_stage<kFull>(st);
    if (kFull && st.bus && veer_on<kFull, &P::dbus_queue>(p_)) emit(b, p_.ev_dbus_busy, st.bus_busy);
    result_stage<kFull, kArm>(st, b);
    fetch_stage<kFull>(st, b);
    if (kFull && veer_on<kFull, &P::fetch_queue>(p_) && veer_on<kFull, &P::l1i>(p_) && !st.local_code) {
        st.room_wait = fetch_room_wait<kFull>(st);
        st.cycles += st.room_wait;  // not event 28: the buffer is full, but an entry is consumed in that cycle
    }
    st.fetch_cycles = st.cycles - st.before_fetch;
    // With the fetch buffer followed, an instruction that waited for its fetch (a refill, the re-entry into a line
    // being refilled, a miss behind the last refill) goes to decode when its data come: its results are that much
    // later (the shared hello_world exec.log: the loop's `lb` at 0x8000002c, back into the line the program's first
    // cacheable fetch refilled, commits 5 cycles after the `bne`, and the `sb` of its byte 5 after it, at decode 4).
    if (kFull && veer_on<kFull, &P::fetch_queue>(p_) && st.fetch_cycles) {
        for (uint32_t m = st.dst; m; m &= m - 1) {
            s_.ready[ctz(m)] += st.fetch_cycles;
            if (addr_by_producer_) s_.addr_ready[ctz(m)] += st.fetch_cycles;
        }
        if (insn.cls == isa::InsnClass::div) s_.divider_free += st.fetch_cycles;
    }
    if (kFull && veer_on<kFull, &P::fetch_queue>(p_) && veer_on<kFull, &P::l1i>(p_) && !st.local_code) {
        fetch_queue_stage<kFull>(st, b);
    } else {
        if (st.flush) emit(b, p_.ev_l1i_hit, p_.flush_fetch_hits);
        if (st.trap_flush) emit(b, p_.ev_l1i_hit, p_.trap_flush_fetch_hits);
    }
    if (st.data) data_stage(st, b);
    if (kFull && st.bus) bus_stage(st, b);
    // Stall cycles by cause: fetch misses and refetch after a misprediction starve the front end; result-use
    // waits, multi-cycle execution and data misses hold the back end.
    if (st.fetch_cycles + st.refill_hidden > st.fetch_walk + st.split_cycles + st.room_wait)
        emit(b, p_.ev_fetch_stall, st.fetch_cycles + st.refill_hidden - st.fetch_walk - st.split_cycles - st.room_wait);
    if (st.fetch_cycles + st.flush) emit(b, p_.ev_stall_frontend, st.fetch_cycles + st.flush);
    const uint64_t back = st.cycles - st.fetch_cycles - st.flush - (st.paired || st.folded ? 0 : 1);
    if (back) emit(b, p_.ev_stall_backend, back);
    if (!st.mie_before) emit(b, p_.ev_irq_disabled, st.cycles - st.freeze);
    // The next instruction may pair with this one if it issued alone, took one cycle and did not branch away; or,
    // where multiple_last_slot, beside the last issue cycle of a load or store multiple (in the other slot).
    const unsigned last = has_rule(kArm, rule_multiple_cycles) && p_.multiple_last_slot ? st.multiple_extra : 0u;
    s_.pair_open = !st.paired && st.cycles == st.base && st.base == 1 + st.stall + last &&
                   !((insn.branch & isa::br_taken) && !insn.cond_failed);
    s_.prev_issue = st.issue + last;
    s_.prev_dst = st.dst;
    s_.prev_shape = insn.regs.shape;
    s_.prev_cls = insn.cls;
    s_.now += st.cycles;
    if (st.mie_set) s_.mie_on = s_.now;
    if (kFull && veer_on<kFull, &P::store_buffer>(p_)) lsu_stage(st);
    return st.cycles;
}

// An out-of-order core (TimingParams::ooo): the fetch and data stages give the misses' cycles, the OooCore
// (ooo.hpp) when the instruction dispatches, executes and retires; its cycles are its retirement less the previous
// instruction's. Its events: STALL_FRONTEND and STALL_BACKEND count the cycles without a dispatch, the front end
// not ready (a misprediction's refill, an I-cache or ITLB miss) or the window full; the speculative events add the
// instructions dispatched down a mispredicted branch's wrong path (docs/accuracy.md, "Out-of-order cores").
uint64_t TimingModel::ooo_timed(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, const MemRef* mem,
                                unsigned n_mem, EventBatch& b, unsigned flush) {
    using C = isa::InsnClass;
    StepScratch st(insn, pc, size, mem, n_mem, flush);
    st.issue = 0;  // read by fetch_stage at a refill (fill_start); no issue_stage here
    s_.next.csr = 0;
    s_.next.interrupted = false;  // read by predict()
    s_.next.resume = 0;
    s_.next.killed_kind = 0;
    fetch_stage<0>(st, b);
    const uint64_t fetch = st.cycles;
    if ((insn.cls == C::load || insn.cls == C::store) && !insn.cond_failed) data_stage(st, b);
    OooInsn in(insn, st.pc);
    in.fetch_delay = fetch + s_.pending_extra;       // an interrupt's entry (take_interrupt)
    s_.pending_extra = 0;
    in.mem_delay = st.cycles - fetch;
    in.mem_addr = st.n_mem ? st.mem[0].addr : 0;
    for (unsigned k = 0; k < st.n_mem; ++k) {
        in.mem_bytes += st.mem[k].size ? st.mem[k].size : 4u;
        in.mem_addr = std::min(in.mem_addr, st.mem[k].addr);
    }
    in.mispredicted = st.flush != 0 && !(flush & branch_bubble);  // a taken bubble is the in-order cores' alone
    const OooTiming t = ooo_->step(in, s_.ready);
    if (t.frontend_stall) emit(b, p_.ev_stall_frontend, t.frontend_stall);
    if (t.backend_stall) emit(b, p_.ev_stall_backend, t.backend_stall);
    if (t.wrong_path)
        for (uint32_t ev : p_.ev_spec) emit(b, ev, t.wrong_path);
    s_.now += t.cycles;
    return t.cycles;
}

uint64_t TimingModel::timed(const isa::RetiredInsn& insn, uint64_t pc, unsigned size, const MemRef* mem, unsigned n_mem,
                            EventBatch& b, unsigned flush) {
    // Each kernel out of line, reached by a tail call: timed() sets up no frame of its own (inlined here, the lean
    // kernel's frame was set up on the full kernel's path too). An out-of-order core never takes the full one
    // (TimingModel's constructor).
    // The ARM rules' kernel was chosen when the model was built (arm_kernel).
    if (veer_shape_) return timed_k<2, arm_rules_none>(insn, pc, size, mem, n_mem, b, flush);
    if (full_) return arm_rules_ ? timed_k<1, arm_rules_all>(insn, pc, size, mem, n_mem, b, flush)
                                 : timed_k<1, arm_rules_none>(insn, pc, size, mem, n_mem, b, flush);
    if (ooo_) return ooo_timed(insn, pc, size, mem, n_mem, b, flush);
    return arm_rules_ == arm_rules_cortex ? timed_k<0, arm_rules_cortex>(insn, pc, size, mem, n_mem, b, flush)
                                          : timed_k<0, arm_rules_all>(insn, pc, size, mem, n_mem, b, flush);
}

}  // namespace pmusim::timing
