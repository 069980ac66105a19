/* A QEMU TCG plugin that writes QEMU's execlog format (contrib/plugins/execlog.c; pmusim's `qemu-execlog` reader,
 * docs/trace-formats.md) with the data address of every load and store, for the natural-trace benchmarks
 * (bench/natural.sh). One line per executed instruction:
 *
 *   <vcpu>, 0x<pc>, 0x<opcode>, "<disassembly>"{, load|store, 0x<address>[, <device>]}
 *
 * In user mode the address is the virtual address; in system mode the physical address and the device name, as
 * execlog prints them. A line is finished when the next instruction starts, so the accesses of an instruction are
 * on its own line. The opcode is the encoding's bytes read little-endian (4 bytes at most): a T32 instruction shows
 * its halfwords swapped, as execlog's do; a 16-bit one has an upper half of zero (execlog shows whatever follows
 * it; pmusim's reader cuts both to 16 bits).
 *
 * Options (-plugin ./libpmusim_execlog.so,out=FILE,disas=off):
 *   out=FILE   write the log to FILE (default: QEMU's log, `-d plugin -D FILE`, which is slower)
 *   disas=off  leave the disassembly empty ("" : shorter lines; the reader ignores it)
 * A write error is reported on stderr and QEMU exits with status 3, so a half-written log is never taken for a
 * whole one. Guests with more than one thread are refused at the second vCPU (their lines would interleave). */
#include "qemu_plugin_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

PMUSIM_PLUGIN_EXPORT int qemu_plugin_version = PMUSIM_QEMU_PLUGIN_VERSION;

/* An instruction's line after the vCPU number, up to its accesses: made once when its block is translated. */
struct insn_text {
    size_t length;
    char text[];
};

enum { BUFFER_SIZE = 1 << 20, LINE_MAX_TAIL = 4096 };
static char buffer[BUFFER_SIZE];
static size_t used;
static bool line_open;
static bool system_mode;
static bool with_disas = true;
static FILE *out;             /* NULL: QEMU's log */
static const char *out_path;
static unsigned int first_vcpu = ~0u;

static void fail(const char *what)
{
    fprintf(stderr, "pmusim_execlog: %s%s%s\n", what, out_path ? ": " : "", out_path ? out_path : "");
    _exit(3);
}

static void flush_buffer(void)
{
    if (used == 0)
        return;
    if (out) {
        if (fwrite(buffer, 1, used, out) != used)
            fail("cannot write the log");
    } else {
        buffer[used] = '\0'; /* BUFFER_SIZE leaves room: see reserve() */
        qemu_plugin_outs(buffer);
    }
    used = 0;
}

/* Room for `n` more bytes (and a terminating NUL for qemu_plugin_outs). */
static inline void reserve(size_t n)
{
    if (used + n + 1 > BUFFER_SIZE)
        flush_buffer();
}

static inline void put_hex(uint64_t value, int min_digits)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    int n = 0;
    do {
        tmp[n++] = digits[value & 15];
        value >>= 4;
    } while (value != 0);
    while (n < min_digits)
        tmp[n++] = '0';
    buffer[used++] = '0';
    buffer[used++] = 'x';
    while (n > 0)
        buffer[used++] = tmp[--n];
}

static inline void put_decimal(unsigned int value)
{
    char tmp[10];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    while (n > 0)
        buffer[used++] = tmp[--n];
}

static void check_vcpu(unsigned int vcpu)
{
    if (first_vcpu == ~0u)
        first_vcpu = vcpu;
    else if (vcpu != first_vcpu)
        fail("more than one vCPU (a multi-threaded guest): its lines would interleave");
}

static void insn_exec(unsigned int vcpu, void *userdata)
{
    const struct insn_text *insn = userdata;
    if (__builtin_expect(vcpu != first_vcpu, 0))
        check_vcpu(vcpu);
    reserve(insn->length + LINE_MAX_TAIL);
    if (line_open)
        buffer[used++] = '\n';
    put_decimal(vcpu);
    memcpy(buffer + used, insn->text, insn->length);
    used += insn->length;
    line_open = true;
}

static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *userdata)
{
    (void)vcpu;
    (void)userdata;
    const char *kind = qemu_plugin_mem_is_store(info) ? ", store, " : ", load, ";
    uint64_t address = vaddr;
    const char *device = NULL;
    if (system_mode) {
        struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
        if (hw) {
            address = qemu_plugin_hwaddr_phys_addr(hw);
            device = qemu_plugin_hwaddr_device_name(hw);
        }
    }
    size_t device_length = device ? strlen(device) : 0;
    reserve(32 + device_length + 2);
    size_t kind_length = strlen(kind);
    memcpy(buffer + used, kind, kind_length);
    used += kind_length;
    put_hex(address, 8);
    if (device) {
        buffer[used++] = ',';
        buffer[used++] = ' ';
        memcpy(buffer + used, device, device_length);
        used += device_length;
    }
}

static struct insn_text *make_text(const struct qemu_plugin_insn *insn)
{
    size_t size = qemu_plugin_insn_size(insn);
    const unsigned char *bytes = qemu_plugin_insn_data(insn);
    uint32_t opcode = 0;
    for (size_t i = 0; i < size && i < 4; i++)
        opcode |= (uint32_t)bytes[i] << (8 * i);
    char *disas = with_disas ? qemu_plugin_insn_disas(insn) : NULL;
    const char *shown = disas ? disas : "";
    size_t room = 64 + strlen(shown);
    struct insn_text *text = malloc(sizeof *text + room);
    if (!text)
        fail("out of memory");
    int n = snprintf(text->text, room, ", 0x%llx, 0x%x, \"%s\"", (unsigned long long)qemu_plugin_insn_vaddr(insn), (unsigned)opcode, shown);
    if (n < 0 || (size_t)n >= room)
        fail("instruction text too long");
    text->length = (size_t)n;
    g_free(disas);
    return text;
}

static void tb_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        /* Each translation makes its own text: QEMU may translate a block again, the old one may still run. */
        qemu_plugin_register_vcpu_insn_exec_cb(insn, insn_exec, QEMU_PLUGIN_CB_NO_REGS, make_text(insn));
        qemu_plugin_register_vcpu_mem_cb(insn, mem_access, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
    }
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
    (void)id;
    (void)userdata;
    if (line_open) {
        reserve(1);
        buffer[used++] = '\n';
        line_open = false;
    }
    flush_buffer();
    if (out) {
        if (fflush(out) != 0 || ferror(out) || fclose(out) != 0)
            fail("cannot write the log");
        out = NULL;
    }
}

/* The value of `name=value`, or NULL when `arg` is another option. */
static const char *option_value(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

PMUSIM_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    system_mode = info->system_emulation;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        if ((value = option_value(arg, "out"))) {
            out_path = value;
        } else if ((value = option_value(arg, "disas"))) {
            if (!qemu_plugin_bool_parse("disas", value, &with_disas)) {
                fprintf(stderr, "pmusim_execlog: disas=%s: expected on or off\n", value);
                return -1;
            }
        } else {
            fprintf(stderr, "pmusim_execlog: unknown option '%s' (expected out=FILE or disas=on|off)\n", arg);
            return -1;
        }
    }
    if (out_path) {
        out = fopen(out_path, "w");
        if (!out) {
            perror(out_path);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_translate);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
