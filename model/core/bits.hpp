// Bit-field helpers shared by every model. Plain C++, no SystemC.
#pragma once
#include <cstdint>

namespace pmusim {

// Mask of `width` ones starting at bit `lsb` (width 64 allowed).
constexpr uint64_t bit_mask(unsigned lsb, unsigned width) {
    const uint64_t ones = width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1);
    return ones << lsb;
}

constexpr uint64_t extract(uint64_t value, unsigned lsb, unsigned width) {
    return (value & bit_mask(lsb, width)) >> lsb;
}

constexpr uint64_t deposit(uint64_t value, unsigned lsb, unsigned width, uint64_t field) {
    const uint64_t m = bit_mask(lsb, width);
    return (value & ~m) | ((field << lsb) & m);
}

constexpr bool test_bit(uint64_t value, unsigned bit) { return (value >> bit) & 1U; }

}  // namespace pmusim
