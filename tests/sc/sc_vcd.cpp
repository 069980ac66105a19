// A VCD waveform of a PMU module: the counters, the overflow flags and the request line, with the edge at its
// cycle. Usage: sc_vcd OUTPUT_BASENAME
#include <fstream>
#include <sstream>
#include <string>

#include <systemc>

#include "model/sc/pmu_module.hpp"
#include "tests/sc/sc_check.hpp"

using namespace sc_core;
using pmusim::sctest::tally;

namespace {

struct Core : sc_module {
    sc_port<pmusim::sc::PmuEventIf> pmu{"pmu"};
    SC_HAS_PROCESS(Core);
    explicit Core(sc_module_name n) : sc_module(n) { SC_THREAD(run); }
    void run() {
        pmusim::EventBatch b;
        b.cycles = 20;
        pmu->report(b, SC_ZERO_TIME);  // 20 cycles from time 0; the cycle counter overflows on the 10th
        wait(20, SC_NS);
    }
};

// The VCD identifier of a traced variable, from its $var line.
std::string id_of(const std::string& vcd, const std::string& name, unsigned& width) {
    std::istringstream in(vcd);
    for (std::string line; std::getline(in, line);) {
        std::istringstream w(line);
        std::string var, kind, id, n;
        if (w >> var >> kind >> width >> id >> n && var == "$var" && n == name) return id;
    }
    return "";
}

}  // namespace

int sc_main(int argc, char* argv[]) {
    const std::string base = argc > 1 ? argv[1] : "sc_vcd_test";
    auto mod = pmusim::sc::make_module("pmu", *pmusim::find_platform("cortex-a53"), {});
    sc_signal<bool> irq("irq", true), dbg("dbg"), halt("halt"), sleep("sleep");
    mod->irq_out.bind(irq);
    mod->debug_in.bind(dbg);
    mod->halt_in.bind(halt);
    mod->sleep_in.bind(sleep);
    auto bus = pmusim::sctest::bind_idle_bus(*mod);
    Core core("core");
    core.pmu.bind(mod->event_export);
    pmusim::Pmu& pmu = mod->pmu();
    pmusim::AccessContext el1;
    auto w = [&](const char* reg, uint64_t v) { pmu.write(*pmu.bank().find(reg), v, el1); };
    w("PMCCNTR_EL0", 0xFFFFFFF6);  // 10 short of the bit-31 overflow
    w("PMINTENSET_EL1", 0x80000000);
    w("PMCNTENSET_EL0", 0x80000000);
    w("PMCR_EL0", 0x1);
    sc_trace_file* tf = sc_create_vcd_trace_file(base.c_str());
    tf->set_time_unit(1, SC_NS);
    mod->trace(tf);
    sc_start();
    sc_close_vcd_trace_file(tf);

    std::ifstream in(base + ".vcd");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string vcd = ss.str();
    unsigned width = 0;
    const std::string ccntr = id_of(vcd, "PMCCNTR_EL0", width);
    SC_CHECK_EQ(ccntr.empty(), false, "PMCCNTR_EL0 traced");
    SC_CHECK_EQ(width, 64u, "PMCCNTR_EL0 is 64 bits wide");
    const std::string ovs = id_of(vcd, "PMOVSCLR_EL0", width);
    SC_CHECK_EQ(ovs.empty(), false, "the overflow flags traced");
    SC_CHECK_EQ(width, 32u, "flags 32 bits wide");
    const std::string req = id_of(vcd, "irq_request", width);
    SC_CHECK_EQ(req.empty(), false, "irq_request traced");
    SC_CHECK_EQ(id_of(vcd, "PMEVCNTR6_EL0", width).empty(), true, "unimplemented counters are not traced");
    // The request rises at #10 and not before; the counter holds 2^32 + 10 = 0x10000000A at the end.
    const size_t t10 = vcd.find("\n#10\n");
    SC_CHECK_EQ(t10 != std::string::npos, true, "a value change at 10 ns");
    if (t10 != std::string::npos) {
        const size_t next = vcd.find("\n#", t10 + 1);
        const std::string block = vcd.substr(t10, next == std::string::npos ? std::string::npos : next - t10);
        SC_CHECK_EQ(block.find("\n1" + req) != std::string::npos, true, "irq_request 1 at 10 ns");
        SC_CHECK_EQ(vcd.substr(0, t10).find("\n1" + req) == std::string::npos, true, "irq_request 0 before 10 ns");
    }
    SC_CHECK_EQ(vcd.find("b100000000000000000000000000001010 " + ccntr) != std::string::npos, true,
                "PMCCNTR_EL0 = 0x10000000A");
    return tally().finish();
}
