// Byte and halfword loads over the D-bus whose value the next instruction stores (memcpy's byte loop): to the DCCM
// and back over the D-bus, beside the same with word loads and with an ALU use of the loaded value, 16 iterations
// each. How long a sub-word bus load's value takes to reach a store's data (el2_lsu_bus_buffer.sv, the nbL write
// back; el2_dec_decode_ctl.sv, the store's data at R).
#include "probe.h"
__attribute__((section(".extdata"))) uint8_t src[64];
__attribute__((section(".extdata"))) uint8_t dst[64];
uint8_t loc[64];
volatile uint32_t sink;
void setup(void) {
    for (int i = 0; i < 64; ++i) src[i] = (uint8_t)(i * 7 + 1);
}

// 16 iterations of LD from s, then ST of the value to d (both pointers step by STEP).
#define COPY(LD, ST, STEP, s, d)                                                                         \
    __asm__ volatile("li t2, 16\n1:\n" LD " t0, 0(%0)\n" ST " t0, 0(%1)\naddi %0, %0, " #STEP "\naddi %1, %1, " #STEP \
                     "\naddi t2, t2, -1\nbnez t2, 1b\n"                                                  \
                     : "+r"(s), "+r"(d) : : "t0", "t2", "memory")
// 16 iterations of LD from s, then an ALU use of the value.
#define USE(LD, STEP, s)                                                                                  \
    __asm__ volatile("li t2, 16\n1:\n" LD " t0, 0(%0)\nadd t1, t1, t0\naddi %0, %0, " #STEP               \
                     "\naddi t2, t2, -1\nbnez t2, 1b\n"                                                  \
                     : "+r"(s) : : "t0", "t1", "t2", "memory")

void kernel(void) {
    uint8_t *s, *d;
    s = src; d = loc; COPY("lbu", "sb", 1, s, d);  // AXI to DCCM, bytes
    s = src; d = dst; COPY("lbu", "sb", 1, s, d);  // AXI to AXI, bytes
    s = src; d = loc; COPY("lb", "sb", 1, s, d);   // signed
    s = src; d = loc; COPY("lhu", "sh", 2, s, d);  // halfwords
    s = src; d = loc; COPY("lw", "sw", 4, s, d);   // words
    s = src; d = dst; COPY("lw", "sw", 4, s, d);
    s = loc; d = dst; COPY("lbu", "sb", 1, s, d);  // DCCM to AXI
    s = src; USE("lbu", 1, s);
    s = src; USE("lw", 4, s);
    sink = loc[5];
}
