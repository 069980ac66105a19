// Loops that walk arrays in the DCCM: a scaled copy and a sum, 4 times over 4096 words.
#include <stdint.h>
#include <stdio.h>
#define N 4096
int data[N];
int copy[N];
volatile int sink;
__attribute__((noinline)) int sum(const int* a, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}
__attribute__((noinline)) void scale(int* d, const int* a, int n) {
    for (int i = 0; i < n; i++) d[i] = 3 * a[i] + 1;
}
int main(void) {
    for (int i = 0; i < N; i++) data[i] = i;
    int s = 0;
    for (int r = 0; r < 4; r++) {
        scale(copy, data, N);
        s += sum(copy, N);
    }
    sink = s;
    printf("sum %d\n", s);
    return 0;
}
