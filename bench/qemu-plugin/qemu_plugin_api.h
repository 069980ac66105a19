/* The part of QEMU's TCG plugin API (version 1: Debian 12's QEMU 7.2 accepts up to 1 and refuses 2, "supports
 * only up to version 1"; the bindings of QEMU 8.1's API, qemu-plugin-sys 8.1.3 on docs.rs, also say 1) that
 * pmusim_execlog.c uses, declared here because Debian ships QEMU's plugin support without its header.
 * Written from the API's public documentation (QEMU "TCG Plugins", docs/devel/tcg-plugins.rst, and the
 * documented functions of qemu-plugin.h); only what the plugin calls. The types are opaque handles, the
 * enumerations carry the documented values, and `qemu_info_t` has the documented layout: QEMU passes a
 * pointer to it, so its first fields must match. */
#ifndef PMUSIM_QEMU_PLUGIN_API_H
#define PMUSIM_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PMUSIM_PLUGIN_EXPORT __attribute__((visibility("default")))

/* The API level the plugin was written against (checked by QEMU against its own min and cur). */
#define PMUSIM_QEMU_PLUGIN_VERSION 1

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t; /* opaque: read only through qemu_plugin_mem_* */

typedef struct {
    const char *target_name; /* "aarch64", "arm", "riscv32", ... */
    struct {
        int min;
        int cur;
    } version;
    bool system_emulation;
    union {
        struct {
            int smp_vcpus;
            int max_vcpus;
        } system;
    };
} qemu_info_t;

struct qemu_plugin_tb;     /* a translation block being translated */
struct qemu_plugin_insn;   /* one guest instruction of that block */
struct qemu_plugin_hwaddr; /* where a system-mode access went */

enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS = 0, QEMU_PLUGIN_CB_R_REGS = 1, QEMU_PLUGIN_CB_RW_REGS = 2 };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W = 2, QEMU_PLUGIN_MEM_RW = 3 };

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
                                          void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

/* Exported by the plugin: the API level it expects, and its entry point (0 = installed). */
extern PMUSIM_PLUGIN_EXPORT int qemu_plugin_version;
PMUSIM_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv);

/* Provided by QEMU. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t index);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn); /* the encoding's bytes, in memory order */
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
char *qemu_plugin_insn_disas(const struct qemu_plugin_insn *insn); /* the caller frees it with g_free */

bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info, uint64_t vaddr); /* NULL in user mode */
uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *haddr);
const char *qemu_plugin_hwaddr_device_name(const struct qemu_plugin_hwaddr *haddr);

void qemu_plugin_outs(const char *string); /* QEMU's log (-D FILE -d plugin) */
bool qemu_plugin_bool_parse(const char *name, const char *value, bool *ret);

/* GLib's allocator, which QEMU links: strings QEMU hands over are freed with it. */
void g_free(void *mem);

#endif
