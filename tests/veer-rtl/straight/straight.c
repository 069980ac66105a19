// Straight-line ALU code that fits the I-cache: 20 passes over 128 independent instructions, half 16-bit, half
// 32-bit.
#include "probe.h"
void block(void);
__asm__(".text\n.global block\nblock:\n.rept 64\nc.addi t0, 1\n.option push\n.option norvc\nxori t1, t1, 5\n.option pop\n.endr\nret\n");
void setup(void) {}
void kernel(void) {
    for (int i = 0; i < 20; ++i) block();
}
