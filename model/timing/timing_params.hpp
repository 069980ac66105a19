// What a core's timing is made of (TimingParams): plain data a platform fills (platforms/timing_params.cpp, a
// platform file's `timing`) and the timing model reads (timing_model.hpp, docs/accuracy.md).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/insn_class.hpp"
#include "model/timing/branch_predictor.hpp"
#include "model/timing/cache.hpp"
#include "model/timing/ooo.hpp"

namespace pmusim::timing {

// An event the platform does not have (event 0 is a real event on some cores: ARM11 ICACHE_MISS).
constexpr uint32_t no_event = ~uint32_t{0};

template <typename T>
constexpr std::array<T, class_count> all_of(T v) {
    std::array<T, class_count> a{};
    for (T& x : a) x = v;
    return a;
}

// The parameters the ARM cores' issue and result rules read, each of which turns one of those rules on (step.cpp,
// step_issue.hpp: the rules under `kArm`, arm_rules.hpp): with every one of them at its default none of those rules
// changes a result, and the step takes a kernel without them (TimingModel::arm_kernel). A parameter of a new such
// rule goes here, in visit() and in visit_arm_rules (arm_rules.hpp) with its rule, else a kernel would skip the rule;
// one that only refines such a rule (flag_latency, pair_table, late_store_data_div, multiple_max_cycles,
// multiple_holds_issue) stays in TimingParams. Every member once in visit(): tests/unit/test_timing.cpp
// (ArmRuleParams.VisitNamesEveryField).
struct ArmRuleParams {
    // Address latency per producer class: a register the class writes forms a load's or store's address no sooner
    // than this many cycles after the producer's issue, nor before it is ready (0: `early_address` cycles before it
    // is ready, as for every class). Cortex-A53: an ALU result to an address 3 (GCC's cortex-a53.md, LLVM's
    // AArch64SchedA53.td), where a load's is 3 by early_address.
    std::array<uint8_t, class_count> address_latency{};
    // Registers that form a load or store's address are needed this many cycles earlier (ARM11 "Early Regs").
    unsigned early_address = 0;
    // The data a store writes is needed this many cycles later than other sources (ARM11 "Late Regs").
    unsigned late_store_data = 0;
    // Dual issue: an instruction issues in the same cycle as the one before it when both are single-cycle, it
    // does not read the older one's result, they do not both use the load/store, multiply/divide or branch unit,
    // and neither is a system, barrier or divide instruction; never after a taken branch. Needs registers.
    bool dual_issue = false;
    // Operand shapes (isa::RegUse::shifted, shape): a shifted or extended register operand is needed this many
    // cycles before the instruction's other sources (the shift a stage ahead of the ALU); at most one shift by a
    // register issues a cycle (two never pair); EXTR issues alone or as the younger of a pair, never beside a younger
    // one.
    unsigned shifted_operand_early = 0;
    // An extend's rotated register (isa::RegUse::rotated) goes through the shifter too: a shifted operand, needed
    // shifted_operand_early cycles before the other sources (ARM11: see platforms/timing_params.cpp).
    bool extend_in_shifter = false;
    bool single_shift_register = false;
    // A shift by a register (isa::shape_shift_register) issues over this many cycles beyond the first and pairs with
    // nothing: its shift amount (RegUse::amount) is read in the first cycle, its other sources in the last (the
    // shifted operand `shifted_operand_early` before it), and its result is ready that many cycles later (ARM1176
    // TRM Table 16-4: two issue cycles, Rs an Early Reg, Rn a Late Reg, a result latency of 2).
    unsigned shift_register_extra = 0;
    bool extract_second_slot = false;
    // Multiplies (isa::RegUse::mul_ops): the registers a multiply multiplies are needed this many cycles before its
    // other sources (ARM1176 TRM 16.7: the multiplicand and multiplier are Early Regs); and a multiply the decoders
    // class as ALU (the one-cycle halfword and dual multiplies) has this result latency (0: its class's; ARM1176 TRM
    // Table 16-10: SMULxy, SMLAxy, SMULWy, SMLAWy, SMUAD, SMLAD, SMUSD, SMLSD one cycle, a result latency of 3).
    unsigned mul_operand_early = 0;
    unsigned short_mul_latency = 0;
    // A multiply with a 64-bit result (isa::RegUse::mul_hi) issues over long_mul_extra cycles more than its kin with
    // a 32-bit result, and its high half is ready mul_hi_latency cycles after its low half; a flag-setting multiply
    // (class mul writing the flags) issues over mul_flags_extra cycles more (ARM1176 TRM Table 16-10: UMULL, SMULL,
    // UMLAL, SMLAL, UMAAL 3 cycles where MUL takes 2, SMLALxy, SMLALD, SMLSLD 2 where SMLAxy takes 1; result latencies
    // 4/5 and 3/4; MULS and MLAS 5 cycles, UMULLS and kin 6).
    unsigned long_mul_extra = 0, mul_hi_latency = 0, mul_flags_extra = 0;
    // A single load whose register offset is shifted by anything but LSL #2 (isa::RetiredInsn::offset_shift) issues
    // over this many cycles more, pairs with nothing, and gives its result that many cycles later (Cortex-A8 TRM
    // 16.8, Example 16-6: "no extra cycle for shift since LSL #2"; GCC's cortex-a8.md: such a load is two
    // micro-operations, its result a cycle later).
    unsigned offset_shift_extra = 0;
    // A load or store of several registers (LDM, STM, LDP, STP, LDRD: insn.multiple) moves this many bytes a
    // memory cycle (its accesses' sizes, 4 where the trace gives none; 0: all in one): the registers a load
    // multiple writes are ready one after the other, the k-th (in register order) the memory cycles of the bytes
    // before it later than a single load's would be. With multiple_holds_issue the instruction also issues over
    // all its memory cycles (at most multiple_max_cycles) and pairs with nothing; without (ARM11), it issues in one
    // and the memory cycles go on behind it.
    unsigned load_multiple_bytes = 0, store_multiple_bytes = 0;
    // In a load or store multiple's last issue cycle it takes one issue slot only: a younger instruction may pair
    // with it there, by the pairing rules (not a load or store: one load/store unit; not reading its results).
    // Cortex-A53: GCC's cortex_a53_load2 and f_load_many reserve slot 0 alone in their second cycle, f_store_many too.
    bool multiple_last_slot = false;
    // Without multiple_holds_issue: the load/store unit is busy for the multiple's memory cycles from its issue, and
    // a later load or store issues no sooner (ARM1176 TRM 16.12: "non-dependent, non-memory instructions can execute
    // ... while these instructions complete").
    bool multiple_holds_lsu = false;
    // A store multiple locks the registers it stores until it has stored them: a later instruction that writes its
    // k-th register (in register order, from 0) issues no sooner than 1 + (k + 1) * 4 / store_multiple_bytes cycles
    // after it (ARM1176 TRM 16.12, Table 16-18, first address 64-bit aligned: lock latencies 1, 2, 2, 3, 3, 4, 4 at 8
    // bytes a cycle). Only the last store multiple's locks are followed.
    bool multiple_write_lock = false;
    // A load multiple that loads the PC (ARM1176 TRM 16.12.2, Table 16-19): its registers' result latencies are
    // this many cycles more than the same LDM's without the PC (the PC is loaded first).
    unsigned load_pc_latency_extra = 0;
    // A mispredicted branch that reads the flags costs up to this many cycles more, one fewer for each cycle
    // between the issue of the instruction that set them and its own beyond the first (ARM1176 TRM Table 16-11:
    // MAX(7 - FlagCycleDistance, 5) cycles).
    unsigned mispredict_flag_window = 0;
    // A taken branch predicted right (its direction, and its target where it goes through a register) on a core that
    // learns a branch's target only once it has fetched and decoded the branch (no target buffer ahead of fetch): its
    // target issues no sooner than taken_extra cycles after the branch's own issue cycle (a fetch bubble, counted as
    // front-end stall; btic_taken_extra where the BTIC holds the target). The redirect happens at decode, ahead of
    // issue: the cycles the branch itself waits to issue (for its sources) overlap the bubble.
    unsigned taken_extra = 0;

    // Every member once, with its key in a platform file's `timing` (platforms/platform_json.cpp reads and writes
    // them by it) and, where it has one, its largest value: `v(key, field[, max])`, `v.per_class(key, field)`.
    template <class S, class V>
    static void visit(S& s, V&& v) {
        v.per_class("address_latency", s.address_latency);
        v("early_address", s.early_address);
        v("late_store_data", s.late_store_data);
        v("dual_issue", s.dual_issue);
        v("shifted_operand_early", s.shifted_operand_early, 8);
        v("extend_in_shifter", s.extend_in_shifter);
        v("single_shift_register", s.single_shift_register);
        v("shift_register_extra", s.shift_register_extra, 8);
        v("extract_second_slot", s.extract_second_slot);
        v("mul_operand_early", s.mul_operand_early, 8);
        v("short_mul_latency", s.short_mul_latency, 64);
        v("long_mul_extra", s.long_mul_extra, 8);
        v("mul_hi_latency", s.mul_hi_latency, 8);
        v("mul_flags_extra", s.mul_flags_extra, 8);
        v("offset_shift_extra", s.offset_shift_extra, 8);
        v("load_multiple_bytes", s.load_multiple_bytes);
        v("store_multiple_bytes", s.store_multiple_bytes);
        v("multiple_last_slot", s.multiple_last_slot);
        v("multiple_holds_lsu", s.multiple_holds_lsu);
        v("multiple_write_lock", s.multiple_write_lock);
        v("load_pc_latency_extra", s.load_pc_latency_extra, 8);
        v("mispredict_flag_window", s.mispredict_flag_window);
        v("taken_extra", s.taken_extra);
    }
};

// The parameters of VeeR EL2's mechanisms that the full step follows (step.cpp: the stages under `kFull`): the DCCM
// and ICCM, mrac, the D-bus and LSU buffers, the divider's operand times, pre- and post-sync, the fetch buffer and
// its fetches, the fill buffer. With every one of them at its default none of those mechanisms changes a result,
// and the model takes the lean step (TimingModel::needs_full_step, which compares them with their defaults by
// visit()). A parameter of a new such mechanism goes here and in visit(), else a model would skip the mechanism
// silently; one that only refines such a mechanism (uncached_fetch_penalty, store_penalty_side_effect_only,
// dbus_read_cmd, ibuf_merge_window, ibuf_timeout, bus_buffer, fill_buffer_cycles, presync_csrs, postsync_csrs, the
// events) stays in TimingParams. Every member once in visit(): tests/unit/test_timing.cpp
// (FullStepParams.VisitNamesEveryField).
struct FullStepParams {
    struct Region {
        uint64_t base = 0, size = 0;
        bool contains(uint64_t addr) const { return addr - base < size; }
        // Its members, with their keys in a platform file (`v.address(key, field)`).
        template <class S, class V>
        static void visit(S& s, V&& v) {
            v.address("base", s.base);
            v.address("size", s.size);
        }
    };
    // Tightly coupled data memory (VeeR EL2 DCCM): loads and stores outside it go on the data bus.
    std::optional<Region> local_data;
    // Tightly coupled instruction memory (VeeR EL2 ICCM): fetches from it bypass the I-cache (no I-cache events).
    std::optional<Region> local_code;
    // A store's late data (late_store_data) also when the store goes to a side-effect region over the bus (false:
    // it waits for its data as any consumer does, which the full step tells by local_data and mrac; the default is
    // true, the one default here that is not 0).
    bool late_store_data_side_effect = true;
    // VeeR EL2's region access control (mrac, CSR 0x7C0): code in a region that is not cacheable is fetched over
    // the I-bus, a transaction and `uncached_fetch_penalty` cycles per fetch. The model takes every region as
    // cacheable until told the reset state (set_mrac(0)) or a write.
    bool follows_mrac = false;
    // VeeR EL2: a division's result latency and the divider's busy time follow its operands (veer_div_time, with
    // result_latency[div] as the time of a division without a shortcut); the replay hands them over.
    bool divider_from_operands = false;
    // VeeR EL2's D-bus buffer (el2_lsu_bus_buffer.sv; its times: dbus_read_cmd, ibuf_merge_window, ibuf_timeout).
    bool dbus_queue = false;
    // VeeR EL2's LSU buffers (LsuBuffers, lsu_buffers.hpp): the DCCM store buffer's entries (0: neither is
    // followed; the D-bus buffer's: bus_buffer), followed from the commit cycles of the loads and stores (it does not
    // change them); the DCCM is local_data.
    unsigned store_buffer = 0;
    // After an I-cache refill, the rest of the line comes from the fill buffer: its fetches are not hits, and the
    // refill itself counts one (VeeR EL2 event 2).
    bool fill_buffer_fetches = false;
    // A fetch entering the line still being refilled anew (a redirect into it: a taken branch, a trap, mret; or
    // back into it from another line) waits for the refill: its instruction commits no sooner than this many
    // cycles after the refilling instruction committed (0: no such wait). The wait is a fetch stall (ev_fetch_stall).
    unsigned fill_redirect_commit = 0;
    // An I-cache miss while a refill is still under way waits for it: its instruction commits no sooner than this
    // many cycles after the last instruction that missed committed (0: no such wait). A fetch stall.
    unsigned fill_next_miss = 0;
    // A fetch down the wrong path past a taken branch that flushes (the fetch runs on sequentially until the flush
    // lands) that misses an I-cache line refills it all the same: the line is in the cache afterwards (where the
    // fetch queue is followed).
    bool wrong_path_refill = false;
    // VeeR EL2: a 32-bit instruction at an odd halfword that a branch's flush redirects to, and whose halves come
    // in two fetches (with fetch_keeps_halfword: its upper half in the next line), takes this many more cycles
    // (tests/veer-rtl/unpred).
    unsigned split_fetch_after_flush = 0;
    // Pre- and post-sync (VeeR EL2 el2_dec_decode_ctl.sv: presync_stall, ps_stall; which instructions: the decode
    // table dec/decode and the CSR table dec/csrdecode_m): a presync instruction waits at decode until the older
    // instructions have left the X and R stages, and a postsync one holds the next instruction at decode until it
    // has left them itself: `sync_stall` cycles after X (0: no such waits). Both: class csr_read_write and
    // fence.i; presync: fence and the reads (no write) of `presync_csrs`; postsync: ecall, ebreak, mret and every
    // access to `postsync_csrs`. Their cycles are ev_presync and ev_postsync (both where they overlap) and decode
    // stalls (ev_dep_stall).
    unsigned sync_stall = 0;
    // A CSR read waits at decode until a write-only CSR instruction (class csr_write) before it has left X, R and
    // writeback: issue no sooner than `csr_write_block` + 1 cycles after the write's (VeeR EL2 prior_csr_write).
    unsigned csr_write_block = 0;
    // I-cache hits per fetch of `fetch_bytes` (VeeR EL2: every 4-byte fetch that hits, wrong-path fetches
    // included; 0: no such event). Fetches on the wrong path are taken to hit.
    unsigned fetch_bytes = 0;
    // VeeR EL2 (el2_ifu_ifc_ctl.sv, fetch_addr_next): a fetch after a redirect to an address with bit 1 set keeps
    // bit 1, each next fetch 4 bytes on, until the end of the line, whose last fetch is its last halfword alone.
    bool fetch_keeps_halfword = false;
    // VeeR EL2: the fetch buffer's entries (1-4; 0: not followed). With it the model follows each fetch's cycle
    // (TimingModel::timed): the wrong-path fetches, and ev_fetch_stall as the cycles the fetch waits for room.
    unsigned fetch_queue = 0;

    // Every member once, with its key in a platform file's `timing` (platforms/platform_json.cpp reads and writes
    // them by it) and, where it has one, its largest value: `v(key, field[, max])`, `v.optional(key, field, visit)`.
    template <class S, class V>
    static void visit(S& s, V&& v) {
        const auto region = [](auto& w, auto& r) { Region::visit(r, w); };
        v.optional("local_data", s.local_data, region);
        v.optional("local_code", s.local_code, region);
        v("late_store_data_side_effect", s.late_store_data_side_effect);
        v("follows_mrac", s.follows_mrac);
        v("divider_from_operands", s.divider_from_operands);
        v("dbus_queue", s.dbus_queue);
        v("store_buffer", s.store_buffer, 8);  // TimingModel's LSU buffers: at most 8 entries each
        v("fill_buffer_fetches", s.fill_buffer_fetches);
        v("fill_redirect_commit", s.fill_redirect_commit);
        v("fill_next_miss", s.fill_next_miss);
        v("wrong_path_refill", s.wrong_path_refill);
        v("split_fetch_after_flush", s.split_fetch_after_flush);
        v("sync_stall", s.sync_stall);
        v("csr_write_block", s.csr_write_block);
        v("fetch_bytes", s.fetch_bytes, 64);
        v("fetch_keeps_halfword", s.fetch_keeps_halfword);
        v("fetch_queue", s.fetch_queue, 4);  // TimingModel's fetch buffer holds at most 4 entries
    }
};

// A core's timing: the ARM rules' parameters (ArmRuleParams), VeeR EL2's mechanisms' (FullStepParams) and every
// other.
struct TimingParams : ArmRuleParams, FullStepParams {
    std::array<uint16_t, class_count> class_extra{};  // cycles beyond the first, per instruction class
    // Result latency per class: a consumer issues no sooner than this many cycles after its producer (0 or 1: no
    // stall). Needs the instruction's registers (isa/reg_use.hpp).
    std::array<uint8_t, class_count> result_latency{};
    // A store's late data (late_store_data) also when that data is a division's result still in the divider
    // (false: the store waits for it as any consumer does).
    bool late_store_data_div = true;
    // The condition flags (isa::flags_bit, ARM): an instruction that reads them issues no sooner than this many
    // cycles after the one that set them (0: in the same cycle, beside it in a pair).
    unsigned flag_latency = 1;
    // Dual issue's pairs (dual_issue): the core's own pairing rules, as data (pair_table set; else dual_issue's
    // rule): pair_with[older] has bit c set when a younger instruction of class c may issue beside an older one of
    // that class, and a younger instruction of class c pairs only when it reads at most pair_max_src[c] registers
    // (a Cortex-A7's second slot takes a move or an ALU instruction with an immediate operand, not one with two
    // register operands).
    bool pair_table = false;
    std::array<uint32_t, class_count> pair_with{};
    std::array<uint8_t, class_count> pair_max_src = all_of<uint8_t>(0xFF);
    // A load or store multiple's memory cycles (load_multiple_bytes, store_multiple_bytes), but no more than this
    // many (0: no limit). Cortex-A53: 2 (GCC's cortex-a53.md: LDP of X registers, AArch32 LDM of 3 or 4 registers
    // and the 128-bit and larger Advanced SIMD loads and stores all hold the load or store pipeline 2 cycles). An A64
    // load or store of one register wider than the bytes of a cycle (LDR of a Q register) issues so too; the bytes
    // are the encoding's (isa::RetiredInsn::bytes) where decoded.
    unsigned multiple_max_cycles = 0;
    // Whether a load or store multiple issues over all its memory cycles (load_multiple_bytes).
    bool multiple_holds_issue = true;
    unsigned mispredict_penalty = 1;
    // A return the return stack predicts takes return_hit_extra cycles more than a predicted branch; one it
    // predicts wrong (the stack was not empty) return_miss_extra more than a misprediction (ARM1176 TRM Table
    // 16-11: BX R14 4 cycles with a correct prediction, 7 with a wrong one, 5 from an empty stack).
    unsigned return_hit_extra = 0, return_miss_extra = 0;
    // A load multiple that loads the PC (ARM1176 TRM 16.12.2, Table 16-19; its result latencies:
    // load_pc_latency_extra): a return by one that the return stack predicts wrong or finds empty, or a conditional
    // one taken, costs load_return_miss_extra cycles more than a misprediction, whatever the flags' distance (LDMIA
    // sp!,{...,pc}: 4 cycles predicted, 9 else).
    unsigned load_return_miss_extra = 0;
    // A load multiple of the PC from a base other than SP is no return: the return stack does not predict it, and it
    // costs load_pc_other_extra cycles more than a misprediction, whatever the flags' distance (ARM1176 TRM Table
    // 16-19: LDMIA rx,{...,pc} 8 cycles, "not return stack predicted").
    unsigned load_pc_other_extra = 0;
    // A branch predicted right, by its predictor (the btac direction; ARM1176 TRM Table 16-11): taken by the
    // static rule, static_taken_extra cycles more than one issue cycle (4 in all); taken by a BTAC hit, folded out
    // of the stream, no cycle of its own, where fold_predicted_taken (but for calls, and a branch onto a branch,
    // which costs the cycle its fold saved: TRM 5.2.4).
    unsigned static_taken_extra = 0;
    bool fold_predicted_taken = false;
    // A taken branch's fetch bubble (taken_extra), btic_taken_extra cycles instead where the branch target
    // instruction cache holds the target's instructions. The BTIC is a single entry, the last taken branch predicted
    // right (its address and target); a branch hits it when it is that branch again and lies fewer than btic_bytes
    // after its target, so that the loop comes whole from the entry's stored fetches (0: no BTIC).
    unsigned btic_taken_extra = 0, btic_bytes = 0;
    PredictorConfig predictor;
    std::optional<CacheConfig> l1d, l1i;
    unsigned l1d_refill_penalty = 0, l1i_refill_penalty = 0;
    // A unified L2 behind both L1s: L1 refills read it, L1 write-backs write it; a miss costs l2_refill_penalty
    // more than the L1 refill.
    std::optional<CacheConfig> l2;
    unsigned l2_refill_penalty = 0;
    // Fully associative micro TLBs of `entries` pages each (0: none); a refill costs tlb_refill_penalty. Their
    // refills look up a main TLB of `main_tlb_entries` in `main_tlb_ways` ways (0: none, the refill always hits);
    // a main TLB miss walks the page tables for `walk_penalty` more.
    unsigned itlb_entries = 0, dtlb_entries = 0, page_size = 4096, tlb_refill_penalty = 0;
    unsigned main_tlb_entries = 0, main_tlb_ways = 1, walk_penalty = 0;
    uint32_t ev_main_tlb_refill = no_event;
    // The events the model produces, as the platform numbers them (no_event: the platform has none).
    uint32_t ev_mispredict = no_event, ev_predictable = no_event;
    uint32_t ev_l1d_access = no_event, ev_l1d_refill = no_event, ev_l1d_writeback = no_event;
    uint32_t ev_l1d_access_cacheable = no_event;  // the same accesses, cacheable ones only (ARM11 DCACHE_HIT)
    uint32_t ev_l1d_external = no_event;          // refills and writes that miss without allocating (ARM11 0x10)
    // ARM11: an access in the same line as the instruction's previous one is "sequential": not counted again.
    bool count_line_once = false;
    uint32_t ev_l1i_access = no_event, ev_l1i_refill = no_event;
    uint32_t ev_l2_access = no_event, ev_l2_refill = no_event, ev_l2_writeback = no_event;
    uint32_t ev_itlb_refill = no_event, ev_dtlb_refill = no_event;
    // Stall cycles: front end (fetch misses and refetch after a misprediction), back end (result-use waits,
    // multi-cycle execution, data misses and bus waits), and fetch misses alone (ARM11 IBUF_STALL).
    uint32_t ev_stall_frontend = no_event, ev_stall_backend = no_event, ev_fetch_stall = no_event;
    uint32_t ev_dep_stall = no_event;  // result-use waits alone (ARM11 DDEP_STALL)
    unsigned flush_fetch_stall = 0;    // cycles of ev_fetch_stall per misprediction (ARM11: 1 of its 4)
    // The return stack, while prediction is on: calls pushed, returns popped, popped and right, popped and wrong.
    uint32_t ev_ras_push = no_event, ev_ras_pop = no_event, ev_ras_hit = no_event, ev_ras_miss = no_event;
    uint32_t ev_bus_access = no_event, ev_bus_load = no_event, ev_bus_store = no_event;
    unsigned bus_load_penalty = 0, bus_store_penalty = 0;  // extra cycles of a load or store that goes on the bus
    unsigned bus_load_latency = 0;  // extra result latency of a load that goes on the bus (non-blocking loads)
    // The cycles of a fetch over the I-bus where mrac makes its region not cacheable (follows_mrac).
    unsigned uncached_fetch_penalty = 0;
    // A store to a region mrac makes side-effect (not cacheable) costs `bus_store_penalty` only there (VeeR EL2:
    // the mailbox); stores to cacheable memory over the bus cost nothing more.
    bool store_penalty_side_effect_only = false;
    // The divider (VeeR EL2): a division issues no sooner than `divider_busy` cycles after the one before it.
    unsigned divider_busy = 0;
    // An I-cache miss on the line after the previous miss's (straight-line code streaming in) costs this instead
    // of l1i_refill_penalty (0: no difference).
    unsigned l1i_sequential_refill_penalty = 0;
    // Misaligned accesses over the data bus: a split load's extra result latency per `dbus_beat`-byte beat it reads
    // (with dbus_queue), a split store's extra cycles per bus transaction; an access that crosses a `dbus_beat`-byte
    // boundary is two bus transactions (0: never split).
    unsigned bus_misaligned_load_penalty = 0, bus_misaligned_store_penalty = 0, dbus_beat = 0;
    // A misaligned access is split (two accesses, the penalties above, ev_bus_misaligned) only when it crosses a
    // `split_bytes`-byte boundary; one inside such a unit is a single access like an aligned one (0: every
    // misaligned access is split). VeeR EL2: 4 (el2_lsu.sv, ldst_dual: address bit 2 of the first and last byte).
    unsigned split_bytes = 0;
    // The D-bus buffer's times (dbus_queue), in cycles after the access issues (the model's issue cycle):
    //  - an aligned load's read command goes out `dbus_read_cmd` cycles after it issues, or later when the command
    //    channel (one command a cycle, in order) is busy: each cycle later is a cycle more of result latency;
    //  - a load of a word whose bytes a store still waiting in the buffer wrote takes them from there: no
    //    transaction, the result latency of a local load; one of the 8-byte beat of a read still waiting for its
    //    response (the previous read, issued a cycle before) shares that read;
    //  - a store waits in the write-coalescing buffer (ibuf), where the next stores to the same word within
    //    `ibuf_merge_window` cycles of the last join it (one transaction); it leaves for the command channel when
    //    the next bus access comes at least 2 cycles after it (`dbus_read_cmd` cycles after that access issues), or
    //    after `ibuf_timeout` cycles, whichever is first, and can give its bytes to loads until its command has gone.
    unsigned dbus_read_cmd = 0, ibuf_merge_window = 0, ibuf_timeout = 0;
    // With the LSU buffers (store_buffer): the D-bus buffer's entries (0: the store buffer alone; its ibuf's timer
    // and join window are ibuf_timeout and ibuf_merge_window), and the event that counts the cycles either is full.
    unsigned bus_buffer = 0;
    uint32_t ev_store_buffer_full = no_event;
    // The fill buffer (fill_buffer_fetches), with a fetch queue: it serves the line's fetches for this many cycles after the refill's first
    // fetch; the line is in the cache after that and its later fetches are hits (0: for as long as the fetch stays
    // in the line).
    unsigned fill_buffer_cycles = 0;
    // Exception returns (VeeR EL2 mret) flush the pipeline instead of being predicted: not a misprediction.
    bool predict_exc_return = true;
    // mstatus.MIE (RISC-V privileged spec 3.1.6.1; VeeR EL2 event 49 counts the cycles it is 0): followed through
    // the program's writes (set_mstatus), ecall/ebreak (MIE to MPIE, MIE 0) and mret (MPIE to MIE, MPIE 1).
    uint32_t ev_irq_disabled = no_event;
    unsigned mstatus_write_extra = 0;  // extra cycles of a write to mstatus beyond a CSR write's
    // An interrupt taken: extra cycles of the handler's first instruction (the flush and the redirect), and, after
    // a pmu/fw-halt, the cycles of the trace's gap before the handler that the core runs (waking up, taking the
    // interrupt: the handler's first instruction takes them all); the rest of the gap it sleeps (VeeR EL2: mcycle
    // stops).
    unsigned interrupt_entry = 0, fw_halt_wake = 0;
    // An interrupt's flush lands no sooner than this many cycles after the instruction that set mstatus.MIE (a
    // CSR write, mret) commits, elsewhere a cycle after the last commit; the handler's first instruction commits
    // interrupt_entry cycles after the flush, and the waits the interrupted instruction would have had (postsync,
    // trap_redirect) are not the handler's (0: the handler's first instruction takes them and interrupt_entry).
    unsigned interrupt_after_enable = 0;
    // VeeR EL2 fast interrupt redirect (el2_dec_tlu_ctl.sv, FAST_INTERRUPT_REDIRECT: take_ext_int_start,
    // ext_int_freeze; el2_dec_decode_ctl.sv, dec_extint_stall): before an external interrupt (cause 11) is taken
    // the core reads its handler's address from the meivt table, with decode frozen: this many more cycles, with
    // interrupts still enabled, no instruction at decode (not ev_dep_stall: the entry's flush is one, take_interrupt).
    unsigned ext_interrupt_freeze = 0;
    // ecall, ebreak and mret: extra cycles of the instruction after them (the redirect), beyond their postsync.
    unsigned trap_redirect = 0;
    // A CSR read samples a running counter this many cycles before the reading instruction commits (the trace's
    // timestamps: --timing trace). 0: at the commit of the instruction before it.
    unsigned csr_read_lead = 0;
    // Pre- and post-sync's instructions and events (sync_stall).
    std::vector<uint16_t> presync_csrs, postsync_csrs;
    uint32_t ev_presync = no_event, ev_postsync = no_event;

    // Speculation: each misprediction sends `wrong_path` instructions far enough down the wrong path to be counted
    // by the speculative events (ARM INST_SPEC; VeeR instructions aligned and decoded), and then flushes them. The
    // correct path's instructions are counted by the platform's retire(), so these events are retired + wrong path.
    unsigned wrong_path = 0;
    std::array<uint32_t, 2> ev_spec{no_event, no_event};
    // VeeR EL2: fetches past an instruction that flushes the pipeline that ev_l1i_hit counts before the flush lands
    // (wrong-path fetches), past a branch the predictor got wrong or does not predict and past ecall, ebreak and
    // mret (a flush from the trap logic): without a fetch queue, these many per flush.
    unsigned flush_fetch_hits = 0, trap_flush_fetch_hits = 0;
    uint32_t ev_l1i_hit = no_event;  // the I-cache hits per fetch (fetch_bytes)
    // The instruction bus: an I-cache refill reads its line in beats of `ibus_beat` bytes, a transaction each.
    unsigned ibus_beat = 8;
    uint32_t ev_ibus_access = no_event;
    // Cycles a refill's read commands wait for the I-bus (ev_ibus_busy): the memory accepts a read command every
    // `ibus_read_gap` cycles and the refill asks for its beats one a cycle, so each beat after the first waits
    // ibus_read_gap - 1 (0: not counted). On the D-bus (dbus_queue) the memory takes a read, and a write, every
    // `dbus_cmd_gap` cycles: a read command right behind another, and a split access's second command, wait
    // (ev_dbus_busy; at most 2).
    unsigned ibus_read_gap = 0, dbus_cmd_gap = 0;
    uint32_t ev_ibus_busy = no_event, ev_dbus_busy = no_event;
    uint32_t ev_bus_misaligned = no_event;  // misaligned loads and stores that go on the data bus
    // ARM11: the program turns prediction on with SCTLR.Z (bit 11); until then every taken branch mispredicts.
    bool follows_sctlr_z = false;
    // An out-of-order core (ooo.hpp): when set, its dispatch, execution and retirement decide each instruction's
    // cycles instead of the in-order issue (class_extra, result_latency, dual_issue are not read), and a
    // misprediction's wrong path is the instructions it dispatched before the branch resolved (wrong_path unused).
    std::optional<OooConfig> ooo;
    std::string source;  // where the figures come from: the core's manual, or a calibration
};

}  // namespace pmusim::timing
