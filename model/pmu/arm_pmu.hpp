// One engine for the ARM architected PMUs: ARMv7 PMUv1/PMUv2 and ARMv8 PMUv3 share counting, overflow,
// enables, filters and the interrupt; only the register front end (AArch64 system registers, or the
// CP15 view with its memory map) differs. Rules cite ../shared/spec/armv8-pmuv3.md ("v8 §n") and
// armv7-cp15-pmu.md ("v7 §n").
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/core/counter.hpp"
#include "model/core/pmu.hpp"

namespace pmusim {

enum class ArmPmuVersion { v1, v2, v3, v3p1, v3p4, v3p5 };
std::string_view to_string(ArmPmuVersion v);

// CONSTRAINED UNPREDICTABLE access to a counter n >= N (direct, through PMSELR.SEL >= N, or PMXEVCNTR with
// SEL = 31), v8 §8: UNDEFINED (KVM's choice, pmusim's default) or RAZ/WI (QEMU's and gem5's choice).
enum class UnpredictableCounterAccess { undefined, raz_wi };

// Platform data for an ARM architected PMU: everything here is data, not code.
struct ArmPmuConfig {
    ArmPmuVersion version = ArmPmuVersion::v3;
    unsigned num_counters = 6;  // PMCR.N, 0..31
    uint8_t implementer = 0x41;
    uint8_t idcode = 0;
    uint64_t pmceid0 = 0;  // bit n: common event n (and 0x4000 + n in [63:32], v3p1+)
    uint64_t pmceid1 = 0;  // bit n: common event 0x20 + n (and 0x4020 + n in [63:32], v3p1+)
    std::vector<uint32_t> impdef_events;  // IMPLEMENTATION DEFINED events the core counts
    bool aarch32 = true;         // AArch32 supported at some EL: PMCR.LC and D are RW (else LC RES1, D RES0)
    bool has_el2 = true;         // NSH filter bit is RW
    bool has_el3 = true;         // NSK/NSU/M filter bits are RW
    bool has_pmovsset = true;    // ARMv7: PMOVSSET only with the Virtualization Extensions (v7 §2)
    bool secure_counting = false;  // Secure non-invasive debug permitted (MDCR_EL3.SPME); false: Secure
                                   // state prohibits event counting, as the reset value of SPME does
    bool swinc_filters = true;     // PMEVTYPER filters apply to SW_INCR (QEMU's choice, v8 §3.5)
    UnpredictableCounterAccess unpredictable = UnpredictableCounterAccess::undefined;
};

// Register front ends.
enum class ArmView { aarch64, aarch32_v7 };

class ArmPmu : public Pmu {
public:
    static constexpr uint32_t sw_incr = 0x00;
    static constexpr uint32_t cpu_cycles = 0x11;
    static constexpr uint32_t chain = 0x1E;
    static constexpr unsigned cycle_idx = 31;

    ArmPmu(const ArmPmuConfig& cfg, ArmView view);

    std::string_view family() const override;
    const ArmPmuConfig& config() const { return cfg_; }
    ArmView view() const { return view_; }

    AdvanceResult advance(const EventBatch& batch) override;
    bool irq() const override { return irq_; }
    void reset() override;
    std::vector<std::pair<std::string, uint64_t>> counter_values() const override;
    bool in_pmu_space(EncodingSpace space, uint32_t key) const override;

    // Whether an event number is implemented (PMCEID bits, or the IMPLEMENTATION DEFINED list).
    bool event_supported(uint32_t event) const;
    uint32_t implemented_mask() const { return implemented_mask_; }  // bit 31 and bits [N-1:0]

    // Pure rule: is a counter with filter register value `f` filtered out (does not count) at the given
    // exception level and security state? (v8 §4; v7 §3.5 for PMUv2.)
    bool filtered(uint64_t f, unsigned el, bool secure) const;

    // State, readable for tests and wrappers.
    uint64_t pmcr() const { return pmcr_; }
    uint64_t counter_value(unsigned n) const { return n == cycle_idx ? ccntr_.value : evcnt_[n].value; }
    uint64_t overflow_flags() const { return ovs_; }
    uint64_t prescaler_phase() const { return prescaler_.phase(); }

    enum Role : unsigned {
        r_pmcr = 1, r_cntenset, r_cntenclr, r_ovsclr, r_ovsset, r_intenset, r_intenclr, r_swinc, r_selr,
        r_ceid0, r_ceid1, r_ccntr, r_xevtyper, r_xevcntr, r_userenr, r_evcntr, r_evtyper, r_ccfiltr,
        r_cfgr, r_id, r_lar, r_lsr, r_claimset, r_claimclr, r_mdcr,
    };
    // MDCR_EL2.HPMN as it takes effect: counters [0, HPMN) belong to EL1 and EL0, [HPMN, N) to EL2 (N without EL2).
    unsigned hpmn() const;

    bool software_locked() const { return lsr_ & 2u; }

protected:
    void check_access(const Register& r, bool is_write, const AccessContext& ctx, AccessRecord& rec) override;
    void check_el0(const Register& r, bool is_write, AccessRecord& rec) const;
    void check_el2_traps(const Register& r, const AccessContext& ctx, AccessRecord& rec) const;
    Register* resolve(Register& r, bool is_write, const AccessContext& ctx, AccessRecord& rec) override;
    void after_write(Register& r, const AccessContext& ctx, AccessRecord& rec) override;
    uint64_t read_value(const Register& r) override;

private:
    bool v3() const { return cfg_.version >= ArmPmuVersion::v3; }
    bool has_filters() const { return cfg_.version != ArmPmuVersion::v1; }
    uint32_t evt_of(unsigned n) const;
    bool prohibited() const;                 // event counting prohibited in the current state (v8 §7)
    bool counter_counts(unsigned n) const;   // enabled and neither prohibited nor filtered now
    void configure_counters();               // widths and overflow bits from PMCR.LC/LP and the version
    bool long_overflow(unsigned n) const;    // event counter n overflows at bit 63 (v3p5 with LP, or HLP)
    bool enabled_by(unsigned n) const;       // PMCR.E, or MDCR_EL2.HPME for a counter reserved for EL2
    bool has_mdcr() const { return view_ == ArmView::aarch64 && cfg_.has_el2; }
    // An access from EL1 or EL0 in Non-secure state with EL2 implemented: it sees HPMN counters (v8 MDCR_EL2).
    bool guest_access(const AccessContext& ctx) const;
    uint64_t guest_mask() const;  // bit 31 and bits [HPMN-1:0]
    static bool is_bitmap(unsigned role);
    void update_irq();
    Register* counter_register(unsigned role, unsigned n, bool aarch32);
    // Adds n increments to event counter idx, propagating CHAIN to the odd neighbour; returns the AddResult.
    AddResult bump(unsigned idx, uint64_t n);
    void software_increment(uint64_t bits, AccessRecord& rec);

    void build_common_fields();
    void build_aarch64();
    void build_aarch32_v7();
    void build_v7_management();
    void build_mdcr();
    void build_aarch32_v8();
    std::vector<Field> bitmap_fields(FieldKind kind, const char* what) const;
    std::vector<Field> pmcr_fields() const;
    std::vector<Field> evtyper_fields(bool cycle_filter) const;
    std::vector<Field> filter_fields(unsigned low_res0_msb) const;

    ArmPmuConfig cfg_;
    ArmView view_;
    uint32_t implemented_mask_ = 0;

    // Architectural state. Set/clear register pairs share one word (v8 §3.2-3.4).
    uint64_t pmcr_ = 0;
    uint64_t cnten_ = 0;
    uint64_t ovs_ = 0;
    uint64_t inten_ = 0;
    uint64_t swinc_ = 0;  // write-only: never holds state
    uint64_t selr_ = 0;
    uint64_t userenr_ = 0;
    uint64_t ceid0_ = 0;
    uint64_t ceid1_ = 0;
    uint64_t cfgr_ = 0;
    uint64_t ccfiltr_ = 0;
    uint64_t lar_ = 0;    // write-only key register: never holds state
    uint64_t lsr_ = 0;    // PMLSR: SLI (lock implemented), SLK (locked)
    uint64_t claim_ = 0;  // claim tags shared by PMCLAIMSET/PMCLAIMCLR
    uint64_t mdcr_ = 0;   // MDCR_EL2 (HDCR in AArch32), where EL2 is implemented
    bool guest_ = false;  // the access in progress is a guest's (guest_access), for read_value and after_write
    uint64_t saved_word_ = 0;  // a bitmap register's word before a guest's write: bits [N-1:HPMN] are WI to it
    uint64_t zero_ = 0;   // backing word of RAZ/WI registers (PMITCTRL): its fields never store
    std::vector<uint64_t> id_words_;  // constant identification registers (one word each)
    std::array<uint64_t, 31> evtyper_{};
    std::array<Counter, 31> evcnt_{};
    Counter ccntr_{64, 31};
    Prescaler prescaler_{64};
    bool irq_ = false;
    std::array<uint64_t, 32> pending_chain_{};  // scratch: overflows of even counters within one advance
};

}  // namespace pmusim
