// The types every register access meets at: who accesses (context) and what the access did (record).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/diagnostics.hpp"
#include "model/core/field.hpp"

namespace pmusim {

// Where an access comes from. An instruction access is checked against the privilege and may trap;
// an external-debug access (memory-mapped view from a debugger, `@OFFSET` in scripts) is zero-time and
// is not subject to the instruction-level enables; a software access through the memory-mapped view
// (`sw@OFFSET`) is subject to the view's software lock where it has one.
enum class AccessOrigin { instruction, external_debug, memory_mapped };

// Privilege: ARM exception level 0-3 (ARMv7/ARM11: 0 = User, 1 = a privileged mode), or RISC-V U = 0, M = 3.
struct AccessContext {
    unsigned privilege = 1;
    bool secure = false;  // ARM Security state (EL3 is always Secure)
    AccessOrigin origin = AccessOrigin::instruction;
    // Build the record's per-field effects (AccessRecord::fields). Off: the status, values and diagnostics only,
    // for callers that need no more (the TLM socket, unless a listener asks for records: ModuleConfig).
    bool detail = true;
};

enum class AccessStatus { ok, trap };

// All that a bus access needs back when no one reads its record (Pmu::read_slot_lean).
struct AccessOutcome {
    AccessStatus status = AccessStatus::ok;
    uint64_t value_read = 0;  // reads: the value returned; writes: the value a read would return afterwards
    bool trapped() const { return status == AccessStatus::trap; }
};

// What one field did in one access.
struct FieldEffect {
    std::string name;
    unsigned lsb = 0;
    unsigned width = 0;
    FieldKind kind = FieldKind::rw;
    uint64_t written = 0;  // field bits of the value written (writes only)
    uint64_t old_value = 0;  // stored field value before the access
    uint64_t new_value = 0;  // stored field value after the access
    std::string effect;      // one-line plain-language effect ("set", "cleared", "action: ...")
    std::string meaning;     // the field's description (what it is for)
    bool event_selector = false;  // the field holds an event number
};

// What one register access did. The explain output, the driver checker, the sequence runner and the
// tests all read this record: it is the single source of truth about an access.
struct AccessRecord {
    std::string reg;       // register named by the access
    std::string target;    // register actually accessed (after PMSELR indirection etc.); empty if none
    bool is_write = false;
    AccessStatus status = AccessStatus::ok;
    uint64_t value_written = 0;
    uint64_t value_read = 0;  // reads: value returned; writes: value a read would return afterwards
    uint64_t old_value = 0;   // register read value before the access
    uint64_t new_value = 0;   // register read value after the access
    std::vector<FieldEffect> fields;  // empty unless built with AccessContext::detail
    std::vector<Diagnostic> diagnostics;
    bool detail = true;  // AccessContext::detail of the access

    bool trapped() const { return status == AccessStatus::trap; }
    bool has(std::string_view code) const;
    void add(Severity s, std::string_view code, std::string message);
    // Replaces the effect text of a field (a model describing the action of a write-only bit, say).
    void set_effect(std::string_view field, std::string text);
    // Refuse the access: UNDEFINED / illegal instruction. A trapped access changes no state.
    void refuse(std::string_view code, std::string message);
};

}  // namespace pmusim
