// Bit counts the timing code uses per instruction, inline: the baseline x86-64 target has no popcnt instruction,
// where GCC's __builtin_popcount is a call into libgcc (about 25 host instructions a time).
#pragma once
#include <cstdint>

namespace pmusim::timing {

// The lowest set bit's index (m not 0).
inline unsigned ctz(uint32_t m) { return static_cast<unsigned>(__builtin_ctz(m)); }

// The number of set bits (a SWAR sum of bit pairs, nibbles, then bytes).
inline unsigned popcount(uint32_t m) {
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0F0F0F0Fu;
    return (m * 0x01010101u) >> 24;
}

}  // namespace pmusim::timing
