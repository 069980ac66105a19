#include "isa/a64_sysreg.hpp"

#include <charconv>

#include <fmt/format.h>

namespace pmusim::isa::a64 {

uint32_t encode(const SysRegMove& m) {
    return 0xD5000000u | (m.is_read ? 1u << 21 : 0u) | ((m.op0 & 3u) << 19) | ((m.op1 & 7u) << 16) |
           ((m.crn & 15u) << 12) | ((m.crm & 15u) << 8) | ((m.op2 & 7u) << 5) | (m.rt & 31u);
}

std::optional<SysRegMove> decode(uint32_t insn) {
    // MRS/MSR (register): 1101 0101 00 L 1 o0 op1 CRn CRm op2 Rt, i.e. op0 in {2, 3}.
    if ((insn & 0xFFD00000u) != 0xD5100000u) return std::nullopt;
    SysRegMove m;
    m.is_read = (insn >> 21) & 1u;
    m.op0 = (insn >> 19) & 3u;
    m.op1 = (insn >> 16) & 7u;
    m.crn = (insn >> 12) & 15u;
    m.crm = (insn >> 8) & 15u;
    m.op2 = (insn >> 5) & 7u;
    m.rt = insn & 31u;
    return m;
}

uint32_t key(const SysRegMove& m) { return (m.op0 << 14) | (m.op1 << 11) | (m.crn << 7) | (m.crm << 3) | m.op2; }

std::optional<uint32_t> parse_generic_name(std::string_view s) {
    // S<op0>_<op1>_C<n>_C<m>_<op2>
    unsigned v[5];
    size_t pos = 0;
    auto expect = [&](char c) {
        if (pos < s.size() && (s[pos] == c || s[pos] == c + ('a' - 'A'))) {
            ++pos;
            return true;
        }
        return false;
    };
    auto number = [&](unsigned& out) {
        const char* b = s.data() + pos;
        const char* e = s.data() + s.size();
        auto [p, ec] = std::from_chars(b, e, out, 10);
        if (ec != std::errc() || p == b) return false;
        pos += static_cast<size_t>(p - b);
        return true;
    };
    if (!expect('S') || !number(v[0]) || !expect('_') || !number(v[1]) || !expect('_') || !expect('C') ||
        !number(v[2]) || !expect('_') || !expect('C') || !number(v[3]) || !expect('_') || !number(v[4]) ||
        pos != s.size())
        return std::nullopt;
    if (v[0] < 2 || v[0] > 3 || v[1] > 7 || v[2] > 15 || v[3] > 15 || v[4] > 7) return std::nullopt;
    return (v[0] << 14) | (v[1] << 11) | (v[2] << 7) | (v[3] << 3) | v[4];
}

std::string generic_name(uint32_t k) {
    return fmt::format("S{}_{}_C{}_C{}_{}", (k >> 14) & 3u, (k >> 11) & 7u, (k >> 7) & 15u, (k >> 3) & 15u, k & 7u);
}

}  // namespace pmusim::isa::a64
