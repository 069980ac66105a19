// Unpredictable branches (event 27): JALs and JALRs the decoder does not predict (el2_dec_decode_ctl.sv:
// i0_br_unpred, a JAL or JALR that is neither a call or jump with a 12-bit offset nor a return). 50 iterations,
// each with one indirect call (c.jalr a5: not predicted) whose return is predicted, one jump over 6000 bytes (jal
// x0 beyond the 12-bit offset: not predicted), one near jump (predicted), and the loop's back edge, which the
// 6000 bytes put out of a conditional branch's reach (a c.beqz over a far jal: not predicted): 150 unpredictable
// branches (the RTL: 150).
#include "probe.h"
volatile int sink;
__attribute__((noinline)) static int leaf(int x) { return x + 1; }
static int (*volatile fp)(int) = leaf;
void setup(void) {}
void kernel(void) {
    int a = 0;
    for (int i = 0; i < 50; ++i) {
        a = fp(a);
        __asm__ volatile("j 1f\n\t.skip 6000\n1:\n\tj 2f\n2:\n" ::: "memory");
    }
    sink = a;
}
