#include "model/core/field.hpp"

#include <cassert>
#include <utility>

#include "model/core/bits.hpp"

namespace pmusim {

std::string_view to_string(FieldKind k) {
    switch (k) {
        case FieldKind::rw: return "RW";
        case FieldKind::ro: return "RO";
        case FieldKind::wo: return "WO";
        case FieldKind::raz_wi: return "RAZ/WI";
        case FieldKind::rao_wi: return "RAO/WI";
        case FieldKind::res0: return "RES0";
        case FieldKind::res1: return "RES1";
        case FieldKind::sbz: return "SBZ";
        case FieldKind::sbzp: return "SBZP";
        case FieldKind::w1c: return "W1C";
        case FieldKind::w1s: return "W1S";
        case FieldKind::warl: return "WARL";
    }
    return "?";
}

Field make_field(std::string name, unsigned msb, unsigned lsb, FieldKind kind, uint64_t reset,
                 std::string description) {
    assert(msb >= lsb && msb < 64);
    Field f;
    f.name = std::move(name);
    f.lsb = lsb;
    f.width = msb - lsb + 1;
    f.kind = kind;
    f.reset = reset;
    f.description = std::move(description);
    return f;
}

Field make_warl(std::string name, unsigned msb, unsigned lsb, Legaliser legalise, uint64_t reset,
                std::string description) {
    Field f = make_field(std::move(name), msb, lsb, FieldKind::warl, reset, std::move(description));
    f.legalise = std::move(legalise);
    return f;
}

Field make_event_field(std::string name, unsigned msb, unsigned lsb, std::string description) {
    Field f = make_field(std::move(name), msb, lsb, FieldKind::rw, 0, std::move(description));
    f.event_selector = true;
    return f;
}

}  // namespace pmusim
