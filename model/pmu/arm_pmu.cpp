#include "model/pmu/arm_pmu.hpp"

#include <algorithm>
#include <cassert>

#include <fmt/format.h>

#include "model/core/bits.hpp"

namespace pmusim {

std::string_view to_string(ArmPmuVersion v) {
    switch (v) {
        case ArmPmuVersion::v1: return "PMUv1";
        case ArmPmuVersion::v2: return "PMUv2";
        case ArmPmuVersion::v3: return "PMUv3";
        case ArmPmuVersion::v3p1: return "PMUv3p1";
        case ArmPmuVersion::v3p4: return "PMUv3p4";
        case ArmPmuVersion::v3p5: return "PMUv3p5";
    }
    return "?";
}

namespace {

constexpr uint64_t pmcr_e = 1u << 0;
constexpr uint64_t pmcr_p = 1u << 1;
constexpr uint64_t pmcr_c = 1u << 2;
constexpr uint64_t pmcr_d = 1u << 3;
constexpr uint64_t pmcr_dp = 1u << 5;
constexpr uint64_t pmcr_lc = 1u << 6;
constexpr uint64_t pmcr_lp = 1u << 7;

// MDCR_EL2 (Arm ARM D17 MDCR_EL2; armv8-pmuv3.md §3.1, §4, §5, §6).
constexpr uint64_t mdcr_tpmcr = 1u << 5;
constexpr uint64_t mdcr_tpm = 1u << 6;
constexpr uint64_t mdcr_hpme = 1u << 7;
constexpr uint64_t mdcr_hpmd = 1u << 17;
constexpr uint64_t mdcr_hlp = uint64_t{1} << 26;

constexpr uint64_t userenr_en = 1u << 0;
constexpr uint64_t userenr_sw = 1u << 1;
constexpr uint64_t userenr_cr = 1u << 2;
constexpr uint64_t userenr_er = 1u << 3;

__extension__ typedef unsigned __int128 u128;

// Cycle offset within a batch at which the k-th of `count` events falls, the events of a batch being
// spread evenly over its cycles (pmusim's approximation: a batch does not order its events in time).
uint64_t event_cycle(uint64_t k, uint64_t count, uint64_t cycles) {
    if (cycles == 0 || count == 0) return 0;
    return static_cast<uint64_t>((static_cast<u128>(k) * cycles + count - 1) / count);
}

}  // namespace

ArmPmu::ArmPmu(const ArmPmuConfig& cfg, ArmView view) : cfg_(cfg), view_(view) {
    assert(cfg_.num_counters <= 31);
    implemented_mask_ = 0x80000000u | static_cast<uint32_t>(bit_mask(0, cfg_.num_counters));
    ceid0_ = cfg_.pmceid0;
    ceid1_ = cfg_.pmceid1;
    if (view_ == ArmView::aarch64) {
        build_aarch64();
        if (has_mdcr()) build_mdcr();
        if (cfg_.aarch32) build_aarch32_v8();
    } else {
        build_aarch32_v7();
    }
    reset();
}

std::string_view ArmPmu::family() const { return view_ == ArmView::aarch64 ? "armv8-pmuv3" : "armv7-cp15"; }

bool ArmPmu::in_pmu_space(EncodingSpace space, uint32_t key) const {
    // ARMv7: p15, 0, c9, c12-c14 (v7 §2). AArch64: op0 = 3, CRn = 9 with CRm = 12-14, or CRn = 14 (v8 §2).
    const unsigned crn = (key >> 7) & 15u, crm = (key >> 3) & 15u;
    if (space == EncodingSpace::cp15)
        return (key >> 11) == 0 && ((crn == 9 && crm >= 12 && crm <= 14) || (view_ == ArmView::aarch64 && crn == 14));
    if (space == EncodingSpace::a64_sysreg) return (key >> 14) == 3 && ((crn == 9 && crm >= 12 && crm <= 14) || crn == 14);
    return false;
}

bool ArmPmu::event_supported(uint32_t e) const {
    // v8 §3.8 / §9: common events 0x00-0x3F in PMCEID0/1[31:0]; 0x4000-0x403F in [63:32] (v3p1+).
    if (e < 0x20) return test_bit(cfg_.pmceid0, e);
    if (e < 0x40) return test_bit(cfg_.pmceid1, e - 0x20);
    if (e >= 0x4000 && e < 0x4020) return test_bit(cfg_.pmceid0, 32 + (e - 0x4000));
    if (e >= 0x4020 && e < 0x4040) return test_bit(cfg_.pmceid1, 32 + (e - 0x4020));
    return std::find(cfg_.impdef_events.begin(), cfg_.impdef_events.end(), e) != cfg_.impdef_events.end();
}

// ---------------------------------------------------------------------------------------------------------
// Field tables

std::vector<Field> ArmPmu::pmcr_fields() const {
    // v8 §3.1 (PMCR_EL0), v7 §3.1 (PMCR).
    const bool v8 = view_ == ArmView::aarch64;
    std::vector<Field> f = {
        make_field("IMP", 31, 24, FieldKind::ro, cfg_.implementer, "implementer code (0x41 = Arm)"),
        make_field("IDCODE", 23, 16, FieldKind::ro, cfg_.idcode, "identification code"),
        make_field("N", 15, 11, FieldKind::ro, cfg_.num_counters, "number of event counters"),
        make_field("DP", 5, 5, FieldKind::rw, 0, "disable PMCCNTR when event counting is prohibited"),
        make_field("X", 4, 4, FieldKind::rw, 0, "export events on the event bus"),
        make_field("C", 2, 2, FieldKind::wo, 0, "write 1: PMCCNTR := 0 (overflow flag kept)"),
        make_field("P", 1, 1, FieldKind::wo, 0, "write 1: every event counter := 0 (not PMCCNTR)"),
        make_field("E", 0, 0, FieldKind::rw, 0, "enable: counters enabled by PMCNTENSET count"),
    };
    if (v8) {
        // LP exists with FEAT_PMUv3p5; LC is RES1 and D RES0 when AArch32 is not supported (v8 §3.1, §5.1).
        f.push_back(make_field("LP", 7, 7, cfg_.version >= ArmPmuVersion::v3p5 ? FieldKind::rw : FieldKind::res0, 0,
                               "long event counters: overflow at bit 63 instead of bit 31"));
        f.push_back(make_field("LC", 6, 6, cfg_.aarch32 ? FieldKind::rw : FieldKind::res1, 0,
                               "long cycle counter: PMCCNTR overflow flag at bit 63 instead of bit 31"));
        f.push_back(make_field("D", 3, 3, cfg_.aarch32 ? FieldKind::rw : FieldKind::res0, 0,
                               "clock divider: PMCCNTR counts every 64th cycle (ignored when LC = 1)"));
        f.push_back(make_field("RES0", 10, 8, FieldKind::res0));
    } else {
        f.push_back(make_field("D", 3, 3, FieldKind::rw, 0, "clock divider: PMCCNTR counts every 64th cycle"));
        f.push_back(make_field("RAZ", 10, 6, FieldKind::sbzp, 0, "reserved, RAZ/SBZP"));
    }
    return f;
}

std::vector<Field> ArmPmu::bitmap_fields(FieldKind kind, const char* what) const {
    // v8 §3.2-3.5, v7 §3.2: bit 31 = C (cycle counter), bits [N-1:0] = P<n>, bits [30:N] RAZ/WI.
    std::vector<Field> f;
    f.push_back(make_field("C", 31, 31, kind, 0, fmt::format("PMCCNTR {}", what)));
    for (unsigned n = 0; n < cfg_.num_counters; ++n)
        f.push_back(make_field(fmt::format("P{}", n), n, n, kind, 0, fmt::format("event counter {} {}", n, what)));
    if (cfg_.num_counters < 31)
        f.push_back(make_field("RAZ/WI", 30, cfg_.num_counters, FieldKind::raz_wi, 0, "unimplemented counters"));
    return f;
}

std::vector<Field> ArmPmu::filter_fields(unsigned low_res0_msb) const {
    // v8 §3.11/§3.12 and v7 §3.5: P, U, NSK, NSU, NSH, M; absent features make their bit RES0.
    const bool v8 = view_ == ArmView::aarch64;
    const FieldKind el3 = cfg_.has_el3 ? FieldKind::rw : FieldKind::res0;
    std::vector<Field> f = {
        make_field("P", 31, 31, FieldKind::rw, 0, "1: do not count at EL1 (PL1)"),
        make_field("U", 30, 30, FieldKind::rw, 0, "1: do not count at EL0 (PL0)"),
        make_field("NSK", 29, 29, el3, 0, "Non-secure EL1 counted when NSK == P"),
        make_field("NSU", 28, 28, el3, 0, "Non-secure EL0 counted when NSU == U"),
        make_field("NSH", 27, 27, cfg_.has_el2 ? FieldKind::rw : FieldKind::res0, 0, "1: count at EL2 (Hyp)"),
    };
    if (v8) {
        f.push_back(make_field("M", 26, 26, el3, 0, "EL3 counted when M == P"));
        f.push_back(make_field("RES0", 25, low_res0_msb < 25 ? low_res0_msb + 1 : 25, FieldKind::res0));
    } else {
        f.push_back(make_field("RES0", 26, low_res0_msb + 1, FieldKind::sbzp));
    }
    return f;
}

std::vector<Field> ArmPmu::evtyper_fields(bool cycle_filter) const {
    std::vector<Field> f;
    const bool v8 = view_ == ArmView::aarch64;
    if (cycle_filter) {
        // PMCCFILTR: filter bits only (v8 §3.12; v7 §3.5 "PMXEVTYPER31").
        f = filter_fields(v8 ? 0 : 0);
        if (v8) f.back() = make_field("RES0", 25, 0, FieldKind::res0);
        else f.back() = make_field("RES0", 26, 0, FieldKind::sbzp);
        return f;
    }
    unsigned evt_msb = 7;  // v7: evtCount[7:0]
    if (v3()) evt_msb = cfg_.version >= ArmPmuVersion::v3p1 ? 15 : 9;  // v8 §3.11: 16 bits with v3p1
    if (has_filters()) {
        f = filter_fields(evt_msb);
        if (v8) f.back() = make_field("RES0", 25, evt_msb + 1, FieldKind::res0);
    } else {
        f.push_back(make_field("RES0", 31, evt_msb + 1, FieldKind::sbzp));  // PMUv1: no filter (v7 §3.5)
    }
    f.push_back(make_event_field("evtCount", evt_msb, 0, "event number"));
    return f;
}

// ---------------------------------------------------------------------------------------------------------
// Register front ends

void ArmPmu::build_aarch64() {
    // v8 §2: encodings (op0, op1, CRn, CRm, op2) and external offsets.
    const unsigned N = cfg_.num_counters;
    const bool p1 = cfg_.version >= ArmPmuVersion::v3p1;
    const bool p5 = cfg_.version >= ArmPmuVersion::v3p5;
    using Slots = std::vector<std::pair<uint64_t, unsigned>>;
    auto reg = [&](std::string name, unsigned role, uint64_t* state, std::vector<Field> fields, uint32_t key,
                   std::string desc, Slots offsets = {}, unsigned width = 32, int index = -1) -> Register& {
        Register r;
        r.name = std::move(name);
        r.role = role;
        r.state = state;
        r.width = width;
        r.index = index;
        r.fields = std::move(fields);
        r.encodings.push_back({EncodingSpace::a64_sysreg, key});
        r.offsets = std::move(offsets);
        r.description = std::move(desc);
        r.source = "Arm ARM for A-profile (DDI 0487), Performance Monitors Extension: AArch64 System registers";
        return bank_.add(std::move(r));
    };

    reg("PMCR_EL0", r_pmcr, &pmcr_, pmcr_fields(), a64_key(3, 3, 9, 12, 0), "control", {{0xE04, 0}});
    reg("PMCNTENSET_EL0", r_cntenset, &cnten_, bitmap_fields(FieldKind::w1s, "count enable"), a64_key(3, 3, 9, 12, 1),
        "count enable set", {{0xC00, 0}});
    reg("PMCNTENCLR_EL0", r_cntenclr, &cnten_, bitmap_fields(FieldKind::w1c, "count enable"), a64_key(3, 3, 9, 12, 2),
        "count enable clear", {{0xC20, 0}});
    reg("PMOVSCLR_EL0", r_ovsclr, &ovs_, bitmap_fields(FieldKind::w1c, "overflow flag"), a64_key(3, 3, 9, 12, 3),
        "overflow flag status clear", {{0xC80, 0}});
    Register& swinc = reg("PMSWINC_EL0", r_swinc, &swinc_, [&] {
        auto f = bitmap_fields(FieldKind::wo, "software increment");
        f.front() = make_field("RES0/WI", 31, 31, FieldKind::raz_wi, 0, "no function (RES0: PMSWINC_EL0 has no bit for the cycle counter)");
        return f;
    }(), a64_key(3, 3, 9, 12, 4), "software increment (write-only)", {{0xCA0, 0}});
    swinc.readable = false;
    reg("PMSELR_EL0", r_selr, &selr_, {make_field("SEL", 4, 0, FieldKind::rw, 0, "counter select; 31 = cycle counter")},
        a64_key(3, 3, 9, 12, 5), "event counter selection");
    for (int i = 0; i < 2; ++i) {
        uint64_t* word = i == 0 ? &ceid0_ : &ceid1_;
        const uint64_t v = i == 0 ? cfg_.pmceid0 : cfg_.pmceid1;
        std::vector<Field> f = {make_field("ID", 31, 0, FieldKind::ro, v & 0xFFFFFFFFu,
                                           fmt::format("common events {:#x}-{:#x} implemented", i * 32, i * 32 + 31))};
        if (p1)
            f.push_back(make_field("IDhi", 63, 32, FieldKind::ro, v >> 32,
                                   fmt::format("common events {:#x}-{:#x} implemented", 0x4000 + i * 32,
                                               0x4000 + i * 32 + 31)));
        // External view: PMCEID0/1 at 0xE20/0xE24; their upper halves (v3p1) are PMCEID2/3 at 0xE28/0xE2C.
        const unsigned u = static_cast<unsigned>(i);
        Slots slots = {{0xE20 + 4u * u, 0}};
        if (p1) slots.push_back({0xE28 + 4u * u, 32});
        Register& r = reg(fmt::format("PMCEID{}_EL0", i), i == 0 ? r_ceid0 : r_ceid1, word, std::move(f),
                          a64_key(3, 3, 9, 12, 6u + u), "common event identification", slots, p1 ? 64 : 32);
        r.writable = false;
    }
    reg("PMCCNTR_EL0", r_ccntr, &ccntr_.value, {make_field("CCNT", 63, 0, FieldKind::rw, 0, "cycle count")},
        a64_key(3, 3, 9, 13, 0), "cycle counter (always 64-bit in PMUv3)", {{0x0F8, 0}, {0x0FC, 32}}, 64);
    reg("PMXEVTYPER_EL0", r_xevtyper, nullptr, {make_field("VALUE", 31, 0, FieldKind::rw)}, a64_key(3, 3, 9, 13, 1),
        "PMEVTYPER<PMSELR.SEL> (PMCCFILTR when SEL = 31)");
    reg("PMXEVCNTR_EL0", r_xevcntr, nullptr, {make_field("VALUE", p5 ? 63 : 31, 0, FieldKind::rw)},
        a64_key(3, 3, 9, 13, 2), "PMEVCNTR<PMSELR.SEL>", {}, p5 ? 64 : 32);
    reg("PMUSERENR_EL0", r_userenr, &userenr_,
        {make_field("ER", 3, 3, FieldKind::rw, 0, "EL0 event counter read (and PMSELR) enable"),
         make_field("CR", 2, 2, FieldKind::rw, 0, "EL0 cycle counter read enable"),
         make_field("SW", 1, 1, FieldKind::rw, 0, "EL0 PMSWINC write enable"),
         make_field("EN", 0, 0, FieldKind::rw, 0, "EL0 access enable")},
        a64_key(3, 3, 9, 14, 0), "user enable");
    reg("PMINTENSET_EL1", r_intenset, &inten_, bitmap_fields(FieldKind::w1s, "overflow interrupt enable"),
        a64_key(3, 0, 9, 14, 1), "overflow interrupt enable set (EL1 and above)", {{0xC40, 0}});
    reg("PMINTENCLR_EL1", r_intenclr, &inten_, bitmap_fields(FieldKind::w1c, "overflow interrupt enable"),
        a64_key(3, 0, 9, 14, 2), "overflow interrupt enable clear (EL1 and above)", {{0xC60, 0}});
    // PMOVSSET at 0xCC0: standard map, unconfirmed for ARMv8 (v8 §2).
    reg("PMOVSSET_EL0", r_ovsset, &ovs_, bitmap_fields(FieldKind::w1s, "overflow flag"), a64_key(3, 3, 9, 14, 3),
        "overflow flag status set", {{0xCC0, 0}});

    // Families, n = 0..30 (v8 §2.1). Counters n >= N exist as encodings; accessing them is CONSTRAINED
    // UNPREDICTABLE (v8 §8), decided in resolve().
    const bool undef = cfg_.unpredictable == UnpredictableCounterAccess::undefined;
    const std::string unimpl =
        fmt::format("not implemented (N = {}): an access is CONSTRAINED UNPREDICTABLE; pmusim's choice: {}", N,
                    undef ? "UNDEFINED (option unpredictable=raz-wi: RAZ/WI)" : "RAZ/WI (option unpredictable=undefined: UNDEFINED)");
    for (unsigned n = 0; n < 31; ++n) {
        const bool impl = n < N;
        std::vector<Field> cf;
        if (impl) cf.push_back(make_field("EVCNT", p5 ? 63 : 31, 0, FieldKind::rw, 0, "event count"));
        else cf.push_back(make_field("RAZ/WI", p5 ? 63 : 31, 0, FieldKind::raz_wi, 0, "counter " + unimpl));
        // External view: PMEVCNTR<n> at 0x000 + 8n (high half at + 4 with v3p5), PMEVTYPER<n> at 0x400 + 4n.
        Slots cslots, tslots;
        if (impl) {
            cslots.push_back({8u * n, 0});
            if (p5) cslots.push_back({8u * n + 4, 32});
            tslots.push_back({0x400 + 4u * n, 0});
        }
        const int idx = static_cast<int>(n);
        Register& c = reg(fmt::format("PMEVCNTR{}_EL0", n), r_evcntr, &evcnt_[n].value, std::move(cf),
                          a64_key(3, 3, 14, 0x8 | (n >> 3), n & 7),
                          fmt::format("event counter {}{}", n, impl ? "" : ": " + unimpl), cslots, p5 ? 64 : 32, idx);
        // The type register of a counter n >= N follows the counter's choice: RAZ/WI where it is accessible.
        std::vector<Field> tf = impl ? evtyper_fields(false)
                                     : std::vector<Field>{make_field("RAZ/WI", 31, 0, FieldKind::raz_wi, 0, "type of counter " + unimpl)};
        Register& t = reg(fmt::format("PMEVTYPER{}_EL0", n), r_evtyper, &evtyper_[n], std::move(tf),
                          a64_key(3, 3, 14, 0xC | (n >> 3), n & 7),
                          fmt::format("event type and filter of counter {}{}", n, impl ? "" : ": " + unimpl), tslots,
                          32, idx);
        c.undefined = t.undefined = !impl && undef;
    }
    reg("PMCCFILTR_EL0", r_ccfiltr, &ccfiltr_, evtyper_fields(true), a64_key(3, 3, 14, 15, 7), "cycle counter filter",
        {{0x47C, 0}}, 32, static_cast<int>(cycle_idx));
    // PMCFGR (external view only). N, SIZE = 63 (64-bit PMCCNTR), CC, CCD (AArch32 divider), EX. Field
    // positions per the ARMv8 PMCFGR description (v7 §6 note; SIZE position unconfirmed for some cores).
    cfgr_ = N | (63u << 8) | (1u << 14) | (cfg_.aarch32 ? 1u << 15 : 0) | (1u << 16);
    {
        Register r;
        r.name = "PMCFGR";
        r.role = r_cfgr;
        r.state = &cfgr_;
        r.writable = false;
        r.fields = {make_field("UEN", 19, 19, FieldKind::ro, 0, "PMUSERENR visible externally"),
                    make_field("EX", 16, 16, FieldKind::ro, 1, "export supported"),
                    make_field("CCD", 15, 15, FieldKind::ro, cfg_.aarch32, "cycle counter divider supported"),
                    make_field("CC", 14, 14, FieldKind::ro, 1, "dedicated cycle counter"),
                    make_field("SIZE", 13, 8, FieldKind::ro, 63, "largest counter size - 1"),
                    make_field("N", 7, 0, FieldKind::ro, N, "number of event counters")};
        r.offsets = {{0xE00, 0}};
        r.description = "configuration (external view only)";
        r.source = "Arm ARM for A-profile (DDI 0487) and ARMv7 ARM (DDI 0406): external PMU register PMCFGR";
        bank_.add(std::move(r));
    }
}

void ArmPmu::build_mdcr() {
    // MDCR_EL2 (Arm ARM D17 MDCR_EL2): the performance-monitor fields, and the self-hosted debug controls stored
    // but not modelled. HPMN resets to PMCR_EL0.N (armv8-pmuv3.md §3.1 "Warm reset").
    const bool p1 = cfg_.version >= ArmPmuVersion::v3p1, p5 = cfg_.version >= ArmPmuVersion::v3p5;
    Register r;
    r.name = "MDCR_EL2";
    r.role = r_mdcr;
    r.state = &mdcr_;
    r.fields = {
        make_field("HLP", 26, 26, p5 ? FieldKind::rw : FieldKind::res0, 0,
                   "long event counters [HPMN, N): overflow at bit 63 (FEAT_PMUv3p5)"),
        make_field("HPMD", 17, 17, p1 ? FieldKind::rw : FieldKind::res0, 0,
                   "counters [0, HPMN) and PMCCNTR do not count at EL2 (FEAT_PMUv3p1)"),
        make_field("TPMS", 14, 14, FieldKind::rw, 0, "trap statistical profiling (not modelled)"),
        make_field("E2PB", 13, 12, FieldKind::rw, 0, "profiling buffer owner (not modelled)"),
        make_field("TDRA", 11, 11, FieldKind::rw, 0, "trap debug ROM address (not modelled)"),
        make_field("TDOSA", 10, 10, FieldKind::rw, 0, "trap debug OS-related registers (not modelled)"),
        make_field("TDA", 9, 9, FieldKind::rw, 0, "trap debug access (not modelled)"),
        make_field("TDE", 8, 8, FieldKind::rw, 0, "trap debug exceptions (not modelled)"),
        make_field("HPME", 7, 7, FieldKind::rw, 0, "enable counters [HPMN, N) (for them in place of PMCR.E)"),
        make_field("TPM", 6, 6, FieldKind::rw, 0, "trap EL0 and EL1 accesses to the PMU registers to EL2"),
        make_field("TPMCR", 5, 5, FieldKind::rw, 0, "trap EL0 and EL1 accesses to PMCR to EL2"),
        make_field("HPMN", 4, 0, FieldKind::rw, cfg_.num_counters, "counters EL1 and EL0 see: [0, HPMN)"),
    };
    r.encodings = {{EncodingSpace::a64_sysreg, a64_key(3, 4, 1, 1, 1)}};
    r.description = "monitor debug configuration (EL2): counters reserved for EL2";
    r.source = "Arm ARM D17 MDCR_EL2; armv8-pmuv3.md §3.1, §4";
    bank_.add(std::move(r));
}

void ArmPmu::build_aarch32_v8() {
    // The AArch32 view of PMUv3 (armv8-pmuv3.md §2 table, "AArch32 equivalent"): 32-bit CP15 registers
    // architecturally mapped onto the AArch64 registers' state. A 32-bit view of a 64-bit counter reads bits
    // [31:0] and a write leaves [63:32] unchanged (§2 notes, QEMU pmccntr_write32); PMCEID2/3 are the upper halves
    // of PMCEID0/1 (v3p1). MRRC/MCRR (64-bit PMCCNTR) are not modelled.
    struct View {
        std::string from, to;
        unsigned opc1, crn, crm, opc2;
    };
    std::vector<View> views = {
        {"PMCR_EL0", "PMCR", 0, 9, 12, 0},         {"PMCNTENSET_EL0", "PMCNTENSET", 0, 9, 12, 1},
        {"PMCNTENCLR_EL0", "PMCNTENCLR", 0, 9, 12, 2}, {"PMOVSCLR_EL0", "PMOVSR", 0, 9, 12, 3},
        {"PMSWINC_EL0", "PMSWINC", 0, 9, 12, 4},   {"PMSELR_EL0", "PMSELR", 0, 9, 12, 5},
        {"PMCEID0_EL0", "PMCEID0", 0, 9, 12, 6},   {"PMCEID1_EL0", "PMCEID1", 0, 9, 12, 7},
        {"PMCCNTR_EL0", "PMCCNTR", 0, 9, 13, 0},   {"PMXEVTYPER_EL0", "PMXEVTYPER", 0, 9, 13, 1},
        {"PMXEVCNTR_EL0", "PMXEVCNTR", 0, 9, 13, 2}, {"PMUSERENR_EL0", "PMUSERENR", 0, 9, 14, 0},
        {"PMINTENSET_EL1", "PMINTENSET", 0, 9, 14, 1}, {"PMINTENCLR_EL1", "PMINTENCLR", 0, 9, 14, 2},
        {"PMOVSSET_EL0", "PMOVSSET", 0, 9, 14, 3}, {"PMCCFILTR_EL0", "PMCCFILTR", 0, 14, 15, 7},
    };
    if (has_mdcr()) views.push_back({"MDCR_EL2", "HDCR", 4, 1, 1, 1});
    for (unsigned n = 0; n < 31; ++n) {
        views.push_back({fmt::format("PMEVCNTR{}_EL0", n), fmt::format("PMEVCNTR{}", n), 0, 14, 8 + (n >> 3), n & 7});
        views.push_back({fmt::format("PMEVTYPER{}_EL0", n), fmt::format("PMEVTYPER{}", n), 0, 14, 12 + (n >> 3), n & 7});
    }
    auto add_view = [&](const Register& from, std::string name, uint32_t key, unsigned shift) {
        Register r;
        r.name = std::move(name);
        r.role = from.role;
        r.index = from.index;
        r.state = from.state;
        r.state_shift = shift;
        r.readable = from.readable;
        r.writable = from.writable;
        r.width = 32;
        for (Field f : from.fields) {  // the 32 bits from `shift` up
            if (f.msb() < shift || f.lsb >= shift + 32) continue;
            const unsigned lsb = std::max(f.lsb, shift), msb = std::min(f.msb(), shift + 31);
            f.reset >>= lsb - f.lsb;
            f.reset &= bit_mask(0, msb - lsb + 1);
            f.lsb = lsb - shift;
            f.width = msb - lsb + 1;
            r.fields.push_back(std::move(f));
        }
        r.encodings = {{EncodingSpace::cp15, key}};
        r.description = "AArch32 view of " + from.name + (shift ? " [63:32]" : "");
        r.source = "armv8-pmuv3.md §2 (AArch32 equivalent)";
        bank_.add(std::move(r));
    };
    for (const auto& v : views) {
        const Register* from = bank_.find(v.from);
        assert(from);
        add_view(*from, v.to, cp15_key(v.opc1, v.crn, v.crm, v.opc2), 0);
    }
    if (cfg_.version >= ArmPmuVersion::v3p1) {
        add_view(*bank_.find("PMCEID0_EL0"), "PMCEID2", cp15_key(0, 9, 14, 4), 32);
        add_view(*bank_.find("PMCEID1_EL0"), "PMCEID3", cp15_key(0, 9, 14, 5), 32);
    }
}

void ArmPmu::build_aarch32_v7() {
    // armv7-cp15-pmu.md §2 (CP15 encodings) and §6 (memory-mapped offsets); front end of issue 4.
    const unsigned N = cfg_.num_counters;
    auto reg = [&](std::string name, unsigned role, uint64_t* state, std::vector<Field> fields, unsigned crm,
                   unsigned opc2, std::string desc, uint64_t offset = ~uint64_t{0}) -> Register& {
        Register r;
        r.name = std::move(name);
        r.role = role;
        r.state = state;
        r.fields = std::move(fields);
        r.encodings.push_back({EncodingSpace::cp15, cp15_key(0, 9, crm, opc2)});
        if (offset != ~uint64_t{0}) r.offsets.push_back({offset, 0});
        r.description = std::move(desc);
        r.source = "ARM Architecture Reference Manual ARMv7-A/R (DDI 0406), Performance Monitors: CP15 c9 registers";
        return bank_.add(std::move(r));
    };
    auto sbzp_hi = [](unsigned msb_used) { return make_field("RAZ/SBZP", 31, msb_used + 1, FieldKind::sbzp); };

    reg("PMCR", r_pmcr, &pmcr_, pmcr_fields(), 12, 0, "control", 0xE04);
    reg("PMCNTENSET", r_cntenset, &cnten_, bitmap_fields(FieldKind::w1s, "count enable"), 12, 1,
             "count enable set", 0xC00);
    reg("PMCNTENCLR", r_cntenclr, &cnten_, bitmap_fields(FieldKind::w1c, "count enable"), 12, 2,
             "count enable clear", 0xC20);
    reg("PMOVSR", r_ovsclr, &ovs_, bitmap_fields(FieldKind::w1c, "overflow flag"), 12, 3,
             "overflow flag status (write 1 to clear)", 0xC80);
    Register& swinc = reg("PMSWINC", r_swinc, &swinc_, [&] {
        auto f = bitmap_fields(FieldKind::wo, "software increment");
        f.front() = make_field("SBZ", 31, 31, FieldKind::raz_wi, 0, "no function");
        return f;
    }(), 12, 4, "software increment (write-only)", 0xCA0);
    swinc.readable = false;
    reg("PMSELR", r_selr, &selr_, {make_field("SEL", 4, 0, FieldKind::rw, 0, "counter select; 31 = cycle counter"), sbzp_hi(4)},
        12, 5, "event counter selection");
    for (unsigned i = 0; i < 2; ++i) {
        Register& r = reg(fmt::format("PMCEID{}", i), i == 0 ? r_ceid0 : r_ceid1, i == 0 ? &ceid0_ : &ceid1_,
                          {make_field("ID", 31, 0, FieldKind::ro, (i == 0 ? cfg_.pmceid0 : cfg_.pmceid1) & 0xFFFFFFFFu,
                                      "common events implemented")},
                          12, 6 + i, "common event identification", 0xE20 + 4 * i);
        r.writable = false;
    }
    reg("PMCCNTR", r_ccntr, &ccntr_.value, {make_field("CCNT", 31, 0, FieldKind::rw, 0, "cycle count")}, 13, 0,
             "cycle counter (32-bit)", 0x07C);
    reg("PMXEVTYPER", r_xevtyper, nullptr, {make_field("VALUE", 31, 0, FieldKind::rw)}, 13, 1,
        "PMXEVTYPER<PMSELR.SEL>");
    reg("PMXEVCNTR", r_xevcntr, nullptr, {make_field("VALUE", 31, 0, FieldKind::rw)}, 13, 2, "PMXEVCNTR<PMSELR.SEL>");
    reg("PMUSERENR", r_userenr, &userenr_,
             {make_field("EN", 0, 0, FieldKind::rw, 0, "User mode access enable"), sbzp_hi(0)}, 14, 0, "user enable", 0xE08);
    reg("PMINTENSET", r_intenset, &inten_, bitmap_fields(FieldKind::w1s, "overflow interrupt enable"), 14, 1,
             "overflow interrupt enable set (PL1 only)", 0xC40);
    reg("PMINTENCLR", r_intenclr, &inten_, bitmap_fields(FieldKind::w1c, "overflow interrupt enable"), 14, 2,
             "overflow interrupt enable clear (PL1 only)", 0xC60);
    if (cfg_.has_pmovsset)
        reg("PMOVSSET", r_ovsset, &ovs_, bitmap_fields(FieldKind::w1s, "overflow flag"), 14, 3, "overflow flag status set");
    // The memory map names every counter directly (v7 §6): PMXEVCNTRn at 4n, PMXEVTYPERn at 0x400 + 4n.
    for (unsigned n = 0; n < N; ++n) {
        Register c;
        c.name = fmt::format("PMXEVCNTR{}", n);
        c.role = r_evcntr;
        c.index = static_cast<int>(n);
        c.state = &evcnt_[n].value;
        c.fields = {make_field("EVCNT", 31, 0, FieldKind::rw, 0, "event count")};
        c.offsets = {{4u * n, 0}};
        c.description = fmt::format("event counter {} (memory-mapped view)", n);
        c.source = "ARM Architecture Reference Manual ARMv7-A/R (DDI 0406), Performance Monitors: memory-mapped view";
        bank_.add(std::move(c));
        Register t;
        t.name = fmt::format("PMXEVTYPER{}", n);
        t.role = r_evtyper;
        t.index = static_cast<int>(n);
        t.state = &evtyper_[n];
        t.fields = evtyper_fields(false);
        t.offsets = {{0x400 + 4u * n, 0}};
        t.description = fmt::format("event type of counter {} (memory-mapped view)", n);
        t.source = "ARM Architecture Reference Manual ARMv7-A/R (DDI 0406), Performance Monitors: memory-mapped view";
        bank_.add(std::move(t));
    }
    if (has_filters()) {
        Register t;
        t.name = "PMXEVTYPER31";
        t.aliases = {"PMCCFILTR"};
        t.role = r_ccfiltr;
        t.index = static_cast<int>(cycle_idx);
        t.state = &ccfiltr_;
        t.fields = evtyper_fields(true);
        t.offsets = {{0x47C, 0}};
        t.description = "cycle counter filter (PMUv2)";
        t.source = "ARM Architecture Reference Manual ARMv7-A/R (DDI 0406), Performance Monitors: PMXEVTYPER with PMSELR.SEL = 31";
        bank_.add(std::move(t));
    }
    build_v7_management();
}

void ArmPmu::build_v7_management() {
    // The management registers of the memory-mapped PMU block, v7 §6 (0xE00, 0xF00-0xFFC).
    const unsigned N = cfg_.num_counters;
    auto add = [&](std::string name, unsigned role, uint64_t* state, std::vector<Field> f, uint64_t off,
                   std::string desc) -> Register& {
        Register r;
        r.name = std::move(name);
        r.role = role;
        r.state = state;
        r.fields = std::move(f);
        r.offsets = {{off, 0}};
        r.description = std::move(desc);
        r.source = "ARM Architecture Reference Manual ARMv7-A/R (DDI 0406), Performance Monitors: memory-mapped view";
        return bank_.add(std::move(r));
    };
    // PMCFGR: N, SIZE = 31 (32-bit counters), CC, CCD, EX, UEN (PMUSERENR is visible externally in ARMv7).
    add("PMCFGR", r_cfgr, &cfgr_,
        {make_field("UEN", 19, 19, FieldKind::ro, 1, "PMUSERENR visible externally"),
         make_field("EX", 16, 16, FieldKind::ro, 1, "export supported"),
         make_field("CCD", 15, 15, FieldKind::ro, 1, "cycle counter divider supported"),
         make_field("CC", 14, 14, FieldKind::ro, 1, "dedicated cycle counter"),
         make_field("SIZE", 13, 8, FieldKind::ro, 31, "counter size - 1 (position unconfirmed for the A7)"),
         make_field("N", 7, 0, FieldKind::ro, N, "number of event counters")},
        0xE00, "configuration (memory-mapped view only)")
        .writable = false;
    add("PMITCTRL", r_id, &zero_, {make_field("RAZ/WI", 31, 0, FieldKind::raz_wi)}, 0xF00,
        "integration mode control (RAZ/WI)");
    // Claim tags: PMCLAIMSET reads the implemented tags (8), PMCLAIMCLR the tags set (CoreSight convention).
    add("PMCLAIMSET", r_claimset, &claim_, {make_field("CLAIM", 7, 0, FieldKind::w1s, 0, "claim tags: write 1 to set")},
        0xFA0, "claim tag set");
    add("PMCLAIMCLR", r_claimclr, &claim_, {make_field("CLAIM", 7, 0, FieldKind::w1c, 0, "claim tags: write 1 to clear")},
        0xFA4, "claim tag clear");
    add("PMLAR", r_lar, &lar_, {make_field("KEY", 31, 0, FieldKind::wo, 0, "0xC5ACCE55 unlocks; any other value locks")},
        0xFB0, "lock access (software lock; key 0xC5ACCE55, the CoreSight value: unconfirmed for this block)")
        .readable = false;
    add("PMLSR", r_lsr, &lsr_,
        {make_field("nTT", 2, 2, FieldKind::ro, 0, "0: 32-bit lock access register"),
         make_field("SLK", 1, 1, FieldKind::ro, 1, "1: software lock set, software writes are ignored"),
         make_field("SLI", 0, 0, FieldKind::ro, 1, "1: software lock implemented")},
        0xFB4, "lock status")
        .writable = false;
    // Constant identification registers. PMAUTHSTATUS: non-secure invasive and non-invasive debug implemented
    // and enabled (0b11 each); Secure ones implemented, enabled only with secure-counting. PMDEVTYPE 0x16
    // (performance monitor, processor); component IDs are the CoreSight preamble 0xB105900D. Peripheral IDs are
    // core specific and not in the sources: they read 0.
    const uint64_t sec = cfg_.secure_counting ? 3 : 2;
    struct Id {
        std::string name;
        uint64_t off;
        uint64_t value;
    };
    std::vector<Id> ids = {{"PMAUTHSTATUS", 0xFB8, 0xF | (sec << 4) | (sec << 6)}, {"PMDEVTYPE", 0xFCC, 0x16}};
    for (unsigned i = 0; i < 4; ++i) ids.push_back({fmt::format("PMPID{}", 4 + i), 0xFD0 + 4u * i, 0});
    for (unsigned i = 0; i < 4; ++i) ids.push_back({fmt::format("PMPID{}", i), 0xFE0 + 4u * i, 0});
    const uint64_t cid[4] = {0x0D, 0x90, 0x05, 0xB1};
    for (unsigned i = 0; i < 4; ++i) ids.push_back({fmt::format("PMCID{}", i), 0xFF0 + 4u * i, cid[i]});
    id_words_.assign(ids.size(), 0);
    for (size_t i = 0; i < ids.size(); ++i)
        add(ids[i].name, r_id, &id_words_[i], {make_field("ID", 7, 0, FieldKind::ro, ids[i].value)}, ids[i].off,
            "identification (read-only)")
            .writable = false;
}

// ---------------------------------------------------------------------------------------------------------
// Access rules

void ArmPmu::check_access(const Register& r, bool is_write, const AccessContext& ctx, AccessRecord& rec) {
    if (ctx.origin != AccessOrigin::instruction) return;
    if (r.role == r_mdcr) {  // an EL2 register: UNDEFINED at EL1 and EL0 (Arm ARM D17 MDCR_EL2 accessibility)
        if (ctx.privilege < 2)
            rec.refuse(diag::undefined, fmt::format("{} is accessible at EL2 and EL3 only: UNDEFINED", r.name));
        return;
    }
    if (ctx.privilege == 0) check_el0(r, is_write, rec);
    if (!rec.trapped()) check_el2_traps(r, ctx, rec);
}

void ArmPmu::check_el2_traps(const Register& r, const AccessContext& ctx, AccessRecord& rec) const {
    // MDCR_EL2.TPM traps every EL0/EL1 access to the PMU registers to EL2, TPMCR those to PMCR (armv8-pmuv3.md §3.13,
    // QEMU access_tpm), after the EL0 checks against PMUSERENR.
    if (!guest_access(ctx)) return;
    if (mdcr_ & mdcr_tpm)
        rec.refuse(diag::trap, fmt::format("EL{} access to {} trapped to EL2: MDCR_EL2.TPM = 1", ctx.privilege, r.name));
    else if ((mdcr_ & mdcr_tpmcr) && r.role == r_pmcr)
        rec.refuse(diag::trap, fmt::format("EL{} access to {} trapped to EL2: MDCR_EL2.TPMCR = 1", ctx.privilege, r.name));
}

void ArmPmu::check_el0(const Register& r, bool is_write, AccessRecord& rec) const {
    const bool v8 = view_ == ArmView::aarch64;
    // The AArch32 view of PMUv3: the same PMUSERENR rules, a refusal is UNDEFINED (armv8-pmuv3.md §3.13).
    const bool a32 = v8 && !r.encodings.empty() && r.encodings.front().first == EncodingSpace::cp15;
    const uint64_t u = userenr_;
    // Always: EL0 may read PMUSERENR; EL0 writes of it are UNDEFINED; PMINTENSET/CLR are never accessible
    // at EL0 (v8 §3.13 table; v7 §2 user-mode rule).
    if (r.role == r_userenr) {
        if (is_write) rec.refuse(diag::undefined, fmt::format("{} is read-only at EL0: the write is UNDEFINED", r.name));
        return;
    }
    if (r.role == r_intenset || r.role == r_intenclr) {
        rec.refuse(diag::undefined, fmt::format("{} is not accessible at EL0 (EL1 and above only): UNDEFINED", r.name));
        return;
    }
    if (u & userenr_en) return;
    if (v8) {
        // EN = 0: the ER/CR/SW bits each open a few accesses (v8 §3.13 table).
        const bool er_ok = (u & userenr_er) &&
                           (r.role == r_selr || (!is_write && (r.role == r_evcntr || r.role == r_xevcntr)));
        const bool cr_ok = (u & userenr_cr) && !is_write && r.role == r_ccntr;
        const bool sw_ok = (u & userenr_sw) && is_write && r.role == r_swinc;
        if (er_ok || cr_ok || sw_ok) return;
        if (a32)
            rec.refuse(diag::undefined, fmt::format("EL0 {} of {} is UNDEFINED: PMUSERENR = {:#x} does not permit it",
                                                    is_write ? "write" : "read", r.name, u));
        else
            rec.refuse(diag::trap, fmt::format("EL0 {} of {} trapped to EL1: PMUSERENR_EL0 = {:#x} does not permit it",
                                               is_write ? "write" : "read", r.name, u));
        return;
    }
    rec.refuse(diag::undefined, fmt::format("User-mode {} of {} is UNDEFINED: PMUSERENR.EN = 0",
                                            is_write ? "write" : "read", r.name));
}

Register* ArmPmu::counter_register(unsigned role, unsigned n, bool aarch32) {
    if (view_ == ArmView::aarch64) {
        if (aarch32) return bank_.find(fmt::format(role == r_evcntr ? "PMEVCNTR{}" : "PMEVTYPER{}", n));
        return bank_.find(fmt::format(role == r_evcntr ? "PMEVCNTR{}_EL0" : "PMEVTYPER{}_EL0", n));
    }
    return bank_.find(fmt::format(role == r_evcntr ? "PMXEVCNTR{}" : "PMXEVTYPER{}", n));
}

Register* ArmPmu::resolve(Register& r, bool is_write, const AccessContext& ctx, AccessRecord& rec) {
    // With EL2, EL1 and EL0 see HPMN counters: the others are as counters n >= N to them (Arm ARM D17 MDCR_EL2.HPMN).
    guest_ = guest_access(ctx);
    const unsigned N = guest_ ? hpmn() : cfg_.num_counters;
    if (guest_ && is_bitmap(r.role) && r.state) saved_word_ = *r.state;
    const bool a32 = view_ == ArmView::aarch64 && !r.encodings.empty() && r.encodings.front().first == EncodingSpace::cp15;
    auto unpredictable = [&](std::string what) -> Register* {
        if (cfg_.unpredictable == UnpredictableCounterAccess::undefined) {
            rec.add(Severity::warning, diag::unpredictable,
                    fmt::format("{} is CONSTRAINED UNPREDICTABLE; pmusim's choice (as KVM): UNDEFINED", what));
            rec.status = AccessStatus::trap;
            rec.add(Severity::warning, diag::undefined, fmt::format("{}: UNDEFINED", rec.reg));
            return nullptr;
        }
        rec.add(Severity::warning, diag::unpredictable,
                fmt::format("{} is CONSTRAINED UNPREDICTABLE; pmusim's choice (as QEMU): RAZ/WI", what));
        return nullptr;
    };
    // v7 §6 note: while the software lock is set, software writes through the memory map are ignored; an
    // external debugger is not subject to it.
    if (ctx.origin == AccessOrigin::memory_mapped && is_write && r.role != r_lar && software_locked()) {
        rec.add(Severity::warning, diag::no_effect,
                fmt::format("{}: the software lock is set (PMLSR.SLK = 1): the write is ignored; write 0xC5ACCE55 to "
                            "PMLAR to unlock",
                            r.name));
        return nullptr;
    }
    const unsigned sel = static_cast<unsigned>(selr_ & 0x1F);
    switch (r.role) {
        case r_xevtyper:
            // v8 §3.7: SEL = 31 selects PMCCFILTR (PMUv2 and later; v7 §3.5).
            if (sel == cycle_idx && has_filters())
                return bank_.find(view_ == ArmView::aarch64 ? (a32 ? "PMCCFILTR" : "PMCCFILTR_EL0") : "PMXEVTYPER31");
            if (sel < N) return counter_register(r_evtyper, sel, a32);
            return unpredictable(fmt::format("{} with PMSELR.SEL = {} (N = {})", r.name, sel, N));
        case r_xevcntr:
            // v8 §8: SEL = 31 does not alias PMCCNTR.
            if (sel < N) return counter_register(r_evcntr, sel, a32);
            return unpredictable(fmt::format("{} with PMSELR.SEL = {} (N = {})", r.name, sel, N));
        case r_evcntr:
        case r_evtyper:
            if (static_cast<unsigned>(r.index) >= N)
                return unpredictable(fmt::format("{} {} of counter {} >= N = {}", is_write ? "write" : "read", r.name,
                                                 r.index, N));
            return &r;
        default: return &r;
    }
}

// ---------------------------------------------------------------------------------------------------------
// Actions

void ArmPmu::after_write(Register& r, const AccessContext&, AccessRecord& rec) {
    // A guest's write leaves the bits of counters [HPMN, N) alone: they are RAZ/WI to it (MDCR_EL2.HPMN).
    const unsigned N = guest_ ? hpmn() : cfg_.num_counters;
    if (guest_ && is_bitmap(r.role) && r.state) *r.state = (*r.state & guest_mask()) | (saved_word_ & ~guest_mask());
    switch (r.role) {
        case r_mdcr:
            if ((mdcr_ & 0x1F) > cfg_.num_counters)
                rec.add(Severity::warning, diag::unpredictable,
                        fmt::format("MDCR_EL2.HPMN = {} > N = {} is CONSTRAINED UNPREDICTABLE; pmusim's choice: HPMN = N",
                                    mdcr_ & 0x1F, cfg_.num_counters));
            configure_counters();
            break;
        case r_pmcr: {
            // v8 §3.1: P resets every event counter (from EL0/EL1 with EL2: those below HPMN), C the cycle counter;
            // neither touches overflow flags.
            if (rec.value_written & pmcr_p) {
                for (unsigned n = 0; n < N; ++n) evcnt_[n].value = 0;
                rec.set_effect("P", fmt::format("action: event counters 0..{} := 0", N == 0 ? 0 : N - 1));
            }
            if (rec.value_written & pmcr_c) {
                ccntr_.value = 0;
                prescaler_.reset();  // pmusim's choice: the divider restarts with the counter (docs/models.md)
                rec.set_effect("C", "action: PMCCNTR := 0");
            }
            configure_counters();
            break;
        }
        case r_ccntr:
            prescaler_.reset();  // pmusim's choice, as for PMCR.C
            break;
        case r_lar: {
            const bool unlock = rec.value_written == 0xC5ACCE55u;
            lsr_ = unlock ? (lsr_ & ~uint64_t{2}) : (lsr_ | 2u);
            rec.set_effect("KEY", unlock ? "action: software lock cleared" : "action: software lock set");
            break;
        }
        case r_swinc:
            software_increment(rec.value_written & bit_mask(0, N), rec);
            break;
        case r_evtyper: {
            const uint32_t e = evt_of(static_cast<unsigned>(r.index));
            if (v3() && e == chain) {
                if (r.index % 2 == 0)
                    rec.add(Severity::info, diag::no_effect,
                            fmt::format("CHAIN (0x1E) on even counter {} counts nothing (Arm ARM DDI 0487: CHAIN counts on odd counters only)", r.index));
            } else if (!event_supported(e)) {
                rec.add(Severity::warning, diag::reserved_event,
                        fmt::format("event {:#x} is not implemented on this PMU: counter {} counts nothing", e, r.index));
            }
            break;
        }
        default: break;
    }
    update_irq();
}

void ArmPmu::software_increment(uint64_t bits, AccessRecord& rec) {
    // v8 §3.5: counter n increments if enabled (PMCR.E and PMCNTENSET[n]) and its event is SW_INCR; the
    // increment overflows like any other. Filters apply by default (cfg.swinc_filters).
    for (unsigned n = 0; n < cfg_.num_counters; ++n) {
        if (!test_bit(bits, n)) continue;
        std::string what;
        if (!(pmcr_ & pmcr_e) || !test_bit(cnten_, n)) what = "counter disabled: no effect";
        else if (evt_of(n) != sw_incr) what = fmt::format("event is {:#x}, not SW_INCR: no effect", evt_of(n));
        else if (cfg_.swinc_filters && (prohibited() || filtered(evtyper_[n], exec_.privilege, exec_.secure)))
            what = "filtered at the current exception level: no effect";
        else {
            const AddResult a = bump(n, 1);
            what = a.overflows ? "incremented and overflowed" : "incremented";
        }
        rec.set_effect(fmt::format("P{}", n), what);
    }
}

AddResult ArmPmu::bump(unsigned idx, uint64_t n) {
    const AddResult a = evcnt_[idx].add(n);
    if (a.overflows) {
        ovs_ |= uint64_t{1} << idx;
        // v8 §5.2: an odd counter programmed with CHAIN counts each overflow of its even neighbour, unless that
        // overflow is at bit 63 (Arm ARM AArch64.IncrementEventCounter: no CHAIN event when LP/HLP = 1).
        const unsigned odd = idx + 1;
        if (v3() && idx % 2 == 0 && odd < cfg_.num_counters && !long_overflow(idx) && evt_of(odd) == chain &&
            counter_counts(odd))
            bump(odd, a.overflows);
    }
    return a;
}

// ---------------------------------------------------------------------------------------------------------
// Counting

uint64_t ArmPmu::read_value(const Register& r) {
    if (r.role == r_claimset) return 0xFF;  // the implemented claim tags
    uint64_t v = r.read();
    if (guest_) {
        // EL1 and EL0 with EL2: PMCR.N reads HPMN, and bits [30:HPMN] of the bitmaps read 0 (Arm ARM D17 PMCR_EL0.N,
        // PMOVSCLR_EL0.P<n>).
        if (r.role == r_pmcr) v = (v & ~uint64_t{0xF800}) | (uint64_t{hpmn()} << 11);
        if (is_bitmap(r.role)) v &= guest_mask();
    }
    return v;
}

unsigned ArmPmu::hpmn() const {
    // Values above N are CONSTRAINED UNPREDICTABLE: pmusim takes N (reported when written).
    return has_mdcr() ? std::min<unsigned>(static_cast<unsigned>(mdcr_ & 0x1F), cfg_.num_counters) : cfg_.num_counters;
}

bool ArmPmu::guest_access(const AccessContext& ctx) const {
    // EL2 enabled in the current Security state: Non-secure, EL2 implemented (no Secure EL2 in pmusim).
    return has_mdcr() && ctx.origin != AccessOrigin::external_debug && ctx.privilege < 2 && !ctx.secure;
}

uint64_t ArmPmu::guest_mask() const { return 0x80000000u | bit_mask(0, hpmn()); }

bool ArmPmu::is_bitmap(unsigned role) {
    return role == r_cntenset || role == r_cntenclr || role == r_ovsclr || role == r_ovsset || role == r_intenset ||
           role == r_intenclr;
}

bool ArmPmu::enabled_by(unsigned n) const {
    // armv8-pmuv3.md §4: E_eff(n) = PMCR.E for the cycle counter and n < HPMN, MDCR_EL2.HPME for n >= HPMN.
    if (n == cycle_idx || n < hpmn()) return pmcr_ & pmcr_e;
    return mdcr_ & mdcr_hpme;
}

uint32_t ArmPmu::evt_of(unsigned n) const { return static_cast<uint32_t>(evtyper_[n] & 0xFFFF); }

bool ArmPmu::prohibited() const {
    // v8 §4, §7: Secure state without Secure non-invasive debug permission prohibits event counting.
    const bool secure = exec_.secure || exec_.privilege == 3;
    return secure && !cfg_.secure_counting;
}

bool ArmPmu::filtered(uint64_t f, unsigned el, bool secure) const {
    if (!has_filters()) return false;  // PMUv1 has no mode filtering (v7 §1)
    const bool P = test_bit(f, 31), U = test_bit(f, 30), NSK = test_bit(f, 29), NSU = test_bit(f, 28),
               NSH = test_bit(f, 27), M = test_bit(f, 26);
    if (el == 3 && view_ == ArmView::aarch32_v7) {
        el = 1;  // ARMv7 Monitor mode is a Secure PL1 mode
        secure = true;
    }
    if (el == 3) secure = true;
    switch (el) {  // v8 §4 "filtered(n)"
        case 0: return secure ? U : (U != NSU);
        case 1: return secure ? P : (P != NSK);
        case 2: return !NSH;
        default: return M != P;
    }
}

bool ArmPmu::counter_counts(unsigned n) const {
    if (state_ == CoreState::debug || !enabled_by(n) || !test_bit(cnten_, n)) return false;
    // armv8-pmuv3.md §4: with FEAT_PMUv3p1, MDCR_EL2.HPMD prohibits counting at EL2 for the counters below HPMN and
    // the cycle counter (which then stops only with PMCR.DP, as for any prohibition).
    const bool hpmd = has_mdcr() && cfg_.version >= ArmPmuVersion::v3p1 && (mdcr_ & mdcr_hpmd) &&
                      exec_.privilege == 2 && !exec_.secure && (n == cycle_idx || n < hpmn());
    if (n == cycle_idx) {
        if ((prohibited() || hpmd) && (pmcr_ & pmcr_dp)) return false;  // v8 §7: DP stops PMCCNTR where prohibited
        return !filtered(ccfiltr_, exec_.privilege, exec_.secure);
    }
    return !prohibited() && !hpmd && !filtered(evtyper_[n], exec_.privilege, exec_.secure);
}

void ArmPmu::configure_counters() {
    // v8 §5: PMCCNTR is 64-bit, LC picks the overflow bit; event counters are 32-bit, or 64-bit with v3p5 and
    // LP picking the overflow bit. ARMv7: everything is 32-bit.
    if (view_ == ArmView::aarch64) {
        const bool lc = !cfg_.aarch32 || (pmcr_ & pmcr_lc);
        ccntr_.configure(64, lc ? 63 : 31);
        const bool p5 = cfg_.version >= ArmPmuVersion::v3p5;
        for (unsigned n = 0; n < evcnt_.size(); ++n) evcnt_[n].configure(p5 ? 64 : 32, long_overflow(n) ? 63 : 31);
    } else {
        ccntr_.configure(32, 31);
        for (auto& c : evcnt_) c.configure(32, 31);
    }
}

bool ArmPmu::long_overflow(unsigned n) const {
    // v8 §5: with FEAT_PMUv3p5, PMCR_EL0.LP puts the overflow of counters [0, HPMN) at bit 63, MDCR_EL2.HLP that of
    // counters [HPMN, N) (Arm ARM D17 MDCR_EL2.HLP).
    if (view_ != ArmView::aarch64 || cfg_.version < ArmPmuVersion::v3p5) return false;
    return n < hpmn() ? (pmcr_ & pmcr_lp) != 0 : (mdcr_ & mdcr_hlp) != 0;
}

void ArmPmu::update_irq() {
    // v8 §6: PMUIRQ = PMCR.E && (PMOVSSET & PMINTENSET) != 0, a level re-evaluated on every change.
    // With EL2 a counter reserved for EL2 requests under MDCR_EL2.HPME instead of PMCR.E (§6, E_eff).
    const uint64_t pending = ovs_ & inten_ & implemented_mask_;
    if (!has_mdcr()) {
        irq_ = (pmcr_ & pmcr_e) && pending;
        return;
    }
    const uint64_t low = guest_mask();
    irq_ = ((pmcr_ & pmcr_e) && (pending & low)) || ((mdcr_ & mdcr_hpme) && (pending & ~low));
}

AdvanceResult ArmPmu::advance(const EventBatch& batch) {
    AdvanceResult res;
    // v8 §7, v7 §4: nothing counts in Debug state, the cycle counter included; the divider holds still.
    if (state_ == CoreState::debug || (!(pmcr_ & pmcr_e) && !(mdcr_ & mdcr_hpme))) return res;
    const bool was_irq = irq_;
    uint64_t irq_at = ~uint64_t{0};
    auto note_overflow = [&](unsigned idx, uint64_t cycle, uint64_t overflows) {
        ovs_ |= uint64_t{1} << idx;
        res.overflows += overflows;
        if (test_bit(inten_, idx)) irq_at = std::min(irq_at, cycle);
    };
    for (unsigned n = 0; n < cfg_.num_counters; ++n) {
        pending_chain_[n] = 0;
        if (!counter_counts(n)) continue;
        const uint32_t e = evt_of(n);
        uint64_t inc = 0;
        bool cycles_event = false;
        if (v3() && e == chain) {
            inc = n % 2 ? pending_chain_[n - 1] : 0;
        } else if (e != sw_incr && event_supported(e)) {
            inc = batch.count(e);
            if (e == cpu_cycles) {
                cycles_event = inc == 0;
                inc += batch.cycles;
            }
        }
        if (inc == 0) continue;
        const AddResult a = evcnt_[n].add(inc);
        if (a.overflows) {
            pending_chain_[n] = long_overflow(n) ? 0 : a.overflows;  // no CHAIN from a bit-63 overflow (v8 §5.2)
            note_overflow(n, cycles_event ? a.first_overflow : event_cycle(a.first_overflow, inc, batch.cycles),
                          a.overflows);
        }
    }
    if (counter_counts(cycle_idx) && batch.cycles) {
        // v8 §5.1: D divides by 64 only when LC = 0 (ARMv7 has no LC).
        const bool divided = (pmcr_ & pmcr_d) && !((view_ == ArmView::aarch64) && (!cfg_.aarch32 || (pmcr_ & pmcr_lc)));
        const uint64_t phase = prescaler_.phase();
        const uint64_t ticks = divided ? prescaler_.advance(batch.cycles) : batch.cycles;
        const AddResult a = ccntr_.add(ticks);
        if (a.overflows)
            note_overflow(cycle_idx, divided ? Prescaler::cycle_of_tick(phase, a.first_overflow, 64) : a.first_overflow,
                          a.overflows);
    }
    update_irq();
    if (!was_irq && irq_) {
        res.irq_rose = true;
        res.irq_cycle = irq_at == ~uint64_t{0} ? 0 : irq_at;
    }
    return res;
}

std::vector<std::pair<std::string, uint64_t>> ArmPmu::counter_values() const {
    const bool v8 = view_ == ArmView::aarch64;
    std::vector<std::pair<std::string, uint64_t>> v;
    v.emplace_back(v8 ? "PMCCNTR_EL0" : "PMCCNTR", ccntr_.value);
    for (unsigned n = 0; n < cfg_.num_counters; ++n)
        v.emplace_back(fmt::format(v8 ? "PMEVCNTR{}_EL0" : "PMXEVCNTR{}", n), evcnt_[n].value);
    return v;
}

void ArmPmu::reset() {
    bank_.reset_all();
    for (auto& c : evcnt_) c.value = 0;
    ccntr_.value = 0;
    swinc_ = 0;
    prescaler_.reset();
    configure_counters();
    update_irq();
}

}  // namespace pmusim
