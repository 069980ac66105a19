// Pre- and post-sync stalls of CSR instructions that write a register: ev_sync32's loop with rd != x0 in the
// csrrsi/csrrci of mscratch (32-bit code, ALU instructions around them).
#include "probe.h"
volatile int sink;
void setup(void) {}
void kernel(void) {
    int a = 0, t;
    for (int i = 0; i < 50; ++i) {
        __asm__ volatile(".option push\n.option norvc\n.balign 4\ncsrrsi %1, mscratch, 8\n.rept 16\naddi %0, %0, 1\n.endr\n"
                         "csrrci %1, mscratch, 8\n.rept 16\naddi %0, %0, 3\n.endr\n.option pop"
                         : "+r"(a), "=&r"(t));
    }
    sink = a;
}
