// The timing model's state between two instructions, as one plain struct with one list of its fields (visit()).
// Everything that copies, compares, keys or moves the state on in time is written from visit(): a field added to
// the struct and not to visit() fails tests/unit/test_timing.cpp (PipelineState.VisitNamesEveryField), never a
// result silently. The caches, TLBs, predictor and LSU buffers keep their own state (their own same_state()).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

#include "isa/insn_class.hpp"

namespace pmusim::timing {

// How a visited field acts on timing (loop_state.cpp puts the state in words by these kinds; same_state compares by
// them):
//  - clock: now, the cycle every other is measured from;
//  - value: compared as it is (addresses, flags, counts);
//  - cycle: a cycle that matters only while `live` (a rule can still tell it from any earlier cycle): kept
//    relative to now while live, as "past" when not; compared as it is;
//  - held: the same, but compared only while live (a fetch buffer entry that can no longer hold a fetch back);
//  - aged: a cycle compared with others at most a few hundred cycles apart: relative to now while recent, as it
//    is once old (TimingModel::loop_fresh, loop_stale).
enum class FieldKind : uint8_t { clock, value, cycle, held, aged };

// VeeR EL2's D-bus buffer (TimingModel::dbus_access; el2_lsu_bus_buffer.sv): the first cycle the command channel
// is free; the write-coalescing buffer (its word, bytes written, the issue of its last store); the store that left
// it, until its command goes; the last read command's 8-byte beat and the cycle its response comes.
struct DbusState {
    uint64_t free = 0;
    uint64_t ibuf_word = 0, ibuf_last = 0;
    uint64_t sent_word = ~uint64_t{0}, sent_until = 0;
    uint64_t read_beat = ~uint64_t{0}, read_resp = 0;
    bool ibuf = false, ibuf_join = false;  // a store in the ibuf; later stores may still join it
    uint8_t ibuf_bytes = 0, sent_bytes = 0;
    void send(uint64_t cmd);
    // Nothing buffered, no read to share: only `free` matters (every other field is then 0 or none).
    bool quiet() const { return !ibuf && sent_word == ~uint64_t{0} && read_beat == ~uint64_t{0}; }
    void forget_read() {
        read_beat = ~uint64_t{0};
        read_resp = 0;
    }
    // Every field once, with its kind (the cycles' liveness as loop_state needs it: a buffered word's times only
    // while it is held). `v(field, kind, live)`.
    template <class S, class V>
    static void visit(S& s, V&& v) {
        v(s.free, FieldKind::cycle, true);
        v(s.ibuf_word, FieldKind::value, true);
        v(s.ibuf_last, FieldKind::cycle, s.ibuf);
        v(s.sent_word, FieldKind::value, true);
        v(s.sent_until, FieldKind::cycle, s.sent_word != ~uint64_t{0});
        v(s.read_beat, FieldKind::value, true);
        v(s.read_resp, FieldKind::cycle, s.read_beat != ~uint64_t{0});
        v(s.ibuf, FieldKind::value, true);
        v(s.ibuf_join, FieldKind::value, true);
        v(s.ibuf_bytes, FieldKind::value, true);
        v(s.sent_bytes, FieldKind::value, true);
    }
};

// A step()'s inputs that are not the instruction's own (TimingModel::step's argument): the CSR it accesses (its pre-
// and post-sync: sync_stall), whether it is the last before an interrupt entry (its successor is not in the trace),
// and a division's operands (VeeR EL2, divider_from_operands: dividend, divisor, whether a remainder, and whether
// the trace gives register values at all; if not, no shortcut). The step keeps them in the state while it runs.
struct StepInputs {
    uint32_t div_a = 0, div_b = 0;  // dividend, divisor (divider_from_operands)
    uint16_t csr = 0;
    bool div_rem = false, div_known = false, interrupted = false;
    uint64_t resume = 0;  // interrupted: where the program resumes after the handler (the entry's mepc; 0 unknown)
    // interrupted: the control transfer at `resume` that the entry killed after it went through execute (trace
    // flushed_encoding_csr): 1 + its BranchPredictor::VeerKind (0: none known), its size, and where it went
    // (flushed_next_csr).
    uint8_t killed_kind = 0, killed_size = 0;
    uint64_t killed_next = 0;
    template <class S, class V>
    static void visit(S& s, V&& v) {
        v(s.div_a, FieldKind::value, true);
        v(s.div_b, FieldKind::value, true);
        v(s.csr, FieldKind::value, true);
        v(s.div_rem, FieldKind::value, true);
        v(s.div_known, FieldKind::value, true);
        v(s.interrupted, FieldKind::value, true);
        v(s.resume, FieldKind::value, true);
        v(s.killed_kind, FieldKind::value, true);
        v(s.killed_size, FieldKind::value, true);
        v(s.killed_next, FieldKind::value, true);
    }
};

struct PipelineState {
    // The model's cycle at the start of the next instruction; it starts late enough that the registers' initial
    // values (ready at 0) are ready even for an Early Reg.
    uint64_t now = 256;
    uint64_t prev_issue = 0;
    std::array<uint64_t, 32> ready{};  // the cycle each register's value is ready
    // The cycle each register's value may form an address, where a class has an address_latency (else unused: 0).
    std::array<uint64_t, 32> addr_ready{};
    uint64_t divider_free = 0;         // the cycle the divider takes a new division
    uint64_t postsync_until = 0;       // the next instruction may issue no sooner (0: no postsync wait)
    uint64_t csr_write_issue = 0;      // the issue of the last write-only CSR instruction (csr_write_block)
    uint64_t lsu_free = 0;             // the cycle the load/store unit takes a new access (multiple_holds_lsu)
    // The last store multiple (multiple_write_lock): its issue and the registers it stores (bit n: register n).
    uint64_t stm_issue = 0;
    uint32_t stm_regs = 0;
    // Instruction fetch: the last line and fetch granule (fetch_bytes), the last I-cache miss's line, the line last
    // refilled (served from the fill buffer), the cycle of that refill's first fetch (fill_buffer_cycles) and the
    // issue of the instruction that refilled it (fill_redirect_commit) and its commit (fill_next_miss), the line a
    // redirect entered at an odd halfword (fetch_keeps_halfword; ~0: none).
    uint64_t last_ifetch_line = ~uint64_t{0}, last_fetch = ~uint64_t{0}, last_miss_line = ~uint64_t{0};
    uint64_t fill_line = ~uint64_t{0}, fill_at = 0, fill_start = 0, fill_data = 0, phase_line = ~uint64_t{0};
    // The line last refilled, for fill_redirect_commit: unlike fill_line, not ended when the fetch enters another
    // line (a fetch back into it still waits for its refill).
    uint64_t refill_line = ~uint64_t{0};
    // VeeR EL2's fetch ahead of commit (fetch_queue): the cycle of the last fetch and, per fetch buffer entry
    // (the first fetch_queue), oldest first, the commit of its last instruction.
    uint64_t fetch_at = 0;
    std::array<uint64_t, 4> fetched{};
    // The LSU buffers' view of the commits (TimingModel::lsu_commit). The model charges a misaligned bus access's
    // hold to the access itself, the RTL to what follows it (a load's to the next instruction, a store's to the
    // next load at decode): the commits the buffers see are the model's less the holds the RTL has not yet shown
    // (lsu_pending: the stores'), and the last one's (lsu_prev_eff).
    uint64_t lsu_pending = 0, lsu_prev_eff = 0;
    uint64_t seen_sig = 0;  // the XOR of a mix of each seen-target entry that is not 0 (loop_state)
    DbusState dbus;
    uint32_t prev_dst = 0;     // registers the previous instruction wrote
    uint8_t prev_shape = 0;    // the previous instruction's operand shape (isa::RegUse::shape)
    uint32_t mstatus = 0;      // reset: MIE = MPIE = 0
    uint64_t mie_on = 0;       // the commit of the instruction that last set mstatus.MIE (interrupt_after_enable)
    uint32_t mrac = 0x55555555u;  // every region cacheable
    unsigned pending_extra = 0;   // cycles the previous instruction left to the next one
    // Of those, the cycles of a fast interrupt's freeze (ext_interrupt_freeze): interrupts still enabled, decode
    // stalled. Set by take_interrupt() only, whose record is always stepped: 0 at a body's entry.
    unsigned pending_freeze = 0;
    // An interrupt's entry: the decode stall of the TLU's flush (take_interrupt). Set and kept as pending_freeze.
    unsigned pending_entry_stall = 0;
    uint16_t cacheable = 0xFFFF;  // a bit per 256 MiB region (from mrac)
    isa::InsnClass prev_cls = isa::InsnClass::alu;
    bool pair_open = false;       // the previous instruction issued alone and could take a partner
    bool next_fetch_new = false;  // the next instruction is fetched anew (after a redirect)
    bool refetch = false;         // the fetch buffer was emptied by a flush (fetch_queue)
    bool flushed = false;         // the previous instruction was a branch that flushed (split_fetch_after_flush)
    StepInputs next;

    // Every field once: `v(field, kind, live)` for each scalar and each array element, `v.nested(field)` for the
    // nested structs (DbusState::visit, StepInputs::visit). Whether a cycle is live needs the model's parameters:
    // `live` answers for the state as it was before the visit began (TimingModel::StateLiveness).
    template <class S, class V, class L>
    static void visit(S& s, V&& v, const L& live) {
        v(s.now, FieldKind::clock, true);
        v(s.prev_issue, FieldKind::aged, true);
        for (auto& r : s.ready) v(r, FieldKind::cycle, live.ready(r));
        for (auto& r : s.addr_ready) v(r, FieldKind::cycle, live.addr(r));
        v(s.divider_free, FieldKind::cycle, live.divider(s.divider_free));
        v(s.postsync_until, FieldKind::cycle, live.postsync(s.postsync_until));
        v(s.csr_write_issue, FieldKind::cycle, live.csr_write(s.csr_write_issue));
        v(s.lsu_free, FieldKind::cycle, live.lsu_busy(s.lsu_free));
        v(s.stm_issue, FieldKind::cycle, live.stm_lock(s.stm_issue));
        v(s.stm_regs, FieldKind::value, true);
        v(s.last_ifetch_line, FieldKind::value, true);
        v(s.last_fetch, FieldKind::value, true);
        v(s.last_miss_line, FieldKind::value, true);
        v(s.fill_line, FieldKind::value, true);
        v(s.refill_line, FieldKind::value, true);
        v(s.fill_at, FieldKind::cycle, live.fill_at(s.fill_at));
        v(s.fill_start, FieldKind::cycle, live.fill_start(s.fill_start));
        v(s.fill_data, FieldKind::cycle, live.fill_data(s.fill_data));
        v(s.phase_line, FieldKind::value, true);
        // The fetch queue, where followed and not emptied by a flush: the last fetch, and the entries that can
        // still hold a fetch back.
        v(s.fetch_at, live.queue() ? FieldKind::aged : FieldKind::held, live.queue());
        for (auto& f : s.fetched) v(f, FieldKind::held, live.fetched(f));
        v(s.lsu_pending, FieldKind::value, true);
        v(s.lsu_prev_eff, live.lsu_followed() ? FieldKind::aged : FieldKind::held, live.lsu_followed());
        v(s.seen_sig, FieldKind::value, true);
        v.nested(s.dbus);
        v(s.prev_dst, FieldKind::value, true);
        v(s.prev_shape, FieldKind::value, true);
        v(s.mstatus, FieldKind::value, true);
        v(s.mie_on, FieldKind::cycle, live.mie_on(s.mie_on));
        v(s.mrac, FieldKind::value, true);
        v(s.pending_extra, FieldKind::value, true);
        v(s.pending_freeze, FieldKind::value, true);
        v(s.pending_entry_stall, FieldKind::value, true);
        v(s.cacheable, FieldKind::value, true);
        v(s.prev_cls, FieldKind::value, true);
        v(s.pair_open, FieldKind::value, true);
        v(s.next_fetch_new, FieldKind::value, true);
        v(s.refetch, FieldKind::value, true);
        v(s.flushed, FieldKind::value, true);
        v.nested(s.next);
    }
};

// The number of members of an aggregate (brace initialisation from values convertible to anything): the tests
// check visit() against it, so that a field added to a state and not to its visit() fails a test.
namespace detail {
template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
struct AnyField {
    // Never called: only in unevaluated contexts. Not to a std::optional, which its own converting constructor makes
    // from the value (else both would be candidates, and -Wconversion warns of the choice).
    template <class T, class = std::enable_if_t<!IsOptional<T>::value>>
    operator T() const;
};
template <class T, class = void, class... A>
struct Constructible : std::false_type {};
template <class T, class... A>
struct Constructible<T, std::void_t<decltype(T{std::declval<A>()...})>, A...> : std::true_type {};
template <class T, class... A>
constexpr size_t member_count() {
    if constexpr (Constructible<T, void, A..., AnyField>::value) return member_count<T, A..., AnyField>();
    else return sizeof...(A);
}
}  // namespace detail
template <class T>
constexpr size_t member_count() {
    return detail::member_count<T>();
}

}  // namespace pmusim::timing
