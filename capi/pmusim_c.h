/* pmusim's C API: a PMU model behind an opaque handle, plain integers in and out. It is stable (functions are
 * only ever added; PMUSIM_C_API_VERSION counts the additions) and callable from C, from a SystemVerilog
 * testbench through DPI-C, or from any language's FFI. docs/library.md describes it with a DPI example.
 *
 * DPI-C types: pmusim_pmu* is a `chandle`, const char* a `string`, int an `int`, uint32_t an `int unsigned`,
 * uint64_t a `longint unsigned`; a pointer argument is an `output` argument.
 *
 * Return values: PMUSIM_OK (0), PMUSIM_TRAPPED (1: the access was refused, UNDEFINED / illegal instruction, and
 * changed nothing), or a negative PMUSIM_E_* error. pmusim_last_message() says what the last call did. */
#ifndef PMUSIM_C_H
#define PMUSIM_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMUSIM_C_API_VERSION 1

typedef struct pmusim_pmu pmusim_pmu;

enum pmusim_status {
    PMUSIM_OK = 0,
    PMUSIM_TRAPPED = 1,
    PMUSIM_E_HANDLE = -1,    /* a null handle or output pointer */
    PMUSIM_E_NOT_FOUND = -2, /* no register by that name, encoding or offset */
    PMUSIM_E_ARGUMENT = -3,  /* a privilege, encoding space, origin or state out of range; a NULL register name */
    PMUSIM_E_INTERNAL = -4   /* a model error (a bug): the message says which */
};

/* Encoding spaces: A64 MRS/MSR (key pmusim_a64_key), AArch32 MRC/MCR p15 (key pmusim_cp15_key), RISC-V CSR
 * (key = CSR number). */
enum pmusim_space { PMUSIM_SPACE_A64 = 0, PMUSIM_SPACE_CP15 = 1, PMUSIM_SPACE_CSR = 2 };

/* Who accesses the memory-mapped view: an external debugger (no software lock) or software on the system bus
 * (subject to the ARMv7 software lock). */
enum pmusim_origin { PMUSIM_ORIGIN_DEBUG = 0, PMUSIM_ORIGIN_SOFTWARE = 1 };

/* Core states: ARM run/debug; VeeR EL2 run, fw-halt, db-halt, sleep. */
enum pmusim_state {
    PMUSIM_STATE_RUN = 0,
    PMUSIM_STATE_DEBUG = 1,
    PMUSIM_STATE_FW_HALT = 2,
    PMUSIM_STATE_DB_HALT = 3,
    PMUSIM_STATE_SLEEP = 4
};

int pmusim_c_api_version(void);

/* The built-in platforms, by index from 0; NULL past the end. */
int pmusim_platform_count(void);
const char* pmusim_platform_name(int index);

/* A PMU at reset. `options` is NULL or "key=value,key=value" (the platform's IMPLEMENTATION DEFINED choices, as
 * docs/cli.md "Platform options" lists them). NULL for an unknown platform or a bad option; pmusim_create_error()
 * then says why (per thread). */
pmusim_pmu* pmusim_create(const char* platform, const char* options);
const char* pmusim_create_error(void);
void pmusim_destroy(pmusim_pmu* pmu);
void pmusim_reset(pmusim_pmu* pmu);
const char* pmusim_family(const pmusim_pmu* pmu); /* "armv8-pmuv3", "armv7-cp15", "arm11-pmnc", "veer-el2" */

/* Register accesses as an instruction at `privilege` (ARM EL 0-3, ARMv7/ARM11 0 = User 1 = privileged, RISC-V
 * U = 0 M = 3) in the security state set by pmusim_set_secure. By name (architectural names and aliases,
 * case-insensitive) or by encoding. */
int pmusim_read(pmusim_pmu* pmu, const char* reg, int privilege, uint64_t* value);
int pmusim_write(pmusim_pmu* pmu, const char* reg, int privilege, uint64_t value);
int pmusim_read_encoding(pmusim_pmu* pmu, int space, uint32_t key, int privilege, uint64_t* value);
int pmusim_write_encoding(pmusim_pmu* pmu, int space, uint32_t key, int privilege, uint64_t value);
/* The memory-mapped view (ARMv8 external / ARMv7 memory-mapped PMU): one aligned 32-bit register slot. */
int pmusim_read_offset(pmusim_pmu* pmu, uint64_t offset, int origin, uint32_t* value);
int pmusim_write_offset(pmusim_pmu* pmu, uint64_t offset, int origin, uint32_t value);

uint32_t pmusim_a64_key(uint32_t op0, uint32_t op1, uint32_t crn, uint32_t crm, uint32_t op2);
uint32_t pmusim_cp15_key(uint32_t opc1, uint32_t crn, uint32_t crm, uint32_t opc2);

/* The security state of later accesses, and the privilege and security state the core executes at (event
 * filtering reads it). */
int pmusim_set_secure(pmusim_pmu* pmu, int secure);
int pmusim_set_exec_context(pmusim_pmu* pmu, int privilege, int secure);
int pmusim_set_state(pmusim_pmu* pmu, int state);

/* Time passes: `cycles` clock cycles with `n` (event, count) pairs; or with one event (DPI's simplest form). */
int pmusim_advance(pmusim_pmu* pmu, uint64_t cycles, const uint32_t* events, const uint64_t* counts, size_t n);
int pmusim_advance_event(pmusim_pmu* pmu, uint64_t cycles, uint32_t event, uint64_t count);

/* Interrupt request levels: 1 requesting, 0 not (whatever the pin's polarity); negative for a null handle. */
int pmusim_irq(const pmusim_pmu* pmu);
int pmusim_fiq(const pmusim_pmu* pmu);

/* The last call's message: the last access's diagnostics as "severity [code] message" lines, or the last call's
 * error (empty after a call that succeeded without diagnostics; user input in it is cut to 400 characters), and whether
 * it carried a diagnostic of a stable code ("unpredictable", "warl-legalized", ... docs/models.md). */
const char* pmusim_last_message(const pmusim_pmu* pmu);
int pmusim_last_has(const pmusim_pmu* pmu, const char* code);

#ifdef __cplusplus
}
#endif

#endif /* PMUSIM_C_H */
