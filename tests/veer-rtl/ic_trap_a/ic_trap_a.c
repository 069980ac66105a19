// I-cache hits around trap flushes, 4-byte aligned: 16 ecalls, each taken to a 16-byte handler (csrr, addi,
// csrw mepc, mret: 4-byte instructions, 4-byte aligned) that returns past it. 32-bit instructions only; the
// kernel runs once in setup() so that its lines are in the I-cache when measured.
#include "probe.h"
void probe_handler(void);
__asm__(".text\n.option push\n.option norvc\n.align 4\n.global probe_handler\nprobe_handler:\n"
        "csrr t6, mepc\naddi t6, t6, 4\ncsrw mepc, t6\nmret\n.option pop\n");
void kernel(void) {
    __asm__ volatile(".option push\n.option norvc\n.align 4\nli a5, 16\n1: ecall\naddi a5, a5, -1\nbnez a5, 1b\n.option pop"
                     : : : "a5", "t6", "memory");
}
void setup(void) {
    CSR_WRITE(mtvec, (uint32_t)&probe_handler);
    kernel();
}
