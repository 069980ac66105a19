// Store bursts over the D-bus: 16 back-to-back word stores to consecutive addresses outside the DCCM, 16 times.
#include "probe.h"
__attribute__((section(".extdata"))) uint32_t ext[256];
void setup(void) {}
void kernel(void) {
    for (int i = 0; i < 16; ++i) {
        uint32_t* p = ext + 16 * i;
        __asm__ volatile(".rept 16\nsw %1, 0(%0)\naddi %0, %0, 4\n.endr" : "+r"(p) : "r"(i) : "memory");
    }
}
