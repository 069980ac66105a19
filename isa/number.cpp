#include "isa/number.hpp"

#include <charconv>

namespace pmusim::isa {

std::optional<uint64_t> parse_number(std::string_view t) {
    bool negative = false;
    if (!t.empty() && t.front() == '-') {
        negative = true;
        t.remove_prefix(1);
    }
    int base = 10;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        base = 16;
        t.remove_prefix(2);
    } else if (t.size() > 2 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) {
        base = 2;
        t.remove_prefix(2);
    }
    if (t.empty()) return std::nullopt;
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
    if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
    // A negative number is a two's complement 64-bit value: -1 to -2^63; anything more negative has no encoding.
    if (negative && v > (uint64_t{1} << 63)) return std::nullopt;
    return negative ? ~v + 1 : v;
}

}  // namespace pmusim::isa
