// Pre- and post-sync stalls in 32-bit code: ev_sync's loop assembled without compressed instructions (the CSR
// accesses on 4-byte boundaries, the ALU instructions 32-bit).
#include "probe.h"
volatile int sink;
void setup(void) {}
void kernel(void) {
    int a = 0;
    for (int i = 0; i < 50; ++i) {
        __asm__ volatile(".option push\n.option norvc\n.balign 4\ncsrsi mscratch, 8\n.rept 16\naddi %0, %0, 1\n.endr\n"
                         "csrci mscratch, 8\n.rept 16\naddi %0, %0, 3\n.endr\n.option pop"
                         : "+r"(a));
    }
    sink = a;
}
