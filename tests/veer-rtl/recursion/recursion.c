// Call/return recursion deeper than the 8-entry return stack: fib(11) makes 287 calls, 11 deep.
#include "probe.h"
volatile int sink;
__attribute__((noinline)) int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
void setup(void) {}
void kernel(void) { sink = fib(11); }
