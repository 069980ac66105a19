// Trace readers and replay: records and lines per second for each reader, for the native binary format, and for
// the full pipeline (reader, decoder, PMU) from the native format, with peak memory. The traces are generated on the fly
// (a block of each format, rendered once and cycled through fopencookie), PMUSIM_BENCH_RECORDS records each
// (default 50 million); nothing is written to disk. See docs/performance.md.
#include <sys/resource.h>

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

std::string render(const std::string& format) {
    std::string s;
    if (format == "qemu-log") {
        for (unsigned i = 0; i < block / qemu_block; ++i)
            s += "Trace 0: 0x7fcf38000100 [0000000000004000/0000000040080000/00000121/ff000201] \n";
        return s;
    }
    for (unsigned i = 0; i < block; ++i) {
        const uint32_t pc = 0x80000000u + 4 * i;
        if (format == "veer")
            s += fmt::format("{:10} : {:>8} 0 {:08x} 00150513  a0={:08x}                ; addi    a0,a0,1\n", 10 + i,
                             fmt::format("#{}", i + 1), pc, i);
        else if (format == "spike")
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

// A native binary stream: the 16-byte header, then 32-byte records with one 16-byte register part.
std::string render_native(std::string& head) {
    const std::string path = "/tmp/pmusim-bench-block.pmt";
    {
        auto w = pmusim::trace::make_native_writer(path, false);
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
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) all.append(buf, n);
    std::fclose(f);
    std::remove(path.c_str());
    head = all.substr(0, 16);
    return all.substr(16);
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
    if (format == "native") {
        c.body = render_native(c.head);
    } else {
        c.head = head_of(format);
        c.body = render(format);
    }
    c.total = c.body.size() * ((records + block - 1) / block);  // whole blocks: records vary in length
    return c;
}

// Lines of a text stream (Tarmac has two per record, the QEMU -d log one per block of records).
uint64_t lines_of(const Cycle& c) {
    const auto count = [](const std::string& s) { return static_cast<uint64_t>(std::count(s.begin(), s.end(), '\n')); };
    return count(c.head) + count(c.body) * (c.total / c.body.size());
}

void BM_Reader(benchmark::State& state, const std::string& format) {
    const uint64_t records = records_wanted();
    uint64_t got = 0, lines = 0;
    for (auto _ : state) {
        Cycle c = make_cycle(format, records);
        lines = format == "native" ? 0 : lines_of(c);
        std::FILE* f = nullptr;
        auto reader = reader_for(format, c, f);
        pmusim::trace::TraceRecord r;
        got = 0;
        try {
            while (reader->next(r)) ++got;
        } catch (const std::exception& e) {
            state.SkipWithError(e.what());
        }
        reader.reset();
        std::fclose(f);
    }
    state.counters["records"] = static_cast<double>(got);
    state.counters["records_per_s"] = benchmark::Counter(static_cast<double>(got * state.iterations()), benchmark::Counter::kIsRate);
    if (lines) {
        state.counters["lines"] = static_cast<double>(lines);
        state.counters["lines_per_s"] = benchmark::Counter(static_cast<double>(lines * state.iterations()), benchmark::Counter::kIsRate);
    }
    state.counters["peak_rss_MiB"] = peak_rss_mib();
}

// The full pipeline from the native format: reader, decode (cached), timing model (caches and branch prediction,
// whose events are produced under every --timing), events, PMU (Cortex-A53, counters enabled). `timing`: the
// cycles of the timing model, or one per instruction.
void BM_ReplayNative(benchmark::State& state, pmusim::replay::Timing timing) {
    const uint64_t records = records_wanted();
    uint64_t got = 0;
    for (auto _ : state) {
        Cycle c = make_cycle("native", records);
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
    for (const char* f : {"native", "native-text", "veer", "spike", "tarmac", "qemu-execlog", "qemu-log"})
        benchmark::RegisterBenchmark(fmt::format("BM_Reader/{}", f).c_str(), BM_Reader, std::string(f))
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
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
