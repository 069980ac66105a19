// Embedding PMU modules in a platform: two ARM modules whose memory-mapped sockets nobody binds (the platform
// reaches them through system registers only) elaborate and run, and trace into one VCD under their own names.
// Usage: sc_embed OUTPUT_BASENAME
#include <fstream>
#include <sstream>
#include <string>

#include <systemc>

#include "model/sc/pmu_module.hpp"
#include "tests/sc/sc_check.hpp"

using namespace sc_core;
using pmusim::sctest::tally;

namespace {

// Two cores, each with its own PMU; the sockets stay unbound.
struct Soc : sc_module {
    std::unique_ptr<pmusim::sc::PmuModule> pmu0, pmu1;
    sc_signal<bool> irq0{"irq0", true}, irq1{"irq1", true}, low{"low"};
    SC_HAS_PROCESS(Soc);
    explicit Soc(sc_module_name n) : sc_module(n) {
        pmu0 = pmusim::sc::make_module("cpu0_pmu", *pmusim::find_platform("cortex-a53"), {});
        pmu1 = pmusim::sc::make_module("cpu1_pmu", *pmusim::find_platform("cortex-a53"), {});
        pmu0->irq_out.bind(irq0);
        pmu1->irq_out.bind(irq1);
        for (auto* m : {pmu0.get(), pmu1.get()}) {
            m->debug_in.bind(low);
            m->halt_in.bind(low);
            m->sleep_in.bind(low);
        }
        SC_THREAD(run);
    }
    void run() {
        pmusim::EventBatch b;
        b.cycles = 20;
        pmu0->report(b, SC_ZERO_TIME);  // 20 cycles on core 0; core 1 reports nothing
        wait(20, SC_NS);
    }
};

// The VCD identifier of `var` declared inside `$scope module scope`, and the value last written to it.
std::string last_value(const std::string& vcd, const std::string& scope, const std::string& var) {
    std::istringstream in(vcd);
    std::string id, current, value;
    for (std::string line; std::getline(in, line);) {
        std::istringstream w(line);
        std::string a, b, c, d, e;
        w >> a >> b >> c >> d >> e;
        if (a == "$scope") current = c;
        else if (a == "$var" && current == scope && e == var) id = d;
        else if (!id.empty() && a.size() > 1 && a[0] == 'b' && b == id) value = a.substr(1);
    }
    return id.empty() ? "(not traced)" : value;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
    const std::string base = argc > 1 ? argv[1] : "sc_embed_test";
    Soc soc("soc");
    SC_CHECK_EQ(std::string(soc.pmu0->name()), std::string("soc.cpu0_pmu"), "the module sits in the platform's hierarchy");
    pmusim::AccessContext el1;
    pmusim::Pmu& pmu = soc.pmu0->pmu();
    pmu.write(*pmu.bank().find("PMCNTENSET_EL0"), 0x80000000, el1);  // PMCCNTR enabled
    pmu.write(*pmu.bank().find("PMCR_EL0"), 0x1, el1);              // PMCR_EL0.E
    sc_trace_file* tf = sc_create_vcd_trace_file(base.c_str());
    tf->set_time_unit(1, SC_NS);
    soc.pmu0->trace(tf);
    soc.pmu1->trace(tf);
    sc_start();  // elaboration succeeds with both sockets unbound
    sc_close_vcd_trace_file(tf);

    std::ifstream in(base + ".vcd");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string vcd = ss.str();
    // Core 0 counted its 20 cycles (PMCCNTR_EL0 = 20 = 0b10100); core 1's counter stayed at its reset value 0.
    SC_CHECK_EQ(last_value(vcd, "cpu0_pmu", "PMCCNTR_EL0"), std::string("10100"), "cpu0 PMCCNTR_EL0 in its own scope");
    SC_CHECK_EQ(last_value(vcd, "cpu1_pmu", "PMCCNTR_EL0"), std::string("0"), "cpu1 PMCCNTR_EL0 in its own scope");
    SC_CHECK_EQ(pmu.read(*pmu.bank().find("PMCCNTR_EL0"), el1).value_read, 20u, "cpu0 read back");
    return tally().finish();
}
