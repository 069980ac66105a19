/* Start-up of the bare-metal RV32 build (no C library) under qemu-riscv32 user mode: the Linux loader has set sp;
 * set gp for the linker's gp-relative addressing, run main, exit with its status. sys_write and sys_exit are
 * Linux's write (64) and exit (93) system calls (RISC-V Linux ABI: number in a7, arguments in a0-a2). */
    .file "rv32_start.S"  /* not the preprocessor's temporary file: the same source builds the same binary */
    .section .text.start
    .globl _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    call main
    j sys_exit

    .text
    .globl sys_write
sys_write:
    li a7, 64
    ecall
    ret

    .globl sys_exit
sys_exit:
    li a7, 93
    ecall
1:  j 1b
