// ic_trap_a with the loop at an odd halfword (a c.nop before it): the ecall, the instruction mret returns to
// and the loop branch's target have bit 1 set. The handler is 4-byte aligned as in ic_trap_a.
#include "probe.h"
void probe_handler(void);
__asm__(".text\n.option push\n.option norvc\n.align 4\n.global probe_handler\nprobe_handler:\n"
        "csrr t6, mepc\naddi t6, t6, 4\ncsrw mepc, t6\nmret\n.option pop\n");
void kernel(void) {
    __asm__ volatile(".option push\n.option norvc\n.align 4\nli a5, 16\n.option rvc\nc.nop\n.option norvc\n"
                     "1: ecall\naddi a5, a5, -1\nbnez a5, 1b\n.option pop"
                     : : : "a5", "t6", "memory");
}
void setup(void) {
    CSR_WRITE(mtvec, (uint32_t)&probe_handler);
    kernel();
}
