// The interface every PMU model implements, and the generic access flow they share.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/access.hpp"
#include "model/core/register.hpp"

namespace pmusim {

// Core state input. ARM: run or debug (Debug state). VeeR EL2: run, fw-halt (pmu/fw-halt), db-halt
// (debug halt), sleep.
enum class CoreState { run, debug, fw_halt, db_halt, sleep };
std::string_view to_string(CoreState s);
std::optional<CoreState> parse_core_state(std::string_view s);

struct EventCount {
    uint32_t event = 0;
    uint64_t count = 0;
};

// The events a span of cycles produced, applied to the PMU in one call. Reused between calls so that
// bulk replay does not allocate.
struct EventBatch {
    uint64_t cycles = 0;
    std::vector<EventCount> events;

    // Adds `n` of `event`: found through a small direct-mapped index into `events` (checked on every use, so an
    // entry left stale by clear() or by a change to `events` is never trusted), else appended, searched for first
    // only where the index may have lost it (add_searched). `events` is read freely but changed only through add()
    // and clear().
    void add(uint32_t event, uint64_t n = 1) {
        const uint16_t at = slot_[event & (slots - 1)];
        if (at < events.size() && events[at].event == event) {
            events[at].count += n;
            return;
        }
        add_searched(event, n);
    }
    uint64_t count(uint32_t event) const;
    void clear() {
        cycles = 0;
        events.clear();
        shared_ = false;
    }

private:
    void add_searched(uint32_t event, uint64_t n);
    static constexpr unsigned slots = 256;
    std::array<uint16_t, slots> slot_{};  // event (modulo slots) -> its index in `events`, when it is there
    // Whether two events of `events` ever shared a slot since the last clear(): until then every event there is
    // at its slot's index (each append points its slot at it), so an event its slot does not find is not there.
    bool shared_ = false;
};

// Where inside a batch the interrupt request rose, so a SystemC wrapper can place the edge exactly.
struct AdvanceResult {
    bool irq_rose = false;
    uint64_t irq_cycle = 0;  // 1-based cycle offset within the batch (0 with a zero-cycle batch)
    bool fiq_rose = false;
    uint64_t fiq_cycle = 0;
    uint64_t overflows = 0;  // overflow events of all counters in the batch
};

// The privilege and security state in which the core currently executes (event filtering uses it).
struct ExecContext {
    unsigned privilege = 1;
    bool secure = false;
};

class Pmu {
public:
    virtual ~Pmu() = default;

    virtual std::string_view family() const = 0;  // "armv8-pmuv3", "armv7-cp15", "arm11-pmnc", "veer-el2"

    RegisterBank& bank() { return bank_; }
    const RegisterBank& bank() const { return bank_; }

    // Register accesses: checked against the context; a refused access traps and changes nothing.
    AccessRecord read(Register& r, const AccessContext& ctx);
    AccessRecord write(Register& r, uint64_t value, const AccessContext& ctx);
    // Whether an access would be refused, without making it (no state changes): instructions that must not
    // change anything when they trap check every access they will make first.
    AccessRecord check(Register& r, bool is_write, const AccessContext& ctx);
    // Memory-mapped (external) view; an unmapped offset is refused.
    AccessRecord read_offset(uint64_t offset, const AccessContext& ctx);
    AccessRecord write_offset(uint64_t offset, uint64_t value, const AccessContext& ctx);
    // The same at a slot already found (RegisterBank::find_offset; slot.reg must be set), for callers that look
    // the offset up once for their own checks too (the TLM socket).
    AccessRecord read_slot(RegisterBank::Slot slot, const AccessContext& ctx);
    AccessRecord write_slot(RegisterBank::Slot slot, uint64_t value, const AccessContext& ctx);
    // The same access, for a caller that reads nothing of the record but whether the access was refused and what
    // it read (the TLM socket when nothing asks for records: ModuleConfig::on_socket_access). The model applies the
    // same rules with the same effects on its state; no names, per-field effects or record are handed out.
    AccessOutcome read_slot_lean(RegisterBank::Slot slot, const AccessContext& ctx);
    AccessOutcome write_slot_lean(RegisterBank::Slot slot, uint64_t value, const AccessContext& ctx);
    // An access whose encoding names no register (an unallocated encoding): UNDEFINED.
    AccessRecord unallocated(std::string text, bool is_write, uint64_t value = 0);

    // Time and events pass in bulk: `cycles` clock cycles and the event counts of that span.
    virtual AdvanceResult advance(const EventBatch& batch) = 0;

    virtual void set_state(CoreState s) { state_ = s; }
    CoreState state() const { return state_; }
    virtual bool supports_state(CoreState s) const { return s == CoreState::run || s == CoreState::debug; }

    // Privileges the core implements (ARM: EL0-EL3; RISC-V: M = 3, U = 0).
    virtual bool supports_privilege(unsigned p) const { return p <= 3; }

    virtual void set_exec_context(const ExecContext& c) { exec_ = c; }
    const ExecContext& exec_context() const { return exec_; }

    // Interrupt request levels (true = requesting, whatever the pin's polarity).
    virtual bool irq() const = 0;
    virtual bool fiq() const { return false; }
    virtual bool has_fiq() const { return false; }

    virtual void reset() = 0;

    // Every counter by its architectural name with its full value (an RV32 64-bit counter under its low half's
    // name), for reports.
    virtual std::vector<std::pair<std::string, uint64_t>> counter_values() const = 0;

    // Whether an encoding lies in the PMU's own register space: an unallocated encoding there is UNDEFINED,
    // while one outside it belongs to some other part of the core that pmusim does not model.
    virtual bool in_pmu_space(EncodingSpace, uint32_t) const { return false; }

protected:
    // Permission rules, as pure functions of the register, direction and context: refuse the record to trap.
    virtual void check_access(const Register& r, bool is_write, const AccessContext& ctx, AccessRecord& rec) = 0;
    // Indirection (PMXEVCNTR through PMSELR, say): the register actually accessed, or nullptr for RAZ/WI.
    // May refuse the record.
    virtual Register* resolve(Register& r, bool is_write, const AccessContext& ctx, AccessRecord& rec);
    // The value a read returns (a model may compute live values).
    virtual uint64_t read_value(const Register& r) { return r.read(); }
    // Actions after the field semantics of a write were applied (write-only bits, counter resets, irq).
    virtual void after_write(Register& r, const AccessContext& ctx, AccessRecord& rec) = 0;

    RegisterBank bank_;
    CoreState state_ = CoreState::run;
    ExecContext exec_;

private:
    AccessRecord access(Register& r, bool is_write, uint64_t value, const AccessContext& ctx);
    // The access flow every entry point shares, into `rec`; `names` off leaves rec.target empty.
    void run(Register& r, bool is_write, uint64_t value, const AccessContext& ctx, AccessRecord& rec, bool names);
    // The 64-bit value a write of a 32-bit slot stores: the other half as it reads now.
    uint64_t slot_write_value(RegisterBank::Slot slot, uint64_t value);
};

}  // namespace pmusim
