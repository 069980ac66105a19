// Measurement harness shared by the VeeR EL2 RTL probes (tests/veer-rtl/README.md). Each probe defines
// kernel(), the code under study, and includes this file, which supplies main(): for each of 13 event sets it
// inhibits the counters, programs mhpmevent3..6, zeroes every counter, enables them, calls kernel(), inhibits
// them again and prints one line
//     R <set> <ev3> <ev4> <ev5> <ev6> <mcycle> <minstret> <mhpmcounter3> <4> <5> <6>
// (the protocol of the kit's examples/counters, low halves only: every window is far below 2^32 cycles).
// The 13 sets cover every implemented event 1-56 (29, 33 and 51-53 are reserved), event 1 twice.
#include <stdint.h>
#include <stdio.h>

#define CSR_WRITE(csr, val) __asm__ volatile("csrw " #csr ", %0" : : "r"((uint32_t)(val)))
#define CSR_READ(csr) ({ uint32_t v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })

void kernel(void);
// Called once before the measurements (data set-up); optional work of the probe.
void setup(void);

static const uint8_t probe_sets[13][4] = {
    {1, 2, 3, 4},     {5, 6, 7, 8},     {9, 10, 11, 12},  {13, 14, 15, 16}, {17, 18, 19, 20},
    {21, 22, 23, 24}, {25, 26, 27, 28}, {30, 31, 32, 34}, {35, 36, 37, 38}, {39, 40, 41, 42},
    {43, 44, 45, 46}, {47, 48, 49, 50}, {54, 55, 56, 1},
};

static void probe_measure(unsigned set) {
    const uint8_t* e = probe_sets[set];
    CSR_WRITE(0x320, 0x7d);
    CSR_WRITE(0x323, e[0]);
    CSR_WRITE(0x324, e[1]);
    CSR_WRITE(0x325, e[2]);
    CSR_WRITE(0x326, e[3]);
    CSR_WRITE(0xb00, 0); CSR_WRITE(0xb80, 0);
    CSR_WRITE(0xb02, 0); CSR_WRITE(0xb82, 0);
    CSR_WRITE(0xb03, 0); CSR_WRITE(0xb83, 0);
    CSR_WRITE(0xb04, 0); CSR_WRITE(0xb84, 0);
    CSR_WRITE(0xb05, 0); CSR_WRITE(0xb85, 0);
    CSR_WRITE(0xb06, 0); CSR_WRITE(0xb86, 0);
    CSR_WRITE(0x320, 0);
    kernel();
    CSR_WRITE(0x320, 0x7d);
    uint32_t cyc = CSR_READ(0xb00), ins = CSR_READ(0xb02);
    uint32_t h3 = CSR_READ(0xb03), h4 = CSR_READ(0xb04), h5 = CSR_READ(0xb05), h6 = CSR_READ(0xb06);
    printf("R %u %u %u %u %u %u %u %u %u %u %u\n", set, e[0], e[1], e[2], e[3], cyc, ins, h3, h4, h5, h6);
}

int main(void) {
    setup();
    for (unsigned s = 0; s < 13; ++s) probe_measure(s);
    return 0;
}
