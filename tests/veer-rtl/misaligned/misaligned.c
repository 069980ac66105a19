// Misaligned loads and stores, 32 iterations: to the DCCM, and over the D-bus inside one 64-bit beat (offset 2)
// and across two beats (offset 6).
#include "probe.h"
__attribute__((section(".extdata"))) uint32_t ext[64];
uint32_t loc[64];
volatile int sink;
void setup(void) {
    for (int i = 0; i < 64; ++i) ext[i] = loc[i] = 0x01020304u * (uint32_t)i;
}
void kernel(void) {
    uint32_t acc = 0;
    for (int i = 0; i < 32; ++i) {
        uint32_t v;
        __asm__ volatile("lw %0, 1(%1)" : "=r"(v) : "r"(loc));
        acc += v;
        __asm__ volatile("sw %0, 5(%1)" : : "r"(acc), "r"(loc) : "memory");
        __asm__ volatile("lw %0, 2(%1)" : "=r"(v) : "r"(ext));
        acc += v;
        __asm__ volatile("lw %0, 6(%1)" : "=r"(v) : "r"(ext));
        acc += v;
        __asm__ volatile("sw %0, 10(%1)" : : "r"(acc), "r"(ext) : "memory");
        __asm__ volatile("sw %0, 14(%1)" : : "r"(acc), "r"(ext) : "memory");
    }
    sink = (int)acc;
}
