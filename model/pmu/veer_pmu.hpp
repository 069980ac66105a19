// VeeR EL2 performance counters as its RTL implements them (RISC-V mhpm CSRs, RV32 halves), with the
// pmu/fw-halt and debug-halt states. Rules cite ../shared/spec/veer-el2-mhpm.md ("veer §n").
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "model/core/pmu.hpp"

namespace pmusim {

struct VeerConfig {
    bool user_mode = false;  // RV_USER_MODE build: mcounteren and the cycle/instret/hpmcounter shadows (veer §2)
};

class VeerPmu : public Pmu {
public:
    static constexpr uint32_t ev_cycles_active = 1;     // "cycles clocks active" (C0)
    static constexpr uint32_t ev_instr_committed = 4;   // minstret counts these, but ecall and ebreak
    static constexpr uint32_t ev_ebreak = 19, ev_ecall = 20;
    static constexpr uint32_t ev_sleep_cycles = 512;    // "cycles in Sleep (C3) state"
    static constexpr uint64_t dcsr_stopcount = 1u << 10;

    explicit VeerPmu(const VeerConfig& cfg);

    std::string_view family() const override { return "veer-el2"; }
    AdvanceResult advance(const EventBatch& batch) override;
    bool irq() const override { return false; }  // no counter-overflow interrupt (veer §1)
    void reset() override;
    std::vector<std::pair<std::string, uint64_t>> counter_values() const override {
        return {{"mcycle", mcycle_},         {"minstret", minstret_},     {"mhpmcounter3", hpm_[0]},
                {"mhpmcounter4", hpm_[1]}, {"mhpmcounter5", hpm_[2]}, {"mhpmcounter6", hpm_[3]}};
    }
    bool supports_state(CoreState s) const override { return s != CoreState::debug; }
    bool supports_privilege(unsigned p) const override { return p == 3 || (p == 0 && cfg_.user_mode); }
    bool in_pmu_space(EncodingSpace space, uint32_t csr) const override;

    // veer §3, the RTL's WARL rule for mhpmevent3-6: the value written, or 0 when it is reserved or too large.
    static uint64_t legalise_event(uint64_t written);
    // Why legalise_event(v) stores 0 (empty when it stores v).
    static std::string event_legalisation_reason(uint64_t v);
    static bool event_implemented(uint32_t e) { return e != 0 && legalise_event(e) == e; }

    uint64_t mcycle() const { return mcycle_; }
    uint64_t minstret() const { return minstret_; }
    uint64_t hpm(unsigned n) const { return hpm_[n - 3]; }

protected:
    void check_access(const Register& r, bool is_write, const AccessContext& ctx, AccessRecord& rec) override;
    void after_write(Register& r, const AccessContext& ctx, AccessRecord& rec) override;

private:
    enum Role : unsigned { r_counter = 1, r_event, r_inhibit, r_counteren, r_shadow, r_dcsr, r_mpmc, r_zero };
    static unsigned csr_of(const Register& r) { return r.encodings.front().second; }

    VeerConfig cfg_;
    uint64_t mcycle_ = 0, minstret_ = 0;
    std::array<uint64_t, 4> hpm_{};
    std::array<uint64_t, 4> event_{};
    uint64_t inhibit_ = 0, counteren_ = 0, dcsr_ = 0, mpmc_ = 0;
    uint64_t zero_ = 0;  // backing word of the hardwired-zero CSRs (never written: their fields are RAZ/WI)
};

}  // namespace pmusim
