#include "model/pmu/arm11_pmu.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "model/core/bits.hpp"

namespace pmusim {

namespace {

constexpr uint64_t pmnc_e = 1u << 0;
constexpr uint64_t pmnc_p = 1u << 1;
constexpr uint64_t pmnc_c = 1u << 2;
constexpr uint64_t pmnc_d = 1u << 3;
constexpr uint64_t flags_mask = 0x700;  // OCC [10], OC1 [9], OC0 [8]
constexpr unsigned evt0_lsb = 20, evt1_lsb = 12;
// Per counter: overflow flag bit, interrupt enable bit, FIQ routing bit (ARM1156). Index 0 = PMN0, 1 = PMN1,
// 2 = CCNT (AN195 Table 1).
constexpr unsigned flag_bit[3] = {8, 9, 10};
constexpr unsigned enable_bit[3] = {4, 5, 6};
constexpr unsigned fiq_bit[3] = {28, 29, 30};
constexpr const char* flag_name[3] = {"OC0", "OC1", "OCC"};

__extension__ typedef unsigned __int128 u128;

uint64_t event_cycle(uint64_t k, uint64_t count, uint64_t cycles) {
    if (cycles == 0 || count == 0) return 0;
    return static_cast<uint64_t>((static_cast<u128>(k) * cycles + count - 1) / count);
}

}  // namespace

Arm11Pmu::Arm11Pmu(const Arm11Config& cfg) : cfg_(cfg) {
    const bool is1156 = cfg_.core == Arm11Core::arm1156;
    // FCC/FC1/FC0 exist on the ARM1156 only; SBZ elsewhere (arm11-pmnc.md §2).
    const FieldKind fc = is1156 ? FieldKind::rw : FieldKind::sbz;
    auto reg = [&](std::string name, unsigned role, uint64_t* state, std::vector<Field> f, unsigned opc2,
                   std::string desc) {
        Register r;
        r.name = std::move(name);
        r.role = role;
        r.state = state;
        r.fields = std::move(f);
        r.encodings.push_back({EncodingSpace::cp15, cp15_key(0, 15, 12, opc2)});
        r.description = std::move(desc);
        r.source = "ARM Application Note 195 (ARM11 performance monitor unit), Table 1";
        bank_.add(std::move(r));
    };
    reg("PMNC", r_pmnc, &pmnc_,
        {make_field("SBZ", 31, 31, FieldKind::sbz, 0, "reserved (read UNPREDICTABLE: pmusim reads 0)"),
         make_field("FCC", 30, 30, fc, 0, "CCNT overflow reported on nPMUFIQ (ARM1156 only)"),
         make_field("FC1", 29, 29, fc, 0, "PMN1 overflow reported on nPMUFIQ (ARM1156 only)"),
         make_field("FC0", 28, 28, fc, 0, "PMN0 overflow reported on nPMUFIQ (ARM1156 only)"),
         make_event_field("EvtCount0", 27, 20, "event counted by PMN0"),
         make_event_field("EvtCount1", 19, 12, "event counted by PMN1"),
         make_field("X", 11, 11, FieldKind::rw, 0, "export events on the event bus (EVNTBUS)"),
         make_field("OCC", 10, 10, FieldKind::w1c, 0, "CCNT overflowed; write 1 (with E = 1) to clear"),
         make_field("OC1", 9, 9, FieldKind::w1c, 0, "PMN1 overflowed; write 1 (with E = 1) to clear"),
         make_field("OC0", 8, 8, FieldKind::w1c, 0, "PMN0 overflowed; write 1 (with E = 1) to clear"),
         make_field("SBZ", 7, 7, FieldKind::sbz, 0, "reserved (read UNPREDICTABLE: pmusim reads 0)"),
         make_field("ECC", 6, 6, FieldKind::rw, 0, "CCNT overflow interrupt enable"),
         make_field("EC1", 5, 5, FieldKind::rw, 0, "PMN1 overflow interrupt enable"),
         make_field("EC0", 4, 4, FieldKind::rw, 0, "PMN0 overflow interrupt enable"),
         make_field("D", 3, 3, FieldKind::rw, 0, "CCNT counts every 64th cycle"),
         make_field("C", 2, 2, FieldKind::wo, 0, "write 1: CCNT := 0 (read UNPREDICTABLE: pmusim reads 0)"),
         make_field("P", 1, 1, FieldKind::wo, 0, "write 1: PMN0 := PMN1 := 0 (read UNPREDICTABLE: pmusim reads 0)"),
         make_field("E", 0, 0, FieldKind::rw, 0, "enable all three counters; must be 1 to clear an interrupt request")},
        0, "performance monitor control");
    reg("CCNT", r_ccnt, &ccnt_.value, {make_field("CCNT", 31, 0, FieldKind::rw, 0, "cycle count")}, 1, "cycle counter");
    reg("PMN0", r_pmn0, &pmn_[0].value, {make_field("COUNT", 31, 0, FieldKind::rw, 0, "event count")}, 2,
        "count register 0 (AN195: PMNC0)");
    reg("PMN1", r_pmn1, &pmn_[1].value, {make_field("COUNT", 31, 0, FieldKind::rw, 0, "event count")}, 3,
        "count register 1 (AN195: PMNC1)");
    reset();
}

bool Arm11Pmu::event_supported(uint32_t e) const {
    return std::find(cfg_.events.begin(), cfg_.events.end(), e) != cfg_.events.end();
}

bool Arm11Pmu::in_pmu_space(EncodingSpace space, uint32_t key) const {
    return space == EncodingSpace::cp15 && (key >> 3) == (cp15_key(0, 15, 12, 0) >> 3);
}

void Arm11Pmu::check_access(const Register& r, bool, const AccessContext& ctx, AccessRecord& rec) {
    // arm11-pmnc.md §1: the TRMs make User-mode accesses UNDEFINED (ARM1176: unless its User-access validation
    // bit is set); option user-access=all gives AN195's "user and privileged modes".
    if (ctx.origin != AccessOrigin::instruction || ctx.privilege >= 1 || cfg_.user_access) return;
    rec.refuse(diag::undefined,
               fmt::format("User-mode access to {} is UNDEFINED (core TRM; platform option user-access=all for AN195's "
                           "reading)",
                           r.name));
}

void Arm11Pmu::after_write(Register& r, const AccessContext&, AccessRecord& rec) {
    if (r.role == r_ccnt) prescaler_.reset();  // pmusim's choice, as for PMNC.C
    if (r.role != r_pmnc) return;
    const uint64_t written = rec.value_written;
    const uint64_t before = rec.old_value;
    uint64_t cleared = before & written & flags_mask;
    // AN195 Table 1: "E must be set to clear interrupt request". pmusim's default keeps a flag written with E = 0.
    if (cleared && !(written & pmnc_e) && cfg_.clear_needs_e) {
        pmnc_ |= cleared;
        for (unsigned i = 0; i < 3; ++i) {
            if (!test_bit(cleared, flag_bit[i])) continue;
            for (auto& f : rec.fields)
                if (f.name == flag_name[i]) f.new_value = 1;
            rec.set_effect(flag_name[i], "not cleared: E = 0 in the same write");
        }
        rec.add(Severity::warning, diag::impl_defined,
                fmt::format("overflow flags {:#x} written 1 with E = 0: AN195 requires E = 1 to clear the interrupt "
                            "request; pmusim keeps them set (option flag-clear-needs-e=0 clears them)",
                            cleared));
        cleared = 0;
    }
    // A read-modify-write that writes back a set flag clears it: real drivers lose overflows this way. A pure
    // acknowledge (nothing else changes) is the documented way to clear and is not reported.
    const bool other_change = ((before ^ pmnc_) & ~flags_mask) != 0 || (written & (pmnc_p | pmnc_c));
    if (cleared && other_change)
        rec.add(Severity::warning, diag::w1c_side_effect,
                fmt::format("this write also cleared overflow flag(s) {:#x} that were set: a read-modify-write of PMNC "
                            "loses overflows unless it writes 0 to the flags",
                            cleared));
    if (written & pmnc_p) {
        pmn_[0].value = pmn_[1].value = 0;
        rec.set_effect("P", "action: PMN0 := PMN1 := 0");
    }
    if (written & pmnc_c) {
        ccnt_.value = 0;
        prescaler_.reset();
        rec.set_effect("C", "action: CCNT := 0");
    }
    for (unsigned i = 0; i < 2; ++i) {
        const unsigned lsb = i == 0 ? evt0_lsb : evt1_lsb;
        const uint32_t e = static_cast<uint32_t>(extract(pmnc_, lsb, 8));
        if (e != extract(before, lsb, 8) && !event_supported(e))
            rec.add(Severity::warning, diag::reserved_event,
                    fmt::format("EvtCount{} = {:#x} is reserved or not implemented on this core: PMN{} counts nothing",
                                i, e, i));
    }
    update_requests();
}

void Arm11Pmu::update_requests() {
    // arm11-pmnc.md §4: a request while a flag and its enable are both set; on the ARM1156, FCx routes counter
    // x's request to nPMUFIQ instead of nPMUIRQ (pmusim's reading of the unconfirmed FCx description).
    irq_ = fiq_ = false;
    for (unsigned i = 0; i < 3; ++i) {
        if (!test_bit(pmnc_, flag_bit[i]) || !test_bit(pmnc_, enable_bit[i])) continue;
        if (has_fiq() && test_bit(pmnc_, fiq_bit[i])) fiq_ = true;
        else irq_ = true;
    }
}

AdvanceResult Arm11Pmu::advance(const EventBatch& batch) {
    AdvanceResult res;
    // Counters stop in Debug state (arm11-pmnc.md §1); PMNC.E enables all three together (§3).
    if (state_ == CoreState::debug || !(pmnc_ & pmnc_e)) return res;
    const bool was_irq = irq_, was_fiq = fiq_;
    uint64_t at[3] = {0, 0, 0};
    for (unsigned i = 0; i < 2; ++i) {
        const uint32_t e = static_cast<uint32_t>(extract(pmnc_, i == 0 ? evt0_lsb : evt1_lsb, 8));
        if (!event_supported(e)) continue;
        const uint64_t counted = batch.count(e);
        const uint64_t inc = counted + (e == cycles_event ? batch.cycles : 0);
        if (exporting()) exported_ += counted;
        const AddResult a = pmn_[i].add(inc);
        if (a.overflows) {
            pmnc_ |= uint64_t{1} << flag_bit[i];
            at[i] = (e == cycles_event && counted == 0) ? a.first_overflow : event_cycle(a.first_overflow, inc, batch.cycles);
            res.overflows += a.overflows;
        }
    }
    if (batch.cycles) {
        const bool divided = pmnc_ & pmnc_d;
        const uint64_t phase = prescaler_.phase();
        const uint64_t ticks = divided ? prescaler_.advance(batch.cycles) : batch.cycles;
        const AddResult a = ccnt_.add(ticks);
        if (a.overflows) {
            pmnc_ |= uint64_t{1} << flag_bit[2];
            at[2] = divided ? Prescaler::cycle_of_tick(phase, a.first_overflow, 64) : a.first_overflow;
            res.overflows += a.overflows;
        }
    }
    update_requests();
    auto first = [&](bool to_fiq) {
        uint64_t best = ~uint64_t{0};
        for (unsigned i = 0; i < 3; ++i) {
            if (!at[i] && !(batch.cycles == 0 && test_bit(pmnc_, flag_bit[i]))) continue;
            if (!test_bit(pmnc_, enable_bit[i]) || (has_fiq() && test_bit(pmnc_, fiq_bit[i])) != to_fiq) continue;
            best = std::min(best, at[i]);
        }
        return best == ~uint64_t{0} ? 0 : best;
    };
    if (!was_irq && irq_) {
        res.irq_rose = true;
        res.irq_cycle = first(false);
    }
    if (!was_fiq && fiq_) {
        res.fiq_rose = true;
        res.fiq_cycle = first(true);
    }
    return res;
}

void Arm11Pmu::reset() {
    // arm11-pmnc.md §1: PMNC, CCNT, PMN0, PMN1 reset to 0 (ARM1176 TRM; pmusim uses 0 for the 1136's
    // unpredictable CCNT too).
    bank_.reset_all();
    prescaler_.reset();
    exported_ = 0;
    update_requests();
}

}  // namespace pmusim
