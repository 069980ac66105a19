// Interrupts taken back to back: VeeR EL2's internal timers 0 and 1 (mitcnt0/mitb0/mitctl0, mitcnt1/mitb1/mitctl1)
// run out while mstatus.MIE is 0 and stay pending (their interrupts are levels until the handler turns the timer
// off; the testbench's timer and software interrupt lines are one-cycle pulses, lost while MIE is 0). Then a csrw
// sets MIE: the first entry comes right after the csrw, the second right after the first handler's mret. Then
// timer 0 again while MIE is 1, taken in a wait loop, as in irq. How the trace port shows an entry that follows a
// CSR write and one that follows an mret (the reader's duplicate and flushed records: traces/veer_reader.cpp).
#include "probe.h"

volatile uint32_t irq_seen;
void probe_irq_handler(void);

// mcause: 0x8000001d internal timer 0, 0x8000001c internal timer 1; the handler turns that timer off.
__asm__(".text\n.align 2\n.global probe_irq_handler\nprobe_irq_handler:\n"
        "addi sp, sp, -16\nsw t0, 0(sp)\nsw t1, 4(sp)\nsw t2, 8(sp)\n"
        "csrr t0, mcause\n"
        "li t1, 0x8000001d\nbne t0, t1, 1f\ncsrwi 0x7d4, 0\nj 9f\n"
        "1:\ncsrwi 0x7d7, 0\n"
        "9:\nla t1, irq_seen\nlw t2, 0(t1)\naddi t2, t2, 1\nsw t2, 0(t1)\n"
        "lw t0, 0(sp)\nlw t1, 4(sp)\nlw t2, 8(sp)\naddi sp, sp, 16\nmret\n");

void setup(void) {
    CSR_WRITE(mtvec, (uint32_t)&probe_irq_handler);
    CSR_WRITE(mie, (1u << 28) | (1u << 29));
}

static void wait_for(uint32_t n) {
    while (irq_seen < n) {
    }
}

void kernel(void) {
    irq_seen = 0;
    CSR_WRITE(0x7d2, 0);   // mitcnt0
    CSR_WRITE(0x7d3, 4);   // mitb0
    CSR_WRITE(0x7d5, 0);   // mitcnt1
    CSR_WRITE(0x7d6, 4);   // mitb1
    CSR_WRITE(0x7d4, 1);   // mitctl0: enable
    CSR_WRITE(0x7d7, 1);   // mitctl1: enable
    for (volatile int i = 0; i < 4; ++i) {
    }
    CSR_WRITE(mstatus, 0x1888);  // MIE: both taken, one after the other
    wait_for(2);
    CSR_WRITE(0x7d2, 0);
    CSR_WRITE(0x7d3, 30);
    CSR_WRITE(0x7d4, 1);  // taken in the wait loop
    wait_for(3);
    CSR_WRITE(mstatus, 0x1800);  // MIE off again
}
