// Pre- and post-sync stalls without mstatus: irqoff's loop with mscratch in place of mstatus (csrrsi/csrrci with
// rd = x0, both presync and postsync in the decoder), 50 iterations of 16 instructions after each CSR access.
#include "probe.h"
volatile int sink;
void setup(void) {}
void kernel(void) {
    int a = 0;
    for (int i = 0; i < 50; ++i) {
        __asm__ volatile("csrsi mscratch, 8\n.rept 16\naddi %0, %0, 1\n.endr\ncsrci mscratch, 8\n.rept 16\naddi %0, %0, 3\n.endr"
                         : "+r"(a));
    }
    sink = a;
}
