// pmusim's own sample program (A64, bare metal on QEMU's virt machine): program the PMU, run a loop over an
// array, read the counters back, exit through semihosting. scripts/make-samples.sh turns it into
// traces/samples/pmu_loop.a64.pmt; `pmusim run --platform cortex-a53 --trace traces/samples/pmu_loop.a64.pmt`
// replays it.
    .globl _start
    .text
_start:
    ldr  x0, =stack_top
    mov  sp, x0
    mov  x0, #0x08                  // counter 0: INST_RETIRED
    msr  pmevtyper0_el0, x0
    mov  x0, #0x06                  // counter 1: LD_RETIRED
    msr  pmevtyper1_el0, x0
    mov  x0, #0x07                  // counter 2: ST_RETIRED
    msr  pmevtyper2_el0, x0
    ldr  x0, =0x80000007            // the cycle counter and counters 0-2
    msr  pmcntenset_el0, x0
    mov  x0, #0x47                  // E | P | C | LC
    msr  pmcr_el0, x0
    isb
    ldr  x2, =buf
    mov  x1, #0
    mov  x3, #500
    .globl loop, loop_end           // symbols for `pmusim run --elf pmu_loop.a64.elf --roi loop` (docs/cli.md)
    .type loop, %function
loop:
1:  ldr  w4, [x2]
    add  w4, w4, w1
    str  w4, [x2, #4]
    add  x1, x1, #1
    cmp  x1, x3
    b.lt 1b
    .size loop, . - loop
loop_end:
    mrs  x5, pmevcntr0_el0          // read the counters back: the replay checks its predictions against these
    mrs  x6, pmevcntr1_el0
    mrs  x7, pmevcntr2_el0
    mrs  x8, pmccntr_el0
    ldr  x1, =exit_block
    mov  x0, #0x18                  // semihosting SYS_EXIT (ADP_Stopped_ApplicationExit)
    hlt  #0xf000
2:  b 2b
    .data
    .balign 16
exit_block: .quad 0x20026, 0
buf: .word 1, 2, 3, 4
    .bss
    .balign 16
    .space 4096
stack_top:
