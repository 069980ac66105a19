// Embedding pmusim's SystemC module: two cores' PMUs in one platform. Neither socket is bound (this platform
// reaches the PMUs through system registers only); both trace into one VCD, each under its own name.
#include <cstdio>
#include <memory>

#include <systemc>

#include <pmusim/model/sc/pmu_module.hpp>

using namespace sc_core;

// A core model: programs its PMU through the ISS interface, then reports 1000 cycles of execution.
struct Core : sc_module {
    sc_port<pmusim::sc::SysRegIf> sysreg{"sysreg"};
    sc_port<pmusim::sc::PmuEventIf> events{"events"};
    uint64_t cycles;
    SC_HAS_PROCESS(Core);
    Core(sc_module_name n, uint64_t c) : sc_module(n), cycles(c) { SC_THREAD(run); }
    void msr(uint32_t key, uint64_t value) {
        pmusim::sc::SysRegRequest req;
        req.space = pmusim::EncodingSpace::a64_sysreg;
        req.key = key;
        req.is_write = true;
        req.value = value;
        sysreg->sysreg_access(req, SC_ZERO_TIME);
    }
    void run() {
        msr(pmusim::a64_key(3, 3, 9, 12, 1), 0x80000000);  // MSR PMCNTENSET_EL0: the cycle counter
        msr(pmusim::a64_key(3, 3, 9, 12, 0), 0x1);         // MSR PMCR_EL0: E
        pmusim::EventBatch b;
        b.cycles = cycles;
        events->report(b, SC_ZERO_TIME);
        wait(sc_time(static_cast<double>(cycles), SC_NS));
    }
};

struct Platform : sc_module {
    std::unique_ptr<pmusim::sc::PmuModule> pmu0, pmu1;
    Core core0{"core0", 1000}, core1{"core1", 250};
    sc_signal<bool> irq0{"irq0", true}, irq1{"irq1", true}, low{"low"};
    explicit Platform(sc_module_name n) : sc_module(n) {
        const pmusim::Platform& a53 = *pmusim::find_platform("cortex-a53");
        pmu0 = pmusim::sc::make_module("pmu0", a53, {});
        pmu1 = pmusim::sc::make_module("pmu1", a53, {});
        pmu0->irq_out.bind(irq0);
        pmu1->irq_out.bind(irq1);
        for (auto* m : {pmu0.get(), pmu1.get()}) {
            m->debug_in.bind(low);  // the core-state inputs: tie them low when nothing drives them
            m->halt_in.bind(low);
            m->sleep_in.bind(low);
        }
        core0.sysreg.bind(pmu0->sysreg_export);
        core0.events.bind(pmu0->event_export);
        core1.sysreg.bind(pmu1->sysreg_export);
        core1.events.bind(pmu1->event_export);
    }
};

int sc_main(int, char*[]) {
    Platform top("top");
    sc_trace_file* tf = sc_create_vcd_trace_file("sc_two_pmus");  // top.pmu0.PMCCNTR_EL0, top.pmu1.PMCCNTR_EL0, ...
    top.pmu0->trace(tf);
    top.pmu1->trace(tf);
    sc_start();
    sc_close_vcd_trace_file(tf);
    pmusim::AccessContext el1;
    int failures = 0;
    for (auto [m, want] : {std::pair{top.pmu0.get(), 1000ull}, std::pair{top.pmu1.get(), 250ull}}) {
        pmusim::Pmu& pmu = m->pmu();
        const uint64_t got = pmu.read(*pmu.bank().find("PMCCNTR_EL0"), el1).value_read;
        std::printf("%s PMCCNTR_EL0 = %llu\n", m->name(), static_cast<unsigned long long>(got));
        failures += got != want;
    }
    return failures ? 1 : 0;
}
