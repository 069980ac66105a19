// Register fields declared by access kind. A register is a list of fields over one state word.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/bits.hpp"

namespace pmusim {

// Access kinds, as the ARM ARM and the RISC-V privileged spec name them.
enum class FieldKind {
    rw,      // read/write, stored
    ro,      // read-only: reads the stored (reset/ID) value, writes ignored
    wo,      // write-only action bit: reads as zero, the write triggers an action, nothing stored
    raz_wi,  // read-as-zero, writes ignored (e.g. bits of unimplemented counters)
    rao_wi,  // read-as-one, writes ignored
    res0,    // reserved, reads 0; software should write 0
    res1,    // reserved, reads 1; software should write 1
    sbz,     // should-be-zero: a non-zero write is a guest error; reads 0
    sbzp,    // should-be-zero-or-preserved: writing back the value read is fine; reads 0
    w1c,     // write 1 to clear, 0 no effect; reads the state
    w1s,     // write 1 to set, 0 no effect; reads the state
    warl,    // write any, read legal: a pure legaliser decides what is stored
};

std::string_view to_string(FieldKind k);

// WARL legaliser: a pure function from (value written, value stored before) to the value stored.
using Legaliser = std::function<uint64_t(uint64_t written, uint64_t current)>;
// Why a WARL field stores something other than the value written, in words ("events 57-511 are reserved").
using LegalisationReason = std::function<std::string(uint64_t written)>;

struct Field {
    std::string name;
    unsigned lsb = 0;
    unsigned width = 1;
    FieldKind kind = FieldKind::rw;
    uint64_t reset = 0;  // reset value of the field (stored kinds); ignored for kinds with fixed reads
    std::string description;
    Legaliser legalise;  // required for warl
    LegalisationReason legalise_reason;  // optional, warl: explains a legalisation
    bool event_selector = false;  // the field holds an event number (PMEVTYPER.evtCount, mhpmevent)

    uint64_t mask() const { return bit_mask(lsb, width); }
    unsigned msb() const { return lsb + width - 1; }
    bool stored() const {  // whether the field keeps state in the register's word
        switch (kind) {
            case FieldKind::rw:
            case FieldKind::ro:
            case FieldKind::w1c:
            case FieldKind::w1s:
            case FieldKind::warl: return true;
            default: return false;
        }
    }
    // Value a read returns for this field, given the stored word.
    uint64_t read(uint64_t word) const {
        switch (kind) {
            case FieldKind::rao_wi:
            case FieldKind::res1: return mask();
            case FieldKind::wo:
            case FieldKind::raz_wi:
            case FieldKind::res0:
            case FieldKind::sbz:
            case FieldKind::sbzp: return 0;
            default: return word & mask();
        }
    }
};

// Convenience constructors, so model tables read like the architecture's field tables.
Field make_field(std::string name, unsigned msb, unsigned lsb, FieldKind kind, uint64_t reset = 0,
                 std::string description = {});
Field make_warl(std::string name, unsigned msb, unsigned lsb, Legaliser legalise, uint64_t reset = 0,
                std::string description = {});
// A read/write field that holds an event number (reset 0).
Field make_event_field(std::string name, unsigned msb, unsigned lsb, std::string description);

}  // namespace pmusim
