// PMU speed: register accesses per second (model, TLM socket) and cycles simulated per second (plain C++ in
// bulk, SystemC with temporal decoupling, and a clocked model that activates one process per cycle), with the
// process's peak memory. Nothing here asserts a time: see docs/performance.md for figures from this machine.
#include <sys/resource.h>

#include <cstdlib>
#include <memory>

#include <benchmark/benchmark.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "model/core/counter.hpp"
#include "model/sc/pmu_module.hpp"
#include "platforms/platform.hpp"

using namespace sc_core;

namespace {

double peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// Programs a Cortex-A53 PMU: every counter and the cycle counter enabled, counting common events.
void program(pmusim::Pmu& pmu) {
    pmusim::AccessContext el1;
    auto w = [&](const char* r, uint64_t v) { pmu.write(*pmu.bank().find(r), v, el1); };
    const char* types[] = {"PMEVTYPER0_EL0", "PMEVTYPER1_EL0", "PMEVTYPER2_EL0",
                           "PMEVTYPER3_EL0", "PMEVTYPER4_EL0", "PMEVTYPER5_EL0"};
    const uint64_t events[] = {0x08, 0x11, 0x04, 0x03, 0x10, 0x12};
    for (int i = 0; i < 6; ++i) w(types[i], events[i]);
    w("PMCNTENSET_EL0", 0x8000003F);
    w("PMCR_EL0", 0x1);
}

enum class Mode { idle, decoupled, clocked };

struct Bench : sc_module {
    tlm_utils::simple_initiator_socket<Bench> socket{"socket"};
    sc_port<pmusim::sc::PmuEventIf> pmu{"pmu"};
    Mode mode = Mode::idle;
    uint64_t batch_cycles = 100;
    sc_event start;
    pmusim::Counter clocked_counter{32, 31};

    SC_HAS_PROCESS(Bench);
    explicit Bench(sc_module_name n) : sc_module(n) {
        SC_THREAD(decoupled_core);
        SC_METHOD(clocked_tick);
        dont_initialize();
        sensitive << start;
    }
    // Reports `batch_cycles` cycles per call under the global quantum.
    void decoupled_core() {
        tlm_utils::tlm_quantumkeeper qk;
        pmusim::EventBatch b;
        b.add(0x08, 0);
        for (;;) {
            if (mode != Mode::decoupled) {
                wait(start);
                qk.reset();
                continue;
            }
            b.clear();
            b.cycles = batch_cycles;
            b.add(0x08, batch_cycles);
            b.add(0x04, batch_cycles / 4);
            pmu->report(b, qk.get_local_time());
            qk.inc(sc_time(static_cast<double>(batch_cycles), SC_NS));
            if (qk.need_sync()) qk.sync();
        }
    }
    // The clocked model of the same cycle counter: one process activation per 1 ns cycle.
    void clocked_tick() {
        if (mode != Mode::clocked) {
            next_trigger(start);
            return;
        }
        clocked_counter.add(1);
        next_trigger(1, SC_NS);
    }
};

std::unique_ptr<pmusim::sc::PmuModule> g_mod;
std::unique_ptr<Bench> g_bench;
std::unique_ptr<sc_signal<bool>> g_irq, g_dbg, g_halt, g_sleep;

void run_systemc(benchmark::State& state, Mode mode, uint64_t batch) {
    const double run_ns = 1e6;  // 1 ms of simulated time per iteration
    g_bench->mode = mode;
    g_bench->batch_cycles = batch;
    for (auto _ : state) {
        g_bench->start.notify(SC_ZERO_TIME);
        sc_start(sc_time(run_ns, SC_NS));
    }
    g_bench->mode = Mode::idle;
    g_bench->start.notify(SC_ZERO_TIME);
    sc_start(sc_time(2, SC_NS));  // let the processes go idle
    state.counters["cycles_per_s"] =
        benchmark::Counter(run_ns * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["peak_rss_MiB"] = peak_rss_mib();
}

void BM_PlainBulkAdvance(benchmark::State& state) {
    auto pmu = pmusim::find_platform("cortex-a53")->make({});
    program(*pmu);
    const uint64_t batch = static_cast<uint64_t>(state.range(0));
    pmusim::EventBatch b;
    for (auto _ : state) {
        b.clear();
        b.cycles = batch;
        b.add(0x08, batch);
        b.add(0x04, batch / 4);
        benchmark::DoNotOptimize(pmu->advance(b));
    }
    state.counters["cycles_per_s"] =
        benchmark::Counter(static_cast<double>(batch * state.iterations()), benchmark::Counter::kIsRate);
    state.counters["peak_rss_MiB"] = peak_rss_mib();
}
BENCHMARK(BM_PlainBulkAdvance)->Arg(1)->Arg(100)->Arg(10000);

void BM_SystemCDecoupled(benchmark::State& state) {
    run_systemc(state, Mode::decoupled, static_cast<uint64_t>(state.range(0)));
}
BENCHMARK(BM_SystemCDecoupled)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_SystemCClockedPerCycle(benchmark::State& state) { run_systemc(state, Mode::clocked, 1); }
BENCHMARK(BM_SystemCClockedPerCycle)->Unit(benchmark::kMillisecond);

void BM_ModelRegisterRead(benchmark::State& state) {
    pmusim::Pmu& pmu = g_mod->pmu();
    pmusim::AccessContext ctx;
    ctx.origin = pmusim::AccessOrigin::memory_mapped;
    for (auto _ : state) benchmark::DoNotOptimize(pmu.read_offset(0xE04, ctx).value_read);
    state.counters["accesses_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ModelRegisterRead);

// One 32-bit access through the TLM socket (b_transport), as an initiator on the bus makes it.
void socket_access(benchmark::State& state, tlm::tlm_command cmd, uint64_t addr, uint32_t value) {
    tlm::tlm_generic_payload t;
    unsigned char buf[4];
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(buf);
    t.set_data_length(4);
    t.set_streaming_width(4);
    sc_time delay;
    for (auto _ : state) {
        for (unsigned i = 0; i < 4; ++i) buf[i] = static_cast<unsigned char>(value >> (8 * i));
        delay = SC_ZERO_TIME;
        g_bench->socket->b_transport(t, delay);
        benchmark::DoNotOptimize(buf[0]);
    }
    if (t.get_response_status() != tlm::TLM_OK_RESPONSE) state.SkipWithError("the access was not accepted");
    state.counters["accesses_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["peak_rss_MiB"] = peak_rss_mib();
}

void BM_SocketRegisterRead(benchmark::State& state) { socket_access(state, tlm::TLM_READ_COMMAND, 0xE04, 0); }  // PMCR_EL0
BENCHMARK(BM_SocketRegisterRead);

// A driver's reload of an event counter (PMEVCNTR0_EL0 at 0x000), as after each overflow when sampling.
void BM_SocketRegisterWrite(benchmark::State& state) {
    socket_access(state, tlm::TLM_WRITE_COMMAND, 0x000, 0x80000000u);
}
BENCHMARK(BM_SocketRegisterWrite);

}  // namespace

extern "C" int sc_main(int, char*[]) { return 2; }  // never called: this program has its own main

int main(int argc, char** argv) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(1000, SC_NS));
    g_mod = pmusim::sc::make_module("pmu", *pmusim::find_platform("cortex-a53"), {});
    program(g_mod->pmu());
    g_bench = std::make_unique<Bench>("bench");
    g_irq = std::make_unique<sc_signal<bool>>("irq", true);
    g_dbg = std::make_unique<sc_signal<bool>>("dbg");
    g_halt = std::make_unique<sc_signal<bool>>("halt");
    g_sleep = std::make_unique<sc_signal<bool>>("sleep");
    auto* arm = dynamic_cast<pmusim::sc::ArmPmuModule*>(g_mod.get());
    g_bench->socket.bind(arm->socket);
    g_bench->pmu.bind(g_mod->event_export);
    g_mod->irq_out.bind(*g_irq);
    g_mod->debug_in.bind(*g_dbg);
    g_mod->halt_in.bind(*g_halt);
    g_mod->sleep_in.bind(*g_sleep);
    sc_start(SC_ZERO_TIME);  // elaborate
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
