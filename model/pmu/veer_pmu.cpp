#include "model/pmu/veer_pmu.hpp"

#include <fmt/format.h>

#include "model/core/bits.hpp"

namespace pmusim {

uint64_t VeerPmu::legalise_event(uint64_t v) {
    // veer §3 (RTL zero_event_r): 0 when bits [31:10] != 0, value > 516, 57-511, 51-53, 29 or 33.
    if (v >> 10) return 0;
    if (v > 516 || (v >= 57 && v <= 511) || (v >= 51 && v <= 53) || v == 29 || v == 33) return 0;
    return v;
}

std::string VeerPmu::event_legalisation_reason(uint64_t v) {
    // The same ranges as legalise_event; "reserved" as VeeR EL2 PRM Table 8.1 marks them.
    if (v >> 10) return "bits [31:10] are not zero: the selector reads 0";
    if (v > 516) return "events above 516 do not exist: the selector reads 0";
    if (v >= 57 && v <= 511) return "events 57-511 are reserved: the selector reads 0";
    if (v >= 51 && v <= 53) return "events 51-53 are reserved: the selector reads 0";
    if (v == 29 || v == 33) return fmt::format("event {} is reserved: the selector reads 0", v);
    return {};
}

namespace {

// mcountinhibit / mcounteren layout (veer §2): CY [0], TM [1] read-only 0, IR [2], HPM3-6 [6:3], HPM7-31 0.
std::vector<Field> counter_bits(FieldKind kind, const char* what) {
    return {make_field("HPM7-31", 31, 7, FieldKind::raz_wi, 0, "counters hardwired to 0"),
            make_field("HPM6", 6, 6, kind, 0, fmt::format("mhpmcounter6 {}", what)),
            make_field("HPM5", 5, 5, kind, 0, fmt::format("mhpmcounter5 {}", what)),
            make_field("HPM4", 4, 4, kind, 0, fmt::format("mhpmcounter4 {}", what)),
            make_field("HPM3", 3, 3, kind, 0, fmt::format("mhpmcounter3 {}", what)),
            make_field("IR", 2, 2, kind, 0, fmt::format("minstret {}", what)),
            make_field("TM", 1, 1, FieldKind::raz_wi, 0, "time: not implemented (reads 0)"),
            make_field("CY", 0, 0, kind, 0, fmt::format("mcycle {}", what))};
}

// mhpmevent3-6: a WARL event number (VeeR EL2 PRM §8 "Performance Monitoring", Table 8.1).
Field event_field() {
    Field f = make_warl("EVENT", 31, 0, [](uint64_t w, uint64_t) { return VeerPmu::legalise_event(w); }, 0,
                        "event number (WARL: reserved or > 516 stores 0)");
    f.legalise_reason = VeerPmu::event_legalisation_reason;
    f.event_selector = true;
    return f;
}

}  // namespace

VeerPmu::VeerPmu(const VeerConfig& cfg) : cfg_(cfg) {
    auto reg = [&](std::string name, unsigned csr, unsigned role, uint64_t* state, unsigned shift, std::vector<Field> f,
                   std::string desc) -> Register& {
        Register r;
        r.name = std::move(name);
        r.role = role;
        r.state = state;
        r.state_shift = shift;
        r.fields = std::move(f);
        r.encodings.push_back({EncodingSpace::csr, csr});
        r.description = std::move(desc);
        r.source = "VeeR EL2 Programmer's Reference Manual, ch. 8 \"Performance Monitoring\"";
        return bank_.add(std::move(r));
    };
    auto half = [&](std::string name, unsigned csr, uint64_t* word, unsigned shift, const char* what) {
        reg(std::move(name), csr, r_counter, word, shift,
            {make_field("VALUE", 31, 0, FieldKind::rw, 0, fmt::format("{} bits [{}:{}]", what, shift + 31, shift))},
            fmt::format("{} ({} half)", what, shift ? "high" : "low"));
    };
    auto zero = [&](std::string name, unsigned csr, const char* desc) {
        reg(std::move(name), csr, r_zero, &zero_, 0,
            {make_field("RAZ/WI", 31, 0, FieldKind::raz_wi, 0, "hardwired to 0 (legal CSR)")}, desc);
    };
    half("mcycle", 0xB00, &mcycle_, 0, "cycle counter");
    half("mcycleh", 0xB80, &mcycle_, 32, "cycle counter");
    half("minstret", 0xB02, &minstret_, 0, "instructions-retired counter");
    half("minstreth", 0xB82, &minstret_, 32, "instructions-retired counter");
    for (unsigned n = 3; n <= 31; ++n) {
        if (n <= 6) {
            half(fmt::format("mhpmcounter{}", n), 0xB00 + n, &hpm_[n - 3], 0, "event counter");
            half(fmt::format("mhpmcounter{}h", n), 0xB80 + n, &hpm_[n - 3], 32, "event counter");
            reg(fmt::format("mhpmevent{}", n), 0x320 + n, r_event, &event_[n - 3], 0,
                {event_field()},
                fmt::format("event selector of mhpmcounter{}", n));
        } else {
            zero(fmt::format("mhpmcounter{}", n), 0xB00 + n, "event counter (not implemented: reads 0)");
            zero(fmt::format("mhpmcounter{}h", n), 0xB80 + n, "event counter (not implemented: reads 0)");
            zero(fmt::format("mhpmevent{}", n), 0x320 + n, "event selector (not implemented: reads 0)");
        }
    }
    reg("mcountinhibit", 0x320, r_inhibit, &inhibit_, 0, counter_bits(FieldKind::rw, "does not increment"),
        "counter inhibit");
    // dcsr (veer §4): reads {16'h4000, dcsr[15:2], 2'b11}; accessible in Debug Mode only.
    reg("dcsr", 0x7B0, r_dcsr, &dcsr_, 0,
        {make_field("xdebugver", 31, 28, FieldKind::ro, 4, "external debug support version 4"),
         make_field("RO0", 27, 16, FieldKind::raz_wi),
         make_field("ebreakm", 15, 15, FieldKind::rw, 0, "ebreak in M-mode enters Debug Mode"),
         make_field("RO0", 14, 12, FieldKind::raz_wi),
         make_field("stepie", 11, 11, FieldKind::rw, 0, "interrupts enabled during single step"),
         make_field("stopcount", 10, 10, FieldKind::rw, 0, "1: no counter increments in Debug Mode"),
         make_field("stoptime", 9, 9, FieldKind::raz_wi, 0, "timers keep running"),
         make_field("cause", 8, 6, FieldKind::ro, 0, "why Debug Mode was entered"),
         make_field("RO0", 5, 4, FieldKind::raz_wi),
         make_field("nmip", 3, 3, FieldKind::ro, 0, "NMI pending"),
         make_field("step", 2, 2, FieldKind::rw, 0, "single step"),
         make_field("prv", 1, 0, FieldKind::ro, 3, "privilege before Debug Mode (M)")},
        "debug control and status (Debug Mode only)");
    // mpmc (veer §5): haltie resets to 1; halt is write-1 (reads 0) and enters pmu/fw-halt.
    reg("mpmc", 0x7C6, r_mpmc, &mpmc_, 0,
        {make_field("RO0", 31, 2, FieldKind::raz_wi),
         make_field("haltie", 1, 1, FieldKind::rw, 1, "a halt written with haltie also sets mstatus.MIE"),
         make_field("halt", 0, 0, FieldKind::wo, 0, "write 1: enter pmu/fw-halt")},
        "power management control");
    if (cfg_.user_mode) {
        reg("mcounteren", 0x306, r_counteren, &counteren_, 0, counter_bits(FieldKind::rw, "readable in U-mode"),
            "counter enable for U-mode");
        auto shadow = [&](std::string name, unsigned csr, uint64_t* word, unsigned shift, std::string what) {
            Register& r = reg(std::move(name), csr, r_shadow, word, shift,
                              {make_field("VALUE", 31, 0, FieldKind::ro, 0, what)}, "read-only shadow: " + what);
            r.writable = false;
        };
        shadow("cycle", 0xC00, &mcycle_, 0, "mcycle");
        shadow("cycleh", 0xC80, &mcycle_, 32, "mcycleh");
        shadow("instret", 0xC02, &minstret_, 0, "minstret");
        shadow("instreth", 0xC82, &minstret_, 32, "minstreth");
        for (unsigned n = 3; n <= 6; ++n) {
            shadow(fmt::format("hpmcounter{}", n), 0xC00 + n, &hpm_[n - 3], 0, fmt::format("mhpmcounter{}", n));
            shadow(fmt::format("hpmcounter{}h", n), 0xC80 + n, &hpm_[n - 3], 32, fmt::format("mhpmcounter{}h", n));
        }
    }
    reset();
}

bool VeerPmu::in_pmu_space(EncodingSpace space, uint32_t csr) const {
    // The counter CSRs (0xB00-0xB9F, 0xC00-0xC9F), the selectors and inhibit (0x320-0x33F), mcounteren, the
    // Sscofpmf selector halves (0x723-0x73F, not implemented), the debug CSRs (0x7B0-0x7BF) and mpmc.
    if (space != EncodingSpace::csr) return false;
    return (csr >= 0xB00 && csr <= 0xB9F) || (csr >= 0xC00 && csr <= 0xC9F) || (csr >= 0x320 && csr <= 0x33F) ||
           csr == 0x306 || (csr >= 0x723 && csr <= 0x73F) || (csr >= 0x7B0 && csr <= 0x7BF) || csr == 0x7C6;
}

void VeerPmu::check_access(const Register& r, bool, const AccessContext& ctx, AccessRecord& rec) {
    if (ctx.origin != AccessOrigin::instruction) return;
    const unsigned csr = csr_of(r);
    // dcsr is a Debug-Mode CSR (veer §4; RISC-V: 0x7B0-0x7BF are debug-only).
    if (r.role == r_dcsr && state_ != CoreState::db_halt) {
        rec.refuse(diag::undefined, "dcsr is accessible in Debug Mode only: illegal instruction");
        return;
    }
    // RISC-V privileged spec: CSR bits [9:8] give the lowest privilege that may access it.
    const unsigned needed = (csr >> 8) & 3u;
    if (ctx.privilege < needed) {
        rec.refuse(diag::undefined, fmt::format("{} ({:#05x}) needs M-mode: illegal instruction in U-mode", r.name, csr));
        return;
    }
    // U-mode shadows need their mcounteren bit (veer §2; mcause = 2 on failure).
    if (r.role == r_shadow && ctx.privilege == 0 && !test_bit(counteren_, csr & 31u)) {
        rec.refuse(diag::undefined,
                   fmt::format("{}: mcounteren bit {} is 0: illegal instruction in U-mode", r.name, csr & 31u));
    }
}

void VeerPmu::after_write(Register& r, const AccessContext&, AccessRecord& rec) {
    if (r.role != r_mpmc || !(rec.value_written & 1u)) return;
    // veer §5: writing halt = 1 enters pmu/fw-halt, except in Debug Mode, where it is ignored.
    if (state_ == CoreState::db_halt) {
        rec.set_effect("halt", "ignored in Debug Mode");
    } else {
        state_ = CoreState::fw_halt;
        rec.set_effect("halt", "action: the core enters pmu/fw-halt");
    }
    if (state_ == CoreState::fw_halt && (rec.value_written & 2u))
        rec.add(Severity::info, diag::impl_defined, "haltie = 1: mstatus.MIE is set on the way into fw-halt (mstatus is "
                                                    "not modelled by pmusim)");
}

AdvanceResult VeerPmu::advance(const EventBatch& batch) {
    AdvanceResult res;
    // veer §4: db-halt with dcsr.stopcount stops every counter; pmu/fw-halt (Sleep) stops mcycle, minstret and
    // events 1-56, while selectors with bit 9 set (events 512-516) keep counting.
    if (state_ == CoreState::db_halt && (dcsr_ & dcsr_stopcount)) return res;
    const bool sleeping = state_ == CoreState::fw_halt || state_ == CoreState::sleep;
    if (!sleeping) {
        if (!test_bit(inhibit_, 0)) mcycle_ += batch.cycles;
        // ecall and ebreak are in event 4 but do not retire (tests/veer-rtl/traps).
        if (!test_bit(inhibit_, 2))
            minstret_ += batch.count(ev_instr_committed) - batch.count(ev_ecall) - batch.count(ev_ebreak);
    }
    for (unsigned i = 0; i < 4; ++i) {
        const uint32_t sel = static_cast<uint32_t>(event_[i]);
        if (sel == 0 || test_bit(inhibit_, 3 + i) || (sleeping && !(sel & 0x200))) continue;
        uint64_t inc = batch.count(sel);
        if (sel == ev_cycles_active && !sleeping) inc += batch.cycles;
        if (sel == ev_sleep_cycles && sleeping) inc += batch.cycles;
        hpm_[i] += inc;  // 64-bit, no overflow interrupt
    }
    return res;
}

void VeerPmu::reset() {
    // veer §7 rows 8-9: counters, selectors and mcountinhibit reset to 0; mpmc.haltie to 1.
    bank_.reset_all();
    state_ = CoreState::run;
}

}  // namespace pmusim
