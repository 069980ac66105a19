// VeeR EL2 events 0-516 from ../shared/spec/veer-el2-events.csv (VeeR EL2 PRM Table 8.1). The PRM's names are
// phrases; pmusim's are the same words in upper case joined by underscores, without parenthesised remarks.
#include "platforms/event_tables.hpp"

namespace pmusim {

const std::vector<EventInfo>& veer_events() {
    static const std::vector<EventInfo> table = {
        {1, "CYCLES_CLOCKS_ACTIVE", "Number of cycles clock active (OOP, C0)"},
        {2, "I_CACHE_HITS", "Number of I-cache hits (speculative, valid fetch & hit) (OOP, C0)"},
        {3, "I_CACHE_MISSES", "Number of I-cache misses (valid fetch & miss) (OOP, C0)"},
        {4, "INSTR_COMMITTED_ALL", "Number of all (16b+32b) instructions committed (non-speculative, 0/1) (IP, C0)"},
        {5, "INSTR_COMMITTED_16B", "Number of 16b instructions committed (non-speculative, 0/1) (IP, C0)"},
        {6, "INSTR_COMMITTED_32B", "Number of 32b instructions committed (non-speculative, 0/1) (IP, C0)"},
        {7, "INSTR_ALIGNED_ALL", "Number of all (16b+32b) instructions aligned (speculative, 0/1) (OOP, C0)"},
        {8, "INSTR_DECODED_ALL", "Number of all (16b+32b) instructions decoded (speculative, 0/1) (OOP, C0)"},
        {9, "MULS_COMMITTED", "Number of multiplications committed (0/1) (IP, C0)"},
        {10, "DIVS_COMMITTED", "Number of divisions and remainders committed (0/1) (IP, C0)"},
        {11, "LOADS_COMMITTED", "Number of loads committed (0/1) (IP, C0)"},
        {12, "STORES_COMMITTED", "Number of stores committed (0/1) (IP, C0)"},
        {13, "MISALIGNED_LOADS", "Number of misaligned loads (0/1) (IP, C0)"},
        {14, "MISALIGNED_STORES", "Number of misaligned stores (0/1) (IP, C0)"},
        {15, "ALUS_COMMITTED", "Number of ALU operations committed (0/1); NOP and WFI (implemented as NOP) count as ALU operations (IP, C0)"},
        {16, "CSR_READ", "Number of CSR read instructions committed (0/1) (IP, C0)"},
        {17, "CSR_READ_WRITE", "Number of CSR read/write instructions committed (0/1) (IP, C0)"},
        {18, "CSR_WRITE_RD_0", "Number of CSR write rd==0 instructions committed (0/1) (IP, C0)"},
        {19, "EBREAK", "Number of ebreak instructions committed (0/1) (IP, C0)"},
        {20, "ECALL", "Number of ecall instructions committed (0/1) (IP, C0)"},
        {21, "FENCE", "Number of fence instructions committed (0/1) (IP, C0)"},
        {22, "FENCE_I", "Number of fence.i instructions committed (0/1) (IP, C0)"},
        {23, "MRET", "Number of mret instructions committed (0/1) (IP, C0)"},
        {24, "BRANCHES_COMMITTED", "Number of branches committed (RTL: conditional branches and JAL-type jumps) (IP, C0)"},
        {25, "BRANCHES_MISPREDICTED", "Number of branches mispredicted (IP, C0)"},
        {26, "BRANCHES_TAKEN", "Number of branches taken (IP, C0)"},
        {27, "UNPREDICTABLE_BRANCHES", "Number of unpredictable branches (IP, C0)"},
        {28, "CYCLES_FETCH_STALLED", "Number of cycles fetch ready but stalled (OOP, C0)"},
        {30, "CYCLES_DECODE_STALLED", "Number of cycles one or more instructions valid in IB but decode stalled (OOP, C0)"},
        {31, "CYCLES_POSTSYNC_STALLED", "Number of cycles postsync stalled at decode (OOP, C0)"},
        {32, "CYCLES_PRESYNC_STALLED", "Number of cycles presync stalled at decode (OOP, C0)"},
        {34, "CYCLES_SB_WB_STALLED", "Number of cycles decode stalled due to SB or WB full (OOP, C0)"},
        {35, "CYCLES_DMA_DCCM_TRANSACTION_STALLED", "Number of cycles DMA stalled due to decode for load/store (OOP, C0)"},
        {36, "CYCLES_DMA_ICCM_TRANSACTION_STALLED", "Number of cycles DMA stalled due to fetch (OOP, C0)"},
        {37, "EXCEPTIONS_TAKEN", "Number of exceptions taken (IP, C0)"},
        {38, "TIMER_INTERRUPTS_TAKEN", "Number of timer interrupts taken (standard platform timer and the two internal timers) (IP, C0)"},
        {39, "EXTERNAL_INTERRUPTS_TAKEN", "Number of external interrupts taken (IP, C0)"},
        {40, "TLU_FLUSHES", "Number of TLU flushes (flush lower) (IP, C0)"},
        {41, "BRANCH_ERROR_FLUSHES", "Number of branch error flushes (IP, C0)"},
        {42, "I_BUS_TRANSACTIONS_INSTR", "Number of instr transactions on I-bus interface (OOP, C0)"},
        {43, "D_BUS_TRANSACTIONS_LD_ST", "Number of ld/st transactions on D-bus interface (OOP, C0)"},
        {44, "D_BUS_TRANSACTIONS_MISALIGNED", "Number of misaligned transactions on D-bus interface (OOP, C0)"},
        {45, "I_BUS_ERRORS", "Number of transaction errors on I-bus interface (OOP, C0)"},
        {46, "D_BUS_ERRORS", "Number of transaction errors on D-bus interface (OOP, C0)"},
        {47, "CYCLES_STALLED_DUE_TO_I_BUS_BUSY", "Number of cycles stalled due to AXI4 or AHB-Lite I-bus busy (OOP, C0)"},
        {48, "CYCLES_STALLED_DUE_TO_D_BUS_BUSY", "Number of cycles stalled due to AXI4 or AHB-Lite D-bus busy (OOP, C0)"},
        {49, "CYCLES_INTERRUPTS_DISABLED", "Number of cycles interrupts disabled (MSTATUS.MIE==0) (OOP, C0)"},
        {50, "CYCLES_INTERRUPTS_STALLED_WHILE_DISABLED", "Number of cycles interrupts stalled while disabled (MSTATUS.MIE==0) (OOP, C0)"},
        {54, "BITMANIP_COMMITTED", "Number of bit-manipulation operations committed (0/1) (IP, C0)"},
        {55, "D_BUS_LOADS_COMMITTED", "Number of load instructions to D-bus committed (0/1) (IP, C0)"},
        {56, "D_BUS_STORES_COMMITTED", "Number of store instructions to D-bus committed (0/1) (IP, C0)"},
        {512, "CYCLES_IN_SLEEP_STATE", "Number of cycles in Sleep (C3) state (OOP, C0+C3)"},
        {513, "DMA_READS", "Total number of DMA slave read transactions (OOP, C0+C3)"},
        {514, "DMA_WRITES", "Total number of DMA slave write transactions (OOP, C0+C3)"},
        {515, "DMA_READS_TO_DCCM", "Number of DMA slave read transactions to DCCM (OOP, C0+C3)"},
        {516, "DMA_WRITES_TO_DCCM", "Number of DMA slave write transactions to DCCM (OOP, C0+C3)"},
    };
    return table;
}

}  // namespace pmusim
