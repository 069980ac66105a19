// A general-purpose mix written for this probe, unlike the other probes' kernels: an insertion sort of 40
// words, an open-addressed hash table of short strings (FNV-1a), binary searches in the sorted array, a
// population count, and a byte-wise checksum; calls, loops with data-dependent branches, loads and stores of
// every width in the DCCM. A check of the calibration on a program it was not tuned on.
#include "probe.h"
static int32_t a[40];
static uint32_t seed = 12345u;
static const char* const words[] = {"add", "sub", "lw", "sw", "beq", "jal", "csrrw", "mret",
                                    "fence", "ecall", "lui", "auipc", "slli", "xor", "andi", "bne"};
static struct slot { const char* key; uint16_t count; uint8_t used; } table[32];
volatile int sink;

static uint32_t rnd(void) {
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

__attribute__((noinline)) static void isort(int32_t* v, int n) {
    for (int i = 1; i < n; ++i) {
        int32_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; --j; }
        v[j + 1] = x;
    }
}

__attribute__((noinline)) static uint32_t fnv(const char* s) {
    uint32_t h = 2166136261u;
    while (*s) h = (h ^ (uint8_t)*s++) * 16777619u;
    return h;
}

__attribute__((noinline)) static void insert(const char* k) {
    uint32_t i = fnv(k) & 31u;
    while (table[i].used && table[i].key != k) i = (i + 1) & 31u;
    table[i].key = k;
    table[i].used = 1;
    table[i].count++;
}

__attribute__((noinline)) static int bsearch32(const int32_t* v, int n, int32_t x) {
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) >> 1;
        if (v[mid] == x) return mid;
        if (v[mid] < x) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
}

__attribute__((noinline)) static int popcount(uint32_t x) {
    int c = 0;
    while (x) { x &= x - 1; ++c; }
    return c;
}

void setup(void) {}

void kernel(void) {
    seed = 12345u;
    for (int i = 0; i < 40; ++i) a[i] = (int32_t)(rnd() & 0xffff) - 0x8000;
    isort(a, 40);
    for (int i = 0; i < 32; ++i) table[i].used = 0, table[i].count = 0;
    for (int r = 0; r < 3; ++r)
        for (int i = 0; i < 16; ++i) insert(words[(i * 7 + r) & 15]);
    int found = 0;
    for (int i = 0; i < 40; i += 3) found += bsearch32(a, 40, a[i]) >= 0;
    found += bsearch32(a, 40, 0x12345);
    int bits = 0;
    for (int i = 0; i < 40; ++i) bits += popcount((uint32_t)a[i]);
    const uint8_t* p = (const uint8_t*)a;
    uint32_t sum = 0;
    for (int i = 0; i < 160; ++i) sum = (sum << 1 | sum >> 31) ^ p[i];
    sink = found + bits + (int)sum + table[3].count;
}
