// Exceptions: 16 ecall and 16 ebreak instructions, each taken to a handler of the probe's own that steps mepc
// past it and returns with mret.
#include "probe.h"
void probe_handler(void);
__asm__(".text\n.align 2\n.global probe_handler\nprobe_handler:\ncsrr t6, mepc\naddi t6, t6, 4\ncsrw mepc, t6\nmret\n");
void setup(void) { CSR_WRITE(mtvec, (uint32_t)&probe_handler); }
void kernel(void) {
    for (int i = 0; i < 16; ++i)
        __asm__ volatile(".option push\n.option norvc\necall\nebreak\n.option pop" : : : "t6", "memory");
}
