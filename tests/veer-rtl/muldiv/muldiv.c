// Multiplies and divides: 64 iterations of mul, mulh, mulhu, div, divu, rem, remu on changing operands.
#include "probe.h"
volatile int sink;
void setup(void) {}
void kernel(void) {
    int a = 123456789, b = 977, acc = 0;
    for (int i = 0; i < 64; ++i) {
        int m, h, hu, q, qu, r, ru;
        __asm__ volatile("mul %0, %1, %2" : "=r"(m) : "r"(a), "r"(b));
        __asm__ volatile("mulh %0, %1, %2" : "=r"(h) : "r"(a), "r"(m));
        __asm__ volatile("mulhu %0, %1, %2" : "=r"(hu) : "r"(m), "r"(b));
        __asm__ volatile("div %0, %1, %2" : "=r"(q) : "r"(a), "r"(b));
        __asm__ volatile("divu %0, %1, %2" : "=r"(qu) : "r"(m), "r"(b));
        __asm__ volatile("rem %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
        __asm__ volatile("remu %0, %1, %2" : "=r"(ru) : "r"(m), "r"(b));
        acc += m ^ h ^ hu ^ q ^ qu ^ r ^ ru;
        a = a * 5 + 17 + i;
        b = (b + 13) | 1;
    }
    sink = acc;
}
