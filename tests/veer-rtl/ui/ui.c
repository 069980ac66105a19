// Indirect calls alone (event 2 after unpredicted jumps): 50 iterations, each with one indirect call (c.jalr:
// not predicted, and it pushes nothing on the return stack) and its return (then mispredicted): 50 unpredictable
// branches.
#include "probe.h"
volatile int sink;
__attribute__((noinline)) static int leaf(int x) { return x + 1; }
static int (*volatile fp)(int) = leaf;
void setup(void) {}
void kernel(void) {
    int a = 0;
    for (int i = 0; i < 50; ++i) a = fp(a);
    sink = a;
}
