// Data over the AXI D-bus in ordinary C, written for this probe as a check of the calibration on a program it
// was not tuned on: a linked list walked and updated in .extdata (each load's value the next address), a
// byte-wise copy from .extdata into the DCCM, and a histogram in .extdata updated from DCCM data (a load, an
// add and a store to the same bus word), with calls and data-dependent branches between them.
#include "probe.h"
struct item { struct item* next; int32_t value; uint16_t tag; uint8_t flags, pad; };
__attribute__((section(".extdata"))) static struct item items[20];
__attribute__((section(".extdata"))) static uint8_t src[96];
__attribute__((section(".extdata"))) static uint32_t hist[16];
static uint8_t dst[96];
volatile int sink;

void setup(void) {
    for (int i = 0; i < 20; ++i) {
        items[i].next = i + 1 < 20 ? &items[(i * 7 + 3) % 20] : 0;
        items[i].value = i * 31 - 200;
        items[i].tag = (uint16_t)(i * 97);
        items[i].flags = (uint8_t)(i & 3);
    }
    items[(19 * 7 + 3) % 20].next = 0;
    for (int i = 0; i < 96; ++i) src[i] = (uint8_t)(i * 37 + 11);
}

__attribute__((noinline)) static int walk(struct item* p) {
    int sum = 0, n = 0;
    while (p && n < 40) {
        if (p->flags & 1) sum += p->value; else sum -= p->tag;
        p->flags ^= 2;
        p = p->next;
        ++n;
    }
    return sum;
}

__attribute__((noinline)) static void copy(uint8_t* d, const uint8_t* s, int n) {
    for (int i = 0; i < n; ++i) d[i] = s[i];
}

__attribute__((noinline)) static void histogram(const uint8_t* d, int n) {
    for (int i = 0; i < n; ++i) hist[d[i] & 15]++;
}

void kernel(void) {
    for (int i = 0; i < 16; ++i) hist[i] = 0;
    int s = walk(&items[0]);
    copy(dst, src, 96);
    histogram(dst, 96);
    sink = s + (int)hist[5] + dst[17];
}
