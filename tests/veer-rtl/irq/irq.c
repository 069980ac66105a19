// Interrupts: per call of kernel(), the platform timer interrupt (timer_int, raised and cleared through the
// testbench's mailbox commands 0x83/0x82), the software interrupt (soft_int, the same way), internal timer 0
// (mitcnt0/mitb0/mitctl0), external interrupt 1 through the PIC (mailbox 0x86, cleared with 0x90; fast redirect through the
// meivt table), and a pmu/fw-halt (mpmc) that internal timer 0 ends. The handler saves what it uses, clears the
// source by mcause and returns with mret.
#include "probe.h"

#define TOHOST ((volatile uint32_t*)0xd0580000u)
#define PIC ((volatile uint32_t*)0xf00c0000u)

volatile uint32_t irq_seen;
void probe_irq_handler(void);
void probe_ext_handler(void);
// The fast-redirect vector table (meivt): every entry the external handler.
__attribute__((aligned(1024))) uint32_t probe_vt[32] = {
#define H (uint32_t)&probe_ext_handler
    H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H};
#undef H

// mcause: 0x80000007 platform timer, 0x80000003 software, 0x8000001d internal timer 0.
__asm__(".text\n.align 2\n.global probe_irq_handler\nprobe_irq_handler:\n"
        "addi sp, sp, -16\nsw t0, 0(sp)\nsw t1, 4(sp)\nsw t2, 8(sp)\n"
        "csrr t0, mcause\nli t2, 0xd0580000\n"
        "li t1, 0x80000007\nbne t0, t1, 1f\nli t1, 0x282\nsw t1, 0(t2)\nj 9f\n"
        "1:\nli t1, 0x80000003\nbne t0, t1, 2f\nli t1, 0x482\nsw t1, 0(t2)\nj 9f\n"
        "2:\ncsrwi 0x7d4, 0\n"
        "9:\nla t1, irq_seen\nlw t2, 0(t1)\naddi t2, t2, 1\nsw t2, 0(t1)\n"
        "lw t0, 0(sp)\nlw t1, 4(sp)\nlw t2, 8(sp)\naddi sp, sp, 16\nmret\n");
// External interrupt 1 (fast redirect: the core jumps to probe_vt[1]): lower the request, count, return.
__asm__(".text\n.align 2\n.global probe_ext_handler\nprobe_ext_handler:\n"
        "addi sp, sp, -16\nsw t1, 4(sp)\nsw t2, 8(sp)\n"
        "li t2, 0xd0580000\nli t1, 0x90\nsw t1, 0(t2)\n"
        "la t1, irq_seen\nlw t2, 0(t1)\naddi t2, t2, 1\nsw t2, 0(t1)\n"
        "lw t1, 4(sp)\nlw t2, 8(sp)\naddi sp, sp, 16\nmret\n");

void setup(void) {
    CSR_WRITE(mtvec, (uint32_t)&probe_irq_handler);
    CSR_WRITE(0xbc8, (uint32_t)probe_vt);  // meivt
    CSR_WRITE(0xbc9, 0);                   // meipt: threshold 0
    PIC[0x3000 / 4] = 0;                   // mpiccfg: standard priority order
    PIC[1] = 15;                           // meipl1
    PIC[0x4000 / 4 + 1] = 0;               // meigwctrl1: level, active high
    PIC[0x2000 / 4 + 1] = 1;               // meie1
    CSR_WRITE(mie, (1u << 3) | (1u << 7) | (1u << 11) | (1u << 29));
}

static void wait_for(uint32_t n) {
    while (irq_seen < n) {
    }
}

void kernel(void) {
    irq_seen = 0;
    CSR_WRITE(mstatus, 0x1888);  // MPP = M, MPIE, MIE
    *TOHOST = 0x283;             // platform timer interrupt
    wait_for(1);
    *TOHOST = 0x483;             // software interrupt
    wait_for(2);
    CSR_WRITE(0x7d2, 0);         // mitcnt0
    CSR_WRITE(0x7d3, 40);        // mitb0
    CSR_WRITE(0x7d4, 1);         // mitctl0: enable
    wait_for(3);
    *TOHOST = 0x86;              // external interrupt 1
    wait_for(4);
    CSR_WRITE(0x7d2, 0);
    CSR_WRITE(0x7d3, 60);
    CSR_WRITE(0x7d4, 3);         // mitctl0: enable, and count in fw-halt (halt_en)
    CSR_WRITE(0x7c6, 3);         // mpmc: fw-halt (haltie), until internal timer 0 wakes the core
    wait_for(5);
    CSR_WRITE(mstatus, 0x1800);  // MIE off again
}
