// A D-bus load behind a D-bus store: a store to .extdata, then 0 to 9 independent ALU instructions, then a load
// from another word of .extdata whose value the next instruction uses; and the same with the load to the word
// just stored, and a pair of loads to one 64-bit beat. How long the load's value takes while the store is still
// in the write-coalescing buffer (el2_lsu_bus_buffer.sv, ibuf) and after it has left.
#include "probe.h"
__attribute__((section(".extdata"))) uint32_t ext[64];
void setup(void) {}

#define GAP(n, off)                                                                         \
    __asm__ volatile("sw %1, 0(%0)\n.rept " #n "\naddi t0, t0, 1\n.endr\nlw t1, " #off "(%0)\n" \
                     "add t2, t1, t1\n"                                                       \
                     : : "r"(p), "r"(v) : "t0", "t1", "t2", "memory")

void kernel(void) {
    uint32_t* p = ext;
    uint32_t v = 5;
    for (int i = 0; i < 4; ++i) {
        GAP(0, 32); GAP(1, 32); GAP(2, 32); GAP(3, 32); GAP(4, 32);
        GAP(5, 32); GAP(6, 32); GAP(7, 32); GAP(8, 32); GAP(9, 32);
        GAP(0, 0); GAP(3, 0); GAP(6, 0); GAP(9, 0);
        __asm__ volatile("lw t1, 40(%0)\nlw t2, 44(%0)\nadd t0, t1, t2\nlw t1, 48(%0)\nnop\nlw t2, 52(%0)\nadd t0, t1, t2\n"
                         : : "r"(p) : "t0", "t1", "t2", "memory");
    }
}
