/* The C API as a scoreboard would use it: program a Cortex-A7 PMU through its three views (CP15 encoding,
 * name, memory-mapped offset), let time pass and check what the model says. */
#include <stdio.h>

#include <pmusim/capi/pmusim_c.h>

static int failures = 0;

static void check(const char* what, unsigned long long got, unsigned long long want) {
    printf("%-26s %#llx%s\n", what, got, got == want ? "" : "   (WRONG)");
    if (got != want) ++failures;
}

static void check_status(const char* what, int got, int want) {
    printf("%-26s status %d%s\n", what, got, got == want ? "" : "   (WRONG)");
    if (got != want) ++failures;
}

int main(void) {
    pmusim_pmu* pmu = pmusim_create("cortex-a7", NULL);
    if (!pmu) {
        fprintf(stderr, "c_scoreboard: %s\n", pmusim_create_error());
        return 2;
    }
    uint64_t v = 0;
    uint32_t w = 0;
    /* MCR p15, 0, rX, c9, c12, 1 (PMCNTENSET): the cycle counter; then PMCR.E by name, at PL1. */
    check_status("PMCNTENSET (cp15)", pmusim_write_encoding(pmu, PMUSIM_SPACE_CP15, pmusim_cp15_key(0, 9, 12, 1), 1, 0x80000000u), PMUSIM_OK);
    check_status("PMCR (name)", pmusim_write(pmu, "PMCR", 1, 0x1), PMUSIM_OK);
    pmusim_advance_event(pmu, 500, 0, 0);
    check_status("PMCCNTR (name)", pmusim_read(pmu, "PMCCNTR", 1, &v), PMUSIM_OK);
    check("  value", v, 500);
    /* The memory-mapped PMCCNTR at 0x07C, by an external debugger. */
    check_status("PMCCNTR (offset 0x07c)", pmusim_read_offset(pmu, 0x07C, PMUSIM_ORIGIN_DEBUG, &w), PMUSIM_OK);
    check("  value", w, 500);
    /* User mode (PL0) may not read PMCCNTR while PMUSERENR.EN is 0: UNDEFINED. */
    check_status("PMCCNTR at PL0", pmusim_read(pmu, "PMCCNTR", 0, &v), PMUSIM_TRAPPED);
    printf("  %s\n", pmusim_last_message(pmu));
    check_status("unknown register", pmusim_read(pmu, "PMNOPE", 1, &v), PMUSIM_E_NOT_FOUND);
    pmusim_destroy(pmu);
    printf("%s\n", failures ? "c_scoreboard: FAILED" : "c_scoreboard: ok");
    return failures ? 1 : 0;
}
