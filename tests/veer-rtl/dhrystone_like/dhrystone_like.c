// A Dhrystone-like kernel (written for this probe, not Dhrystone's code): record copies, string copy and
// compare, small procedures with enumerations and integer arithmetic, 12 iterations.
#include <string.h>
#include "probe.h"
typedef enum { red, green, blue, black } colour;
struct rec { struct rec* link; colour c; int n; char name[32]; };
static struct rec ra, rb;
static char s1[32], s2[32];
static int arr[20], glob;
volatile int sink;

__attribute__((noinline)) static colour pick(char a, char b) { return a == b ? green : red; }
__attribute__((noinline)) static int same(const char* a, const char* b) { return strcmp(a, b) > 0; }
__attribute__((noinline)) static void proc3(int* p) { *p = glob > 10 ? glob - 1 : glob + 7; }
__attribute__((noinline)) static void proc2(struct rec* r) {
    *r = ra;
    r->n += 5;
    proc3(&r->n);
    if (r->c == black) r->c = blue; else r->c = (colour)((r->c + 1) & 3);
}
__attribute__((noinline)) static void proc1(int i) {
    arr[i % 20] = i * 3 / 2;
    arr[(i + 7) % 20] += arr[i % 20];
    glob = arr[(i + 3) % 20] + i;
}

void setup(void) {
    ra.link = &rb;
    ra.c = green;
    ra.n = 40;
    strcpy(ra.name, "DHRYSTONE-LIKE PROGRAM, SOME STRING");
}

void kernel(void) {
    int acc = 0;
    for (int i = 0; i < 12; ++i) {
        strcpy(s1, "DHRYSTONE-LIKE PROGRAM, 1'ST STRING");
        strcpy(s2, "DHRYSTONE-LIKE PROGRAM, 2'ND STRING");
        proc1(i);
        proc2(&rb);
        acc += (int)pick('A' + (char)(i & 1), 'A') + same(s1, s2) + rb.n;
        acc += (i * 7) / 3 - i % 5;
    }
    sink = acc + glob;
}
