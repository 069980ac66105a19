#include "model/core/pmu.hpp"

#include <fmt/format.h>

#include "model/core/register.hpp"

namespace pmusim {

std::string_view to_string(CoreState s) {
    switch (s) {
        case CoreState::run: return "run";
        case CoreState::debug: return "debug";
        case CoreState::fw_halt: return "fw-halt";
        case CoreState::db_halt: return "db-halt";
        case CoreState::sleep: return "sleep";
    }
    return "?";
}

std::optional<CoreState> parse_core_state(std::string_view s) {
    const std::string l = to_lower(s);
    if (l == "run") return CoreState::run;
    if (l == "debug") return CoreState::debug;
    if (l == "fw-halt") return CoreState::fw_halt;
    if (l == "db-halt") return CoreState::db_halt;
    if (l == "sleep") return CoreState::sleep;
    return std::nullopt;
}

// `event` is not at its slot's index: appended, or (once two events shared a slot, or one was past the index's
// reach) searched for first.
void EventBatch::add_searched(uint32_t event, uint64_t n) {
    const uint32_t h = event & (slots - 1);
    uint16_t& slot = slot_[h];
    if (shared_) {
        for (size_t i = 0; i < events.size(); ++i) {
            if (events[i].event == event) {
                events[i].count += n;
                if (i <= 0xFFFF) slot = static_cast<uint16_t>(i);
                return;
            }
        }
    }
    // Another event of this slot at its index (an index of another slot's event is one left from before clear():
    // no event of this slot is there): the slot moves to the new one, and the other is found by the search.
    if (slot < events.size() && (events[slot].event & (slots - 1)) == h) shared_ = true;
    if (events.size() <= 0xFFFF) slot = static_cast<uint16_t>(events.size());
    else shared_ = true;
    events.push_back(EventCount{event, n});
}

uint64_t EventBatch::count(uint32_t event) const {
    for (const auto& e : events)
        if (e.event == event) return e.count;
    return 0;
}

AccessRecord Pmu::read(Register& r, const AccessContext& ctx) { return access(r, false, 0, ctx); }

AccessRecord Pmu::write(Register& r, uint64_t value, const AccessContext& ctx) { return access(r, true, value, ctx); }

// The memory-mapped view is made of 32-bit slots; a slot of a 64-bit register reads one half and a write
// to it leaves the other half as it was.
AccessRecord Pmu::read_offset(uint64_t offset, const AccessContext& ctx) {
    const auto slot = bank_.find_offset(offset);
    if (!slot.reg) return unallocated(fmt::format("@{:#x}", offset), false);
    return read_slot(slot, ctx);
}

AccessRecord Pmu::write_offset(uint64_t offset, uint64_t value, const AccessContext& ctx) {
    const auto slot = bank_.find_offset(offset);
    if (!slot.reg) return unallocated(fmt::format("@{:#x}", offset), true, value);
    return write_slot(slot, value, ctx);
}

AccessRecord Pmu::read_slot(RegisterBank::Slot slot, const AccessContext& ctx) {
    AccessRecord rec = access(*slot.reg, false, 0, ctx);
    rec.value_read = (rec.value_read >> slot.shift) & 0xFFFFFFFFu;
    return rec;
}

AccessRecord Pmu::write_slot(RegisterBank::Slot slot, uint64_t value, const AccessContext& ctx) {
    return access(*slot.reg, true, slot_write_value(slot, value), ctx);
}

uint64_t Pmu::slot_write_value(RegisterBank::Slot slot, uint64_t value) {
    value &= 0xFFFFFFFFu;
    if (slot.reg->width > 32) {
        const uint64_t keep = read_value(*slot.reg) & ~(uint64_t{0xFFFFFFFFu} << slot.shift);
        value = keep | (value << slot.shift);
    }
    return value;
}

AccessRecord Pmu::unallocated(std::string text, bool is_write, uint64_t value) {
    AccessRecord rec;
    rec.reg = std::move(text);
    rec.is_write = is_write;
    rec.value_written = value;
    rec.refuse(diag::undefined, fmt::format("{} is not an allocated register: the access is UNDEFINED", rec.reg));
    return rec;
}

Register* Pmu::resolve(Register& r, bool, const AccessContext&, AccessRecord&) { return &r; }

AccessRecord Pmu::check(Register& r, bool is_write, const AccessContext& ctx) {
    AccessRecord rec;
    rec.reg = r.name;
    rec.is_write = is_write;
    if ((is_write ? !r.writable : !r.readable) && ctx.origin == AccessOrigin::instruction) {
        rec.refuse(diag::undefined, fmt::format("{} is {}: the {} is refused (UNDEFINED / illegal instruction)", r.name,
                                                is_write ? "read-only" : "write-only", is_write ? "write" : "read"));
        return rec;
    }
    check_access(r, is_write, ctx, rec);
    if (!rec.trapped()) resolve(r, is_write, ctx, rec);
    return rec;
}

AccessRecord Pmu::access(Register& r, bool is_write, uint64_t value, const AccessContext& ctx) {
    AccessRecord rec;
    rec.detail = ctx.detail;
    rec.reg = r.name;
    run(r, is_write, value, ctx, rec, true);
    return rec;
}

AccessOutcome Pmu::read_slot_lean(RegisterBank::Slot slot, const AccessContext& ctx) {
    AccessRecord rec;  // the model's rules fill it; no one reads more of it than the outcome
    rec.detail = false;
    run(*slot.reg, false, 0, ctx, rec, false);
    return AccessOutcome{rec.status, (rec.value_read >> slot.shift) & 0xFFFFFFFFu};
}

AccessOutcome Pmu::write_slot_lean(RegisterBank::Slot slot, uint64_t value, const AccessContext& ctx) {
    AccessRecord rec;
    rec.detail = false;
    run(*slot.reg, true, slot_write_value(slot, value), ctx, rec, false);
    return AccessOutcome{rec.status, rec.value_read};  // as write_slot's record: the whole register
}

void Pmu::run(Register& r, bool is_write, uint64_t value, const AccessContext& ctx, AccessRecord& rec, bool names) {
    rec.is_write = is_write;
    rec.value_written = is_write ? value : 0;
    const bool external = ctx.origin != AccessOrigin::instruction;
    // Register-level direction rules. An instruction access in the wrong direction is UNDEFINED; the
    // memory-mapped view reads a write-only register as zero and ignores writes to a read-only one.
    if (is_write ? !r.writable : !r.readable) {
        if (!external) {
            rec.refuse(diag::undefined,
                       fmt::format("{} is {}: the {} is refused (UNDEFINED / illegal instruction)", r.name,
                                   is_write ? "read-only" : "write-only", is_write ? "write" : "read"));
            return;
        }
        rec.add(Severity::info, diag::no_effect,
                fmt::format("{} is {}: the external {}", r.name, is_write ? "read-only" : "write-only",
                            is_write ? "write is ignored" : "read returns 0"));
        if (names) rec.target = r.name;
        if (!is_write) describe_read(r, 0, rec);
        return;
    }
    check_access(r, is_write, ctx, rec);
    if (rec.trapped()) return;
    Register* target = resolve(r, is_write, ctx, rec);
    if (rec.trapped()) return;
    if (!target) {  // RAZ/WI by the model's choice
        rec.value_read = 0;
        return;
    }
    if (names) rec.target = target->name;
    if (is_write) {
        const bool irq_before = irq(), fiq_before = fiq();
        apply_write(*target, value, rec);
        after_write(*target, ctx, rec);
        rec.new_value = read_value(*target);
        rec.value_read = rec.new_value;
        // A write can raise a request as an increment does (a PMSWINC overflow, a PMOVSSET or PMINTENSET write):
        // the record says so, as advance() does for events.
        if (!irq_before && irq()) rec.add(Severity::info, diag::irq, "interrupt request asserted by this write");
        if (!fiq_before && fiq()) rec.add(Severity::info, diag::fiq, "FIQ request asserted by this write");
    } else {
        describe_read(*target, read_value(*target), rec);
    }
    return;
}

}  // namespace pmusim
