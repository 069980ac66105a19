// Bit-manipulation instructions (Zba, Zbb, Zbc, Zbs) in a loop, 50 iterations.
#include "probe.h"
volatile int sink;
void setup(void) {}
void kernel(void) {
    uint32_t a = 0x12345678u, b = 0x0F0F1234u, acc = 0;
    for (int i = 0; i < 50; ++i) {
        uint32_t t;
        __asm__ volatile("sh1add %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("sh2add %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("sh3add %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("andn %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("orn %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("xnor %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("clz %0, %1" : "=r"(t) : "r"(a)); acc ^= t;
        __asm__ volatile("ctz %0, %1" : "=r"(t) : "r"(b)); acc ^= t;
        __asm__ volatile("cpop %0, %1" : "=r"(t) : "r"(a)); acc ^= t;
        __asm__ volatile("max %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("minu %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("sext.b %0, %1" : "=r"(t) : "r"(a)); acc ^= t;
        __asm__ volatile("zext.h %0, %1" : "=r"(t) : "r"(b)); acc ^= t;
        __asm__ volatile("rol %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("rori %0, %1, 7" : "=r"(t) : "r"(a)); acc ^= t;
        __asm__ volatile("rev8 %0, %1" : "=r"(t) : "r"(a)); acc ^= t;
        __asm__ volatile("orc.b %0, %1" : "=r"(t) : "r"(b)); acc ^= t;
        __asm__ volatile("clmul %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("bset %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("bclri %0, %1, 4" : "=r"(t) : "r"(a)); acc ^= t;
        __asm__ volatile("binv %0, %1, %2" : "=r"(t) : "r"(a), "r"(b)); acc ^= t;
        __asm__ volatile("bexti %0, %1, 9" : "=r"(t) : "r"(b)); acc ^= t;
        a = a * 3 + acc;
        b ^= a >> 3;
    }
    sink = (int)acc;
}
