#include "testbench/virtual_platform.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "testbench/plot.hpp"
#include "testbench/waveform.hpp"
#include "isa/number.hpp"
#include "traces/output_file.hpp"

namespace pmusim::vp {

using sc_core::sc_time;
using sc_core::SC_NS;

bool SyntheticLoop::next(RetiredBlock& b) {
    if (left_ == 0) return false;
    // Slots 0-4 ALU (one block of 5), 5-6 loads (one block of 2), 7 the loop branch.
    static const std::pair<isa::InsnClass, uint64_t> body[] = {
        {isa::InsnClass::alu, 5}, {isa::InsnClass::load, 2}, {isa::InsnClass::branch, 1}};
    const auto& [cls, n] = body[slot_];
    slot_ = (slot_ + 1) % 3;
    b.insn.cls = cls;
    b.count = std::min(n, left_);
    b.cycles = b.count * cpi_;
    left_ -= b.count;
    return true;
}

InterruptController::InterruptController(sc_core::sc_module_name name, bool active_low, bool has_fiq)
    : sc_module(name), irq_in("irq_in"), fiq_in("fiq_in"), active_low_(active_low) {
    SC_HAS_PROCESS(InterruptController);
    SC_METHOD(on_irq);
    sensitive << irq_in;
    dont_initialize();
    if (has_fiq) {
        SC_METHOD(on_fiq);
        sensitive << fiq_in;
        dont_initialize();
    }
}

void InterruptController::on_irq() {
    log_.push_back({sc_core::sc_time_stamp(), "irq", irq_in.read() != active_low_});
}

void InterruptController::on_fiq() {
    log_.push_back({sc_core::sc_time_stamp(), "fiq", fiq_in.read() != active_low_});
}

CoreModel::CoreModel(sc_core::sc_module_name name, const Platform& platform, InstructionSource& source, sc_time period)
    : sc_module(name), pmu("pmu"), platform_(platform), source_(source), period_(period) {
    SC_HAS_PROCESS(CoreModel);
    SC_THREAD(run);
}

void CoreModel::run() {
    if (before_run) before_run();
    tlm_utils::tlm_quantumkeeper qk;
    qk.reset();
    RetiredBlock block;
    EventBatch batch;
    while (source_.next(block)) {
        batch.clear();
        batch.cycles = block.cycles;
        platform_.retire(block.insn, block.count, batch);
        if (report_hook) report_hook(batch, qk.get_local_time());
        else pmu->report(batch, qk.get_local_time());
        instructions_ += block.count;
        cycles_ += block.cycles;
        qk.inc(period_ * static_cast<double>(block.cycles));
        if (qk.need_sync()) qk.sync();
    }
    qk.sync();
}

namespace {

// SystemC prints a banner when its kernel starts unless told not to; pmusim's output stays its own.
// Its info reports ("simulation stopped by user") and warnings are about the kernel pmusim drives, not the
// user's input: they are not pmusim's to print either. Errors still become exceptions (start_simulation).
void quiet_systemc() {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
}

// The clock cycle a SystemC time falls on.
uint64_t cycle_at(const sc_time& t, const sc_time& period) { return static_cast<uint64_t>(std::llround(t / period)); }

// The system bus: an initiator socket bound to an ARM PMU's memory-mapped view.
struct Bus : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Bus> socket{"socket"};
    explicit Bus(sc_core::sc_module_name n) : sc_module(n) {}
};

// Binds what every module needs: request lines to signals, core-state inputs to quiet signals, and a bus to
// the memory-mapped view where there is one.
struct Wiring {
    // The request lines start at their idle level: no edge at time 0.
    explicit Wiring(bool active_low) : irq("irq", active_low), fiq("fiq", active_low) {}
    sc_core::sc_signal<bool> irq, fiq, debug{"debug"}, halt{"halt"}, sleep{"sleep"};
    std::unique_ptr<Bus> bus;
    void bind(sc::PmuModule& m) {
        if (auto* arm = dynamic_cast<sc::ArmPmuModule*>(&m)) {
            bus = std::make_unique<Bus>("bus");
            bus->socket.bind(arm->socket);
        }
        m.irq_out.bind(irq);
        m.debug_in.bind(debug);
        m.halt_in.bind(halt);
        m.sleep_in.bind(sleep);
        if (auto* a11 = dynamic_cast<sc::Arm11PmuModule*>(&m)) a11->fiq_out.bind(fiq);
    }
};

// Runs a body in a SystemC thread, then stops the simulation.
struct ThreadHost : sc_core::sc_module {
    std::function<void()> body;
    explicit ThreadHost(sc_core::sc_module_name n) : sc_module(n) {
        SC_HAS_PROCESS(ThreadHost);
        SC_THREAD(run);
    }
    void run() {
        body();
        sc_core::sc_stop();
    }
};

// An advance hook for code running in a SystemC thread: the module advances in bulk (placing any interrupt edge
// at its cycle) and SystemC time follows the batch's cycles. With a waveform, the recorder applies the batch
// (in parts at its sample points) and writes what changed at its times.
std::function<AdvanceResult(const EventBatch&)> timed_advance(sc::PmuModule& m, wave::Recorder* rec = nullptr) {
    return [&m, rec](const EventBatch& b) {
        const sc_time period = m.config().clock_period;
        AdvanceResult r;
        if (rec) {
            r = rec->advance(m.pmu(), b, cycle_at(sc_core::sc_time_stamp(), period),
                             [&m, &period](const EventBatch& part, uint64_t offset) {
                                 return m.advance(part, period * static_cast<double>(offset));
                             });
        } else {
            r = m.advance(b, sc_core::SC_ZERO_TIME);
        }
        sc_core::wait(period * static_cast<double>(b.cycles));
        return r;
    };
}

// The waveform's clock period in picoseconds.
uint64_t period_ps(const sc::PmuModule& m) {
    return static_cast<uint64_t>(std::llround(m.config().clock_period / sc_time(1, sc_core::SC_PS)));
}

// Runs the simulation to its end; a SystemC error is reported, not a crash.
bool start_simulation(std::ostream& err) {
    try {
        sc_core::sc_start();
        return true;
    } catch (const std::exception& e) {
        err << fmt::format("pmusim: SystemC: {}\n", e.what());
        return false;
    }
}

}  // namespace

int run_vp(const VpOptions& o, std::ostream& out, std::ostream& err) {
    quiet_systemc();
    const Platform* p = find_platform(o.platform);
    if (!p) {
        err << fmt::format("pmusim: unknown platform '{}'\n", o.platform);
        return 2;
    }
    if (o.period_ns <= 0 || o.quantum_ns <= 0 || o.cpi == 0) {
        err << "pmusim: --period, --quantum and --cpi must be positive\n";
        return 2;
    }
    std::string setup_text;
    if (!o.setup.empty()) {
        std::string why;
        if (!read_script_file(o.setup, setup_text, why)) {
            err << fmt::format("{}: error: cannot open the setup script: {}\n", o.setup, why);
            return 2;
        }
    }
    sc::ModuleConfig mc;
    mc.clock_period = sc_time(o.period_ns, SC_NS);
    std::unique_ptr<sc::PmuModule> pmu;
    try {
        pmu = sc::make_module("pmu", *p, o.options, mc);
    } catch (const std::invalid_argument& e) {
        err << fmt::format("pmusim: platform {}: {}\n", p->name, e.what());
        return 2;
    }
    tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(o.quantum_ns, SC_NS));
    const bool active_low = pmu->config().irq_active_low;
    Wiring wires(active_low);
    wires.bind(*pmu);
    InterruptController intc("intc", active_low, pmu->pmu().has_fiq());
    intc.irq_in.bind(wires.irq);
    intc.fiq_in.bind(wires.fiq);
    SyntheticLoop loop(o.instructions, o.cpi);
    CoreModel core("core", *p, loop, mc.clock_period);
    core.pmu.bind(pmu->event_export);

    // The setup script runs in the core's thread at time 0, on the module's PMU.
    ScriptConfig scfg;
    scfg.quiet = o.quiet;
    std::ostringstream setup_out;
    ScriptRunner setup(scfg, setup_out, err);
    int setup_status = 0;
    std::unique_ptr<wave::Recorder> rec;
    if (!o.vcd.empty() || !o.plot.empty()) {
        try {
            rec = std::make_unique<wave::Recorder>(o.vcd, o.vcd_period, period_ps(*pmu));
        } catch (const std::runtime_error& e) {
            err << fmt::format("pmusim: {}\n", e.what());
            return 2;
        }
        rec->add(pmu->pmu(), pmu->name());
        if (!o.plot.empty()) rec->keep_history();
        // The core's batches start at its local time, ahead of SystemC's under temporal decoupling.
        core.report_hook = [&](const EventBatch& b, const sc_time& local) {
            rec->advance(pmu->pmu(), b, cycle_at(sc_core::sc_time_stamp() + local, mc.clock_period),
                         [&](const EventBatch& part, uint64_t offset) {
                             return pmu->advance(part, local + mc.clock_period * static_cast<double>(offset));
                         });
        };
    }
    core.before_run = [&] {
        if (setup_text.empty()) return;
        setup.attach(*p, pmu->pmu());
        setup.set_advance_hook(timed_advance(*pmu, rec.get()));
        setup_status = setup.run_text(setup_text, o.setup);
    };
    if (rec) rec->start();
    if (!start_simulation(err)) return 2;
    if (setup_status != 0) {  // no waveform: the recorder removes its temporary file
        err << fmt::format("pmusim: the setup script {} failed (status {})\n", o.setup, setup_status);
        return setup_status;
    }
    if (rec) {
        try {
            rec->finish(cycle_at(sc_core::sc_time_stamp(), mc.clock_period));
            if (!o.plot.empty())
                plot::write_file(o.plot, plot::svg(rec->figure(fmt::format("pmusim vp on {}: {} instructions, CPI {}",
                                                                            p->name, o.instructions, o.cpi))));
        } catch (const std::runtime_error& e) {
            err << fmt::format("pmusim: {}\n", e.what());
            return 2;
        }
    }
    out << setup_out.str();
    out << fmt::format("{}: {} instructions in {} cycles ({} ns period, {} ns quantum), ended at {}\n", p->name,
                       core.instructions(), core.cycles(), o.period_ns, o.quantum_ns,
                       sc_core::sc_time_stamp().to_string());
    out << fmt::format("interrupts: {}\n", intc.log().size());
    for (const auto& e : intc.log())
        out << fmt::format("  {:>14}  {}  {}\n", e.at.to_string(), e.line, e.requesting ? "asserted" : "released");
    // The registers the core implements, one line a state word (wave::state_words: no AArch32 view of an
    // AArch64 register, no counter n >= N).
    out << "registers:\n";
    for (const wave::StateWord& w : wave::state_words(pmu->pmu()))
        if (w.first->readable) out << fmt::format("  {:<16} {:#0{}x}\n", w.first->name, w.value(), w.width / 4 + 2);
    return 0;
}

replay::Result run_replay_systemc(replay::Options o, const std::string& vcd, uint64_t vcd_period, std::ostream& err) {
    quiet_systemc();
    const Platform* p = find_platform(o.platform);
    if (!p) throw std::invalid_argument(fmt::format("unknown platform '{}'", o.platform));
    sc::ModuleConfig mc;
    auto pmu = sc::make_module("pmu", *p, o.platform_options, mc);
    Wiring wires(pmu->config().irq_active_low);
    wires.bind(*pmu);
    wave::Recorder rec(vcd, vcd_period, period_ps(*pmu));
    rec.add(pmu->pmu(), pmu->name());
    o.pmu = &pmu->pmu();
    o.advance_hook = timed_advance(*pmu, &rec);
    o.sample_period = rec.sample_period();  // batches end at the sample points
    replay::Result result;
    std::exception_ptr failure;
    ThreadHost host("replay");
    host.body = [&] {
        try {
            result = replay::run(o);
        } catch (...) {
            failure = std::current_exception();
        }
    };
    rec.start();
    const bool ok = start_simulation(err);
    if (failure) std::rethrow_exception(failure);  // the recorder removes its temporary file; `vcd` is untouched
    if (!ok) throw std::runtime_error("the SystemC simulation failed");
    // Interrupted (Ctrl-C): a part of a run replaces no file; the recorder removes its temporary file.
    if (result.interrupted) return result;
    rec.finish(cycle_at(sc_core::sc_time_stamp(), pmu->config().clock_period));
    return result;
}

int run_script_systemc(const ScriptConfig& cfg, const std::string& path, const std::string& vcd, uint64_t vcd_period,
                       const std::string& plot_file, std::ostream& out, std::ostream& err) {
    quiet_systemc();
    std::string text, why;
    if (!read_script_file(path, text, why)) {
        err << fmt::format("{}: error: {}\n", path, why);
        return script_malformed;
    }
    const std::string file = script_name(path);  // the script's name in messages
    PlatformOptions opts;
    const Platform* p = platform_before_run(cfg, text, file, "with --vcd", opts, err);
    if (!p) return script_malformed;
    sc::ModuleConfig mc;
    std::unique_ptr<sc::PmuModule> pmu;
    try {
        pmu = sc::make_module("pmu", *p, opts, mc);
    } catch (const std::invalid_argument& e) {
        err << fmt::format("{}: error: platform {}: {}\n", file, p->name, e.what());
        return script_malformed;
    }
    Wiring wires(pmu->config().irq_active_low);
    wires.bind(*pmu);
    ScriptConfig rc = cfg;
    rc.options = opts;
    ScriptRunner runner(rc, out, err);
    runner.attach(*p, pmu->pmu());
    std::unique_ptr<wave::Recorder> rec;
    try {
        rec = std::make_unique<wave::Recorder>(vcd, vcd_period, period_ps(*pmu));
    } catch (const std::runtime_error& e) {
        err << fmt::format("pmusim: {}\n", e.what());
        return script_malformed;
    }
    rec->add(pmu->pmu(), pmu->name());
    if (!plot_file.empty()) rec->keep_history();
    runner.set_advance_hook(timed_advance(*pmu, rec.get()));
    int status = 0;
    ThreadHost host("script");
    host.body = [&] { status = runner.run_text(text, file); };
    rec->start();
    // A malformed script or a failed simulation leaves no file: the recorder removes only its temporary file.
    if (!start_simulation(err) || status == script_malformed) return script_malformed;
    try {
        rec->finish(cycle_at(sc_core::sc_time_stamp(), pmu->config().clock_period));
        if (!plot_file.empty()) plot::write_file(plot_file, plot::svg(rec->figure(fmt::format("{} on {}", file, p->name))));
    } catch (const std::runtime_error& e) {
        err << fmt::format("pmusim: {}\n", e.what());
        return script_malformed;
    }
    return status;
}

}  // namespace pmusim::vp
