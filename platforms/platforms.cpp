#include <cctype>
#include <deque>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/number.hpp"
#include "model/core/register.hpp"
#include "model/pmu/arm11_pmu.hpp"
#include "model/pmu/arm_pmu.hpp"
#include "model/pmu/veer_pmu.hpp"
#include "platforms/platform.hpp"
#include "platforms/timing_params.hpp"

#include <algorithm>

namespace pmusim {

namespace {

bool parse_bool_option(const std::string& key, const std::string& v) {
    if (v == "1" || v == "true" || v == "on" || v == "yes") return true;
    if (v == "0" || v == "false" || v == "off" || v == "no") return false;
    throw std::invalid_argument(fmt::format("option {}: expected 0 or 1, got '{}'", key, v));
}

// Options every ARM architected PMU accepts: the CONSTRAINED UNPREDICTABLE choices, then the IMPLEMENTATION
// DEFINED figures (PMCR.IMP/IDCODE/N, PMCEID0/1, the PMU version) that describe a core not in the list.
std::vector<OptionInfo> arm_options(bool v8) {
    std::vector<OptionInfo> o = {
        {"unpredictable", "undefined|raz-wi", "undefined",
         "access to a counter n >= N (CONSTRAINED UNPREDICTABLE): UNDEFINED as KVM, or RAZ/WI as QEMU and gem5"},
        {"secure-counting", "0|1", "0", "Secure non-invasive debug permitted: event counting allowed in Secure state"},
        {"swinc-filters", "0|1", "1", "PMEVTYPER filters apply to PMSWINC increments (QEMU's behaviour)"},
        {"counters", "0-31", "platform", "PMCR.N: the number of event counters"},
        {"implementer", "0x00-0xFF", "platform", "PMCR.IMP: implementer code (0x41 = Arm)"},
        {"idcode", "0x00-0xFF", "platform", "PMCR.IDCODE: identification code"},
        {"pmceid0", v8 ? "64-bit value (32-bit before v3p1)" : "32-bit value", "platform",
         v8 ? "PMCEID0_EL0: common events 0x00-0x1F implemented (and 0x4000-0x401F in [63:32], v3p1+)"
            : "PMCEID0: common events 0x00-0x1F implemented"},
    };
    if (v8) {
        o.push_back({"pmceid1", "64-bit value (32-bit before v3p1)", "platform",
                     "PMCEID1_EL0: common events 0x20-0x3F implemented (and 0x4020-0x403F in [63:32], v3p1+)"});
        o.push_back({"version", "v3|v3p1|v3p4|v3p5", "platform", "PMU version (ID_AA64DFR0_EL1.PMUVer)"});
        o.push_back({"aarch32", "0|1", "platform",
                     "AArch32 supported at some EL: PMCR.LC and PMCR.D are RW (else LC RES1, D RES0)"});
    } else {
        o.push_back({"pmceid1", "32-bit value", "platform", "PMCEID1: common events 0x20-0x3F implemented"});
        o.push_back({"version", "v1|v2", "platform", "PMU version (ID_DFR0.PerfMon: 1 = PMUv1, 2 = PMUv2)"});
    }
    return o;
}

uint64_t parse_value_option(const std::string& key, const std::string& v, uint64_t max) {
    const auto n = isa::parse_number(v);
    if (!n || *n > max)
        throw std::invalid_argument(fmt::format("option {}: expected a number from 0 to {:#x}, got '{}'", key, max, v));
    return *n;
}

ArmPmuVersion parse_version_option(const std::string& v, bool v8) {
    // armv8-pmuv3.md §1 (ID_AA64DFR0_EL1.PMUVer), armv7-cp15-pmu.md §1 (PMUv1, PMUv2).
    static const std::pair<const char*, ArmPmuVersion> v8s[] = {
        {"v3", ArmPmuVersion::v3}, {"v3p1", ArmPmuVersion::v3p1}, {"v3p4", ArmPmuVersion::v3p4}, {"v3p5", ArmPmuVersion::v3p5}};
    static const std::pair<const char*, ArmPmuVersion> v7s[] = {{"v1", ArmPmuVersion::v1}, {"v2", ArmPmuVersion::v2}};
    const std::string low = to_lower(v);
    if (v8) {
        for (const auto& [name, ver] : v8s)
            if (low == name) return ver;
        throw std::invalid_argument(fmt::format("option version: expected v3, v3p1, v3p4 or v3p5, got '{}'", v));
    }
    for (const auto& [name, ver] : v7s)
        if (low == name) return ver;
    throw std::invalid_argument(fmt::format("option version: expected v1 or v2 (ARMv7), got '{}'", v));
}

}  // namespace

ArmPmuConfig apply_arm_options(ArmPmuConfig cfg, const PlatformOptions& opts, bool v8) {
    for (const auto& [k, v] : opts) {
        if (k == "unpredictable") {
            if (v == "undefined") cfg.unpredictable = UnpredictableCounterAccess::undefined;
            else if (v == "raz-wi") cfg.unpredictable = UnpredictableCounterAccess::raz_wi;
            else throw std::invalid_argument(fmt::format("option unpredictable: expected undefined or raz-wi, got '{}'", v));
        } else if (k == "secure-counting") {
            cfg.secure_counting = parse_bool_option(k, v);
        } else if (k == "swinc-filters") {
            cfg.swinc_filters = parse_bool_option(k, v);
        } else if (k == "aarch32" && v8) {
            cfg.aarch32 = parse_bool_option(k, v);
        } else if (k == "counters") {
            cfg.num_counters = static_cast<unsigned>(parse_value_option(k, v, 31));  // PMCR.N is 5 bits, N <= 31
        } else if (k == "implementer") {
            cfg.implementer = static_cast<uint8_t>(parse_value_option(k, v, 0xFF));
        } else if (k == "idcode") {
            cfg.idcode = static_cast<uint8_t>(parse_value_option(k, v, 0xFF));
        } else if (k == "pmceid0") {
            cfg.pmceid0 = parse_value_option(k, v, ~uint64_t{0});
        } else if (k == "pmceid1") {
            cfg.pmceid1 = parse_value_option(k, v, ~uint64_t{0});
        } else if (k == "version") {
            cfg.version = parse_version_option(v, v8);
        } else if (k == "aarch32") {
            throw std::invalid_argument("option aarch32 applies to ARMv8 platforms only");
        } else {
            throw std::invalid_argument(fmt::format("unknown platform option '{}'", k));
        }
    }
    // PMCEID0/1 are 64-bit from PMUv3p1 (the upper halves name events 0x4000-0x403F); before it, and in ARMv7,
    // they are 32-bit (armv8-pmuv3.md §3.8).
    if (cfg.version < ArmPmuVersion::v3p1)
        for (const auto& [key, value] : {std::pair<const char*, uint64_t>{"pmceid0", cfg.pmceid0}, {"pmceid1", cfg.pmceid1}})
            if (value >> 32)
                throw std::invalid_argument(fmt::format(
                    "option {}: {:#x} has bits above 31, but PMCEID is 32-bit before PMUv3p1 (version {})", key, value,
                    to_string(cfg.version)));
    return cfg;
}

PlatformOptions arm_option_values(const ArmPmuConfig& c, bool v8) {
    PlatformOptions o = {
        {"unpredictable", c.unpredictable == UnpredictableCounterAccess::undefined ? "undefined" : "raz-wi"},
        {"secure-counting", c.secure_counting ? "1" : "0"},
        {"swinc-filters", c.swinc_filters ? "1" : "0"},
    };
    if (v8) o["aarch32"] = c.aarch32 ? "1" : "0";
    return o;
}

Arm11Config apply_arm11_options(Arm11Config c, const PlatformOptions& opts) {
    for (const auto& [k, v] : opts) {
        if (k == "user-access") {
            if (v != "privileged" && v != "all")
                throw std::invalid_argument(fmt::format("option user-access: expected privileged or all, got '{}'", v));
            c.user_access = v == "all";
        } else if (k == "flag-clear-needs-e") {
            c.clear_needs_e = parse_bool_option(k, v);
        } else if (k == "start-state") {
            if (v != "linux" && v != "reset")
                throw std::invalid_argument(fmt::format("option start-state: expected linux or reset, got '{}'", v));
            c.reset_state = v == "reset";
        } else if (k == "counters" || k == "implementer" || k == "idcode" || k == "pmceid0" || k == "pmceid1" ||
                   k == "version") {
            // AN195: PMNC has two counters and no ID fields; each ARM11 core has its own platform.
            throw std::invalid_argument(
                fmt::format("option {}: the ARM11 PMNC has no IMPLEMENTATION DEFINED figures to set", k));
        } else {
            throw std::invalid_argument(fmt::format("unknown platform option '{}'", k));
        }
    }
    return c;
}

PlatformOptions arm11_option_values(const Arm11Config& c) {
    return {{"user-access", c.user_access ? "all" : "privileged"},
            {"flag-clear-needs-e", c.clear_needs_e ? "1" : "0"},
            {"start-state", c.reset_state ? "reset" : "linux"}};
}

VeerConfig apply_veer_options(VeerConfig c, const PlatformOptions& opts) {
    for (const auto& [k, v] : opts) {
        if (k == "user_mode") c.user_mode = parse_bool_option(k, v);
        else if (k == "counters")  // veer §2: mhpmcounter3-6, fixed by the RTL
            throw std::invalid_argument("option counters: VeeR EL2 has 4 event counters, fixed by the RTL");
        else throw std::invalid_argument(fmt::format("unknown platform option '{}'", k));
    }
    return c;
}

PlatformOptions veer_option_values(const VeerConfig& c) { return {{"user_mode", c.user_mode ? "1" : "0"}}; }

std::optional<timing::TimingParams> replay_timing(const Platform& p, const PlatformOptions& opts) {
    if (!p.timing) return std::nullopt;
    timing::TimingParams t = *p.timing;
    // ARM11: the predictor's state at the start (option start-state); SCTLR.Z writes in the trace still turn it on
    // and off (follows_sctlr_z). The caches are modelled on in both states.
    if (p.family == "arm11-pmnc" && t.follows_sctlr_z) t.predictor.enabled = !apply_arm11_options(p.arm11, opts).reset_state;
    return t;
}

PlatformOptions option_values(const Platform& p) {
    if (p.family == "arm11-pmnc") return arm11_option_values(p.arm11);
    if (p.family == "veer-el2") return veer_option_values(p.veer);
    return arm_option_values(p.arm, p.family == "armv8-pmuv3");
}

// One builder for the ARM architected PMUs: the view decides the family, instruction set and options.
Platform make_arm_platform(PlatformText text, const ArmPmuConfig& cfg, bool v8) {
    const ArmView view = v8 ? ArmView::aarch64 : ArmView::aarch32_v7;
    Platform p;
    p.name = std::move(text.name);
    p.family = v8 ? "armv8-pmuv3" : "armv7-cp15";
    p.pmu = std::string(to_string(cfg.version));
    p.counters = cfg.num_counters;
    p.description = std::move(text.description);
    p.source = std::move(text.source);
    p.arm = cfg;
    p.isa = v8 ? IsaKind::a64 : IsaKind::a32;
    p.cycle_event = 0x11;  // CPU_CYCLES
    p.options = arm_options(v8);
    // Every instruction is INST_RETIRED and INST_SPEC (the timing model adds the wrong path's instructions to
    // INST_SPEC); a load is LD_RETIRED as well, a store ST_RETIRED.
    p.retire = [v8](const isa::RetiredInsn& i, uint64_t n, EventBatch& b) {
        // armv8-common-events.csv: INST_RETIRED counts every architecturally executed instruction, condition
        // failed included; the "condition code check pass" events only those that pass.
        using C = isa::InsnClass;
        b.add(0x08, n);
        b.add(0x1B, n);
        if (i.cond_failed) return;
        if (i.cls == C::load) b.add(0x06, n);                                      // LD_RETIRED
        if (i.cls == C::store) b.add(0x07, n);                                     // ST_RETIRED
        if (i.cls == C::load || i.cls == C::store) b.add(0x13, n);                 // MEM_ACCESS
        if (i.unaligned) b.add(0x0F, n);                                           // UNALIGNED_LDST_RETIRED
        if (i.cls == C::ecall || i.cls == C::ebreak) b.add(0x09, n);              // EXC_TAKEN
        if (i.branch & isa::br_immediate) b.add(0x0D, n);                          // BR_IMMED_RETIRED
        if ((i.branch & isa::br_return) && (i.branch & isa::br_taken)) b.add(0x0E, n);  // BR_RETURN_RETIRED
        if (i.branch & isa::br_exc_return) b.add(0x0A, n);                         // EXC_RETURN
        if ((i.branch & isa::br_taken) && !(i.branch & isa::br_exc_return)) b.add(0x0C, n);  // PC_WRITE_RETIRED
        if (v8 && (i.cls == C::branch || i.cls == C::jump || (i.branch & isa::br_register))) b.add(0x21, n);  // BR_RETIRED
    };
    p.make = [cfg, view, v8](const PlatformOptions& o) -> std::unique_ptr<Pmu> {
        return std::make_unique<ArmPmu>(apply_arm_options(cfg, o, v8), view);
    };
    p.event_names = v8 ? &armv8_common_events : &armv7_events;
    p.program_counters = [v8](Pmu& pmu, const std::vector<uint32_t>& events) -> size_t {
        AccessContext el3;
        el3.privilege = v8 ? 3 : 1;
        el3.secure = false;
        auto w = [&](Register* r, uint64_t val) { pmu.write(*r, val, el3); };
        uint64_t enable = 0x80000000u;
        const size_t n = std::min<size_t>(events.size(), static_cast<const ArmPmu&>(pmu).config().num_counters);
        size_t i = 0;
        for (; i < n; ++i) {  // counters 0..PMCR.N-1 (v8 §3: the others are not implemented)
            Register* type = pmu.bank().find(fmt::format(v8 ? "PMEVTYPER{}_EL0" : "PMXEVTYPER{}", i));
            if (!type) break;
            // NSH (bit 27) too, so that the counter counts at every exception level.
            w(type, events[i] | (v8 ? 0x08000000u : 0u));
            enable |= uint64_t{1} << i;
        }
        w(pmu.bank().find(v8 ? "PMCNTENSET_EL0" : "PMCNTENSET"), enable);
        w(pmu.bank().find(v8 ? "PMCR_EL0" : "PMCR"), 0x1);
        return i;
    };
    p.implements = [](const Pmu& pmu, uint32_t e) { return static_cast<const ArmPmu&>(pmu).event_supported(e); };
    return p;
}

namespace {

Platform armv8_platform(std::string name, std::string description, std::string source, ArmPmuConfig cfg) {
    return make_arm_platform({std::move(name), std::move(description), std::move(source)}, cfg, true);
}

Platform armv7_platform(std::string name, std::string description, std::string source, ArmPmuConfig cfg) {
    return make_arm_platform({std::move(name), std::move(description), std::move(source)}, cfg, false);
}

// An ARM PMU configuration from its distinguishing figures.
ArmPmuConfig arm_config(ArmPmuVersion version, unsigned n, uint8_t idcode, uint64_t pmceid0, uint64_t pmceid1 = 0) {
    ArmPmuConfig c;
    c.version = version;
    c.num_counters = n;
    c.idcode = idcode;
    c.pmceid0 = pmceid0;
    c.pmceid1 = pmceid1;
    return c;
}

Platform arm11_platform(std::string name, Arm11Core core, unsigned core_bit, std::string description) {
    Arm11Config cfg;
    cfg.core = core;
    for (const auto& e : arm11_events())
        if (e.cores & core_bit) cfg.events.push_back(e.info.number);
    return make_arm11_platform({std::move(name), std::move(description), "ARM1136/ARM1156/ARM1176 TRMs, the performance monitor; ARM Application Note 195"},
                               cfg);
}

}  // namespace

Platform make_arm11_platform(PlatformText text, const Arm11Config& cfg) {
    Platform p;
    p.name = std::move(text.name);
    p.family = "arm11-pmnc";
    p.pmu = "PMNC";
    p.counters = 2;
    p.description = std::move(text.description);
    p.source = std::move(text.source);
    p.arm11 = cfg;
    p.isa = IsaKind::a32;
    p.cycle_event = 0xFF;  // "an increment each cycle"
    p.options = {
        {"user-access", "privileged|all", "privileged",
         "User-mode access: UNDEFINED as the core TRMs say, or allowed as AN195 reads (and the ARM1176 with its "
         "User-access validation bit set)"},
        {"flag-clear-needs-e", "0|1", "1",
         "an overflow flag written 1 with PMNC.E = 0 stays set (AN195: E must be set to clear the request)"},
        {"start-state", "linux|reset", "linux",
         "the core's state at the trace's start, which a user-mode trace cannot show: branch prediction and caches "
         "on as Linux runs them (SCTLR.Z, C, I set), or out of reset: prediction off until the trace writes SCTLR.Z"},
    };
    // AN195 Table 2: 0x07 instructions executed (condition failures included), 0x05 branches executed,
    // 0x0D software changes of the PC (taken branches without a mode change).
    p.retire = [](const isa::RetiredInsn& i, uint64_t n, EventBatch& b) {
        b.add(0x07, n);
        if (i.cls == isa::InsnClass::branch || i.cls == isa::InsnClass::jump || i.branch) b.add(0x05, n);
        if ((i.branch & isa::br_taken) && !(i.branch & isa::br_exc_return)) b.add(0x0D, n);
    };
    p.program_counters = [](Pmu& pmu, const std::vector<uint32_t>& events) -> size_t {
        uint64_t pmnc = 0x1;  // E
        if (!events.empty()) pmnc |= uint64_t{events[0] & 0xFF} << 20;
        if (events.size() > 1) pmnc |= uint64_t{events[1] & 0xFF} << 12;
        AccessContext priv;
        pmu.write(*pmu.bank().find("PMNC"), pmnc, priv);
        return std::min<size_t>(events.size(), 2);  // two event counters (arm11-pmnc.md)
    };
    p.make = [cfg](const PlatformOptions& opts) -> std::unique_ptr<Pmu> {
        return std::make_unique<Arm11Pmu>(apply_arm11_options(cfg, opts));
    };
    p.event_names = &arm11_event_names;
    p.implements = [](const Pmu& pmu, uint32_t e) { return static_cast<const Arm11Pmu&>(pmu).event_supported(e); };
    return p;
}

// VeeR EL2 (veer-el2-mhpm.md): machine mode only by default, as the core's default configuration.
Platform make_veer_platform(PlatformText text, const VeerConfig& cfg) {
    Platform p;
    p.name = std::move(text.name);
    p.family = "veer-el2";
    p.pmu = "mhpm";
    p.counters = 4;
    p.description = std::move(text.description);
    p.source = std::move(text.source);
    p.veer = cfg;
    p.isa = IsaKind::rv32;
    p.riscv = true;
    p.cycle_event = 1;  // cycles clock active
    p.events_before_write = true;  // veer §4.1: a counter write wins over the writing instruction's own increment
    p.options = {{"user_mode", "0|1", "0", "RV_USER_MODE build: U-mode, mcounteren and the cycle/instret/hpmcounter shadows"}};
    // veer §3 and §4.2: every committed instruction is event 4 (minstret) and 5 or 6 (16-/32-bit), plus its class.
    p.program_counters = [](Pmu& pmu, const std::vector<uint32_t>& events) -> size_t {
        AccessContext m;
        m.privilege = 3;
        size_t i = 0;
        for (; i < events.size(); ++i) {
            Register* sel = pmu.bank().find(fmt::format("mhpmevent{}", 3 + i));
            if (!sel) break;  // VeeR EL2 has mhpmevent3-6 only (veer-el2-mhpm.md)
            pmu.write(*sel, events[i], m);
        }
        pmu.write(*pmu.bank().find("mcountinhibit"), 0, m);
        return i;
    };
    p.retire = [](const isa::RetiredInsn& i, uint64_t n, EventBatch& b) {
        using C = isa::InsnClass;
        // Every instruction is aligned and decoded (events 7, 8; the timing model adds the wrong path's).
        b.add(7, n);
        b.add(8, n);
        b.add(4, n);
        b.add(i.compressed ? 5 : 6, n);
        // ecall and ebreak trap instead of retiring: not in minstret (veer §4; VeerPmu::advance subtracts them), but
        // in events 4-6 (tests/veer-rtl/traps: event 4 = minstret + 32 for 16 ecall and 16 ebreak). Each is an
        // exception taken (37) and a TLU flush (40), as is each mret (traps: 64 flushes).
        if (i.cls == C::ecall || i.cls == C::ebreak) {
            b.add(i.cls == C::ecall ? 20 : 19, n);
            b.add(37, n);
            b.add(40, n);
            return;
        }
        switch (i.cls) {
            case C::alu: b.add(15, n); break;
            case C::bitmanip: b.add(54, n); break;  // not ALU operations (tests/veer-rtl/bitmanip)
            case C::load:
                b.add(11, n);
                if (i.unaligned) b.add(13, n);  // misaligned loads
                break;
            case C::store:
                b.add(12, n);
                if (i.unaligned) b.add(14, n);  // misaligned stores
                break;
            case C::mul: b.add(9, n); break;
            case C::div: b.add(10, n); break;
            case C::branch:
            case C::jump:
                // Events 24 and 26 count every conditional branch, JAL and JALR (those taken): measured on the RTL
                // (tests/veer-rtl/recursion: its returns are in 24 and 26), where veer §3 reads the RTL's
                // condition as conditional branches and JAL only.
                b.add(24, n);
                if (i.branch & isa::br_taken) b.add(26, n);
                // Event 27 (el2_dec_decode_ctl.sv: i0_br_unpred = jal & ~i0_predict_br, where i0_predict_br is condbr
                // | pcall | pja | pret): a JAL beyond the BTB's 12-bit offset, or a JALR that is not a return
                // (tests/veer-rtl/unpred, coremark_like, icache_big: exact). A return is a JALR x0 through ra or t0.
                if (!(i.branch & isa::br_conditional) &&
                    ((i.branch & isa::br_register) ? !(i.branch & isa::br_return) : (i.branch & isa::br_far) != 0))
                    b.add(27, n);
                break;
            case C::csr_read: b.add(16, n); break;
            case C::csr_read_write: b.add(17, n); break;
            case C::csr_write: b.add(18, n); break;
            case C::ebreak: b.add(19, n); break;
            case C::ecall: b.add(20, n); break;
            case C::fence: b.add(21, n); break;
            case C::fence_i: b.add(22, n); break;
            case C::mret:
                b.add(23, n);
                b.add(40, n);
                break;
            default: break;
        }
    };
    // Interrupts taken (el2_dec_tlu_ctl.sv, MHPME_TIMER_INT_TAKEN and MHPME_EXT_INT_TAKEN): the platform timer (mcause
    // 7) and the internal timers 0 and 1 (29, 28) are event 38, external interrupts (11) event 39. Every one
    // flushes the pipeline (40: flush lower = interrupt_valid_r | mret_r | ... | take_halt | take_ext_int_start);
    // an external interrupt twice in the default build, whose fast redirect (RV_FAST_INTERRUPT_REDIRECT) first
    // flushes to fetch the handler's address from the meivt table. Measured: tests/veer-rtl/irq (5 interrupts, 5
    // mret, 1 fw-halt: 12 flushes).
    p.interrupt = [](unsigned cause, EventBatch& b) {
        if (cause == 7 || cause == 28 || cause == 29) b.add(38, 1);
        if (cause == 11) b.add(39, 1);
        b.add(40, cause == 11 ? 2 : 1);
    };
    p.fw_halt = [](EventBatch& b) { b.add(40, 1); };  // take_halt flushes too
    p.make = [cfg](const PlatformOptions& opts) -> std::unique_ptr<Pmu> {
        return std::make_unique<VeerPmu>(apply_veer_options(cfg, opts));
    };
    p.event_names = &veer_events;
    p.implements = [](const Pmu&, uint32_t e) { return VeerPmu::event_implemented(e); };
    return p;
}

namespace {

std::vector<Platform> build_platforms() {
    std::vector<Platform> v;
    {
        // Cortex-A53: PMCR 0x41033000 (IMP 0x41, IDCODE 0x03, N = 6) [TRM-A53 DDI0500]; PMCEID0 0x63FFFFFF and
        // PMCEID1 0x00000001 (L2D_CACHE_ALLOCATE) per the Zynq UltraScale+ register reference UG1087 (A53_PMU).
        const ArmPmuConfig c = arm_config(ArmPmuVersion::v3, 6, 0x03, 0x63FFFFFF, 0x00000001);
        v.push_back(armv8_platform("cortex-a53", "Arm Cortex-A53 (ARMv8.0-A), PMUv3 with 6 event counters",
                                   "Cortex-A53 TRM DDI0500 ch. 12; AMD UG1087 A53_PMU", c));
    }
    {
        // Cortex-A57: PMCR 0x41013000 (IDCODE 0x01, N = 6) [issue 3]. PMCEID values unconfirmed: taken as the
        // Cortex-A53's common-event set until checked against the Cortex-A57 TRM.
        const ArmPmuConfig c = arm_config(ArmPmuVersion::v3, 6, 0x01, 0x63FFFFFF, 0x00000001);
        v.push_back(armv8_platform("cortex-a57", "Arm Cortex-A57 (ARMv8.0-A), PMUv3 with 6 event counters",
                                   "PMCR per issue 3; PMCEID unconfirmed (A53 values)", c));
    }
    {
        // Cortex-A72: PMCR 0x41023000 (IDCODE 0x02, N = 6) [issue 3]. PMCEID unconfirmed, as for the A57.
        const ArmPmuConfig c = arm_config(ArmPmuVersion::v3, 6, 0x02, 0x63FFFFFF, 0x00000001);
        v.push_back(armv8_platform("cortex-a72", "Arm Cortex-A72 (ARMv8.0-A), PMUv3 with 6 event counters",
                                   "PMCR per issue 3; PMCEID unconfirmed (A53 values)", c));
    }
    {
        // A generic PMUv3p5 with every counter and every common event, for drivers that need the full range.
        // No AArch32: PMCR.LC is RES1 and D RES0 (armv8-pmuv3.md §5.1); option aarch32=1 changes that.
        ArmPmuConfig c = arm_config(ArmPmuVersion::v3p5, 31, 0x00, 0xFFFFFFFF, 0xFFFFFFFF);
        c.aarch32 = false;
        v.push_back(armv8_platform("armv8-generic",
                                   "generic ARMv8 PMUv3p5: 31 event counters (64-bit), every common event, no AArch32",
                                   "Arm ARM DDI 0487, the Performance Monitors Extension", c));
    }
    {
        // Cortex-A7 (Raspberry Pi 2): PMUv2, N = 4, PMCR 0x41072000 [QEMU cortex_a7; armv7-cp15-pmu.md §3.1, §5].
        // PMCEID0 0x23FFFFFF derived from the TRM's event list (events 0x00-0x19 and 0x1D): unconfirmed (§3.8).
        // Virtualization Extensions: PMOVSSET and the NSH filter bit exist.
        ArmPmuConfig c = arm_config(ArmPmuVersion::v2, 4, 0x07, 0x23FFFFFF);
        c.impdef_events = cortex_a7_impdef_events();
        v.push_back(armv7_platform("cortex-a7", "Arm Cortex-A7 MPCore (Raspberry Pi 2), PMUv2 with 4 event counters",
                                   "ARMv7-A/R ARM DDI 0406C, the Performance Monitors Extension; Cortex-A7 MPCore TRM DDI0464 ch. 11", c));
    }
    {
        // Cortex-A8: PMUv1, N = 4, PMCR 0x41002000 [QEMU, armv7-cp15-pmu.md §3.1]. No filtering, no PMOVSSET.
        // PMCEID0: the ARMv7 common events 0x00-0x12 (unconfirmed: not in the sources).
        ArmPmuConfig c = arm_config(ArmPmuVersion::v1, 4, 0x00, 0x0007FFFF);
        c.has_pmovsset = false;
        c.has_el2 = false;
        v.push_back(armv7_platform("cortex-a8", "Arm Cortex-A8, PMUv1 with 4 event counters",
                                   "ARMv7-A/R ARM DDI 0406C, the Performance Monitors Extension; PMCEID unconfirmed", c));
    }
    {
        // Cortex-A9: PMUv1, N = 6, PMCR 0x41093000 [QEMU, armv7-cp15-pmu.md §3.1]. PMCEID0 as the A8 (unconfirmed).
        ArmPmuConfig c = arm_config(ArmPmuVersion::v1, 6, 0x09, 0x0007FFFF);
        c.has_pmovsset = false;
        c.has_el2 = false;
        v.push_back(armv7_platform("cortex-a9", "Arm Cortex-A9 MPCore, PMUv1 with 6 event counters",
                                   "ARMv7-A/R ARM DDI 0406C, the Performance Monitors Extension; PMCEID unconfirmed", c));
    }
    {
        // Cortex-A15: PMUv2, N = 6, PMCR 0x410F3000 [issue 4; TRM-A15 Table 11-1]. PMCEID0: common events
        // 0x00-0x19, 0x1B-0x1D (unconfirmed). Virtualization Extensions: PMOVSSET, NSH.
        const ArmPmuConfig c = arm_config(ArmPmuVersion::v2, 6, 0x0F, 0x3BFFFFFF);
        v.push_back(armv7_platform("cortex-a15", "Arm Cortex-A15 MPCore, PMUv2 with 6 event counters",
                                   "ARMv7-A/R ARM DDI 0406C, the Performance Monitors Extension; Cortex-A15 TRM DDI0438 Table 11-1; PMCEID unconfirmed", c));
    }
    v.push_back(arm11_platform("arm1136", Arm11Core::arm1136, Arm11Event::arm1136,
                               "ARM1136: PMNC with CCNT and 2 event counters"));
    v.push_back(arm11_platform("arm1156", Arm11Core::arm1156, Arm11Event::arm1156,
                               "ARM1156: PMNC with CCNT, 2 event counters and the FIQ request"));
    v.push_back(arm11_platform("arm1176", Arm11Core::arm1176, Arm11Event::arm1176,
                               "ARM1176 (Raspberry Pi 1): PMNC with CCNT and 2 event counters"));
    v.push_back(make_veer_platform({"veer-el2", "CHIPS Alliance VeeR EL2 (RV32IMC): mcycle, minstret, mhpmcounter3-6",
                                    "VeeR EL2 Programmer's Reference Manual ch. 8; VeeR EL2 RTL el2_dec_tlu_ctl.sv"},
                                   VeerConfig{}));
    // The timing model's parameters, per core (timing_params.cpp).
    for (auto& p : v) p.timing = platform_timing(p.name);
    return v;
}

}  // namespace

const std::vector<Platform>& all_platforms() {
    static const std::vector<Platform> platforms = build_platforms();
    return platforms;
}

namespace {

// Platforms added at run time; a deque keeps the addresses find_platform hands out.
struct AddedPlatforms {
    std::mutex mutex;
    std::deque<Platform> list;
};
AddedPlatforms& added() {
    static AddedPlatforms a;
    return a;
}

}  // namespace

const Platform& add_platform(Platform p) {
    AddedPlatforms& a = added();
    std::lock_guard<std::mutex> lock(a.mutex);
    a.list.push_back(std::move(p));
    return a.list.back();
}

const Platform* find_platform(std::string_view name) {
    const std::string want = to_lower(name);
    {
        AddedPlatforms& a = added();
        std::lock_guard<std::mutex> lock(a.mutex);
        for (auto it = a.list.rbegin(); it != a.list.rend(); ++it)
            if (to_lower(it->name) == want) return &*it;
    }
    for (const auto& p : all_platforms())
        if (p.name == want) return &p;
    return nullptr;
}

std::optional<EventInfo> find_event(const Platform& p, std::string_view text) {
    const auto& table = p.event_names();
    if (auto n = isa::parse_number(text)) {
        for (const auto& e : table)
            if (e.number == *n) return e;
        if (*n <= 0xFFFFFFFFu) return EventInfo{static_cast<uint32_t>(*n), fmt::format("{:#x}", *n), "IMPLEMENTATION DEFINED"};
        return std::nullopt;
    }
    const std::string want = to_upper(text);
    for (const auto& e : table)
        if (e.name == want) return e;
    return std::nullopt;
}

namespace {

// The generic (perf "hardware") events per PMU family, as the Linux kernel maps them where it does:
// armv8-pmuv3: drivers/perf/arm_pmuv3.c (armv8_pmuv3_perf_map; branches as armv8_a53_perf_map's
//   PC_WRITE_RETIRED where BR_RETIRED 0x21 is not implemented, as on the Cortex-A53);
// armv7-cp15: arch/arm/kernel/perf_event_v7.c (armv7_a7_perf_map: PC_WRITE for branches), with CPU_CYCLES;
// arm11-pmnc: arch/arm/kernel/perf_event_v6.c (armv6_perf_map); cache-references and cache-misses, which that
//   map leaves unsupported, take its L1D cache map's DCACHE_ACCESS and DCACHE_MISS;
// veer-el2: the SBI PMU's generic events have no VeeR mapping in the kernel; ours follow the EL2 PRM's event
//   list (Table 7-1): cycles clocks active, instructions committed, branches committed and mispredicted,
//   I-cache misses. VeeR EL2 has no data cache and no single event for cache accesses (hits and misses are
//   events 2 and 3), so cache-references is refused.
std::optional<uint32_t> generic_event(const Platform& p, const Pmu* pmu, const std::string& alias, std::string& why) {
    const bool v8 = p.family == "armv8-pmuv3", v7 = p.family == "armv7-cp15", v6 = p.family == "arm11-pmnc";
    if (alias == "cycles" || alias == "cpu-cycles") return p.cycle_event;
    if (alias == "instructions") return v8 || v7 ? 0x08 : v6 ? 0x07 : 4;
    if (alias == "branches" || alias == "branch-instructions") {
        if (v8 && pmu && p.implements(*pmu, 0x21)) return 0x21;
        return v8 || v7 ? 0x0C : v6 ? 0x05 : 24;
    }
    if (alias == "branch-misses") return v8 || v7 ? 0x10 : v6 ? 0x06 : 25;
    if (alias == "cache-references") {
        if (v8 || v7) return 0x04;
        if (v6) return 0x0A;
        why = "VeeR EL2 has no event for all cache accesses: I-cache hits are event 2, misses event 3";
        return std::nullopt;
    }
    if (alias == "cache-misses") return v8 || v7 ? 0x03 : v6 ? 0x0B : 3;
    return std::nullopt;
}

bool all_hex(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

}  // namespace

const std::vector<std::string>& generic_event_aliases() {
    static const std::vector<std::string> names{"cycles",     "cpu-cycles",    "instructions",     "branches",
                                                "branch-instructions", "branch-misses", "cache-references", "cache-misses"};
    return names;
}

std::optional<EventInfo> generic_event_info(const Platform& p, const std::string& alias, std::string& why) {
    std::unique_ptr<Pmu> pmu = p.make({});
    if (auto n = generic_event(p, pmu.get(), alias, why)) return find_event(p, fmt::format("{:#x}", *n));
    return std::nullopt;
}

EventInfo parse_event_spec(const Platform& p, std::string_view text) {
    std::string t = to_lower(text);
    auto bad = [&](const std::string& why) {
        return std::invalid_argument(fmt::format("event '{}' {}", std::string(text), why));
    };
    // The kernel's sysfs form: PMU/name/ or PMU/event=0xNN/ (perf list; Documentation/ABI/testing/sysfs-bus-event_source-devices-events).
    if (const size_t slash = t.find('/'); slash != std::string::npos) {
        if (t.size() < slash + 3 || t.back() != '/') throw bad("is not of the form PMU/NAME/");
        t = t.substr(slash + 1, t.size() - slash - 2);
        if (t.rfind("event=", 0) == 0) t = t.substr(6);
    }
    if (t.find(':') != std::string::npos) throw bad("has a modifier: pmusim counts at every privilege level (docs/cli.md)");
    std::string why;
    if (auto e = generic_event_info(p, t, why)) return *e;
    if (!why.empty()) throw bad("is not available on " + p.name + ": " + why);
    // perf's raw form: r followed by the event number in hex (tools/perf/Documentation/perf-list.txt).
    if (t.size() > 1 && t[0] == 'r' && all_hex(std::string_view(t).substr(1)))
        t = "0x" + t.substr(1);
    if (auto e = find_event(p, t)) return *e;
    throw bad(fmt::format("is not an event name, number, rNN or generic alias known on platform {}", p.name));
}

}  // namespace pmusim
