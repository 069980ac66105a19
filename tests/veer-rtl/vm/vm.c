// A check of the calibration on a program it was not made on: a small bytecode interpreter (a switch compiled to
// a jump table: indirect jumps), running a program that computes with multiplies, divisions and remainders, and a
// recursive quicksort of 24 words; data in the DCCM.
#include "probe.h"
enum { PUSH, ADD, MUL, DIV, REM, DUP, SWAP, JNZ, DEC, POP, HALT, XOR, SHL };
static const uint8_t prog[] = {PUSH, 7, PUSH, 12, DUP, MUL, PUSH, 5, REM, ADD, PUSH, 3, SHL, PUSH, 9, XOR,
                               PUSH, 11, SWAP, DIV, PUSH, 6, DEC, DUP, JNZ, 22, POP, PUSH, 13, MUL, HALT};
static int32_t stack[32];
static int32_t v[24];
volatile int sink;

__attribute__((noinline)) static int32_t run(const uint8_t* pc) {
    int sp = 0;
    for (;;) {
        const uint8_t op = *pc++;
        switch (op) {
            case PUSH: stack[sp++] = *pc++; break;
            case ADD: --sp; stack[sp - 1] += stack[sp]; break;
            case MUL: --sp; stack[sp - 1] *= stack[sp]; break;
            case DIV: --sp; stack[sp - 1] = stack[sp] ? stack[sp - 1] / stack[sp] : 0; break;
            case REM: --sp; stack[sp - 1] = stack[sp] ? stack[sp - 1] % stack[sp] : 0; break;
            case DUP: stack[sp] = stack[sp - 1]; ++sp; break;
            case SWAP: { int32_t t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; } break;
            case JNZ: { const uint8_t to = *pc++; if (stack[--sp]) pc = prog + to; } break;
            case DEC: stack[sp - 1] -= 1; break;
            case POP: --sp; break;
            case XOR: --sp; stack[sp - 1] ^= stack[sp]; break;
            case SHL: --sp; stack[sp - 1] <<= stack[sp]; break;
            default: return sp ? stack[sp - 1] : 0;
        }
    }
}

__attribute__((noinline)) static void qsort32(int32_t* a, int lo, int hi) {
    if (lo >= hi) return;
    const int32_t p = a[(lo + hi) / 2];
    int i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p) ++i;
        while (a[j] > p) --j;
        if (i <= j) { int32_t t = a[i]; a[i] = a[j]; a[j] = t; ++i; --j; }
    }
    qsort32(a, lo, j);
    qsort32(a, i, hi);
}

void setup(void) {}

void kernel(void) {
    int32_t r = 0;
    for (int k = 0; k < 3; ++k) r += run(prog);
    uint32_t s = 99;
    for (int i = 0; i < 24; ++i) { s = s * 1664525u + 1013904223u; v[i] = (int32_t)(s >> 16) - 30000; }
    qsort32(v, 0, 23);
    sink = r + v[5];
}
