// The interrupt request rises at the exact cycle of the overflow, whatever the quantum of the core's temporal
// decoupling: with a 1 ns clock and a counter preloaded 1000 counts short of overflow, 1000 ns after counting
// starts. Usage: sc_irq_timing PLATFORM QUANTUM_NS [STEP_CYCLES]
//   cortex-a53: PMCCNTR preloaded to 2^32 - 1000 (PMCR.LC = 0), nPMUIRQ;
//   arm1156:    PMN0 counting every cycle (0xFF) preloaded to 2^32 - 1000, routed to nPMUFIQ by FC0;
//   cortex-a7:  PMCCNTR with the 64-cycle divider preloaded to 2^32 - 10: 640 ns.
#include <cstdlib>

#include <systemc>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "model/sc/pmu_module.hpp"
#include "tests/sc/sc_check.hpp"

using namespace sc_core;
using pmusim::sctest::tally;

namespace {

struct Core : sc_module {
    sc_port<pmusim::sc::PmuEventIf> pmu{"pmu"};
    uint64_t step = 7;
    uint64_t total = 3000;
    SC_HAS_PROCESS(Core);
    explicit Core(sc_module_name n) : sc_module(n) { SC_THREAD(run); }
    void run() {
        tlm_utils::tlm_quantumkeeper qk;
        qk.reset();
        pmusim::EventBatch b;
        for (uint64_t done = 0; done < total; done += step) {
            b.clear();
            b.cycles = step;
            pmu->report(b, qk.get_local_time());
            qk.inc(sc_time(static_cast<double>(step), SC_NS));
            if (qk.need_sync()) qk.sync();
        }
        qk.sync();
    }
};

struct Recorder : sc_module {
    sc_in<bool> line{"line"};
    sc_time fell = SC_ZERO_TIME;
    unsigned edges = 0;
    SC_HAS_PROCESS(Recorder);
    explicit Recorder(sc_module_name n) : sc_module(n) {
        SC_METHOD(on_change);
        sensitive << line;
        dont_initialize();
    }
    void on_change() {
        ++edges;
        if (!line.read()) fell = sc_time_stamp();  // active low: requesting
    }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
    if (argc < 3) {
        std::cerr << "usage: sc_irq_timing PLATFORM QUANTUM_NS [STEP_CYCLES]\n";
        return 2;
    }
    const std::string platform = argv[1];
    const double quantum = std::atof(argv[2]);
    tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(quantum, SC_NS));
    auto mod = pmusim::sc::make_module("pmu", *pmusim::find_platform(platform), {});
    sc_signal<bool> irq("irq", true), fiq("fiq", true), dbg("dbg"), halt("halt"), sleep("sleep");
    mod->irq_out.bind(irq);
    mod->debug_in.bind(dbg);
    mod->halt_in.bind(halt);
    mod->sleep_in.bind(sleep);
    auto bus = pmusim::sctest::bind_idle_bus(*mod);
    Recorder rec("rec");
    Core core("core");
    if (argc > 3) core.step = std::strtoull(argv[3], nullptr, 10);
    core.pmu.bind(mod->event_export);
    pmusim::Pmu& pmu = mod->pmu();
    pmusim::AccessContext el1;
    auto w = [&](const char* reg, uint64_t v) { pmu.write(*pmu.bank().find(reg), v, el1); };
    sc_time want;
    if (platform == "arm1156") {
        auto* a11 = dynamic_cast<pmusim::sc::Arm11PmuModule*>(mod.get());
        a11->fiq_out.bind(fiq);
        rec.line.bind(fiq);
        w("PMN0", 0xFFFFFC18);
        w("PMNC", 0x1FF00011);  // FC0, EvtCount0 = 0xFF (every cycle), EC0, E
        want = sc_time(1000, SC_NS);
    } else if (platform == "cortex-a7") {
        rec.line.bind(irq);
        w("PMCCNTR", 0xFFFFFFF6);  // 10 divided counts short
        w("PMINTENSET", 0x80000000);
        w("PMCNTENSET", 0x80000000);
        w("PMCR", 0x9);  // E, D
        want = sc_time(640, SC_NS);
    } else {
        rec.line.bind(irq);
        w("PMCCNTR_EL0", 0xFFFFFC18);
        w("PMINTENSET_EL1", 0x80000000);
        w("PMCNTENSET_EL0", 0x80000000);
        w("PMCR_EL0", 0x1);
        want = sc_time(1000, SC_NS);
    }
    sc_start();
    SC_CHECK_EQ(rec.edges, 1u, "one edge");
    SC_CHECK_EQ(rec.fell, want, "request asserted at the overflow cycle");
    return tally().finish();
}
