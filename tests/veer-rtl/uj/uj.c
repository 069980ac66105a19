// Far jumps alone (event 2 after unpredicted jumps): 50 iterations, each with a jump over 6000 bytes (jal x0
// beyond the 12-bit offset: not predicted) and the loop's back edge, which the 6000 bytes put out of a
// conditional branch's reach (a far jal, not predicted either): 100 unpredictable branches, no calls.
#include "probe.h"
volatile int sink;
void setup(void) {}
void kernel(void) {
    int a = 0;
    for (int i = 0; i < 50; ++i) {
        a += i;
        __asm__ volatile("j 1f\n\t.skip 6000\n1:\n" ::: "memory");
    }
    sink = a;
}
