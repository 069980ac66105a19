// The virtual platform: a core model that replays retired instructions, a PMU module, and an interrupt
// controller that records every edge of the PMU's request lines with its time. Also the SystemC host that
// runs a script with a VCD trace.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "isa/insn_class.hpp"
#include "model/sc/pmu_module.hpp"
#include "replay/replay.hpp"
#include "testbench/script_runner.hpp"
#include "testbench/systemc_host.hpp"

namespace pmusim::vp {

// A block of retired instructions of one class and the cycles they took. Trace readers produce these; the
// synthetic loop below stands in until then.
struct RetiredBlock {
    isa::RetiredInsn insn;
    uint64_t count = 0;
    uint64_t cycles = 0;
};

class InstructionSource {
public:
    virtual ~InstructionSource() = default;
    virtual bool next(RetiredBlock& block) = 0;  // false at the end
};

// A loop of `total` instructions: per iteration 5 ALU operations, 2 loads and a branch, each taking `cpi` cycles.
class SyntheticLoop : public InstructionSource {
public:
    SyntheticLoop(uint64_t total, uint64_t cpi) : left_(total), cpi_(cpi) {}
    bool next(RetiredBlock& b) override;

private:
    uint64_t left_;
    uint64_t cpi_;
    unsigned slot_ = 0;
};

// Records every edge of the request lines: time, line, and whether the request rose.
class InterruptController : public sc_core::sc_module {
public:
    struct Entry {
        sc_core::sc_time at;
        std::string line;
        bool requesting;
    };
    sc_core::sc_in<bool> irq_in;
    sc_core::sc_in<bool> fiq_in;

    InterruptController(sc_core::sc_module_name name, bool active_low, bool has_fiq);
    const std::vector<Entry>& log() const { return log_; }

private:
    void on_irq();
    void on_fiq();
    bool active_low_;
    std::vector<Entry> log_;
};

// Replays a source through the PMU under temporal decoupling (tlm_utils::tlm_quantumkeeper).
class CoreModel : public sc_core::sc_module {
public:
    sc_core::sc_port<sc::PmuEventIf> pmu;

    CoreModel(sc_core::sc_module_name name, const Platform& platform, InstructionSource& source,
              sc_core::sc_time period);
    uint64_t instructions() const { return instructions_; }
    uint64_t cycles() const { return cycles_; }
    std::function<void()> before_run;  // runs in the core's thread at time 0 (a setup script, say)
    // Replaces pmu->report() (a waveform recorder in between); the time is the core's local offset.
    std::function<void(const EventBatch&, const sc_core::sc_time&)> report_hook;

private:
    void run();
    const Platform& platform_;
    InstructionSource& source_;
    sc_core::sc_time period_;
    uint64_t instructions_ = 0, cycles_ = 0;
};

}  // namespace pmusim::vp
