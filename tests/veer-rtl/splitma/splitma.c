// Misaligned accesses that split and ones that do not: a halfword at an odd address inside a 32-bit word (one
// access, el2_lsu.sv ldst_dual = 0), a halfword or word across a word (two, ldst_dual), in the DCCM and over the
// D-bus (inside one 64-bit beat and across two), loads with their value used and stores, 8 iterations each.
#include "probe.h"
__attribute__((section(".extdata"))) uint32_t ext[64];
uint32_t loc[64];
volatile uint32_t sink;
void setup(void) {
    for (int i = 0; i < 64; ++i) ext[i] = loc[i] = 0x01020304u * (uint32_t)i;
}

// 8 iterations of INSN (an access at OFF from p) and an add of t0 into the sum.
#define MA(INSN, OFF, p)                                                                                  \
    __asm__ volatile("li t2, 8\n1:\n" INSN " t0, " #OFF "(%0)\nadd t1, t1, t0\naddi t2, t2, -1\nbnez t2, 1b\n" \
                     : : "r"(p) : "t0", "t1", "t2", "memory")

void kernel(void) {
    uint32_t* e = ext;
    uint32_t* l = loc;
    MA("lh", 1, l);   // DCCM: inside a word
    MA("lh", 3, l);   // DCCM: across a word
    MA("lw", 2, l);
    MA("sh", 1, l);
    MA("sh", 3, l);
    MA("sw", 2, l);
    MA("lh", 1, e);   // D-bus: inside a word
    MA("lhu", 5, e);
    MA("lh", 3, e);   // D-bus: across a word, inside a beat
    MA("lh", 7, e);   // across two beats
    MA("lw", 1, e);
    MA("sh", 1, e);   // D-bus stores: inside a word
    MA("sh", 5, e);
    MA("sh", 3, e);   // across a word
    MA("sw", 6, e);   // across two beats
    MA("lh", 2, e);   // aligned, for comparison
    sink = loc[3] + ext[3];
}
