// VeeR EL2 events 0-516: numbers, in-pipe/out-of-pipe class and activity states from the VeeR EL2 Programmer's
// Reference Manual, Table 8.1 "List of countable events" (CHIPS Alliance). The PRM's names are phrases; pmusim's
// are the same words in upper case joined by underscores. Descriptions are pmusim's own wording. Numbers the table
// leaves out (0, 29, 33, 51-53, 57-511) are reserved.
#include "platforms/event_tables.hpp"

namespace pmusim {

const std::vector<EventInfo>& veer_events() {
    static const std::vector<EventInfo> table = {
        {1, "CYCLES_CLOCKS_ACTIVE", "Core clock cycles while the core is active [out-of-pipe; counts while running (C0)]"},
        {2, "I_CACHE_HITS", "Instruction-cache hits on valid fetches (speculative fetches included) [out-of-pipe; counts while running (C0)]"},
        {3, "I_CACHE_MISSES", "Instruction-cache misses on valid fetches [out-of-pipe; counts while running (C0)]"},
        {4, "INSTR_COMMITTED_ALL", "Instructions committed, 16-bit and 32-bit [in-pipe; counts while running (C0)]"},
        {5, "INSTR_COMMITTED_16B", "Compressed (16-bit) instructions committed [in-pipe; counts while running (C0)]"},
        {6, "INSTR_COMMITTED_32B", "32-bit instructions committed [in-pipe; counts while running (C0)]"},
        {7, "INSTR_ALIGNED_ALL", "Instructions aligned for decode, 16-bit and 32-bit (speculative) [out-of-pipe; counts while running (C0)]"},
        {8, "INSTR_DECODED_ALL", "Instructions decoded, 16-bit and 32-bit (speculative) [out-of-pipe; counts while running (C0)]"},
        {9, "MULS_COMMITTED", "Multiply instructions committed [in-pipe; counts while running (C0)]"},
        {10, "DIVS_COMMITTED", "Divide and remainder instructions committed [in-pipe; counts while running (C0)]"},
        {11, "LOADS_COMMITTED", "Load instructions committed [in-pipe; counts while running (C0)]"},
        {12, "STORES_COMMITTED", "Store instructions committed [in-pipe; counts while running (C0)]"},
        {13, "MISALIGNED_LOADS", "Loads to a misaligned address [in-pipe; counts while running (C0)]"},
        {14, "MISALIGNED_STORES", "Stores to a misaligned address [in-pipe; counts while running (C0)]"},
        {15, "ALUS_COMMITTED", "ALU instructions committed (NOP and WFI count here too) [in-pipe; counts while running (C0)]"},
        {16, "CSR_READ", "CSR instructions that only read (csrrs/csrrc with rs1 = x0) committed [in-pipe; counts while running (C0)]"},
        {17, "CSR_READ_WRITE", "CSR instructions that read and write committed [in-pipe; counts while running (C0)]"},
        {18, "CSR_WRITE_RD_0", "CSR instructions that only write (rd = x0) committed [in-pipe; counts while running (C0)]"},
        {19, "EBREAK", "EBREAK instructions committed [in-pipe; counts while running (C0)]"},
        {20, "ECALL", "ECALL instructions committed [in-pipe; counts while running (C0)]"},
        {21, "FENCE", "FENCE instructions committed [in-pipe; counts while running (C0)]"},
        {22, "FENCE_I", "FENCE.I instructions committed [in-pipe; counts while running (C0)]"},
        {23, "MRET", "MRET instructions committed [in-pipe; counts while running (C0)]"},
        {24, "BRANCHES_COMMITTED", "Branches committed: conditional branches, JAL and JALR (as measured on the RTL) [in-pipe; counts while running (C0)]"},
        {25, "BRANCHES_MISPREDICTED", "Branches whose direction or target was mispredicted [in-pipe; counts while running (C0)]"},
        {26, "BRANCHES_TAKEN", "Branches taken [in-pipe; counts while running (C0)]"},
        {27, "UNPREDICTABLE_BRANCHES", "Branches the predictor had no prediction for [in-pipe; counts while running (C0)]"},
        {28, "CYCLES_FETCH_STALLED", "Cycles the fetch unit was ready but stalled [out-of-pipe; counts while running (C0)]"},
        {30, "CYCLES_DECODE_STALLED", "Cycles decode stalled with at least one instruction waiting in the instruction buffer [out-of-pipe; counts while running (C0)]"},
        {31, "CYCLES_POSTSYNC_STALLED", "Cycles decode stalled after a post-sync instruction [out-of-pipe; counts while running (C0)]"},
        {32, "CYCLES_PRESYNC_STALLED", "Cycles decode stalled before a pre-sync instruction [out-of-pipe; counts while running (C0)]"},
        {34, "CYCLES_SB_WB_STALLED", "Cycles decode stalled because the store or write buffer was full [out-of-pipe; counts while running (C0)]"},
        {35, "CYCLES_DMA_DCCM_TRANSACTION_STALLED", "Cycles a DMA access to the DCCM waited for loads and stores [out-of-pipe; counts while running (C0)]"},
        {36, "CYCLES_DMA_ICCM_TRANSACTION_STALLED", "Cycles a DMA access to the ICCM waited for fetch [out-of-pipe; counts while running (C0)]"},
        {37, "EXCEPTIONS_TAKEN", "Exceptions taken [in-pipe; counts while running (C0)]"},
        {38, "TIMER_INTERRUPTS_TAKEN", "Timer interrupts taken (the platform timer and the two internal timers) [in-pipe; counts while running (C0)]"},
        {39, "EXTERNAL_INTERRUPTS_TAKEN", "External interrupts taken [in-pipe; counts while running (C0)]"},
        {40, "TLU_FLUSHES", "Pipeline flushes from the trap logic (flush lower) [in-pipe; counts while running (C0)]"},
        {41, "BRANCH_ERROR_FLUSHES", "Flushes caused by a branch error [in-pipe; counts while running (C0)]"},
        {42, "I_BUS_TRANSACTIONS_INSTR", "Instruction fetch transactions on the I-bus [out-of-pipe; counts while running (C0)]"},
        {43, "D_BUS_TRANSACTIONS_LD_ST", "Load and store transactions on the D-bus [out-of-pipe; counts while running (C0)]"},
        {44, "D_BUS_TRANSACTIONS_MISALIGNED", "Misaligned transactions on the D-bus [out-of-pipe; counts while running (C0)]"},
        {45, "I_BUS_ERRORS", "Transaction errors on the I-bus [out-of-pipe; counts while running (C0)]"},
        {46, "D_BUS_ERRORS", "Transaction errors on the D-bus [out-of-pipe; counts while running (C0)]"},
        {47, "CYCLES_STALLED_DUE_TO_I_BUS_BUSY", "Cycles stalled because the I-bus (AXI4 or AHB-Lite) was busy [out-of-pipe; counts while running (C0)]"},
        {48, "CYCLES_STALLED_DUE_TO_D_BUS_BUSY", "Cycles stalled because the D-bus (AXI4 or AHB-Lite) was busy [out-of-pipe; counts while running (C0)]"},
        {49, "CYCLES_INTERRUPTS_DISABLED", "Cycles with interrupts disabled (mstatus.MIE = 0) [out-of-pipe; counts while running (C0)]"},
        {50, "CYCLES_INTERRUPTS_STALLED_WHILE_DISABLED", "Cycles an interrupt was pending while interrupts were disabled (mstatus.MIE = 0) [out-of-pipe; counts while running (C0)]"},
        {54, "BITMANIP_COMMITTED", "Bit-manipulation instructions committed [in-pipe; counts while running (C0)]"},
        {55, "D_BUS_LOADS_COMMITTED", "Load instructions to the D-bus committed [in-pipe; counts while running (C0)]"},
        {56, "D_BUS_STORES_COMMITTED", "Store instructions to the D-bus committed [in-pipe; counts while running (C0)]"},
        {512, "CYCLES_IN_SLEEP_STATE", "Cycles in the sleep (C3) state [out-of-pipe; counts while running and asleep (C0, C3)]"},
        {513, "DMA_READS", "DMA read transactions (all targets) [out-of-pipe; counts while running and asleep (C0, C3)]"},
        {514, "DMA_WRITES", "DMA write transactions (all targets) [out-of-pipe; counts while running and asleep (C0, C3)]"},
        {515, "DMA_READS_TO_DCCM", "DMA read transactions to the DCCM [out-of-pipe; counts while running and asleep (C0, C3)]"},
        {516, "DMA_WRITES_TO_DCCM", "DMA write transactions to the DCCM [out-of-pipe; counts while running and asleep (C0, C3)]"},
    };
    return table;
}

}  // namespace pmusim
