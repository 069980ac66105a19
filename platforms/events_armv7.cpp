// ARMv7 events by number: the common events 0x00-0x1D (ARM Architecture Reference Manual ARMv7-A and ARMv7-R,
// DDI 0406, chapter "The Performance Monitors Extension", and the PMUv2 supplement DDI 0457A for 0x13-0x1D) and
// the Cortex-A7 IMPLEMENTATION DEFINED ones (Cortex-A7 MPCore TRM, DDI 0464, Table 11.5 "Performance monitor
// events"). Descriptions are short paraphrases.
#include "platforms/event_tables.hpp"

namespace pmusim {

const std::vector<EventInfo>& armv7_events() {
    static const std::vector<EventInfo> table = {
        {0x00, "SW_INCR", "Software increment: counts writes of 1 to this counter's bit in PMSWINC"},
        {0x01, "L1I_CACHE_REFILL", "Instruction fetch causing a refill of the level 1 instruction cache (includes speculative linefills on A7)"},
        {0x02, "L1I_TLB_REFILL", "Instruction fetch causing a refill of the level 1 instruction TLB (includes speculative requests on A7)"},
        {0x03, "L1D_CACHE_REFILL", "Data read or write causing a refill of the level 1 data cache"},
        {0x04, "L1D_CACHE", "Data read or write causing an access to the level 1 data cache (A7 includes speculative reads)"},
        {0x05, "L1D_TLB_REFILL", "Data read or write causing a refill of the level 1 data TLB"},
        {0x06, "LD_RETIRED", "Memory-reading instruction architecturally executed (A7 TRM: counts loads accepted by the LSU, including speculative/aborted LDR/LDM and SWP reads)"},
        {0x07, "ST_RETIRED", "Memory-writing instruction architecturally executed (A7 TRM: counts stores accepted by the LSU, including speculative/aborted STR/STM and SWP writes)"},
        {0x08, "INST_RETIRED", "Instruction architecturally executed"},
        {0x09, "EXC_TAKEN", "Exception taken"},
        {0x0A, "EXC_RETURN", "Exception return instruction architecturally executed"},
        {0x0B, "CID_WRITE_RETIRED", "Instruction that writes the Context ID register (CONTEXTIDR) architecturally executed"},
        {0x0C, "PC_WRITE_RETIRED", "Software change of the PC architecturally executed"},
        {0x0D, "BR_IMMED_RETIRED", "Immediate branch architecturally executed"},
        {0x0E, "BR_RETURN_RETIRED", "Procedure return architecturally executed"},
        {0x0F, "UNALIGNED_LDST_RETIRED", "Unaligned load or store architecturally executed"},
        {0x10, "BR_MIS_PRED", "Branch mispredicted or not predicted"},
        {0x11, "CPU_CYCLES", "Cycle: increments on every processor clock cycle"},
        {0x12, "BR_PRED", "Predictable branch speculatively executed"},
        {0x13, "MEM_ACCESS", "Data memory access"},
        {0x14, "L1I_CACHE", "Level 1 instruction cache access"},
        {0x15, "L1D_CACHE_WB", "Level 1 data cache write-back (A7: eviction)"},
        {0x16, "L2D_CACHE", "Level 2 data cache access"},
        {0x17, "L2D_CACHE_REFILL", "Level 2 data cache refill"},
        {0x18, "L2D_CACHE_WB", "Level 2 data cache write-back"},
        {0x19, "BUS_ACCESS", "Bus access"},
        {0x1A, "MEMORY_ERROR", "Local memory error"},
        {0x1B, "INST_SPEC", "Instruction speculatively executed"},
        {0x1C, "TTBR_WRITE_RETIRED", "Write to translation table base register architecturally executed"},
        {0x1D, "BUS_CYCLES", "Bus cycle"},
        {0x60, "BUS_ACCESS_LD", "Bus access, read (IMPLEMENTATION DEFINED)"},
        {0x61, "BUS_ACCESS_ST", "Bus access, write (IMPLEMENTATION DEFINED)"},
        {0x86, "EXC_IRQ", "IRQ exception taken (IMPLEMENTATION DEFINED)"},
        {0x87, "EXC_FIQ", "FIQ exception taken (IMPLEMENTATION DEFINED)"},
        {0xC0, "EXT_MEM_REQ", "External memory request (IMPLEMENTATION DEFINED)"},
        {0xC1, "EXT_MEM_REQ_NC", "Non-cacheable external memory request (IMPLEMENTATION DEFINED)"},
        {0xC2, "PREFETCH_LINEFILL", "Linefill because of prefetch (IMPLEMENTATION DEFINED)"},
        {0xC3, "PREFETCH_LINEFILL_DROP", "Prefetch linefill dropped (IMPLEMENTATION DEFINED)"},
        {0xC4, "READ_ALLOC_ENTER", "Entering read allocate mode (IMPLEMENTATION DEFINED)"},
        {0xC5, "READ_ALLOC", "Read allocate mode (IMPLEMENTATION DEFINED)"},
        {0xC7, "ETM_EXT_OUT0", "ETM external output 0 asserted (IMPLEMENTATION DEFINED)"},
        {0xC8, "ETM_EXT_OUT1", "ETM external output 1 asserted (IMPLEMENTATION DEFINED)"},
        {0xC9, "STALL_SB_FULL", "Data write operation that stalls the pipeline because the store buffer is full (IMPLEMENTATION DEFINED)"},
        {0xCA, "LOCAL_CLUSTER_SNOOP", "Data read transaction snooped from another processor within the local cluster (IMPLEMENTATION DEFINED)"},
    };
    return table;
}

// IMPLEMENTATION DEFINED events the Cortex-A7 TRM lists (in_cortex_a7_trm_list = yes).
const std::vector<uint32_t>& cortex_a7_impdef_events() {
    static const std::vector<uint32_t> list = {0x60, 0x61, 0x86, 0x87, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC7, 0xC8, 0xC9, 0xCA};
    return list;
}

}  // namespace pmusim
