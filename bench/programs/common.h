/* What the natural-trace programs share (bench/natural.sh): a pseudo-random generator, so that every build does the
 * same work on the same data, and output of a checksum through write(2) only, so that the same source builds for a
 * Linux host, Linux AArch64/ARM (static, glibc) and bare-metal RV32 with no C library (rv32_start.S supplies the
 * two system calls, Linux's numbering, which qemu-riscv32 user mode serves). */
#ifndef PMUSIM_BENCH_PROGRAMS_COMMON_H
#define PMUSIM_BENCH_PROGRAMS_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef BENCH_BARE_METAL
long sys_write(int fd, const void *buffer, size_t length);
void sys_exit(int status) __attribute__((noreturn));
#else
#include <unistd.h>
static inline long sys_write(int fd, const void *buffer, size_t length) { return write(fd, buffer, length); }
static inline void sys_exit(int status) { _exit(status); }
#endif

/* xorshift32 (Marsaglia, "Xorshift RNGs", J. Stat. Software 8(14), 2003): the state must not be 0. */
static inline uint32_t next_random(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

/* "<name> <checksum in hex>\n" on standard output. */
static inline void print_result(const char *name, uint32_t value)
{
    char line[64];
    size_t n = 0;
    while (*name && n < 40)
        line[n++] = *name++;
    line[n++] = ' ';
    for (int shift = 28; shift >= 0; shift -= 4)
        line[n++] = "0123456789abcdef"[(value >> shift) & 15];
    line[n++] = '\n';
    if (sys_write(1, line, n) != (long)n)
        sys_exit(2);
}

/* The kernels: each returns a checksum of its work, and 0 when its own check failed. */
uint32_t lz77_run(unsigned scale);
uint32_t interp_run(unsigned scale);
uint32_t sortmap_run(unsigned scale);

#endif
