// Straight-line code larger than the 16 KiB I-cache: 5120 32-bit instructions (20 KiB), so every line misses on
// every pass.
#include "probe.h"
void big(void);
__asm__(".text\n.option push\n.option norvc\n.global big\nbig:\n.rept 5120\naddi t0, t0, 1\n.endr\nret\n.option pop\n");
void setup(void) {}
void kernel(void) { big(); }
