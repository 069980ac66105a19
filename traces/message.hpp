// Messages that echo what the user gave (a trace line, a script word, an option value) stay readable: every
// byte that is not printable ASCII is shown as \xNN (a NUL no longer cuts the message short) and a long echo is
// cut, saying how much was left out (a 15 MB line must not become a 15 MB message).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace pmusim {

inline constexpr size_t message_limit = 400;  // characters of user input one message may echo

inline std::string printable(std::string_view s, size_t limit = message_limit) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    size_t i = 0;
    for (; i < s.size() && out.size() < limit; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
            out += static_cast<char>(c);
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    if (i < s.size()) out += "... (" + std::to_string(s.size() - i) + " more bytes)";
    return out;
}

}  // namespace pmusim
