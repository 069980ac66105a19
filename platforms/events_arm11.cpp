// ARM11 (ARM1136/1156/1176) events and the cores that implement each: ARM Application Note 195 "ARM11
// performance monitor unit", Table 2, and the ARM1136JF-S, ARM1156T2F-S and ARM1176JZF-S TRMs (System Control
// coprocessor, c15 "Performance Monitor Control Register").
// Names are Linux perf_event_v6.c mnemonics where Linux has one, else pmusim's own short names.
#include "platforms/event_tables.hpp"

namespace pmusim {

const std::vector<Arm11Event>& arm11_events() {
    constexpr unsigned k1136 = Arm11Event::arm1136, k1156 = Arm11Event::arm1156, k1176 = Arm11Event::arm1176;
    static const std::vector<Arm11Event> table = {
        {{0x00, "ICACHE_MISS", "Instruction cache miss to a cacheable location requiring a fetch from external memory"}, k1136 | k1156 | k1176},
        {{0x01, "IBUF_STALL", "Stall: instruction buffer cannot deliver an instruction (I-cache miss or instruction MicroTLB miss); counts every cycle the condition is present"}, k1136 | k1156 | k1176},
        {{0x02, "DDEP_STALL", "Stall because of a data dependency; counts every cycle the condition is present"}, k1136 | k1156 | k1176},
        {{0x03, "ITLB_MISS", "Instruction MicroTLB miss"}, k1136 | k1176},
        {{0x04, "DTLB_MISS", "Data MicroTLB miss"}, k1136 | k1176},
        {{0x05, "BR_EXEC", "Branch instruction executed (whether or not it changed program flow)"}, k1136 | k1156 | k1176},
        {{0x06, "BR_MISPREDICT", "Branch mispredicted (pipeline flush)"}, k1136 | k1156 | k1176},
        {{0x07, "INSTR_EXEC", "Instructions executed (reaching execute stage, including condition-code failures)"}, k1136 | k1156 | k1176},
        {{0x09, "DCACHE_HIT", "Data cache access (not cache operations): each non-sequential access to a cache line, cacheable locations only"}, k1136 | k1156 | k1176},
        {{0x0A, "DCACHE_ACCESS", "Data cache access (not cache operations): each non-sequential access to a cache line, cacheable or not"}, k1136 | k1156 | k1176},
        {{0x0B, "DCACHE_MISS", "Data cache miss, not including cache operations"}, k1136 | k1156 | k1176},
        {{0x0C, "DCACHE_WBACK", "Data cache write-back: once per half line (four words) written back"}, k1136 | k1156 | k1176},
        {{0x0D, "SW_PC_CHANGE", "Software changed the PC without a mode change (e.g. MOV PC; not SWI from User mode)"}, k1136 | k1156 | k1176},
        {{0x0F, "MAIN_TLB_MISS", "Main TLB miss"}, k1136 | k1176},
        {{0x10, "EXPL_D_ACCESS", "Explicit external data or peripheral access (cache refill, non-cacheable, write-through); excludes write-backs and page-table walks"}, k1136 | k1156 | k1176},
        {{0x11, "LSU_FULL_STALL", "Stall because the Load Store Unit request queue is full; counts each cycle"}, k1136 | k1156 | k1176},
        {{0x12, "WBUF_DRAINED", "Write Buffer drained because of a Data Synchronization Barrier or Strongly Ordered operation"}, k1136 | k1156 | k1176},
        {{0x13, "FIQ_DISABLED_CYCLES", "Number of cycles FIQ interrupts are disabled"}, k1156},
        {{0x14, "IRQ_DISABLED_CYCLES", "Number of cycles IRQ interrupts are disabled"}, k1156},
        {{0x20, "NOP", "ETMEXTOUT[0] signal asserted for a cycle"}, k1136 | k1156 | k1176},
        {{0x21, "ETMEXTOUT1", "ETMEXTOUT[1] signal asserted for a cycle"}, k1136 | k1156 | k1176},
        {{0x22, "ETMEXTOUT_EITHER", "ETMEXTOUT[0] or ETMEXTOUT[1] asserted; increments by 2 if both are asserted"}, k1136 | k1156 | k1176},
        {{0x23, "PROC_CALL", "Procedure call instruction executed: return address pushed on the return stack"}, k1176},
        {{0x24, "PROC_RETURN", "Procedure return instruction executed: return address popped off the return stack"}, k1176},
        {{0x25, "PROC_RETURN_PRED", "Procedure return executed and return address predicted: popped off the return stack and the core branched to it"}, k1176},
        {{0x26, "PROC_RETURN_MISPRED", "Procedure return executed and return address predicted incorrectly: address restored to the return stack after misprediction detected"}, k1176},
        {{0x30, "ICACHE_TAG_PARITY", "Instruction cache Tag or Valid RAM parity error"}, k1156},
        {{0x31, "ICACHE_RAM_PARITY", "Instruction cache RAM parity error"}, k1156},
        {{0x32, "DCACHE_TAG_PARITY", "Data cache Tag or Valid RAM parity error"}, k1156},
        {{0x33, "DCACHE_RAM_PARITY", "Data cache RAM parity error"}, k1156},
        {{0x34, "ITCM_ERROR", "ITCM error"}, k1156},
        {{0x35, "DTCM_ERROR", "DTCM error"}, k1156},
        {{0x36, "RETSTACK_POP", "Procedure return address popped off the return stack"}, k1156},
        {{0x37, "RETSTACK_POP_MISPRED", "Procedure return address popped off the return stack incorrectly predicted by the PFU"}, k1156},
        {{0x38, "DCACHE_DIRTY_PARITY", "Data cache Dirty RAM parity error"}, k1156},
        {{0xFF, "CPU_CYCLES", "An increment each cycle"}, k1136 | k1156 | k1176},
    };
    return table;
}

const std::vector<EventInfo>& arm11_event_names() {
    static const std::vector<EventInfo> names = [] {
        std::vector<EventInfo> v;
        for (const auto& e : arm11_events()) v.push_back(e.info);
        return v;
    }();
    return names;
}

}  // namespace pmusim
