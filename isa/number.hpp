// Number literals as scripts and instructions write them: decimal, 0x hex, 0b binary, up to 64 bits.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace pmusim::isa {

// Parses an unsigned literal; a leading '-' gives the two's complement. nullopt when malformed or > 64 bits.
std::optional<uint64_t> parse_number(std::string_view text);

}  // namespace pmusim::isa
