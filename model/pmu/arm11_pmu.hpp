// The ARM11 performance monitor (ARM1136, ARM1156, ARM1176): PMNC, CCNT, PMN0, PMN1 in CP15 c15.
// Rules cite ../shared/spec/arm11-pmnc.md ("AN195 §n" for the application note's sections restated there).
#pragma once
#include <cstdint>
#include <vector>

#include "model/core/counter.hpp"
#include "model/core/pmu.hpp"

namespace pmusim {

enum class Arm11Core { arm1136, arm1156, arm1176 };

struct Arm11Config {
    Arm11Core core = Arm11Core::arm1176;
    // User-mode access: the TRMs make it UNDEFINED (ARM1176: unless its User-access validation bit is set);
    // AN195 reads "accessible in user and privileged modes". Default: the TRMs; user_access = true: AN195.
    bool user_access = false;
    // Writing 1 to an overflow flag with E = 0 in the same write: AN195 "E must be set to clear the interrupt
    // request"; the outcome is unconfirmed. true (default): the flag stays set; false: it is cleared anyway.
    bool clear_needs_e = true;
    // Not the PMU's: the core's state at the trace's start, which a user-mode trace cannot show (option
    // start-state; replay_timing). false (default, "linux"): branch prediction and caches on, as Linux runs them
    // (SCTLR.Z, C and I set: Linux's ARMv6 start-up, arch/arm/mm/proc-v6.S, v6_crval); true ("reset"): out of reset, branch
    // prediction off (SCTLR.Z = 0, ARM1176 TRM 3.2.7) until the trace writes SCTLR.Z.
    bool reset_state = false;
    std::vector<uint32_t> events;  // event numbers the core implements (platform data, AN195 Table 2)
};

class Arm11Pmu : public Pmu {
public:
    static constexpr uint32_t cycles_event = 0xFF;  // "an increment each cycle" (AN195 Table 2)

    explicit Arm11Pmu(const Arm11Config& cfg);

    std::string_view family() const override { return "arm11-pmnc"; }
    AdvanceResult advance(const EventBatch& batch) override;
    bool irq() const override { return irq_; }
    bool fiq() const override { return fiq_; }
    bool has_fiq() const override { return cfg_.core == Arm11Core::arm1156; }
    void reset() override;
    std::vector<std::pair<std::string, uint64_t>> counter_values() const override {
        return {{"CCNT", ccnt_.value}, {"PMN0", pmn_[0].value}, {"PMN1", pmn_[1].value}};
    }
    bool in_pmu_space(EncodingSpace space, uint32_t key) const override;

    bool event_supported(uint32_t event) const;
    // The event bus (PMNC.X): while X = 1 the events counted are exported; the count of exported events so far
    // is an output the SystemC layer traces.
    bool exporting() const { return pmnc_ & (1u << 11); }
    uint64_t exported_events() const { return exported_; }
    const uint64_t& exported_events_word() const { return exported_; }  // for tracers (SystemC sc_trace)
    uint64_t pmnc() const { return pmnc_; }

    enum Role : unsigned { r_pmnc = 1, r_ccnt, r_pmn0, r_pmn1 };

protected:
    void check_access(const Register& r, bool is_write, const AccessContext& ctx, AccessRecord& rec) override;
    void after_write(Register& r, const AccessContext& ctx, AccessRecord& rec) override;

private:
    void update_requests();

    Arm11Config cfg_;
    uint64_t pmnc_ = 0;
    Counter ccnt_{32, 31};
    Counter pmn_[2] = {{32, 31}, {32, 31}};
    Prescaler prescaler_{64};
    bool irq_ = false;
    bool fiq_ = false;
    uint64_t exported_ = 0;
};

}  // namespace pmusim
