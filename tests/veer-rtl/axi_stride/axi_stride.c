// Loads over the AXI D-bus: a walk with a 64-byte stride over an array outside the DCCM, each value added to
// a running sum (the add waits for the non-blocking load).
#include "probe.h"
__attribute__((section(".extdata"))) int ext[4096];
volatile int sink;
void setup(void) {
    for (int i = 0; i < 4096; i += 16) ext[i] = i;
}
void kernel(void) {
    int s = 0;
    for (int i = 0; i < 4096; i += 16) s += ext[i];
    sink = s;
}
