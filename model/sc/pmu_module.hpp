// SystemC/TLM-2.0 wrappers of the plain-C++ PMU models. They forward to the model and do no modelling of their
// own: the PMU is loosely timed and advanced in bulk; interrupt edges are placed at the exact cycle of the
// overflow, whatever the quantum of the initiator's temporal decoupling.
#pragma once
#include <deque>
#include <memory>
#include <string>

#include <systemc>
#include <tlm>
#include <functional>

#include <tlm_utils/simple_target_socket.h>

#include "model/sc/interfaces.hpp"
#include "platforms/platform.hpp"

namespace pmusim::sc {

struct ModuleConfig {
    sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);
    sc_core::sc_time access_latency = sc_core::SC_ZERO_TIME;  // added to b_transport's delay per access
    bool irq_active_low = true;  // nPMUIRQ / nPMUFIQ are active low on the ARM cores
    // Called with the full access record (per-field effects, diagnostics) of every access through the TLM socket:
    // a checker's or a trace's hook. Unset, the socket builds only what the payload returns, its status and data
    // (AccessContext::detail off), which is several times faster.
    std::function<void(const AccessRecord&)> on_socket_access;
};

// What every family's module has: the ISS interface, the event input, the core-state inputs and the
// interrupt request output.
class PmuModule : public sc_core::sc_module, public SysRegIf, public PmuEventIf {
public:
    sc_core::sc_export<SysRegIf> sysreg_export;
    sc_core::sc_export<PmuEventIf> event_export;
    sc_core::sc_out<bool> irq_out;   // nPMUIRQ (electrical level: low = requesting when active low)
    sc_core::sc_in<bool> debug_in;   // ARM Debug state; VeeR: debug halt (db-halt)
    sc_core::sc_in<bool> halt_in;    // VeeR: pmu/fw-halt
    sc_core::sc_in<bool> sleep_in;   // VeeR: Sleep requested by the SoC

    PmuModule(sc_core::sc_module_name name, std::unique_ptr<Pmu> pmu, const ModuleConfig& cfg);

    Pmu& pmu() { return *pmu_; }
    const ModuleConfig& config() const { return cfg_; }
    bool irq_level() const { return irq_level_; }  // the request as currently driven (true = requesting)

    AccessRecord sysreg_access(const SysRegRequest& req, const sc_core::sc_time& local_offset) override;
    void report(const EventBatch& batch, const sc_core::sc_time& local_offset) override { advance(batch, local_offset); }
    // As report(), returning where in the batch a request rose.
    AdvanceResult advance(const EventBatch& batch, const sc_core::sc_time& local_offset);
    void set_exec_context(const ExecContext& ctx) override { pmu_->set_exec_context(ctx); }

    // Traces every state word of the PMU (counters, flags, enables, control) and the request lines, each under
    // the module's own hierarchical name ("top.pmu0.PMCCNTR_EL0"), so that several modules share one file.
    virtual void trace(sc_core::sc_trace_file* tf);

protected:
    // Records the request levels after a change made at `at` (an access, or the end of a batch) and the rising
    // edges a batch placed inside itself; the lines follow at those times.
    void schedule_levels(const AdvanceResult* r, const sc_core::sc_time& start, const sc_core::sc_time& at);
    virtual void drive_lines();
    std::string trace_name(const std::string& signal) const { return std::string(name()) + "." + signal; }
    bool fiq_level_ = false;

private:
    struct Change {
        sc_core::sc_time at;
        bool irq, fiq;
    };
    void update_lines();
    void update_state();

    std::unique_ptr<Pmu> pmu_;
    ModuleConfig cfg_;
    std::deque<Change> changes_;
    sc_core::sc_event line_event_;
    bool irq_level_ = false;
    bool sched_irq_ = false, sched_fiq_ = false;  // the levels as last scheduled
};

// ARMv8 PMUv3 and ARMv7 CP15: the memory-mapped view through a TLM-2.0 target socket. The socket is optional:
// a platform that reaches the PMU only through system registers leaves it unbound.
class ArmPmuModule : public PmuModule {
public:
    tlm_utils::simple_target_socket_optional<ArmPmuModule> socket;
    // Origin of socket accesses: software on the system bus (subject to the software lock), or an external
    // debugger's APB port. transport_dbg is always a debugger's access.
    AccessOrigin socket_origin = AccessOrigin::memory_mapped;

    ArmPmuModule(sc_core::sc_module_name name, std::unique_ptr<Pmu> pmu, const ModuleConfig& cfg);

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    tlm::tlm_response_status access(tlm::tlm_generic_payload& trans, AccessOrigin origin, const sc_core::sc_time& at,
                                    bool debug);
};

// ARM11: nPMUIRQ, and nPMUFIQ on the ARM1156.
class Arm11PmuModule : public PmuModule {
public:
    sc_core::sc_out<bool> fiq_out;  // nPMUFIQ (bind it to a signal on every core; it stays inactive except on the 1156)

    Arm11PmuModule(sc_core::sc_module_name name, std::unique_ptr<Pmu> pmu, const ModuleConfig& cfg);
    void trace(sc_core::sc_trace_file* tf) override;

private:
    void drive_lines() override;
};

// VeeR EL2: CSRs only (no memory-mapped view, no overflow interrupt).
class VeerPmuModule : public PmuModule {
public:
    VeerPmuModule(sc_core::sc_module_name name, std::unique_ptr<Pmu> pmu, const ModuleConfig& cfg);
};

// Builds the module of the platform's family; throws std::invalid_argument for a bad option.
std::unique_ptr<PmuModule> make_module(const char* name, const Platform& platform, const PlatformOptions& opts,
                                       ModuleConfig cfg = {});

}  // namespace pmusim::sc
