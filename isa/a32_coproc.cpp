#include "isa/a32_coproc.hpp"

namespace pmusim::isa::a32 {

namespace {

uint32_t fields(const CoprocMove& m) {
    return 0x0E000010u | ((m.opc1 & 7u) << 21) | (m.is_read ? 1u << 20 : 0u) | ((m.crn & 15u) << 16) |
           ((m.rt & 15u) << 12) | ((m.coproc & 15u) << 8) | ((m.opc2 & 7u) << 5) | (m.crm & 15u);
}

CoprocMove unpack(uint32_t insn) {
    CoprocMove m;
    m.opc1 = (insn >> 21) & 7u;
    m.is_read = (insn >> 20) & 1u;
    m.crn = (insn >> 16) & 15u;
    m.rt = (insn >> 12) & 15u;
    m.coproc = (insn >> 8) & 15u;
    m.opc2 = (insn >> 5) & 7u;
    m.crm = insn & 15u;
    return m;
}

}  // namespace

uint32_t encode_a32(const CoprocMove& m) { return ((m.cond & 15u) << 28) | fields(m); }

std::optional<CoprocMove> decode_a32(uint32_t insn) {
    // cond = 0b1111 is the unconditional space (MCR2/MRC2): not these instructions.
    if ((insn & 0x0F000010u) != 0x0E000010u || (insn >> 28) == 0xFu) return std::nullopt;
    CoprocMove m = unpack(insn);
    m.cond = insn >> 28;
    return m;
}

uint32_t encode_t32(const CoprocMove& m) { return 0xE0000000u | fields(m); }

std::optional<CoprocMove> decode_t32(uint32_t insn) {
    if ((insn & 0xFF000010u) != 0xEE000010u) return std::nullopt;  // T2 (0xFE...) is MCR2/MRC2
    return unpack(insn);
}

uint32_t cp15_key(const CoprocMove& m) { return (m.opc1 << 11) | (m.crn << 7) | (m.crm << 3) | m.opc2; }

}  // namespace pmusim::isa::a32
