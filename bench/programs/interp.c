/* A bytecode interpreter: a stack machine with locals, a data memory, calls and a switch dispatch loop, the shape of
 * a small scripting-language VM. It runs three programs assembled at start-up: a sieve of Eratosthenes in its data
 * memory, a recursive Fibonacci (calls and returns), and a table of linear-congruential values summed with
 * branches that depend on the data. Each program's result is checked against the same work done in C. */
#include "common.h"

enum op {
    OP_HALT, OP_PUSH, OP_POP, OP_DUP, OP_SWAP, OP_LOAD, OP_STORE, OP_ADD, OP_SUB, OP_MUL, OP_AND, OP_SHR, OP_LT,
    OP_EQ, OP_JMP, OP_JZ, OP_JNZ, OP_CALL, OP_RET, OP_GET, OP_PUT, OP_ARG,
};

enum { CODE_MAX = 1024, STACK_MAX = 4096, FRAMES_MAX = 512, LOCALS = 8, DATA_MAX = 1 << 15 };

static int32_t code[CODE_MAX];
static int code_size;
static int32_t data[DATA_MAX];

/* The assembler: emit, a forward label to patch, and patching it here. */
static int emit(int32_t word)
{
    code[code_size] = word;
    return code_size++;
}
static int emit2(enum op op, int32_t operand)
{
    emit(op);
    return emit(operand);
}
static void patch(int at) { code[at] = code_size; }

struct frame {
    int return_pc;
    int32_t locals[LOCALS];
};

static int32_t execute(int pc)
{
    static int32_t stack[STACK_MAX];
    static struct frame frames[FRAMES_MAX];
    int sp = 0, fp = 0;
    frames[0].return_pc = -1;
    for (;;) {
        int32_t a, b;
        switch ((enum op)code[pc++]) {
        case OP_HALT: return sp > 0 ? stack[sp - 1] : 0;
        case OP_PUSH: stack[sp++] = code[pc++]; break;
        case OP_POP: sp--; break;
        case OP_DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case OP_SWAP: a = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = a; break;
        case OP_LOAD: stack[sp++] = frames[fp].locals[code[pc++]]; break;
        case OP_STORE: frames[fp].locals[code[pc++]] = stack[--sp]; break;
        case OP_ADD: b = stack[--sp]; stack[sp - 1] += b; break;
        case OP_SUB: b = stack[--sp]; stack[sp - 1] -= b; break;
        case OP_MUL: b = stack[--sp]; stack[sp - 1] = (int32_t)((uint32_t)stack[sp - 1] * (uint32_t)b); break;
        case OP_AND: b = stack[--sp]; stack[sp - 1] &= b; break;
        case OP_SHR: b = stack[--sp]; stack[sp - 1] = (int32_t)((uint32_t)stack[sp - 1] >> (b & 31)); break;
        case OP_LT: b = stack[--sp]; stack[sp - 1] = stack[sp - 1] < b; break;
        case OP_EQ: b = stack[--sp]; stack[sp - 1] = stack[sp - 1] == b; break;
        case OP_JMP: pc = code[pc]; break;
        case OP_JZ: pc = stack[--sp] == 0 ? code[pc] : pc + 1; break;
        case OP_JNZ: pc = stack[--sp] != 0 ? code[pc] : pc + 1; break;
        case OP_CALL:  /* one argument, from the stack, into local 0 */
            frames[fp + 1].return_pc = pc + 1;
            frames[fp + 1].locals[0] = stack[--sp];
            pc = code[pc];
            fp++;
            break;
        case OP_RET:
            pc = frames[fp].return_pc;
            fp--;
            break;
        case OP_GET: a = stack[--sp]; stack[sp++] = data[a & (DATA_MAX - 1)]; break;
        case OP_PUT: a = stack[--sp]; b = stack[--sp]; data[a & (DATA_MAX - 1)] = b; break;
        case OP_ARG: stack[sp++] = frames[fp].locals[0]; break;
        default: return 0;
        }
    }
}

/* sieve(n): marks composites in data[0..n) and leaves the count of primes below n. */
static int assemble_sieve(int32_t n)
{
    int start = code_size;
    /* for i in 0..n: data[i] = 1 */
    emit2(OP_PUSH, 0); emit2(OP_STORE, 1);
    int fill = code_size;
    emit2(OP_LOAD, 1); emit2(OP_PUSH, n); emit(OP_LT); int fill_done = emit2(OP_JZ, 0);
    emit2(OP_PUSH, 1); emit2(OP_LOAD, 1); emit(OP_PUT);
    emit2(OP_LOAD, 1); emit2(OP_PUSH, 1); emit(OP_ADD); emit2(OP_STORE, 1); emit2(OP_JMP, fill);
    patch(fill_done);
    /* for i in 2..n, count primes; for each prime, j = i*i step i: data[j] = 0 */
    emit2(OP_PUSH, 0); emit2(OP_STORE, 3);
    emit2(OP_PUSH, 2); emit2(OP_STORE, 1);
    int outer = code_size;
    emit2(OP_LOAD, 1); emit2(OP_PUSH, n); emit(OP_LT); int outer_done = emit2(OP_JZ, 0);
    emit2(OP_LOAD, 1); emit(OP_GET); int not_prime = emit2(OP_JZ, 0);
    emit2(OP_LOAD, 3); emit2(OP_PUSH, 1); emit(OP_ADD); emit2(OP_STORE, 3);
    emit2(OP_LOAD, 1); emit(OP_DUP); emit(OP_MUL); emit2(OP_STORE, 2);
    int inner = code_size;
    emit2(OP_LOAD, 2); emit2(OP_PUSH, n); emit(OP_LT); int inner_done = emit2(OP_JZ, 0);
    emit2(OP_PUSH, 0); emit2(OP_LOAD, 2); emit(OP_PUT);
    emit2(OP_LOAD, 2); emit2(OP_LOAD, 1); emit(OP_ADD); emit2(OP_STORE, 2); emit2(OP_JMP, inner);
    patch(inner_done);
    patch(not_prime);
    emit2(OP_LOAD, 1); emit2(OP_PUSH, 1); emit(OP_ADD); emit2(OP_STORE, 1); emit2(OP_JMP, outer);
    patch(outer_done);
    emit2(OP_LOAD, 3); emit(OP_HALT);
    return start;
}

/* fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2), by calls. */
static int assemble_fib(int32_t n)
{
    int start = code_size;
    emit2(OP_PUSH, n); int call = emit2(OP_CALL, 0); emit(OP_HALT);
    int function = code_size;
    code[call] = function;
    emit(OP_ARG); emit2(OP_PUSH, 2); emit(OP_LT); int recurse = emit2(OP_JZ, 0);
    emit(OP_ARG); emit(OP_RET);
    patch(recurse);
    emit(OP_ARG); emit2(OP_PUSH, 1); emit(OP_SUB); emit2(OP_CALL, function);
    emit(OP_ARG); emit2(OP_PUSH, 2); emit(OP_SUB); emit2(OP_CALL, function);
    emit(OP_ADD); emit(OP_RET);
    return start;
}

/* x = x * 1103515245 + 12345 for n steps; sums (x >> 16) & 1023 where it is below 512, subtracts it where not. */
static int assemble_lcg(int32_t n, int32_t seed)
{
    int start = code_size;
    emit2(OP_PUSH, seed); emit2(OP_STORE, 1); emit2(OP_PUSH, 0); emit2(OP_STORE, 2);
    emit2(OP_PUSH, n); emit2(OP_STORE, 3);
    int loop = code_size;
    emit2(OP_LOAD, 3); int done = emit2(OP_JZ, 0);
    emit2(OP_LOAD, 1); emit2(OP_PUSH, 1103515245); emit(OP_MUL); emit2(OP_PUSH, 12345); emit(OP_ADD);
    emit(OP_DUP); emit2(OP_STORE, 1);
    emit2(OP_PUSH, 16); emit(OP_SHR); emit2(OP_PUSH, 1023); emit(OP_AND); emit2(OP_STORE, 4);
    emit2(OP_LOAD, 4); emit2(OP_PUSH, 512); emit(OP_LT); int high = emit2(OP_JZ, 0);
    emit2(OP_LOAD, 2); emit2(OP_LOAD, 4); emit(OP_ADD); emit2(OP_STORE, 2); int joined = emit2(OP_JMP, 0);
    patch(high);
    emit2(OP_LOAD, 2); emit2(OP_LOAD, 4); emit(OP_SUB); emit2(OP_STORE, 2);
    patch(joined);
    emit2(OP_LOAD, 3); emit2(OP_PUSH, 1); emit(OP_SUB); emit2(OP_STORE, 3); emit2(OP_JMP, loop);
    patch(done);
    emit2(OP_LOAD, 2); emit(OP_HALT);
    return start;
}

static int32_t c_sieve(int32_t n)
{
    static unsigned char mark[DATA_MAX];
    int32_t count = 0;
    for (int32_t i = 0; i < n; i++)
        mark[i] = 1;
    for (int32_t i = 2; i < n; i++) {
        if (!mark[i])
            continue;
        count++;
        for (int32_t j = i * i; j < n; j += i)
            mark[j] = 0;
    }
    return count;
}

static int32_t c_fib(int32_t n) { return n < 2 ? n : c_fib(n - 1) + c_fib(n - 2); }

static int32_t c_lcg(int32_t n, int32_t seed)
{
    uint32_t x = (uint32_t)seed;
    int32_t sum = 0;
    for (; n != 0; n--) {
        x = x * 1103515245u + 12345u;
        int32_t v = (int32_t)((x >> 16) & 1023);
        sum = v < 512 ? sum + v : sum - v;
    }
    return sum;
}

uint32_t interp_run(unsigned scale)
{
    const int32_t sieve_n = 5000, fib_n = 17, lcg_n = 6000;
    uint32_t result = 0;
    for (unsigned round = 0; round < scale; round++) {
        code_size = 0;
        int sieve = assemble_sieve(sieve_n - (int32_t)round * 100);
        int fib = assemble_fib(fib_n - (int32_t)(round % 3));
        int lcg = assemble_lcg(lcg_n, (int32_t)(0x1234567 + round));
        int32_t primes = execute(sieve), f = execute(fib), l = execute(lcg);
        if (primes != c_sieve(sieve_n - (int32_t)round * 100) || f != c_fib(fib_n - (int32_t)(round % 3)) ||
            l != c_lcg(lcg_n, (int32_t)(0x1234567 + round)))
            return 0;
        result = result * 31 + (uint32_t)primes + (uint32_t)f * 7 + (uint32_t)l;
    }
    return result ? result : 1;
}
