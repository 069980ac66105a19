// Timing parameters of each named core (docs/accuracy.md). The VeeR EL2 figures are calibrated against the RTL's
// own exec.log; the ARM figures are assumptions from the cores' public descriptions, not calibrated against
// hardware, and say so in their `source`.
#include "platforms/timing_params.hpp"

namespace pmusim {

namespace {

using timing::CacheConfig;
using timing::PredictorConfig;
using timing::TimingParams;
using C = isa::InsnClass;

void extra(TimingParams& p, C cls, uint16_t cycles) { p.class_extra[static_cast<size_t>(cls)] = cycles; }

CacheConfig cache(unsigned kib, unsigned ways, unsigned line) {
    CacheConfig c;
    c.size = kib * 1024;
    c.ways = ways;
    c.line = line;
    return c;
}

// The common ARM events the model produces (armv8-pmuv3.md / armv7-cp15-pmu.md event tables).
void arm_events(TimingParams& p) {
    p.ev_mispredict = 0x10;  // BR_MIS_PRED
    p.ev_predictable = 0x12; // BR_PRED
    p.ev_l1d_access = 0x04;  // L1D_CACHE
    p.ev_l1d_refill = 0x03;  // L1D_CACHE_REFILL
    p.ev_l1d_writeback = 0x15;  // L1D_CACHE_WB
    p.ev_l1i_access = 0x14;  // L1I_CACHE
    p.ev_l1i_refill = 0x01;  // L1I_CACHE_REFILL
    p.ev_itlb_refill = 0x02; // L1I_TLB_REFILL
    p.ev_dtlb_refill = 0x05; // L1D_TLB_REFILL
    p.ev_l2_access = 0x16;   // L2D_CACHE
    p.ev_l2_refill = 0x17;   // L2D_CACHE_REFILL
    p.ev_l2_writeback = 0x18;  // L2D_CACHE_WB
    p.ev_main_tlb_refill = 0x2D;  // L2D_TLB_REFILL (where implemented)
    p.ev_spec[0] = 0x1B;         // INST_SPEC (the wrong path: `wrong_path`, 0 on in-order cores)
    p.ev_stall_frontend = 0x23;  // STALL_FRONTEND
    p.ev_stall_backend = 0x24;   // STALL_BACKEND
}

// An ARMv7 core: events 0x20-0x3F are reserved (armv7-cp15-pmu.md: PMCEID1 is RAZ in ARMv7), so it has no
// STALL_FRONTEND, STALL_BACKEND or L2D_TLB_REFILL; its main TLB's misses and its stalls count under no event.
TimingParams armv7(TimingParams p) {
    p.ev_stall_frontend = p.ev_stall_backend = timing::no_event;
    p.ev_main_tlb_refill = timing::no_event;
    return p;
}

// A unified L2 of `kib` KiB and its miss cost (to memory, beyond the L1 refill).
TimingParams with_l2(TimingParams p, unsigned kib, unsigned ways, unsigned miss) {
    p.l2 = cache(kib, ways, 64);
    p.l2_refill_penalty = miss;
    return p;
}

// An in-order ARM core: mispredict penalty, L1 geometry, refill latency (to a next level that always hits).
TimingParams arm_core(unsigned penalty, CacheConfig l1i, CacheConfig l1d, unsigned refill, std::string source) {
    TimingParams p;
    arm_events(p);
    p.mispredict_penalty = penalty;
    p.predictor.direction = PredictorConfig::Direction::bimodal;
    p.predictor.table_bits = 10;
    p.predictor.btb_bits = 8;
    p.predictor.ras_depth = 8;
    p.l1i = l1i;
    p.l1d = l1d;
    p.l1i_refill_penalty = refill;
    p.l1d_refill_penalty = refill;
    // 10-entry fully associative instruction and data micro TLBs, 4 KiB pages, refilled from a main TLB
    // that always hits.
    p.itlb_entries = 10;
    p.dtlb_entries = 10;
    p.tlb_refill_penalty = 2;
    extra(p, C::mul, 2);
    extra(p, C::div, 8);
    extra(p, C::barrier, 4);
    p.source = std::move(source);
    return p;
}

// A main TLB behind the micro TLBs; a miss walks the page tables, assumed to cost 20 cycles (two descriptor reads
// that hit in a cache).
TimingParams with_main_tlb(TimingParams p, unsigned entries, unsigned ways) {
    p.main_tlb_entries = entries;
    p.main_tlb_ways = ways;
    p.walk_penalty = 20;
    return p;
}

// A pair table (TimingParams::pair_with): a younger instruction of a class in `younger` may issue beside an older
// one of a class in `older`, but never two of `one_of` together (a single load/store or branch unit).
void pair_rule(TimingParams& p, std::initializer_list<C> older, std::initializer_list<C> younger,
               std::initializer_list<std::initializer_list<C>> one_of) {
    p.pair_table = true;
    p.pair_with.fill(0);
    for (C o : older)
        for (C y : younger) {
            bool shared = false;
            for (auto unit : one_of) {
                bool has_o = false, has_y = false;
                for (C c : unit) {
                    has_o |= c == o;
                    has_y |= c == y;
                }
                shared |= has_o && has_y;
            }
            if (!shared) p.pair_with[static_cast<size_t>(o)] |= 1u << static_cast<unsigned>(y);
        }
}

void latency(TimingParams& p, C cls, uint8_t cycles) { p.result_latency[static_cast<size_t>(cls)] = cycles; }

// An out-of-order core's shape (model/timing/ooo.hpp): `width` instructions dispatched and retired a cycle, a
// window of `window`, `refill` cycles from a mispredicted branch's completion to the right path's dispatch, `bytes`
// a load or store pipeline moves a cycle. Classes by kind of pipeline: loads and stores to theirs, branches to the
// branch pipeline, multiplies, divides and system-register accesses to the multi-cycle one, the rest to the
// single-cycle integer pipelines; every result 1 cycle unless the core's figures below say otherwise.
timing::OooConfig ooo_shape(unsigned width, unsigned window, unsigned refill, unsigned bytes) {
    timing::OooConfig o;
    o.dispatch_width = o.retire_width = width;  // retirement as wide as dispatch: assumed
    o.window = window;
    o.refill = refill;
    o.mem_bytes = bytes;
    auto kind = [&](C c, timing::PipeKind k) { o.pipe[static_cast<size_t>(c)] = static_cast<uint8_t>(k); };
    kind(C::load, timing::PipeKind::load);
    kind(C::store, timing::PipeKind::store);
    kind(C::branch, timing::PipeKind::branch);
    kind(C::jump, timing::PipeKind::branch);
    kind(C::mul, timing::PipeKind::multi);
    kind(C::div, timing::PipeKind::multi);
    kind(C::sysreg, timing::PipeKind::multi);
    return o;
}
void ooo_latency(timing::OooConfig& o, C c, uint8_t latency, uint8_t busy = 1) {
    o.latency[static_cast<size_t>(c)] = latency;
    o.busy[static_cast<size_t>(c)] = busy;
}
void ooo_pipes(timing::OooConfig& o, unsigned alu, unsigned multi, unsigned branch, unsigned load, unsigned store) {
    o.pipes = {alu, multi, branch, load, store};
}

// An out-of-order core: timed by its OooConfig (the in-order issue rules are not read). INST_SPEC counts the
// instructions it dispatches down a mispredicted branch's wrong path (TimingModel::ooo_timed), not a fixed number.
TimingParams out_of_order(TimingParams p, const timing::OooConfig& o) {
    p.ooo = o;
    p.wrong_path = 0;
    return p;
}

// Cortex-A57 and Cortex-A72 (Cortex-A57 Software Optimization Guide, ARM UAN 0015B, and Cortex-A72 Software
// Optimization Guide, ARM UAN 0016A, section 2.1 "Pipeline overview": 3 instructions decoded and dispatched a
// cycle, issued out of order to eight pipelines: branch (B), two integer single-cycle (I0, I1), integer
// multi-cycle (M), two FP/ASIMD (F0, F1), load (L), store (S)). The window: 128 instructions in flight (Arm's
// Cortex-A57 disclosure, "128 micro-ops in flight"; the A72 keeps it). Refill after a misprediction: the front end
// fetches in 5 stages and decodes, renames and dispatches in 7 (the same disclosure's 12-stage in-order front end);
// with issue and execution a misprediction costs about 15 cycles. Latencies (the guides' section 3, integer and
// load instructions): ALU 1, MUL (W form) 3, load to use 4 (LDR, L pipe), branch 1; divides (SDIV/UDIV W form:
// A57 4-20 cycles, A72 4-12) hold the M pipe, taken as their middle: 12 and 8. A load or store pipeline moves
// 16 bytes a cycle (an LDP of two X registers is one L-pipe operation: assumed from the 128-bit data path).
timing::OooConfig cortex_a57_a72(unsigned divide) {
    timing::OooConfig o = ooo_shape(3, 128, 12, 16);
    o.fetch_bytes = 16;  // 128 bits of instructions fetched a cycle (the same disclosure)
    ooo_pipes(o, 2, 1, 1, 1, 1);
    ooo_latency(o, C::mul, 3);
    ooo_latency(o, C::div, static_cast<uint8_t>(divide), static_cast<uint8_t>(divide));
    ooo_latency(o, C::load, 4);
    ooo_latency(o, C::sysreg, 3);  // assumed
    return o;
}

// Cortex-A15 (its TRM, ARM DDI 0438, section 1.1, and Arm's public descriptions: 3 instructions decoded a cycle,
// out of order issue to the same kinds of pipeline as the A57, which grew from it: two simple integer, branch,
// multiply/divide, load, store, two NEON/FP; a 15-stage integer pipeline, 5 of fetch and 7 of decode, rename and
// dispatch). Window: assumed 40 instructions (Arm publishes none). Latencies assumed as the A57's; 8 bytes a cycle
// through a load or store pipeline (64-bit, assumed).
timing::OooConfig cortex_a15() {
    timing::OooConfig o = ooo_shape(3, 40, 12, 8);
    o.fetch_bytes = 16;  // 128-bit instruction fetch (Arm's Cortex-A15 descriptions)
    ooo_pipes(o, 2, 1, 1, 1, 1);
    ooo_latency(o, C::mul, 3);
    ooo_latency(o, C::div, 12, 12);  // the A15 has SDIV/UDIV (ARMv7VE)
    ooo_latency(o, C::load, 4);
    ooo_latency(o, C::sysreg, 3);
    return o;
}

// Cortex-A9 (its TRM, ARM DDI 0388I, figure 2-1 and section 2.1: a dual instruction decode stage, register
// renaming, out-of-order multi-issue with speculation to an ALU/MUL pipeline, an ALU pipeline, the FPU/NEON and
// one load/store address generation unit). Window: 32 instructions, the lower end of "around 32 - 40 decoded
// instructions in its reorder buffer" (AnandTech, "NVIDIA Tegra 4 Architecture Deep Dive", 2013, on the Cortex-A9;
// second-hand, no Arm figure found).
//  - A misprediction costs 8 cycles (LLVM's ARMScheduleA9.td, CortexA9Model: MispredictPenalty 8, "based on
//    estimate of pipeline depth"; the TRM gives no figure): the right path's first instruction dispatches 8 cycles
//    after it would have behind the branch predicted right. A branch dispatched at d executes at d+1 and completes
//    at d+2; predicted right, the instruction after it dispatches at d+2 (a taken branch ends its fetch block, and
//    its target comes a fetch cycle late: taken_bubble, below), so refill 8: the right path at d+2+8.
//  - Renaming (TRM 2.1.3; DDI 0388E 2.1.1): the 32 architectural registers map to 56 physical ones, so 24 results
//    can be in flight; the flags to a pool of 8, so 7 flag-setting instructions (the committed flags hold one).
//  - Issue (GCC's cortex-a9.md, the integer pipeline contributed by Arm: units P0, P1, the MAC pipeline, a branch
//    unit and one load/store pipeline; Hennessy and Patterson, Computer Architecture, 5th ed., on the A9 beside
//    the A8: two ALU, one load/store and one branch instruction can begin execution a cycle): two ALU pipelines,
//    a branch pipeline, the multiplier, one pipeline for loads and stores.
//  - Latencies: ALU 1 (cortex-a9.md: a data-processing result bypasses to the next cycle); a load 3 (TRM B.3,
//    Table B-2: LDR, 1 AGU cycle, result latency 3); MUL 4, holding the MAC pipeline's M1 stage 2 cycles
//    (cortex-a9.md, cortex_a9_multiply and cortex_a9_mult); system register 3 (assumed).
//  - Byte and halfword loads (Table B-2: LDRB, LDRH take 2 AGU cycles, result latency 4, a cycle more than LDR's):
//    subword_load_busy 2, their result a cycle later through the pipeline's second cycle. The sign-extending
//    LDRSB, LDRSH are not in the table: taken as LDRB's.
//  - The load-to-use fast path (TRM B.3: a load's result reaches an arithmetic, logical or saturating instruction
//    without a shift a cycle sooner, unless the load sign-extends or is conditional; Table B-2's "fast forward"
//    column, LDR 2): load_forward 1. A conditional load is an A32 one that reads the flags (T32's decoder gives
//    no IT-block conditions).
//  - A register offset shifted by anything but LSL #2 (Table B-2: LDR [reg, reg, <shift>] and RRX, 1 AGU cycle as
//    LDR [reg, reg, LSL #2] but result latency 3 fast, 4 other, a cycle more; LDRB/LDRH likewise 4 and 5 against 3
//    and 4): offset_shift_latency 1. The table names LSL #2 alone among the unshifted offsets: LSL #1 and #3 are
//    taken as the other shifts.
//  - A data-processing instruction through the shifter (cortex-a9.md: "an instruction using the shifter will go
//    down E1", cortex_a9_dp_shift, its result bypassed 2 cycles after issue where cortex_a9_dp's is 1; a MOV with a
//    shift goes down E2 as an unshifted one): shifter_latency 1. Extends (SXTB, UXTAH and kin: cortex-a9.md's
//    "extend" type, also cortex_a9_dp_shift's) the same: the decoders mark them as through the shifter; being
//    neither arithmetic nor logical, they take no load fast path (TRM B.3).
//  - A load or store that writes its base register back (pre- or post-indexed, LDM/STM with !, PUSH, POP) writes
//    it "through one of the E2 units" (cortex-a9.md, on the auto-increment forms it leaves out; its STM of 3-4
//    registers takes the load/store pipeline and an ALU pipeline's E2 together): writeback_alu, an ALU pipeline
//    taken a cycle from its execution on.
//  - Loads and stores of several registers (TRM B.3, Table B-3): the AGU moves two registers (8 bytes) a cycle
//    from a 64-bit aligned address, a cycle more when the address is not (LDM of 4 registers: 2 cycles aligned,
//    3 not), so their cycles count from the address's offset in 8 bytes (mem_align).
//  - Fetch: the instruction cache's 64-bit native accesses (TRM 7.3): 8 bytes; a 32-bit T32 instruction across two
//    of them (at offset 6) needs both: fetch_spans.
//  - A load or store of several registers (LDM, STM, PUSH, POP, LDRD, STRD) dispatches as many micro-operations as
//    the AGU cycles of TRM Table B-3 (second-hand: LLVM's ARMBaseInstrInfo::getNumMicroOps, for the Cortex-A9 n/2
//    for n registers and one more "if there are odd number of registers or if it's not 64-bit aligned ... an extra
//    AGU (Address Generation Unit) cycle"; ARMScheduleA9.td's CortexA9Model dispatches "2 micro-ops ... per cycle"),
//    each taking a dispatch slot: multiple_uops. LDRD and STRD too, which Table B-3 times as LDM of 2 registers
//    (LLVM counts them as one micro-operation: they differ only when not 64-bit aligned).
//  - A load's result reaches a load or store that forms its address with it 4 cycles after the load starts, a cycle
//    after its result latency of 3 (TRM Table B-2): 7-cpu.com's measurement of the A9 (Samsung Exynos 4210,
//    "Cortex-A9", a pointer chase through 32 KB: 4 cycles, TLB and L1 hits), as GCC's cortex-a9.md's load latency
//    of 4 (cortex_a9_load1_2; its bypass of 3 to a load's address, a scheduling hint, says otherwise):
//    load_address_latency 1.
//  - A taken branch costs the front end a fetch cycle: in its three fetch stages, the first (Fe1) indexes the
//    instruction cache with the next fetch address and starts the branch prediction, which with the fetch takes more
//    than a cycle: Fe2 gives it the time, and Fe3 queues the instructions (Tanenbaum and Austin, Structured Computer
//    Organization, 6th ed., 4.6.2, on the Cortex-A9 of the OMAP4430; second-hand: the TRM draws the prefetch unit's
//    BTAC, GHB and return stack beside the cache, figure 7-1, without stages). The target's address comes from a
//    prediction that ends in Fe2, so it enters Fe1 two cycles after the branch's block did, not one: taken_bubble 1.
//  - The instruction queue between fetch and decode holds 8 fetch blocks: its small loop mode (TRM 2.1.1: "In the
//    instruction queue small loop mode provides low power operation while executing small instruction loops")
//    serves "instruction loops that are smaller than 64 bytes" without instruction cache accesses (TRM 2.4.1,
//    "Energy efficiency features"; 7-cpu.com, "Cortex-A9": "Instruction buffer (<64 bytes) for short loops"): 64
//    bytes, 8 of the 64-bit fetches. A block takes its place from its fetch until its last instruction dispatched,
//    so fetch runs at most 8 blocks ahead of dispatch: fetch_queue 8. The decode and rename stages between the
//    queue and dispatch (Id1, Id2, Re: Tanenbaum and Austin, above) are not places of their own: a block behind a
//    stalled dispatch that leaves the queue reaches dispatch through them 3 cycles later, when the 3 blocks ahead of
//    it in them have dispatched, a cycle a block, which times as the queue alone.
timing::OooConfig cortex_a9() {
    timing::OooConfig o = ooo_shape(2, 32, 8, 8);
    o.fetch_bytes = 8;
    o.fetch_spans = true;
    ooo_pipes(o, 2, 1, 1, 1, 0);
    o.pipe[static_cast<size_t>(C::store)] = static_cast<uint8_t>(timing::PipeKind::load);
    o.rename_regs = 56 - 32;
    o.rename_flags = 8 - 1;
    o.mem_align = true;
    o.subword_load_busy = 2;
    o.load_forward = 1;
    o.offset_shift_latency = 1;
    o.shifter_latency = 1;
    o.load_address_latency = 1;
    o.taken_bubble = 1;
    o.fetch_queue = 8;  // the instruction queue's 64 bytes (above)
    o.writeback_alu = true;
    // A call issues alone: GCC's cortex-a9.md (Arm's integer pipeline), cortex_a9_call reserves the branch issue, both
    // ALU pipelines, the MAC and the load/store pipeline in its cycle, "make sure dual issue doesn't happen i.e the
    // next instruction starts at the next cycle".
    o.call_alone = true;
    o.multiple_uops = true;  // LLVM's A9 micro-operations (above)
    // The multiplier shares the first ALU pipeline: the TRM's figure 2-1 draws one "ALU/MUL" pipeline beside one
    // "ALU"; second-hand, the same: GCC's cortex-a9.md ("The P0 / main pipeline and M1 stage of the MAC pipeline are
    // multiplexed") and LLVM's ARMScheduleA9.td (IIC_iMUL32 holds A9_ALU0 2 cycles). A multiply holds it its 2 cycles.
    o.mul_alu = true;
    // Two instructions start execution a cycle, whatever their pipelines. Second-hand: LLVM's ARMScheduleA9.td (every
    // itinerary of the A9 begins with one of two issue units, A9_Issue0 or A9_Issue1; IssueWidth 2) and GCC's
    // cortex-a9.md ("modelled as a dual issue pipeline"). Hennessy and Patterson (above) count four that can begin
    // (two ALU, one load/store, one branch); the TRM's figure 2-1 says "multi-issue", no number: the two compilers'
    // figure, from Arm's own descriptions (cortex-a9.md's integer pipeline is Arm's), is taken.
    o.issue_width = 2;
    ooo_latency(o, C::mul, 4, 2);
    // The multiplier's other instructions (A32 and T32: the decoders mark what a multiply multiplies and its high
    // half; T32 classes the halfword and dual multiplies as multiplies, so short_mul_latency is A32's alone). No
    // source found gives them first-hand (the A9 TRM's appendix B times loads and stores, not multiplies); the two
    // compilers' descriptions, Arm's own in GCC's cortex-a9.md, agree:
    //  - A multiply with a 64-bit result (UMULL, SMULL, UMLAL, SMLAL, UMAAL) holds the multiplier a cycle more than
    //    MUL, 3 cycles (cortex-a9.md: cortex_a9_mult_long reserves M1 3 cycles where cortex_a9_mult reserves it 2;
    //    ARMScheduleA9.td: IIC_iMUL64 and IIC_iMAC64 hold A9_ALU0 3 cycles where IIC_iMUL32 holds it 2): RdLo comes
    //    after 4 cycles as MUL's result, RdHi a cycle later, after 5 (ARMScheduleA9.td: IIC_iMUL64's operand cycles
    //    4 and 5, its machine model's A9WriteM latency 4 and A9WriteMHi 5; cortex-a9.md gives the instruction 5, its
    //    later result). Its flags (UMULLS and kin, from all 64 bits) with the high half: assumed.
    o.long_mul_extra = 1;
    o.mul_hi_latency = 1;
    //  - A multiply-accumulate with a 32-bit result (MLA, MLS, SMMLA, SMLAxy, SMLAD, ...) holds both ALU pipelines
    //    with the multiplier (cortex-a9.md: cortex_a9_mac and cortex_a9_mac16 reserve cortex_a9_multcycle1, both
    //    ALU pipelines' E1 and E2 with M1 and M2, since "there are only 4 integer register read ports"); the long
    //    accumulates do not (cortex_a9_mult_long, M1 alone).
    o.mac_alus = true;
    //  - The halfword and dual multiplies (SMULxy, SMLAxy, SMULWy, SMLAWy, SMUAD, SMLAD, SMUSD, SMLSD), which the
    //    A32 decoder classes as ALU instructions, hold the multiplier a cycle and give their result after 3
    //    (cortex-a9.md: cortex_a9_mult16 and cortex_a9_mac16, latency 3, M1 one cycle; ARMScheduleA9.td: A9WriteM16,
    //    latency 3, one A9UnitMul). SMLALxy, SMLALD, SMLSLD (a 64-bit result) hold it a cycle more, their high half
    //    after 4: assumed from the rules above.
    o.short_mul_latency = 3;
    //  - No accumulator forwarding: neither description gives a multiply's result to the next one's accumulator
    //    sooner (cortex-a9.md has no bypass into cortex_a9_mac's accumulator; ARMScheduleA9.td: ReadAdvance<ReadMAC,
    //    0>), where the ARM11 and Cortex-R TRMs give it a cycle early: an accumulate chain runs at 4 cycles a link.
    //  - No extra cycles for a flag-setting multiply (ARMScheduleA9.td times MULS as MUL; cortex-a9.md's long group
    //    lists SMULLS, UMULLS, SMLALS, UMLALS with the plain forms), where the ARM11 takes 3 more.
    ooo_latency(o, C::div, 12, 12);  // no divide instruction on the A9: never met
    ooo_latency(o, C::load, 3);
    ooo_latency(o, C::sysreg, 3);
    return o;
}

// The predictor the Cortex-A8's and the Cortex-A9's TRMs both describe (A8: ch. 7; A9: DDI 0388I 7.3): a global
// history buffer of 4096 2-bit counters (table_bits 12), a 512-entry target table (btb_bits 9) and an 8-entry return
// stack. Neither gives the buffer's index: a gshare with 10 bits of global history (assumed).
void ghb4096_predictor(TimingParams& p) {
    p.predictor.direction = PredictorConfig::Direction::gshare;
    p.predictor.table_bits = 12;
    p.predictor.history_bits = 10;
    p.predictor.btb_bits = 9;
    p.predictor.ras_depth = 8;
}

// The Cortex-A9's prefetch unit (TRM, DDI 0388I, 7.3, and 7.3.2 "Program flow prediction"): a 2-level predictor of
// a Global History Buffer of 4096 2-bit counters (table_bits 12), a 2-way BTAC of 512 entries, "organized as 2-way x
// 256 entries" (btb_bits 9, btb_ways 2; its replacement, least recently used, assumed: the TRM names no policy; in the
// model it holds the indirect jumps' targets, BranchPredictor::indirect) and a return stack of 8 entries. The TRM gives
// neither the GHB's index nor the length of its history: taken as the model's Cortex-A8's, whose GHB is the same
// 4096 counters (gshare, 10 bits of history; assumed). Returns (BX r14, MOV pc, r14, LDM r13 {..., pc}, LDR pc,
// [r13]) pop the stack; BL, BLX immediate and BLX register push it (7.3.2).
// Its memory system below the pipeline:
//  - Micro TLBs (TRM, DDI 0388I, 6.2.1, as quoted in pytorch/cpuinfo's src/arm/tlb.c: "a micro TLB of 32 entries
//    on the data side, and configurable 32 or 64 entries on the instruction side"): 32 each (the instruction
//    side's smaller size, as 7-cpu.com's Samsung Exynos 4210 has; the 10 of arm_core are other cores' figure).
//  - Main TLB: 128 entries in 2 ways (TRM 6.2.2: 2 x 32 to 2 x 256 entries, configurable; 7-cpu.com's Exynos
//    4210: 128, 2-way); its lockable 4 are not modelled.
//  - Costs (7-cpu.com, "Cortex-A9", Samsung Exynos 4210, a pointer chase: 4 cycles a load in 32 KB, 23 in 64 KB,
//    "+19 (L2)"; 30 in 256 KB, "+7 (L1 TLB miss)"; 37 in 1 MB, "+7 (L2 TLB miss)"): an L1 refill from the L2 19
//    cycles, a micro TLB refill from the main TLB 7, a walk 7 more (its descriptors hit in a cache). The L2
//    (an L2C-310, outside the core, its latency the SoC's) is not modelled otherwise: every L1 miss costs an L2
//    hit's 19 (the instruction side's taken as the data side's, assumed).
TimingParams cortex_a9_core(std::string_view source) {
    TimingParams p = armv7(out_of_order(with_main_tlb(arm_core(8, cache(32, 4, 32), cache(32, 4, 32), 19,
                                                               std::string(source)),
                                                      128, 2),
                                        cortex_a9()));
    p.itlb_entries = p.dtlb_entries = 32;
    p.tlb_refill_penalty = 7;
    p.walk_penalty = 7;
    ghb4096_predictor(p);
    p.predictor.btb_ways = 2;  // the BTAC's 2 ways (above)
    return p;
}

TimingParams veer() {
    TimingParams p;
    // No result latencies: the exec.log shows no load-use or multiply-use stall (loads are non-blocking).
    // A misprediction, and a JAL or JALR the predictor never predicts, costs the RTL one cycle (the Dhrystone
    // exec.log; tests/veer-rtl/straight, recursion, branchy).
    p.mispredict_penalty = 1;
    // The predictor of the RTL's default build (branch_predictor.cpp, BranchPredictor::veer, has its rules):
    // a 2-way BTB of 512 entries with 5-bit tags, a BHT of 2 x 256 counters indexed with 8 bits of global
    // history, a return stack of 8 entries (snapshots/default/el2_param.vh; the stack: tests/veer-rtl/recursion).
    p.predictor.direction = PredictorConfig::Direction::veer_el2;
    p.predictor.table_bits = 9;
    p.predictor.history_bits = 8;
    p.predictor.btb_bits = 9;
    p.predictor.btb_tag_bits = 5;
    p.predictor.ras_depth = 8;
    // Fetch runs 2 groups (4 halves) past a misprediction before the flush: calls and returns there move the
    // return stack (tests/veer-rtl/dhrystone_like: 30 mispredictions a window with it, 18 without).
    p.predictor.wrong_path_fetch = 4;
    // The BHT's history as fetch keeps it (BranchPredictor::veer_window): a flushing branch leaves the history of
    // one window fetched past it to the first window after the flush, none when it was fetched within two
    // windows of an earlier flush (tests/veer-rtl/branchy, read against the RTL's BHT reads with
    // rtl_trace.sh bht: 595 of 14202 histories differed with none, 707 with one always, 95 with this).
    p.predictor.wrong_path_windows = 1;
    p.predictor.refill_windows = 2;
    // Divisions: the time follows the operands (TimingModel::veer_div_time, from el2_exu_div_ctl.sv): without a
    // shortcut a consumer, or the next division, issues 11 cycles after the division (tests/veer-rtl/dhrystone_like:
    // 0 % 5); with one 4 + its steps (muldiv: 9 and 10; dhrystone_like's remainders of small numbers: 5).
    // Multiplies show no result latency.
    p.result_latency[static_cast<size_t>(C::div)] = 11;
    p.divider_busy = 11;
    p.divider_from_operands = true;
    // CSR instructions: pre- and post-sync (el2_dec_decode_ctl.sv; the instructions from dec/decode, the CSRs from
    // dec/csrdecode_m): each wait lasts until 2 cycles after the older instruction's X stage (tests/veer-rtl/csr,
    // ev_sync, ev_sync32, ev_sync_rd, irqoff: a presync and postsync CSR instruction between ALU instructions
    // commits 3 cycles after the one before it and the next one 3 cycles after it; events 31 and 32: 2 per such
    // instruction; traps: mepc's accesses are postsync; the harness's mcountinhibit write: 2 in every window).
    // A CSR read waits until a write-only CSR instruction has left X, R and writeback: the csrr of tests/veer-rtl/
    // csr commits 4 cycles after its csrw (event 30: 3 per iteration beside the 8 sync cycles).
    p.sync_stall = 2;
    // Presync when read (not written): minstret, minstreth, mhpmcounter3-6 and their high halves, mcpc,
    // mcountinhibit, mfdc, mtdata1. Postsync on any access: mstatus, mtvec, mepc, mcountinhibit, mtdata1, mtdata2,
    // mrac, mcpc, dmst, mfdc.
    p.presync_csrs = {0xB02, 0xB82, 0xB03, 0xB04, 0xB05, 0xB06, 0xB83, 0xB84, 0xB85, 0xB86, 0x7C2, 0x320, 0x7F9, 0x7A1};
    p.postsync_csrs = {0x300, 0x305, 0x341, 0x320, 0x7A1, 0x7A2, 0x7C0, 0x7C2, 0x7C4, 0x7F9};
    p.ev_postsync = 31;
    p.ev_presync = 32;
    p.csr_write_block = 3;
    // A trap (ecall, ebreak) reaches its handler, mret its target, one cycle more than the postsync wait: 4 cycles
    // after it, which itself commits 1 cycle after the instruction before it (or its postsync wait): the cycle is
    // the next instruction's (tests/veer-rtl/traps; irq: each mret 1 cycle, the next 4, so event 49 does not count
    // it).
    p.trap_redirect = 1;
    // Interrupts (tests/veer-rtl/irq): after an mpmc fw-halt, the last 7 cycles of the gap before the handler count
    // (the wake-up and the entry); mcycle stops for the rest.
    p.fw_halt_wake = 7;
    // An interrupt's handler begins 3 cycles later than an instruction's successor would (irq: the handler's first
    // instruction commits 4 cycles after the instruction before it, at the timer, software and internal timer
    // entries of every window); an external interrupt's fast redirect 4 more, with decode frozen (irq: 8 cycles).
    // Event 30 counts 1 per entry, the flush at decode, not the freeze (irq: 20, the postsync waits 16 and 4 entries;
    // rtl_trace.sh dec).
    p.interrupt_entry = 3;
    // tests/veer-rtl/irqpair: an interrupt pending when csrw mstatus or mret sets MIE: the handler's first
    // instruction commits 5 cycles after it (the flush 2 after, the entry's 3), whatever its postsync or redirect
    // (TimingModel::take_interrupt).
    p.interrupt_after_enable = 2;
    p.ext_interrupt_freeze = 4;
    // A csrr of mcycle while it runs returns the count 3 cycles before the csrr commits (the exec.log's cycle
    // column): the bundled Dhrystone reads 1172 at commit 1175 and 340341 at 340344; perf_counters (user-mode
    // build) reads commit - 8 in all three of its cycle reads, 5 more because run.sh's --test-halt start holds the
    // core in debug halt before its first instruction, with mcycle stopped (docs/accuracy.md).
    p.csr_read_lead = 3;
    p.predict_exc_return = false;  // traps: mret is no misprediction (event 25)
    p.ev_irq_disabled = 49;        // irqoff: cycles with mstatus.MIE = 0
    p.ev_mispredict = 25;  // branches mispredicted (veer-el2-events.csv)
    p.split_fetch_after_flush = 1;  // unpred: the return's target, a jal at a line's last halfword, 3 cycles after it
    // The default configuration of the RTL (the traces' testbench): DCCM at 0xF0040000, 64 KiB. Loads and stores
    // elsewhere are D-bus transactions: events 43 (D-bus ld/st transactions), 55 and 56 (D-bus loads, stores).
    p.local_data = TimingParams::Region{0xF0040000u, 64 * 1024};
    // Its ICCM: 0xEE000000, 64 KiB (iccm_sadr, iccm_size of the default build); code there bypasses the I-cache.
    p.local_code = TimingParams::Region{0xEE000000u, 64 * 1024};
    p.ev_bus_access = 43;
    p.ev_bus_load = 55;
    p.ev_bus_store = 56;
    // Calibrated on hello_world, whose loop loads each byte of its string over the D-bus and stores it to the
    // mailbox: the load retires at once (loads are non-blocking) and the store that uses its value issues 4
    // cycles later (a bus load's result latency is 4 more than a DCCM load's); a bus store costs 1 more.
    // tests/veer-rtl/axi_stride: an ALU instruction that uses the loaded value issues 5 cycles after the load (the
    // nbL line 2 cycles after it). A store of the value waits as long: its data register is in the non-blocking
    // load's cam like any source (el2_dec_decode_ctl.sv, i0_nonblock_load_stall on rs1 or rs2), no later use of the
    // data helps (tests/veer-rtl/bytecopy: lb, lbu, lhu and lw then a store of the value to the DCCM or over the
    // D-bus commit 5 cycles apart; with a cycle of slack for the store's data, the model's memcpy of bytes from AXI
    // memory was a cycle an iteration short). A store over the D-bus to cacheable memory costs nothing more
    // (tests/veer-rtl/stores); one to the side-effect mailbox region 1. Every other result in this model is ready
    // at once, a division's aside (late_store_data_div): no slack is left to give.
    p.bus_load_latency = 5;
    p.late_store_data = 0;
    // Not for a division's result: a store of it issues 4 cycles after the result's nbD line, as any consumer
    // (tests/veer-rtl/vm, fetch_trace.sh: `rem a5,t1,a5` then `c.sw a5,0(a0)`, 2 steps: the store 6 cycles after
    // the rem, 5 with the slack; its windows' fetch and decode stalls, events 28 and 30, one short per such store).
    p.late_store_data_div = false;
    // A store to the side-effect mailbox waits for its data as any consumer does, with no late-data slack:
    // hello_world's `sb` of a byte its bus load brought commits 5 cycles after the load (a consumer's 5, as a store
    // to memory without side effects: bytecopy; with late_store_data 0 this and late_store_data_div no longer
    // change anything, kept for a platform file that sets a slack); tests/veer-rtl/irq's mailbox stores of values ready long
    // before commit 1 cycle after the instruction before them (they cost nothing more: the 1 cycle the model
    // used to add to every side-effect store showed as a fetch stall, event 28, in its wait loops).
    p.late_store_data_side_effect = false;
    p.bus_store_penalty = 0;
    p.store_penalty_side_effect_only = true;
    // Code is fetched over the I-bus until the program makes its region cacheable with mrac (mrac resets to 0):
    // hello_world's first 8 instructions commit 7, 7, 6, 6, 7, 7, 6 and 6 cycles apart (6.5 on average; 7 taken,
    // the CSR writes among them cost nothing more: they are pipelined, tests/veer-rtl/csr's harness).
    p.follows_mrac = true;
    p.uncached_fetch_penalty = 6;
    // Event 30 (cycles decode stalled) counts every wait at decode the model knows: for a register (a bus load's
    // value, a division's result), for the divider, pre- and post-sync, a CSR read behind a CSR write.
    p.ev_dep_stall = 30;
    // The I-cache: 16 KiB, 2 ways, 64-byte lines (the RTL's default configuration; geometry unconfirmed: the
    // traces' programs are small enough that only cold misses occur). A miss with the I-bus idle brings its
    // critical word 3 cycles after the fetch that missed, the instruction commits 2 after that (fetch_trace.sh:
    // irqpair's handler at 0x800003a0, fetched at t=2335, bypassed at 2365; irq's at 2105 and 2135; uj's jal to a
    // line not cached commits its target 5 cycles after it, 2 where the line is cached): 3 cycles more than a hit.
    // (It was 10, from the Dhrystone exec.log's first iterations, whose misses mostly wait for the refill before
    // them: fill_next_miss below.) Event 3 (I-cache misses) counts them; event 2 (hits) counts per fetch group.
    // Code is taken as cacheable from the start (the MRAC write that makes it so is not followed).
    p.l1i = cache(16, 2, 64);
    p.l1i_refill_penalty = 3;
    // tests/veer-rtl/icache_big: 20 KiB of straight-line code misses its lines, each 4 cycles: a miss on the line
    // after the last miss streams in (the fetch waits 4 cycles in wfm, event 28, on a copy of the RTL that prints
    // it; 3 before that measurement, and the first window was -5.0% in cycles, now 6427 against 6426); the rest of
    // a refilled line comes from the fill buffer (event 2 counts about one hit per line there).
    p.l1i_sequential_refill_penalty = 4;
    p.fill_buffer_fetches = true;
    // tests/veer-rtl/busgap, fetch_trace.sh: after a miss the fill buffer serves the line's fetches for 15 cycles
    // from the first (6-10 fetches where bus loads hold the fetch up); from the 16th on they hit in the cache.
    p.fill_buffer_cycles = 16;
    // A fetch entering the line being refilled anew (a redirect into it, or back into it from another line) waits
    // until the line is written (el2_ifu_mem_ctl.sv: STALL_SCND_MISS until bus_ifu_wr_en_ff & last_beat): its
    // instruction commits 16 cycles after the instruction that missed committed (fetch_trace.sh: irq's c.j to
    // 0x800003dc, 231 then 247; irqpair's bne to 0x800003bc; unpred's c.j to 0x80001b34, 195 then 211, its miss
    // itself held 17 cycles behind the refill before it; uj's loop back to 0x80001ba2, 9 then 25).
    p.fill_redirect_commit = 16;
    // A miss while a refill's beats are still coming (el2_ifu_mem_ctl.sv: STREAM or CRIT_BYP_OK to HIT_U_MISS at the
    // line's end or a redirect, then SCND_MISS on ic_miss_under_miss_f): the I-bus takes its 8 read commands after
    // the last refill's, one every ibus_read_gap cycles, so its critical word comes 17 cycles after the last miss's
    // (tests/veer-rtl/irqpair, fetch_trace.sh: a jump to 0x800003f4, 12 bytes before a line's end, misses and
    // commits at 174; 0x80000400 misses at 177 and its word comes at 189, the instruction commits at 191).
    p.fill_next_miss = 17;
    // A flush does not cancel a refill the wrong path started: from CRIT_BYP_OK or MISS_WAIT exu_flush_final takes
    // miss_state to HIT_U_MISS (el2_ifu_mem_ctl.sv, MISS_SM, lines 508, 520, 532), still miss_pending, and the last
    // beat writes the tag (line 1716: bus_wren_last needs only miss_pending). tests/veer-rtl/dhrystone_like,
    // fetch_trace.sh: the fetch runs on past `c.jr ra` at 0x800004fe and misses 0x80000500; the `jal` there later
    // finds the line cached (2 cycles, not a refill's 11).
    p.wrong_path_refill = true;
    p.ev_l1i_refill = 3;
    // Event 2 counts the IFU's 4-byte fetches that hit (el2_ifu_ifc_ctl: the next fetch address is the last plus
    // 4; el2_ifu_mem_ctl: ifu_pmu_ic_hit per fetch). Event 42 counts I-bus read commands: one per 8-byte beat of a
    // line refill (64-bit bus). Event 44: misaligned D-bus accesses.
    p.fetch_bytes = 4;
    // A fetch after a redirect to an odd halfword keeps that alignment to the end of the line (el2_ifu_ifc_ctl.sv,
    // fetch_addr_next): tests/veer-rtl/ic_trap_u, whose loop lies at odd halfwords, counts the hits of ic_trap_a
    // (191 against 192), 16 fewer than 4-byte aligned fetches would give.
    p.fetch_keeps_halfword = true;
    // The fetch buffer (TimingModel::timed), measured cycle by cycle on copies of the RTL that print each fetch and
    // the buffer's state (tests/veer-rtl/fetch_trace.sh; docs/accuracy.md): 3 entries (el2_ifu_ifc_ctl.sv,
    // fb_full_f), an entry free again when the instruction ending in it goes to decode. From it the wrong-path
    // fetches of event 2 (branchy: 2995 hits, the model 2965; uj: 199, 199; ic_trap_a: 192, 193) and event 28, the
    // cycles the fetch waits for room (muldiv: 1770, 1757; csr: 500, 501; traps: 65, 66) or for a refill.
    p.fetch_queue = 3;
    p.ev_fetch_stall = 28;
    p.ev_l1i_hit = 2;
    p.ibus_beat = 8;
    p.ev_ibus_access = 42;
    p.ev_bus_misaligned = 44;
    // tests/veer-rtl/misaligned, splitma: nothing holds a split D-bus access itself; the next load or store waits at
    // decode while the D-bus buffer is full (el2_lsu.sv lsu_load_stall_any, lsu_store_stall_any =
    // lsu_bus_buffer_full_any: TimingModel::issue_stage, LsuBuffers::bus_wait), a decode stall (event 30). A split
    // load's value comes 1 cycle later per 64-bit beat it reads (misaligned's first iteration: the add after
    // lw 6(s0) commits 8 cycles after it); one that crosses a 64-bit beat is two D-bus transactions (event 43), one
    // misaligned transaction (44) either way.
    p.bus_misaligned_load_penalty = 1;
    p.bus_misaligned_store_penalty = 0;
    p.dbus_beat = 8;
    // Only a misaligned access that crosses a 32-bit word is split (el2_lsu.sv: ldst_dual = address bit 2 of the
    // first and last byte differ); a halfword at an odd address inside a word is one access like an aligned one,
    // and event 44 (lsu_pmu_bus_misaligned = lsu_busreq_r & ldst_dual_r & lsu_commit_r, el2_lsu_bus_buffer.sv)
    // does not count it (tests/veer-rtl/splitma).
    p.split_bytes = 4;
    // Events 47 and 48, the cycles a bus command is valid and not ready (el2_ifu_mem_ctl.sv: ifu_pmu_bus_busy =
    // ifu_bus_arvalid_ff & ~ifu_bus_arready_ff & miss_pending; el2_lsu_bus_buffer.sv: lsu_pmu_bus_busy, aw, w or
    // ar valid and not ready). The testbench's memory (testbench/ahb_sif.sv, axi_slv) drops arready for the cycle
    // after it takes a read command (until the response is taken): a refill's 8 read commands, one a cycle, wait a
    // cycle each after the first (icache_big: 1543 a window, 7 per miss); on the D-bus the same for reads, and
    // awready and wready drop for the cycle after a write: a read right behind another waits a cycle, and so does
    // the second command of a split access across two 64-bit beats (one within a beat is one command: the bus
    // buffer merges it, el2_lsu_bus_buffer.sv obuf_merge_en). misaligned: a load and a store across beats an
    // iteration, 63 in 32 iterations; splitma: 8 iterations each of lh 7 and sw 6, 16.
    p.ibus_read_gap = 2;
    p.dbus_cmd_gap = 2;
    p.ev_ibus_busy = 47;
    p.ev_dbus_busy = 48;
    // The D-bus buffer (TimingModel::dbus_access), measured on tests/veer-rtl/busgap (a store, 0-9 ALU
    // instructions, a load, its use) with a copy of the RTL that prints each AXI handshake: a load's read command
    // goes out 2 cycles after it issues; a store waits in the ibuf until the next bus access 2 or more cycles
    // behind it pushes it out or its timer does (a load 10 cycles behind it is not held up, one 9 behind is); the
    // next stores to its word within 7 cycles join it (busmix: byte stores, a word a transaction).
    p.dbus_queue = true;
    p.dbus_read_cmd = 2;
    // The LSU buffers (LsuBuffers) for event 34, the cycles the DCCM store buffer (el2_lsu_stbuf.sv, DEPTH 4 in the
    // default build) or the D-bus buffer (el2_lsu_bus_buffer.sv, LSU_NUM_NBLOAD 4) is full: the store buffer's
    // half gives recursion's 89, dhrystone_like's 26, vm's 13 (stbuf.py derives the same from the RTL's exec.log and
    // from the model's cycles); the bus buffer's, read cycle by cycle off rtl_trace.sh bbuf, misaligned's 378 and
    // busmix's 12 (its other 6 the store buffer's).
    p.store_buffer = 4;
    p.bus_buffer = 4;
    p.ev_store_buffer_full = 34;
    p.ibuf_merge_window = 7;
    p.ibuf_timeout = 11;
    // Instructions aligned and decoded (7, 8) equal those committed on every probe (tests/veer-rtl): no
    // wrong-path instruction is counted (retire() counts them).
    p.wrong_path = 0;
    p.source = "calibrated against the VeeR EL2 RTL's Dhrystone exec.log; DCCM of the RTL's default configuration";
    return p;
}

TimingParams arm11(bool mmu) {
    // ARM1136/1156/1176: 8-stage pipeline (9 on the 1156), 4-way caches of 32-byte lines (16 KiB assumed of the
    // 4-64 KiB range), a 128-entry dynamic predictor and a 3-entry return stack; prediction is off out of reset
    // (SCTLR.Z = 0, as `predictor.enabled` here says; a replay starts as Linux runs, prediction on, unless the platform
    // option start-state=reset: replay_timing) and the timing model follows the program's SCTLR writes. A misprediction costs 4 cycles, one
    // of which counts as IBUF_STALL (arm11-pmnc.md, AN195 §4).
    TimingParams p = arm_core(4, cache(16, 4, 32), cache(16, 4, 32), 8,
                              "assumed from the ARM11 TRMs' pipeline and cache descriptions, not calibrated");
    p.flush_fetch_stall = 1;
    // Two dirty bits per line: DCACHE_WBACK counts half lines written back (AN195 Table 2). An access in the line
    // of the instruction's previous access is sequential and not counted (AN195 §7: an LDM within one line counts
    // once). All memory is taken as cacheable, so DCACHE_HIT (cacheable accesses) equals DCACHE_ACCESS; every
    // refill is an explicit external access (0x10).
    p.l1d->dirty_parts = 2;
    p.count_line_once = true;
    p.ev_l1d_access_cacheable = 0x09;
    p.ev_l1d_external = 0x10;
    // The ARM1136 and ARM1176 have an MMU: micro TLBs and a main TLB of 64 entries, 2-way (its 8 lockable entries
    // are not modelled), whose misses are MAIN_TLB_MISS (0x0F). The ARM1156 has an MPU and no TLB.
    if (mmu) {
        p = with_main_tlb(p, 64, 2);
        p.ev_main_tlb_refill = 0x0F;
    } else {
        p.itlb_entries = p.dtlb_entries = 0;
        p.ev_main_tlb_refill = timing::no_event;
    }
    p.ev_spec[0] = timing::no_event;  // no speculative-instruction event (arm11-pmnc.md), and no wrong path (in order)
    // The return stack's events (ARM1176): calls, returns, returns predicted, returns mispredicted.
    p.ev_ras_push = 0x23;
    p.ev_ras_pop = 0x24;
    p.ev_ras_hit = 0x25;
    p.ev_ras_miss = 0x26;
    // The BTAC (ARM1176 TRM, DDI 0301H, 5.2.2-5.2.3): 128 entries, direct-mapped, a 2-bit counter each, taken and
    // untaken branches allocated; a branch it misses is predicted statically (backward taken, forward not taken).
    // It holds direct branches (B, BL, BLX immediate) alone: a branch through a register other than a return is not
    // predicted (Table 16-11: BX<cond> <reg> taken 5-7 cycles, a misprediction's), so no target buffer.
    p.predictor.direction = PredictorConfig::Direction::btac;
    p.predictor.table_bits = 7;
    p.predictor.btb_bits = 0;
    p.predictor.ras_depth = 3;
    p.predictor.enabled = false;
    // The BTAC's reach (5.2.3: "Around 65% of all branches are preceded by enough non-branch cycles to be completely
    // predicted") is left out (0: every branch reaches it). Read as "the rest go by the static rule", with 2
    // instructions between a branch and the one before it as enough (assumed: the two fetch stages, 1.8; it leaves
    // 65% of a Dhrystone run's direct branches to the BTAC), it makes a Dhrystone run 19% longer, 1.05 DMIPS/MHz against
    // the Raspberry Pi 1's 1.25 (docs/accuracy.md): that reading is not borne out, and the TRM gives no other.
    p.predictor.btac_reach = 0;
    p.follows_sctlr_z = true;
    // Returns (ARM1176 TRM 16.8, Table 16-11): BX R14 takes 4 cycles when the return stack predicts it, 7 when it
    // predicts it wrong, 5 from an empty stack (a misprediction: 1 + 4).
    p.return_hit_extra = 3;
    p.return_miss_extra = 2;
    // Returns by LDM (16.12.2, Table 16-19): LDMIA sp!,{...,pc} 4 cycles when the return stack predicts it, 9 when
    // it predicts it wrong or is empty, 9 a conditional one (a misprediction, 5, and 4 more); the registers it loads
    // are ready a cycle later than the same LDM's without the PC (the PC is loaded first).
    p.load_return_miss_extra = 4;
    p.load_pc_latency_extra = 1;
    // An LDM of the PC from another base (the same table): LDMIA rx,{...,pc} 8 cycles, never return-stack predicted
    // (a misprediction, 5, and 3 more).
    p.load_pc_other_extra = 3;
    // A misprediction takes MAX(7 - FlagCycleDistance, 5) cycles (the same table): 2 more right behind the
    // instruction that set the flags, 1 more one cycle later.
    p.mispredict_flag_window = 2;
    // A direct branch predicted right (the same table): 1 cycle (a BTAC hit, or not taken by the static rule), 4
    // taken by the static rule, 0 when a BTAC hit predicted it taken and it was folded (not BL or BLX, nor a
    // predicted branch onto a branch: TRM 5.2.4; folded when predicted taken: ARM11 MPCore TRM, DDI 0360F, 6.2.4).
    p.static_taken_extra = 3;
    p.fold_predicted_taken = true;
    // ARM11 numbers (arm11-pmnc.md): 0x06 BR_MISPREDICT, 0x0A DCACHE_ACCESS, 0x0B DCACHE_MISS, 0x00 ICACHE_MISS.
    p.ev_mispredict = 0x06;
    p.ev_predictable = timing::no_event;
    p.ev_l1d_access = 0x0A;
    p.ev_l1d_refill = 0x0B;
    p.ev_l1d_writeback = 0x0C;  // DCACHE_WBACK, per half line
    p.ev_l1i_access = timing::no_event;
    p.ev_l1i_refill = 0x00;
    p.ev_itlb_refill = 0x03;  // ITLB_MISS (MicroTLB)
    p.ev_dtlb_refill = 0x04;  // DTLB_MISS
    p.ev_stall_frontend = p.ev_stall_backend = timing::no_event;
    p.ev_fetch_stall = 0x01;  // IBUF_STALL: cycles the instruction buffer is starved by an I-cache or MicroTLB miss
    // Interlocks (ARM1176 TRM 16.2, 16.7): every result is available one cycle after issue at the earliest, a
    // load's three, a multiply's four (MUL takes two cycles); a load or store needs its address registers one
    // cycle earlier than other instructions need theirs ("Early Regs"), a store its data one cycle later ("Late
    // Regs"). DDEP_STALL counts the waits.
    for (auto& l : p.result_latency) l = 1;
    p.result_latency[static_cast<size_t>(C::load)] = 3;
    p.result_latency[static_cast<size_t>(C::mul)] = 4;
    extra(p, C::mul, 1);
    p.early_address = 1;
    p.late_store_data = 1;
    // Data processing (ARM1176 TRM 16.3, Table 16-4): the shifter's operands are Early Regs, a register shifted by
    // an immediate (not LSL #0) needed a cycle before the others; a shift by a register takes two issue cycles, the
    // amount Rs an Early Reg of the first, Rm shifted in the second, Rn a Late Reg, the result latency 2. GCC's
    // arm1136jfs.md (from the ARM1136 TRM) agrees on the two cycles and latencies (its bypasses: 2 to an unshifted
    // use, 3 to a shifted one) but takes Rm of a shift by a register as early too; the TRM's table is followed.
    p.shifted_operand_early = 1;
    p.shift_register_extra = 1;
    // An extend (SXTB, UXTH, UXTAB, ...) rotates Rm in the shifter: an Early Reg as a shifted operand is. The TRM's
    // table of these media instructions was not read; both pipeline descriptions made from the TRMs have it: GCC's
    // arm1136jfs.md (from the ARM1136 TRM) times type "extend" as its shift-by-constant operations, whose shifted
    // operand waits a cycle more behind an ALU result (11_alu_shift_op, arm_no_early_alu_shift_value_dep), and
    // LLVM's ARMScheduleV6.td (from the ARM1176 TRM) reads IIC_iEXTr's operand and IIC_iEXTAr's Rm in cycle 1, as
    // IIC_iALUsi's shifted one, a cycle before the others (cycle 2).
    p.extend_in_shifter = true;
    // Multiplies (ARM1176 TRM 16.7, Table 16-10): the multiplicand and multiplier (Rm, Rs) are Early Regs, needed a
    // cycle before the other sources; SMULxy, SMLAxy, SMULWy, SMLAWy, SMUAD, SMLAD, SMUSD, SMLSD take one cycle with
    // a result latency of 3 (MUL and MLA: two cycles and 4, above). A 64-bit result takes a cycle more than its
    // kin's and its high half a cycle longer: UMULL, SMULL, UMLAL, SMLAL, UMAAL 3 cycles, 4/5; SMLALxy, SMLALD,
    // SMLSLD 2 cycles, 3/4. A flag-setting multiply takes 3 cycles more: MULS, MLAS 5, UMULLS and kin 6. Not
    // modelled (documented): the accumulator as a Late Reg and a multiply's result one cycle earlier to a later
    // multiply's accumulator, SMMUL, SMMLA, SMMLS's 2 cycles and 4 (the A32 decoder classes them as ALU).
    p.mul_operand_early = 1;
    p.short_mul_latency = 3;
    p.long_mul_extra = 1;
    p.mul_hi_latency = 1;
    p.mul_flags_extra = 3;
    // Load and store multiples (ARM1176 TRM 16.12, Table 16-18): one cycle to issue, then two registers a memory
    // cycle over the 64-bit data path while later instructions go on; LDM's registers are ready 3, 3, 4, 4, 5, ...
    // cycles after issue; the load/store unit is busy meanwhile: a later load or store waits for it ("non-memory
    // instructions can execute ... while these instructions complete").
    p.load_multiple_bytes = p.store_multiple_bytes = 8;
    p.multiple_holds_issue = false;
    p.multiple_holds_lsu = true;
    // An STM locks its registers until it has stored them (16.12, Table 16-18: register lock latencies 1, 2, 2, 3,
    // 3, 4, 4 with the first address 64-bit aligned, taken for every STM; a later instruction that writes one waits).
    p.multiple_write_lock = true;
    p.ev_dep_stall = 0x02;
    p.ev_l2_access = p.ev_l2_refill = p.ev_l2_writeback = timing::no_event;  // no L2 in the core
    return p;
}

// Cortex-A53: 8-stage in-order, L1I 32 KiB 2-way, L1D 32 KiB 4-way, 64-byte lines; L2 512 KiB 16-way (of
// 128 KiB-2 MiB, assumed); the L1 refill (an L2 hit) 13 cycles and a miss to memory 100 more, both assumed.
// A misprediction costs 9 cycles (LLVM's AArch64SchedA53.td, MispredictPenalty, "based on Cortex-A53 Software
// Optimisation Specification - Instruction Timings v1.0", Arm's spreadsheet).
// Issue (GCC's cortex-a53.md, contributed by Arm): two slots; loads and stores, multiplies and branches each have
// one unit, which is the default pairing rule (TimingModel::pairs). Latencies, the consumer's issue after the
// producer's (the same file's bypasses): ALU to ALU 1; a load's result 2 cycles to an ALU instruction and 3 to an
// address (early_address 1: the address is formed at issue); a multiply's 2 to an ALU instruction. LDP of two X
// registers issues over two cycles (single issue, then slot 0: 8 bytes a cycle); STP of two X registers in one (16
// bytes); LDR and LDP of Q registers over two (GCC's cortex_a53_f_load_many), STP of Q registers over two (16 bytes
// a cycle; f_store_many holds the store pipeline 2 cycles). The bytes come from the encoding (QEMU's traces give
// no access sizes, and split a 128-bit access in two).
// Operand shapes (GCC's cortex-a53.md as rewritten in 2015, and LLVM's AArch64SchedA53.td):
//  - a shifted or extended register operand is needed a cycle earlier than the other sources: an ALU result 2
//    cycles after its producer's issue (1 to an unshifted one), a load's or a multiply's 3 (2). GCC: the bypasses
//    of 1 from cortex_a53_alu* to cortex_a53_alu_shift* guarded by arm_no_early_alu_shift_dep, else 2; LLVM:
//    A53ReadShifted (ReadAdvance 1) against A53ReadNotShifted (2) for RegShiftedPred and RegExtendedPred. The ALU's
//    latency is 1 here for it (it was 0, which the pairing rule made a cycle all the same).
//  - one shift by a register a cycle: GCC's cortex_a53_shift_reg and cortex_a53_alu_shift_reg reserve the one
//    cortex_a53_hazard unit beside their slot;
//  - EXTR (and ROR (immediate), type rotate_imm) only in slot 1 or alone: GCC's cortex_a53_alu_extr,
//    "cortex_a53_slot1|cortex_a53_single_issue", slot 1 only beside an instruction in slot 0
//    (final_presence_set), so it never takes a younger partner.
TimingParams cortex_a53() {
    TimingParams p = with_main_tlb(with_l2(arm_core(9, cache(32, 2, 64), cache(32, 4, 64), 13,
                                                    "issue and latencies from GCC's cortex-a53.md (Arm); "
                                                    "caches and below L1 assumed"),
                                           512, 16, 100),
                                   512, 4);
    p.dual_issue = true;
    extra(p, C::mul, 0);
    latency(p, C::alu, 1);
    latency(p, C::load, 2);
    latency(p, C::mul, 2);
    p.early_address = 1;
    // An ALU result to a load's or store's address: 3 cycles, where early_address would give 2 (GCC's
    // cortex-a53.md: no bypass from cortex_a53_alu* to a load's or store's address, the reservation's latency 3;
    // LLVM's AArch64SchedA53.td: ReadAdrBase without a ReadAdvance). A load's (3) and a multiply's (3) stay
    // early_address's.
    p.address_latency[static_cast<size_t>(C::alu)] = 3;
    p.shifted_operand_early = 1;
    p.single_shift_register = true;
    p.extract_second_slot = true;
    p.load_multiple_bytes = 8;
    p.store_multiple_bytes = 16;
    // GCC's cortex-a53.md (2015 and later): LDP of X registers (cortex_a53_load2), AArch32 LDM of 3 or 4 registers
    // (load3plus), the 128-bit Advanced SIMD loads, LDR Q and LDP Q among them (cortex_a53_f_load_many:
    // advsimd_load_128, advsimd_load_lots), and the 128-bit stores (f_store_many) all hold the load or store
    // pipeline 2 cycles; LLVM's AArch64SchedA53.td agrees for LDP (WriteLD and WriteLDHi, the unit twice). LD1 of 3
    // or 4 Q registers (LLVM: 3 and 4 cycles) is GCC's 2 here too.
    p.multiple_max_cycles = 2;
    // In the second of those cycles they hold slot 0 alone ("single_issue, then slot0"): a younger instruction may
    // issue beside them in slot 1 (final_presence_set: slot 1 only beside slot 0).
    p.multiple_last_slot = true;
    p.flag_latency = 0;  // the flags forwarded to a branch in the same cycle (the file's bypass 0 to branches)
    // Taken branches: the A53 has no target buffer ahead of fetch; it learns where a branch goes once it has fetched
    // and decoded it, 3 cycles from a taken branch to its target (Chips and Cheese, "ARM's Cortex A53: Tiny But
    // Important", 2023, measured on the Amlogic S922X: taken-branch latency), 2 when the target comes from the Branch
    // Target Instruction Cache. The BTIC (A53 TRM, DDI 0500F, 2.1, Instruction Fetch Unit): a single entry holding up
    // to two instruction-cache fetches of a predicted taken branch's target; its benefit measured only for branches
    // fewer than 16 bytes apart (the same article: "extremely tiny loops without any nested branches"). The cycles
    // beyond the branch's own: 2, and 1 on a BTIC hit. Which branch the entry holds (the last taken one) is assumed,
    // and so is the bubble for branches through a register (the article measured direct ones).
    p.taken_extra = 2;
    p.btic_taken_extra = 1;
    p.btic_bytes = 16;
    return p;
}

// Cortex-A7: 8-stage in-order, L1I 2-way 32-byte lines, L1D 4-way 64-byte lines (32 KiB of 8-64 KiB); L2 512 KiB
// (the Raspberry Pi 2's), a refill from it 12 cycles and a miss to memory 100 more (assumed).
// Partial dual issue (GCC's cortex-a7.md, contributed by Arm): the older instruction in slot 0 may be an ALU
// instruction, a load or store, or a direct branch; the younger, in slot 1, only a move or an ALU instruction with
// an immediate operand (at most one register read) or a branch, never two branches; multiplies take both slots,
// calls all of them. Latencies (the same file): ALU to ALU 1 (forwarded), a load's 2, a multiply's 2; the
// address is formed in the issue stage, so a register that forms it is needed a cycle earlier (early_address).
// LDRD in one cycle, LDM/STM of 3 or 4 registers in two (8 bytes a cycle).
TimingParams cortex_a7() {
    TimingParams p = armv7(with_main_tlb(with_l2(arm_core(8, cache(32, 2, 32), cache(32, 4, 64), 12,
                                                          "issue and latencies from GCC's cortex-a7.md (Arm); "
                                                          "caches and below L1 assumed"),
                                                 512, 8, 100),
                                         256, 2));
    p.dual_issue = true;
    pair_rule(p, {C::alu, C::load, C::store, C::branch}, {C::alu, C::branch}, {{C::branch}});
    p.pair_max_src[static_cast<size_t>(C::alu)] = 1;
    extra(p, C::mul, 0);
    latency(p, C::load, 2);
    latency(p, C::mul, 2);
    // A division (ARMv7VE SDIV/UDIV) holds every slot for 5 cycles (an estimate there: the time follows the
    // operands).
    extra(p, C::div, 4);
    latency(p, C::div, 5);
    p.early_address = 1;
    p.load_multiple_bytes = p.store_multiple_bytes = 8;
    // The flags: the file forwards an ALU result early only to ALU, multiply and store consumers, so a branch waits
    // for the ALU's full 2-cycle latency (a conditional ALU instruction, forwarded a cycle earlier there, is not
    // told apart: it waits as long).
    p.flag_latency = 2;
    return p;
}

// Cortex-A8 (TRM DDI 0344, ch. 16 instruction cycle timing, as LLVM's ARMScheduleA8.td tabulates it; the dual-issue
// restrictions of section 16.?, as in Stallings' table of them): 13-stage in-order, two ALU pipelines and one
// load/store pipeline; one load or store and one branch a cycle, multiplies only in pipeline 0 (the older of a
// pair); a 13-cycle misprediction. ALU results 1 cycle (E2 to E2); a load's 2 cycles to an ALU instruction and 3 to
// an address (E3, the address read in E1); MUL issues over 2 cycles and its result comes 5 after its issue
// (E5 of its last cycle). LDM/STM move two registers a cycle. Predictor (TRM ch. 7): a 512-entry BTB, a
// 4096-entry global history buffer and an 8-entry return stack. L1 32 KiB 4-way 64-byte lines; 32-entry fully
// associative instruction and data TLBs and no main TLB, so a TLB miss walks the page tables; L2 256 KiB, a
// refill from it 10 cycles, a miss 100 more (assumed).
TimingParams cortex_a8() {
    TimingParams p = armv7(with_l2(arm_core(13, cache(32, 4, 64), cache(32, 4, 64), 10,
                                            "issue and latencies from the Cortex-A8 TRM ch. 16 (LLVM's "
                                            "ARMScheduleA8.td); below L1 assumed"),
                                   256, 8, 100));
    p.itlb_entries = p.dtlb_entries = 32;
    p.tlb_refill_penalty = 20;
    p.dual_issue = true;
    pair_rule(p, {C::alu, C::load, C::store, C::branch, C::jump, C::mul}, {C::alu, C::load, C::store, C::branch, C::jump},
              {{C::load, C::store}, {C::branch, C::jump}});
    extra(p, C::mul, 1);
    // An ALU result a cycle after its issue (E2 to E2), and so 2 cycles to an address, read in E1 (TRM 16.3, Table
    // 16.12, data source hazard: ADD r4, r1, r6 in cycle 2, LDR r7, [r4] in cycle 4); 0, as before, let an address
    // use it a cycle sooner.
    latency(p, C::alu, 1);
    latency(p, C::load, 2);
    latency(p, C::mul, 5);
    p.early_address = 1;
    // A shifted register operand is read in E1, a stage before the other sources' E2 (GCC's cortex-a8.md, from the
    // TRM ch. 16: a producer's bypass to cortex_a8_alu_shift and alu_shift_reg is 1 cycle from an ALU instruction, 2
    // from a load and 4 from a multiply only with arm_no_early_alu_shift_dep, i.e. when it is not the shifted
    // operand; else the reservations' 2, 3 and 6): shifted_operand_early 1. The decoder marks a shift by a register's
    // amount register as shifted too, which GCC's rule (the shifted value alone) leaves out. Extends are not early
    // there (no shift in their pattern): not marked.
    p.shifted_operand_early = 1;
    // A load whose register offset is shifted by anything but LSL #2 takes a cycle more, its result a cycle later (TRM
    // 16.8, Example 16-6: LDRLS pc, [pc, r2, LSL #2], "no extra cycle for shift since LSL #2"; GCC's cortex-a8.md:
    // two micro-operations). Whether a younger instruction may pair with its second cycle is not said: it pairs with
    // nothing. Stores are not named by either: left as they were.
    p.offset_shift_extra = 1;
    p.load_multiple_bytes = p.store_multiple_bytes = 8;
    ghb4096_predictor(p);
    return p;
}

}  // namespace

std::optional<timing::TimingParams> platform_timing(std::string_view name) {
    const std::string_view assumed = "assumed from the TRM's pipeline and cache descriptions, not calibrated";
    if (name == "veer-el2") return veer();
    if (name == "arm1136" || name == "arm1176") return arm11(true);
    if (name == "arm1156") return arm11(false);
    // Cortex-A53 (and the generic ARMv8): 8-stage in-order, L1I 32 KiB 2-way, L1D 32 KiB 4-way, 64-byte lines;
    // L2 512 KiB 16-way (of 128 KiB-2 MiB). L2 sizes below are assumed configurations; a miss costs 100 cycles.
    if (name == "cortex-a53" || name == "armv8-generic") return cortex_a53();
    // Cortex-A57/A72: out of order (cortex_a57_a72). L1I 48 KiB 3-way, L1D 32 KiB 2-way.
    if (name == "cortex-a57" || name == "cortex-a72")
        return out_of_order(with_main_tlb(with_l2(arm_core(15, cache(48, 3, 64), cache(32, 2, 64), 15,
                                                           "out-of-order approximation from the Cortex-A57/A72 Software "
                                                           "Optimization Guides; caches assumed, not calibrated"),
                                                  2048, 16, 100),
                                          1024, 4),
                            cortex_a57_a72(name == "cortex-a57" ? 12 : 8));
    // Cortex-A7: 8-stage in-order, L1I 2-way 32-byte lines, L1D 4-way 64-byte lines (32 KiB of 8-64 KiB).
    // Partial dual issue.
    if (name == "cortex-a7") return cortex_a7();
    // Cortex-A8: 13-stage in-order dual issue, L1 32 KiB 4-way 64-byte lines; 32-entry fully associative
    // instruction and data TLBs and no main TLB, so a TLB miss walks the page tables.
    if (name == "cortex-a8") return cortex_a8();
    // Cortex-A9: out of order with an 8-cycle mispredict, L1 32 KiB 4-way 32-byte lines; its L2 (an L2C-310) is
    // outside the core: an L1 miss costs an L2 hit's cycles (cortex_a9_core).
    if (name == "cortex-a9") return cortex_a9_core(assumed);
    // Cortex-A15: out of order, 15-cycle mispredict, L1 32 KiB 2-way 64-byte lines.
    if (name == "cortex-a15") return armv7(out_of_order(with_main_tlb(with_l2(arm_core(15, cache(32, 2, 64), cache(32, 2, 64), 15, std::string(assumed)), 1024, 16, 100), 512, 4), cortex_a15()));
    return std::nullopt;
}

}  // namespace pmusim
