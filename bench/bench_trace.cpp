// Trace readers and replay: records and lines per second for each reader, for the native binary format, and for
// the full pipeline (reader, decoder, PMU) from the native format, with peak memory. The traces are generated on the fly
// (a block of each format, rendered once before the timed loop and cycled through fopencookie), PMUSIM_BENCH_RECORDS
// records each (default 50 million); only the native block goes through a small temporary file (the native writer
// writes files). PMUSIM_BENCH_TRACE=PATH adds BM_Reader/file (and BM_Reader/file-runs for a native version-2 file):
// that trace read to its end. BM_ReaderShared/<trace> reads each plain-text trace of ../shared/traces (real
// producers' lines: disassembly, data addresses, register dumps) repeated in memory to about PMUSIM_BENCH_LINES lines
// (default 4 million; PMUSIM_BENCH_RECORDS where only that is set), reader only; they are left out where ../shared is
// absent. See docs/performance.md.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "replay/replay.hpp"
#include "traces/native.hpp"
#include "traces/reader.hpp"

namespace {

uint64_t records_wanted() {
    const char* e = std::getenv("PMUSIM_BENCH_RECORDS");
    return e ? std::strtoull(e, nullptr, 10) : 50000000ull;
}

double peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// A stream that repeats `body` after `head` until `total` bytes of body have been produced.
struct Cycle {
    std::string head, body;
    uint64_t total = 0, done = 0;
    size_t head_pos = 0;
};

ssize_t cycle_read(void* cookie, char* buf, size_t n) {
    auto* c = static_cast<Cycle*>(cookie);
    size_t k = 0;
    while (k < n && c->head_pos < c->head.size()) buf[k++] = c->head[c->head_pos++];
    while (k < n && c->done < c->total) {
        const size_t off = static_cast<size_t>(c->done % c->body.size());
        const size_t m = std::min({n - k, c->body.size() - off, static_cast<size_t>(c->total - c->done)});
        std::memcpy(buf + k, c->body.data() + off, m);
        k += m;
        c->done += m;
    }
    return static_cast<ssize_t>(k);
}

std::FILE* open_cycle(Cycle& c) {
    cookie_io_functions_t io{};
    io.read = cycle_read;
    return fopencookie(&c, "r", io);
}

// 4096 records of each format; the stream repeats them until the wanted count.
constexpr unsigned block = 4096;
// QEMU -d in_asm,exec,nochain: one block of this many instructions, listed once, executed by each Trace line.
constexpr unsigned qemu_block = 8;

// RISC-V encodings for the VeeR generator (RISC-V unprivileged spec ch. 2 base formats, ch. 16 "C" formats).
uint32_t enc_i(uint32_t op, uint32_t f3, unsigned rd, unsigned rs1, int32_t imm) {
    return (static_cast<uint32_t>(imm) & 0xFFFu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
uint32_t enc_s(unsigned rs2, unsigned rs1, int32_t imm) {  // sw
    const auto u = static_cast<uint32_t>(imm);
    return ((u >> 5) & 0x7Fu) << 25 | rs2 << 20 | rs1 << 15 | 2u << 12 | (u & 0x1Fu) << 7 | 0x23u;
}
uint32_t enc_b(uint32_t f3, unsigned rs1, unsigned rs2, int32_t off) {
    const auto u = static_cast<uint32_t>(off);
    return ((u >> 12) & 1u) << 31 | ((u >> 5) & 0x3Fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | ((u >> 1) & 0xFu) << 8 |
           ((u >> 11) & 1u) << 7 | 0x63u;
}
uint32_t enc_j(unsigned rd, int32_t off) {
    const auto u = static_cast<uint32_t>(off);
    return ((u >> 20) & 1u) << 31 | ((u >> 1) & 0x3FFu) << 21 | ((u >> 11) & 1u) << 20 | ((u >> 12) & 0xFFu) << 12 | rd << 7 | 0x6Fu;
}
// c.lw / c.sw (funct3 010 / 110): rd'/rs2' and rs1' are x8-x15, the offset a multiple of 4 below 128.
uint32_t enc_cls(uint32_t f3, unsigned r, unsigned rs1, unsigned off) {
    return f3 << 13 | ((off >> 3) & 7u) << 10 | (rs1 - 8) << 7 | ((off >> 2) & 1u) << 6 | ((off >> 6) & 1u) << 5 | (r - 8) << 2;
}

// A VeeR exec.log block shaped like a real program's: the shared Dhrystone log has 613 distinct encodings, 55% of
// its instructions compressed, 42% with a memory address, 17% branches, and a late writeback line per 300
// instructions. Here: ALU operations, loads and stores (with "[address]"), branches that fall through, 16- and 32-bit,
// over about 550 distinct encodings (fields from a fixed pseudo-random sequence), one late writeback, and a
// jump back to the start at the end of the block.
std::string render_veer() {
    static const char* const abi[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                        "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                        "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
    std::string s;
    uint32_t pc = 0x80000000u, seed = 1;
    for (unsigned i = 0; i < block; ++i) {
        seed = seed * 1103515245u + 12345u;
        // The instruction's fields from one of 600 patterns (so at most 600 distinct encodings), its values not.
        const uint32_t r = (((seed >> 8) % 600u) * 2654435761u) >> 8, v = seed >> 4;
        const unsigned rd = 8 + (r & 7u), rs = 8 + ((r >> 3) & 7u), big = 5 + ((r >> 6) & 15u);  // x8-x15; x5-x20
        const uint32_t value = v * 2654435761u, addr = 0xF0040000u + ((v >> 10) & 0xFFCu);
        uint32_t enc;
        std::string regs, dasm;
        const auto wrote = [&](unsigned reg) { regs = fmt::format("{}={:08x}", abi[reg], value); };
        const unsigned kind = i + 1 == block ? 99 : (r >> 20) % 16;
        switch (kind) {
        case 0: case 1: case 2:
            enc = enc_i(0x13, 0, big, rs, static_cast<int32_t>((r >> 14) & 255u) - 128);
            wrote(big), dasm = fmt::format("addi    {},{},{}", abi[big], abi[rs], static_cast<int32_t>((r >> 14) & 255u) - 128);
            break;
        case 3:
            enc = (r & 0xFFFFF000u) | big << 7 | 0x37u;
            wrote(big), dasm = fmt::format("lui     {},0x{:x}", abi[big], r & 0xFFFFF000u);
            break;
        case 4:  // c.addi rd, imm (imm 1-16)
            enc = rd << 7 | (1u + (r & 15u)) << 2 | 1u;
            wrote(rd), dasm = fmt::format("c.addi  {},{}", abi[rd], 1 + (r & 15u));
            break;
        case 5:  // c.mv rd, rs
            enc = 4u << 13 | big << 7 | rs << 2 | 2u;
            wrote(big), dasm = fmt::format("c.mv    {},{}", abi[big], abi[rs]);
            break;
        case 6: case 7:
            enc = enc_i(0x03, 2, big, rs, static_cast<int32_t>(4 * ((r >> 12) & 31u)));
            wrote(big), dasm = fmt::format("lw      {},{}({}) [{:08x}]", abi[big], 4 * ((r >> 12) & 31u), abi[rs], addr);
            break;
        case 8: case 9:
            enc = enc_cls(2, rd, rs, 4 * ((r >> 12) & 31u));
            wrote(rd), dasm = fmt::format("c.lw    {},{}({}) [{:08x}]", abi[rd], 4 * ((r >> 12) & 31u), abi[rs], addr);
            break;
        case 10:
            enc = enc_s(big, rs, static_cast<int32_t>(4 * ((r >> 12) & 31u)));
            dasm = fmt::format("sw      {},{}({}) [{:08x}]", abi[big], 4 * ((r >> 12) & 31u), abi[rs], addr);
            break;
        case 11: case 12:
            enc = enc_cls(6, rd, rs, 4 * ((r >> 12) & 31u));
            dasm = fmt::format("c.sw    {},{}({}) [{:08x}]", abi[rd], 4 * ((r >> 12) & 31u), abi[rs], addr);
            break;
        case 13:  // bne, not taken: the next line is the fall-through
            enc = enc_b(1, rd, rs, 64);
            dasm = fmt::format("bne     {},{},0x{:x}", abi[rd], abi[rs], pc + 64);
            break;
        case 14:  // c.bnez rs1', +8 (offset[3], bit 10), not taken
            enc = 7u << 13 | (rs - 8) << 7 | 1u << 10 | 1u;
            dasm = fmt::format("c.bnez  {},0x{:x}", abi[rs], pc + 8);
            break;
        case 15:  // c.swsp rs2, off(sp)
            enc = 6u << 13 | ((r >> 12) & 15u) << 9 | big << 2 | 2u;
            dasm = fmt::format("c.swsp  {},0x{:x} [{:08x}]", abi[big], 4 * ((r >> 12) & 15u), addr);
            break;
        default:  // the end of the block: back to its start
            enc = enc_j(0, static_cast<int32_t>(0x80000000u - pc));
            dasm = "jal     zero,0x80000000";
        }
        s += fmt::format("{:10} : {:>8} 0 {:08x} {:08x}{:>13} {:14} ; {}\n", 10 + 2 * i, fmt::format("#{}", i + 1), pc, enc, regs, "", dasm);
        if (i == block / 2) s += fmt::format("{:10} : {:>8}   {:>13} {:14} ; nbL\n", 11 + 2 * i, "", "a0=00000001", "");
        pc += (enc & 3u) == 3u ? 4 : 2;
    }
    return s;
}

std::string render(const std::string& format) {
    if (format == "veer") return render_veer();
    std::string s;
    if (format == "qemu-log") {
        for (unsigned i = 0; i < block / qemu_block; ++i)
            s += "Trace 0: 0x7fcf38000100 [0000000000004000/0000000040080000/00000121/ff000201] \n";
        return s;
    }
    for (unsigned i = 0; i < block; ++i) {
        const uint32_t pc = 0x80000000u + 4 * i;
        if (format == "spike")
            s += fmt::format("core   0: 3 0x{:08x} (0x00150513) x10 0x{:08x}\n", pc, i);
        else if (format == "tarmac")
            s += fmt::format("{} clk IT ({}) {:08x} e2800001 A svc_s : ADD      r0,r0,#1\n{} clk R r0 {:08x}\n", i, i, pc, i, i);
        else if (format == "qemu-execlog")
            s += fmt::format("0, 0x{:x}, 0x91000400, \"add x0, x0, #1\"\n", pc);
        else if (format == "native-text")
            s += fmt::format("pc={:#x} enc=0x00150513 size=4 isa=rv32 priv=3 gpr=0xa:{:#x}\n", pc, i);
    }
    return s;
}

std::string head_of(const std::string& format) {
    if (format == "veer") return "//   Cycle : #inst    0    pc    opcode    reg=value    csr=value     ; mnemonic\n";
    if (format == "native-text") return "# pmusim trace 1\n";
    if (format == "qemu-log") {
        std::string s = "IN: \n";
        for (unsigned i = 0; i < qemu_block; ++i)
            s += fmt::format("0x{:08x}:  91000400  add      x0, x0, #1\n", 0x40080000u + 4 * i);
        return s + "\n";
    }
    return {};
}

// The native writer's bytes for `copies` times the block in format `version` (2: the first copy defines the runs'
// shapes, the others refer to them). Written to a temporary file of its own and read back.
std::string native_bytes(unsigned copies, unsigned version) {
    const std::string path = fmt::format("/tmp/pmusim-bench-block-{}.pmt", getpid());
    {
        auto w = pmusim::trace::make_native_writer(path, false, version);
        for (unsigned c = 0; c < copies; ++c)
            for (unsigned i = 0; i < block; ++i) {
                pmusim::trace::TraceRecord r;
                r.pc = 0x40080000u + 4 * i;
                r.encoding = 0x91000400u;  // add x0, x0, #1
                r.isa = pmusim::trace::IsaState::a64;
                r.privilege = 1;
                r.add_reg(pmusim::trace::RegKind::gpr, 0, i);
                w->write(r);
            }
        w->finish();
    }
    std::FILE* f = std::fopen(path.c_str(), "rb");
    std::string all;
    char buf[65536];
    for (size_t n; f && (n = std::fread(buf, 1, sizeof buf, f)) > 0;) all.append(buf, n);
    if (f) std::fclose(f);
    std::remove(path.c_str());
    return all;
}

// A native binary stream. Version 2 (`format` "native", the writer's default: 64 runs of 64 records, each record
// with one register write): the head is the 16-byte header and the first block, which defines the 64 shapes; the
// body, which the stream repeats, is the block's 64 executions alone. (Repeating the shapes' definitions too would
// make a file the writer never writes: every cycle would define 64 new shapes, which the reader keeps.) Version 1
// ("native-v1"): the header, then the block's 32-byte records with their 16-byte register part.
std::string render_native(std::string& head, const std::string& format) {
    if (format == "native-v1") {
        const std::string all = native_bytes(1, 1);
        head = all.substr(0, 16);
        return all.substr(16);
    }
    head = native_bytes(1, 2);
    std::string two = native_bytes(2, 2);
    if (two.size() <= head.size() || two.compare(0, head.size(), head) != 0) {
        std::fprintf(stderr, "pmusim_bench_trace: the native writer's second block does not follow its first\n");
        std::exit(2);
    }
    return two.substr(head.size());
}

std::unique_ptr<pmusim::trace::TraceReader> reader_for(const std::string& format, Cycle& c, std::FILE*& f) {
    f = open_cycle(c);
    auto src = std::make_unique<pmusim::trace::ByteSource>(f, format);
    pmusim::trace::ReaderOptions o;
    o.replay_all = true;
    o.isa = format == "qemu-execlog" || format == "qemu-log" ? pmusim::trace::IsaState::a64 : pmusim::trace::IsaState::unknown;
    if (format == "veer") return pmusim::trace::make_veer_reader(std::move(src), o);
    if (format == "spike") return pmusim::trace::make_spike_reader(std::move(src), o);
    if (format == "tarmac") return pmusim::trace::make_tarmac_reader(std::move(src), o);
    if (format == "qemu-execlog") return pmusim::trace::make_qemu_execlog_reader(std::move(src), o);
    if (format == "qemu-log") return pmusim::trace::make_qemu_log_reader(std::move(src), o);
    if (format == "native-text") return pmusim::trace::make_native_text_reader(std::move(src), o);
    return pmusim::trace::make_native_reader(std::move(src), o);
}

Cycle make_cycle(const std::string& format, uint64_t records) {
    Cycle c;
    uint64_t blocks = (records + block - 1) / block;  // whole blocks: records vary in length
    if (format == "native") {
        c.body = render_native(c.head, format);  // the head holds the first block
        blocks = blocks ? blocks - 1 : 0;
    } else if (format == "native-v1") {
        c.body = render_native(c.head, format);
    } else {
        c.head = head_of(format);
        c.body = render(format);
    }
    c.total = c.body.size() * blocks;
    return c;
}

// The stream from its start again.
void rewind(Cycle& c) {
    c.done = 0;
    c.head_pos = 0;
}

// Lines of a text stream (Tarmac has two per record, the QEMU -d log one per block of records).
uint64_t lines_of(const Cycle& c) {
    const auto count = [](const std::string& s) { return static_cast<uint64_t>(std::count(s.begin(), s.end(), '\n')); };
    return count(c.head) + count(c.body) * (c.total / c.body.size());
}

// A reader and the stream it reads (closed after the reader).
struct Opened {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file{nullptr, std::fclose};
    std::unique_ptr<pmusim::trace::TraceReader> reader;
};

// Reads the reader that `open` gives to its end once per iteration: record by record (TraceReader::next) or, with
// `by_runs`, by runs as the replay's block engine takes them (next_runs: each run's shape and its values in the
// reader's buffer, no record built; only the reader's cost, the values are not read). `lines`: of the stream, 0
// for a binary one.
template <typename Open>
void read_to_end(benchmark::State& state, Open open, bool by_runs, uint64_t lines) {
    uint64_t got = 0, runs = 0;
    for (auto _ : state) {
        Opened o = open();
        got = runs = 0;
        try {
            if (by_runs) {
                const pmusim::trace::Run* first = nullptr;
                for (size_t n; (n = o.reader->next_runs(first)) > 0;) {
                    runs += n;
                    for (size_t i = 0; i < n; ++i) got += first[i].shape->records;
                    benchmark::DoNotOptimize(first);
                }
            } else {
                pmusim::trace::TraceRecord r;
                while (o.reader->next(r)) ++got;
            }
        } catch (const std::exception& e) {
            state.SkipWithError(e.what());
        }
    }
    state.counters["records"] = static_cast<double>(got);
    state.counters["records_per_s"] = benchmark::Counter(static_cast<double>(got * state.iterations()), benchmark::Counter::kIsRate);
    if (by_runs) state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(runs * state.iterations()), benchmark::Counter::kIsRate);
    if (lines) {
        state.counters["lines"] = static_cast<double>(lines);
        state.counters["lines_per_s"] = benchmark::Counter(static_cast<double>(lines * state.iterations()), benchmark::Counter::kIsRate);
    }
    state.counters["peak_rss_MiB"] = peak_rss_mib();
}

// A generated stream of `format` ("native-runs": the native one by runs). The stream is rendered once, outside the
// timed loop: each iteration reads it from its start.
void BM_Reader(benchmark::State& state, const std::string& format) {
    const bool by_runs = format == "native-runs";
    const std::string stream = by_runs ? "native" : format;
    Cycle c = make_cycle(stream, records_wanted());
    const bool binary = stream == "native" || stream == "native-v1";
    const auto open = [&] {
        rewind(c);
        Opened o;
        std::FILE* f = nullptr;
        o.reader = reader_for(stream, c, f);
        o.file.reset(f);
        return o;
    };
    read_to_end(state, open, by_runs, binary ? 0 : lines_of(c));
}

// The shared traces by format, for BM_ReaderShared: real producers' text, each repeated in memory (a repeated input
// is fine for a reader's speed: the reader keeps no state across lines that the repetition could favour, but the
// VeeR reader's decode table and the QEMU -d reader's block listings, which a real trace of the same program fills alike).
struct SharedTrace {
    const char* name;    // the benchmark's name
    const char* path;    // under ../shared/traces
    const char* format;  // the reader
    pmusim::trace::IsaState isa;  // for the formats that do not say
};
constexpr SharedTrace shared_traces[] = {
    {"qemu-execlog/a64_bm", "qemu/a64_bm.execlog", "qemu-execlog", pmusim::trace::IsaState::a64},
    {"qemu-execlog/loop.a64", "qemu/loop.a64.execlog", "qemu-execlog", pmusim::trace::IsaState::a64},
    {"qemu-execlog/a32_bm", "qemu/a32_bm.execlog", "qemu-execlog", pmusim::trace::IsaState::a32},
    {"qemu-execlog/rv32_bm", "qemu/rv32_bm.execlog", "qemu-execlog", pmusim::trace::IsaState::rv32},
    {"qemu-log/a64_bm.cpu", "qemu/a64_bm.cpu.log.head3000", "qemu-log", pmusim::trace::IsaState::a64},
    {"spike/rv32", "spike/rv32.spike.log", "spike", pmusim::trace::IsaState::unknown},
    {"tarmac/a64-fastmodel", "tarmac/calculator-aarch64-fastmodel.tarmac", "tarmac", pmusim::trace::IsaState::unknown},
    {"tarmac/a32-es-ld-st", "tarmac/calculator-aarch32-es-ld-st-style.tarmac", "tarmac", pmusim::trace::IsaState::unknown},
    {"veer/hello_world", "veer-el2/hello_world.exec.log", "veer", pmusim::trace::IsaState::unknown},
};

// A shared trace repeated to about PMUSIM_BENCH_LINES lines, read to its end by its reader (malformed lines skipped:
// where a repetition joins two copies, a QEMU -d log's register dump can be cut).
void BM_ReaderShared(benchmark::State& state, const std::string& path, const SharedTrace& t) {
    Cycle c;
    if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
        char buf[65536];
        for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) c.body.append(buf, n);
        std::fclose(f);
    }
    const uint64_t body_lines = static_cast<uint64_t>(std::count(c.body.begin(), c.body.end(), '\n'));
    if (body_lines == 0) {
        state.SkipWithError("cannot read the trace");
        return;
    }
    // PMUSIM_BENCH_LINES, else PMUSIM_BENCH_RECORDS where it is set (the test suite's brief smoke run), else 4 million.
    const char* e = std::getenv("PMUSIM_BENCH_LINES");
    const uint64_t wanted = e                                    ? std::strtoull(e, nullptr, 10)
                            : std::getenv("PMUSIM_BENCH_RECORDS") ? records_wanted()
                                                                  : 4000000ull;
    c.total = c.body.size() * std::max<uint64_t>(1, wanted / body_lines);
    const auto open = [&] {
        rewind(c);
        Opened o;
        o.file.reset(open_cycle(c));
        auto src = std::make_unique<pmusim::trace::ByteSource>(o.file.get(), path);
        pmusim::trace::ReaderOptions ro;
        ro.replay_all = true;
        ro.skip_bad_lines = true;
        ro.isa = t.isa;
        const std::string f = t.format;
        if (f == "veer") o.reader = pmusim::trace::make_veer_reader(std::move(src), ro);
        else if (f == "spike") o.reader = pmusim::trace::make_spike_reader(std::move(src), ro);
        else if (f == "tarmac") o.reader = pmusim::trace::make_tarmac_reader(std::move(src), ro);
        else if (f == "qemu-execlog") o.reader = pmusim::trace::make_qemu_execlog_reader(std::move(src), ro);
        else o.reader = pmusim::trace::make_qemu_log_reader(std::move(src), ro);
        return o;
    };
    read_to_end(state, open, false, lines_of(c));
}

// A trace file (PMUSIM_BENCH_TRACE, any format, read as `pmusim` reads it): record by record, or by runs where
// it stores them (a native version-2 file).
void BM_ReaderFile(benchmark::State& state, const std::string& path, bool by_runs) {
    const auto open = [&] {
        Opened o;
        o.reader = pmusim::trace::open_reader(path, "auto", {});
        return o;
    };
    read_to_end(state, open, by_runs, 0);
}

// The full pipeline from the native format: reader, decode (cached), timing model (caches and branch prediction,
// whose events are produced under every --timing), events, PMU (Cortex-A53, counters enabled). `timing`: the
// cycles of the timing model, or one per instruction.
void BM_ReplayNative(benchmark::State& state, pmusim::replay::Timing timing) {
    const uint64_t records = records_wanted();
    Cycle c = make_cycle("native", records);
    uint64_t got = 0;
    for (auto _ : state) {
        rewind(c);
        std::FILE* f = nullptr;
        auto reader = reader_for("native", c, f);
        pmusim::replay::Options o;
        o.platform = "cortex-a53";
        o.trace = "generated";
        o.events = {"INST_RETIRED", "CPU_CYCLES", "BR_MIS_PRED", "L1D_CACHE_REFILL"};
        o.timing = timing;
        const auto r = pmusim::replay::run(o, std::move(reader));
        got = r.instructions;
        std::fclose(f);
    }
    state.counters["instructions"] = static_cast<double>(got);
    state.counters["instructions_per_s"] = benchmark::Counter(static_cast<double>(got * state.iterations()), benchmark::Counter::kIsRate);
    state.counters["peak_rss_MiB"] = peak_rss_mib();
}

}  // namespace

int main(int argc, char** argv) {
    for (const char* f : {"native", "native-v1", "native-runs", "native-text", "veer", "spike", "tarmac", "qemu-execlog", "qemu-log"})
        benchmark::RegisterBenchmark(fmt::format("BM_Reader/{}", f).c_str(), BM_Reader, std::string(f))
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
#ifdef PMUSIM_SHARED_DIR
    for (const SharedTrace& t : shared_traces) {
        const std::string path = std::string(PMUSIM_SHARED_DIR) + "/traces/" + t.path;
        if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
            std::fclose(f);
            benchmark::RegisterBenchmark(fmt::format("BM_ReaderShared/{}", t.name).c_str(), BM_ReaderShared, path, t)
                ->Iterations(1)
                ->Unit(benchmark::kMillisecond);
        }
    }
#endif
    if (const char* path = std::getenv("PMUSIM_BENCH_TRACE")) {
        benchmark::RegisterBenchmark("BM_Reader/file", BM_ReaderFile, std::string(path), false)->Iterations(1)->Unit(benchmark::kMillisecond);
        bool runs = false;
        try {
            runs = pmusim::trace::open_reader(path, "auto", {})->stores_runs();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "pmusim_bench_trace: %s\n", e.what());
            return 2;
        }
        if (runs)
            benchmark::RegisterBenchmark("BM_Reader/file-runs", BM_ReaderFile, std::string(path), true)
                ->Iterations(1)
                ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark("BM_ReplayNative/model", BM_ReplayNative, pmusim::replay::Timing::model)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_ReplayNative/cpi1", BM_ReplayNative, pmusim::replay::Timing::cpi1)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
