// mstatus.MIE toggled around stretches of ALU code (no interrupt is enabled in mie, so none is taken): 50
// iterations of 16 instructions with MIE = 1 and 16 with MIE = 0.
#include "probe.h"
volatile int sink;
void setup(void) {}
void kernel(void) {
    int a = 0;
    for (int i = 0; i < 50; ++i) {
        __asm__ volatile("csrsi mstatus, 8\n.rept 16\naddi %0, %0, 1\n.endr\ncsrci mstatus, 8\n.rept 16\naddi %0, %0, 3\n.endr"
                         : "+r"(a));
    }
    sink = a;
}
