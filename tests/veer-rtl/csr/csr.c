// CSR instructions in a loop: csrw, csrr and csrrs of mscratch, csrrc of mscratch, 100 iterations.
#include "probe.h"
volatile int sink;
void setup(void) {}
void kernel(void) {
    int acc = 0;
    for (int i = 0; i < 100; ++i) {
        int v, w;
        __asm__ volatile("csrw mscratch, %0" : : "r"(i));
        __asm__ volatile("csrr %0, mscratch" : "=r"(v));
        __asm__ volatile("csrrs %0, mscratch, %1" : "=r"(w) : "r"(acc));
        __asm__ volatile("csrrci %0, mscratch, 3" : "=r"(w));
        acc += v + w;
    }
    sink = acc;
}
