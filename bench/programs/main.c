/* The natural-trace programs' entry (bench/natural.sh): runs the kernels the build names (-DRUN_LZ77,
 * -DRUN_INTERP, -DRUN_SORTMAP; all three for the RV32 mix) at the scale it gives (-DSCALE=n, default 1), prints
 * each one's checksum and exits 1 when a kernel's own check failed. With none named it does nothing: bench/natural.sh
 * runs that build under cachegrind for valgrind's start-up. */
#include "common.h"

#ifndef SCALE
#define SCALE 1
#endif

static int failed;

static inline void report(const char *name, uint32_t value)
{
    print_result(name, value);
    if (value == 0)
        failed = 1;
}

int main(void)
{
#ifdef RUN_LZ77
    report("lz77", lz77_run(SCALE));
#endif
#ifdef RUN_INTERP
    report("interp", interp_run(SCALE));
#endif
#ifdef RUN_SORTMAP
    report("sortmap", sortmap_run(SCALE));
#endif
    return failed;
}
