// Data-dependent branches on a pseudo-random sequence (a 32-bit xorshift), 200 iterations: about half of them
// unpredictable.
#include "probe.h"
volatile int sink;
void setup(void) {}
void kernel(void) {
    uint32_t x = 2463534242u;
    int a = 0, b = 0, c = 0;
    for (int i = 0; i < 200; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        if (x & 1) a += 3;
        else b += 1;
        if ((x & 6) == 6) c ^= a;
        if (i & 1) b += c;
    }
    sink = a + b + c;
}
