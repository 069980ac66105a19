// A simple, fast approximation of an out-of-order core (Cortex-A9, A15, A57, A72; docs/accuracy.md, "Out-of-order
// cores"), used by the timing model where the platform describes one (TimingParams::ooo). Per instruction, in
// program order (the trace's):
//  - fetch: one aligned block of `fetch_bytes` a cycle, ahead of dispatch as far as it gets (where `fetch_spans`
//    is set, an instruction that spans two blocks comes with the second); an instruction in
//    the block of the one before it comes with it, unless that one was a taken branch (which ends its block: the
//    target's block comes the next cycle, or `taken_bubble` cycles later); an I-cache or ITLB miss adds its cycles;
//    after a mispredicted branch
//    the right path's first block comes `refill` cycles after the branch completes; where `fetch_queue` is set, a
//    block comes no sooner than the cycle after the last instruction of the block that many older dispatched (the
//    queue between fetch and dispatch holds that many blocks);
//  - dispatch: in order, up to `dispatch_width` a cycle (micro-operations where `multiple_uops` is set: a load or
//    store of several registers takes a slot per cycle it holds its pipeline, over as many cycles as they need), once
//    fetched, and no sooner than a cycle after the instruction `window` places older has retired; where the core has a pool of renaming registers
//    (`rename_regs`, `rename_flags`), each register the instruction writes (the flags, isa::flags_bit, from
//    their own pool) takes one from dispatch to retirement: no sooner than a cycle after the write that many
//    writes older has retired;
//  - execution: no sooner than the cycle after dispatch (the issue stage), its sources ready (the registers'
//    ready cycles, TimingModel's) and a pipeline of its class's kind free for `busy` cycles (the earliest of its
//    kind's); a load or store holds its pipeline a cycle per `mem_bytes` it moves, counted from its address's
//    offset in an aligned `mem_bytes` where `mem_align` says so, and a load of a byte or a halfword at least
//    `subword_load_busy` cycles; a source a load wrote is ready `load_forward` cycles sooner for an arithmetic or
//    logical instruction without a shift (OooInsn::forward_use) unless the load sign-extends or is conditional; a
//    barrier or system-register access also waits until every older instruction has retired; a register a load
//    wrote last is ready `load_address_latency` cycles later for a load or store that forms its address with it
//    (OooInsn::addr); where
//    `writeback_alu` is set, a load or store that writes its base back (OooInsn::writeback) also takes an ALU
//    pipeline for a cycle, the first free from its execution on (it does not wait for it); where `mul_alu` is set,
//    an instruction of the multi kind (a multiply) holds the first ALU pipeline too, the same cycles as its own
//    (it waits until both are free), and where `mac_alus` is set a multiply-accumulate with a 32-bit result
//    (OooInsn::accumulate, no mul_hi) holds every ALU pipeline those cycles; a multiply with a 64-bit result
//    (OooInsn::mul_hi) holds its pipeline `long_mul_extra` cycles more than its class's `busy`; where
//    `short_mul_latency` is set, a multiply the decoders class as ALU (OooInsn::short_mul) executes as a multiply
//    (the multi kind's pipeline, as mul_alu and mac_alus say) for a cycle; where `issue_width` is set, at most
//    that many instructions start execution a cycle (an instruction waits for a cycle with an issue slot and its
//    pipeline free);
//  - completion: `latency` cycles after execution starts (its last register's, for a load or store of several),
//    `offset_shift_latency` more for a load whose register offset is shifted (OooInsn::offset_shift),
//    `shifter_latency` more for an instruction through the shifter (OooInsn::shifter), plus the misses of its data
//    accesses (the caches' refill penalties, TimingModel::data_stage); a short multiply `short_mul_latency` after
//    it starts (where set); a multiply with a 64-bit result gives its low half after its latency and its high half
//    (OooInsn::mul_hi) and flags `mul_hi_latency` later (its completion is its last result's);
//  - retirement: in order, at completion at the earliest, up to `retire_width` a cycle.
// The instruction's cycles are its retirement less the previous one's. Left out: issue-queue sizes, load/store ordering and forwarding, store buffers, micro-op
// cracking beyond a load or store of several registers, wrong-path cache effects.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "isa/insn_class.hpp"
#include "model/timing/pipeline_state.hpp"

namespace pmusim::timing {

// Per-class tables (TimingParams, OooConfig) have an entry per isa::InsnClass.
constexpr size_t class_count = static_cast<size_t>(isa::InsnClass::fence_i) + 1;

// The kinds of execution pipeline an out-of-order core has (each with a count in OooConfig::pipes).
enum class PipeKind : uint8_t { alu, multi, branch, load, store };
constexpr size_t pipe_kinds = 5;

struct OooConfig {
    unsigned dispatch_width = 3, retire_width = 3;
    unsigned window = 128;  // instructions in flight, dispatched and not retired (at most max_window)
    unsigned refill = 12;   // cycles from a mispredicted branch's completion to the right path's first dispatch
    unsigned mem_bytes = 8; // bytes a load or store pipeline moves a cycle (a load or store of several registers)
    unsigned fetch_bytes = 16;  // the aligned block the front end fetches a cycle (a power of two)
    // Fetch cycles lost after a taken branch: its target's block comes 1 + taken_bubble cycles after the branch's.
    unsigned taken_bubble = 0;
    std::array<unsigned, pipe_kinds> pipes{};  // pipelines of each PipeKind (at most max_pipes in all)
    std::array<uint8_t, class_count> pipe{};   // per class: the PipeKind (its number) of the pipeline it executes in
    std::array<uint8_t, class_count> latency{};        // per class: cycles from execution to its result (1 if 0)
    std::array<uint8_t, class_count> busy{};           // per class: cycles it holds its pipeline (1 if 0)
    // Renaming registers beyond the architectural ones (0: no limit, at most max_rename): for the general-purpose
    // registers and for the flags (isa::flags_bit).
    unsigned rename_regs = 0, rename_flags = 0;
    bool mem_align = false;  // a load or store's pipeline cycles count from its address's offset in mem_bytes
    bool writeback_alu = false;  // a load or store with OooInsn::writeback books an ALU pipeline a cycle too
    bool call_alone = false;     // a call (OooInsn::call) dispatches in a cycle of its own: nothing beside it
    // A load or store of several registers (OooInsn::multiple) takes a dispatch slot per cycle it holds its pipeline
    // (its micro-operations: a cycle per mem_bytes, counted as mem_align says), not one.
    bool multiple_uops = false;
    // An instruction that spans two fetch blocks (a 32-bit T32 one across the boundary) comes with the second: both
    // are fetched for it (false: it comes with the block it starts in).
    bool fetch_spans = false;
    bool mul_alu = false;        // a class of the multi kind holds the first ALU pipeline its busy cycles too
    // Instructions that can start execution in a cycle, whatever their pipelines (0: no limit but the pipelines';
    // the pipelines and the issue slots at most max_pipes in all).
    unsigned issue_width = 0;
    // Cycles a load of a byte or a halfword (OooInsn::subword) holds its pipeline (0: as any load); its result
    // comes as much later.
    unsigned subword_load_busy = 0;
    // Cycles sooner a load's result reaches an OooInsn::forward_use instruction, unless the load sign-extends or is
    // conditional.
    unsigned load_forward = 0;
    // Cycles later the result of a load with OooInsn::offset_shift comes.
    unsigned offset_shift_latency = 0;
    // Cycles later the result of an OooInsn::shifter instruction comes (through a shift stage before the ALU's).
    unsigned shifter_latency = 0;
    // Cycles later a load's result reaches a load or store that forms its address with it (OooInsn::addr).
    unsigned load_address_latency = 0;
    // Multiplies (OooInsn::short_mul, mul_hi, accumulate): a short multiply's result latency, executing as a
    // multiply a cycle (0: timed as its class); cycles more a multiply with a 64-bit result holds its pipeline;
    // cycles after its low half its high half and flags come; a multiply-accumulate with a 32-bit result holds
    // every ALU pipeline its cycles.
    unsigned short_mul_latency = 0, long_mul_extra = 0, mul_hi_latency = 0;
    bool mac_alus = false;
    // Fetch blocks the front end holds before dispatch (its instruction queue): a block comes no sooner than the
    // cycle after the last instruction of the block `fetch_queue` blocks older dispatched (0: no limit; else 2 to
    // max_fetch_queue).
    unsigned fetch_queue = 0;
    static constexpr size_t max_window = 128, max_pipes = 8, max_rename = 64, max_fetch_queue = 32;
};

// A pool of renaming registers: the retirements of the last `size` writes that took one (a ring; `count` writes
// so far). A write needs the one `size` writes older to have retired.
struct RenamePool {
    uint64_t count = 0;
    std::array<uint64_t, OooConfig::max_rename> retire_at{};
    // The first cycle `n` more writes find a register each in a pool of `size` (0 when free from the start).
    uint64_t free_at(unsigned size, unsigned n) const;
    // `n` writes take registers until `retire`.
    void take(unsigned size, unsigned n, uint64_t retire);
};

// A pipeline's bookings: bit k of `booked` is cycle base + k taken. Cycles before `base` are never asked for (base
// is a dispatch cycle, and no later instruction executes before its dispatch); a booking 64 or more cycles past
// `base` is not kept (the pipeline is taken as free there).
struct PipeSlots {
    uint64_t base = 0, booked = 0;
};

// The out-of-order state between two instructions: plain data, one list of its fields (visit()).
struct OooState {
    uint64_t last_dispatch = 0;  // the cycle of the last dispatch
    uint64_t last_retire = 0;    // the cycle of the last retirement (the model's clock)
    uint64_t redirect = 0;       // the right path dispatches no sooner (a misprediction's refill)
    uint64_t last_complete = 0;  // the previous instruction's completion (its flags, OooInsn::flags_from_previous)
    uint64_t fetch_at = 0;       // the cycle the last fetch block came (as a dispatch cycle)
    uint64_t fetch_block = ~uint64_t{0};  // the last block fetched (its address / fetch_bytes)
    bool fetch_break = false;    // the last instruction was a taken branch: the next comes in a new block
    uint64_t count = 0;          // instructions so far (the window's ring index)
    uint32_t dispatched = 0;     // dispatched in last_dispatch's cycle
    uint32_t retired = 0;        // retired in last_retire's cycle
    std::array<uint64_t, OooConfig::max_window> retire_at{};  // the last `window` instructions' retirements
    std::array<PipeSlots, OooConfig::max_pipes> pipes{};
    RenamePool regs, flags;      // the renaming registers in use (OooConfig::rename_regs, rename_flags)
    uint32_t forwarded = 0;      // registers a load wrote last whose value forwards early (OooConfig::load_forward)
    uint32_t loaded = 0;         // registers a load wrote last (OooConfig::load_address_latency; 0 without it)
    // The fetch blocks so far (where OooConfig::fetch_queue) and the last `fetch_queue` ones' last dispatch (a ring).
    uint64_t blocks = 0;
    std::array<uint64_t, OooConfig::max_fetch_queue> block_out{};
    // Every field once: `v(field, kind, live)`, array elements one by one (PipelineState::visit's kinds).
    template <class S, class V>
    static void visit(S& s, V&& v) {
        v(s.last_dispatch, FieldKind::cycle, true);
        v(s.last_retire, FieldKind::clock, true);
        v(s.redirect, FieldKind::cycle, true);
        v(s.last_complete, FieldKind::cycle, true);
        v(s.fetch_at, FieldKind::cycle, true);
        v(s.fetch_block, FieldKind::value, true);
        v(s.fetch_break, FieldKind::value, true);
        v(s.count, FieldKind::value, true);
        v(s.dispatched, FieldKind::value, true);
        v(s.retired, FieldKind::value, true);
        for (auto& r : s.retire_at) v(r, FieldKind::cycle, true);
        for (auto& p : s.pipes) {
            v(p.base, FieldKind::cycle, true);
            v(p.booked, FieldKind::value, true);
        }
        for (auto* pool : {&s.regs, &s.flags}) {
            v(pool->count, FieldKind::value, true);
            for (auto& r : pool->retire_at) v(r, FieldKind::cycle, true);
        }
        v(s.forwarded, FieldKind::value, true);
        v(s.loaded, FieldKind::value, true);
        v(s.blocks, FieldKind::value, true);
        for (auto& o : s.block_out) v(o, FieldKind::cycle, true);
    }
};

// One instruction as the out-of-order core sees it.
struct OooInsn {
    OooInsn() = default;
    // What the retired instruction itself decides (its class, registers, shape), at `pc`; the delays, the memory
    // extent and mispredicted are the caller's (TimingModel::ooo_timed).
    OooInsn(const isa::RetiredInsn& insn, uint64_t pc);
    isa::InsnClass cls = isa::InsnClass::alu;
    uint64_t pc = 0;
    unsigned size = 4;          // bytes (2: a 16-bit T32 encoding)
    bool taken = false;         // a taken branch (its successor is fetched in a block of its own)
    uint32_t src = 0, dst = 0;  // registers read and written (isa::RegUse)
    uint32_t addr = 0;          // the subset of src that forms a load's or store's address (load_address_latency)
    uint64_t fetch_delay = 0;   // front-end cycles before it can dispatch (I-cache, ITLB misses)
    uint64_t mem_delay = 0;     // cycles its data accesses' misses add to its completion
    unsigned mem_bytes = 0;     // bytes its data accesses move (a load or store)
    uint64_t mem_addr = 0;      // the lowest address they access
    bool flags_from_previous = false;  // reads the flags, which the instruction before it set (T32: no flags_bit)
    bool mispredicted = false;         // a branch whose prediction was wrong: the front end refills after it
    bool subword = false;              // a load or store of a byte or a halfword (subword_load_busy)
    bool sign_extend = false;          // a load that sign-extends (its result forwards no sooner)
    bool conditional = false;          // a load whose condition is tested (its result forwards no sooner)
    bool offset_shift = false;         // a load or store whose register offset is shifted (offset_shift_latency)
    bool writeback = false;            // a load or store that writes its base register back (writeback_alu)
    bool shifter = false;              // a data-processing instruction through the shifter (shifter_latency)
    bool forward_use = false;          // an arithmetic or logical instruction without a shift (load_forward)
    bool call = false;                 // a branch with link (call_alone)
    bool multiple = false;             // a load or store of several registers, LDM, STM, PUSH, POP, LDRD (multiple_uops)
    // Multiplies (A32, T32: the registers isa::RegUse::mul_ops marks; A64 marks none): one the decoders class as
    // ALU (A32 SMULxy, SMLAxy, SMUAD, ...: short_mul_latency); the registers of dst that hold a 64-bit result's high half
    // (mul_hi_latency); a multiply that reads a register it does not multiply, an accumulator (mac_alus).
    bool short_mul = false;
    uint32_t mul_hi = 0;
    bool accumulate = false;
};

// When it did what, and what the events of TimingParams count of it (TimingModel::ooo_timed).
struct OooTiming {
    uint64_t dispatch = 0, exec = 0, complete = 0, retire = 0;
    uint64_t cycles = 0;          // retire less the previous instruction's
    uint64_t frontend_stall = 0;  // cycles without a dispatch before it, the front end not ready (refill, miss)
    uint64_t backend_stall = 0;   // cycles without a dispatch before it, the window full
    uint64_t wrong_path = 0;      // a mispredicted branch: instructions dispatched down the wrong path
};

class OooCore {
public:
    // `start`: the cycle the core starts at (every register ready, nothing in flight).
    OooCore(const OooConfig& c, uint64_t start);
    // One instruction; `ready` holds each register's ready cycle, read for the sources and set for the results.
    OooTiming step(const OooInsn& in, std::array<uint64_t, 32>& ready);
    const OooState& state() const { return s_; }
    const OooConfig& config() const { return c_; }
    // What the constructor refuses, or "" (platform files check it first: check_timing).
    static std::string invalid(const OooConfig& c);

private:
    // The earliest cycle from `at` on that a pipeline of kind `k` (PipeKind) is free for `busy` cycles; books it.
    // The first `alus` ALU pipelines are held the same cycles too (all free from the cycle returned on).
    uint64_t book(size_t k, uint64_t at, unsigned busy, uint64_t dispatch, unsigned alus = 0);
    OooConfig c_;
    std::array<uint8_t, pipe_kinds> first_{};  // each kind's first pipeline in s_.pipes
    size_t issue_first_ = 0;                   // the issue slots (OooConfig::issue_width) follow the pipelines
    OooState s_;
};

}  // namespace pmusim::timing
