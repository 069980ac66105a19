// Counters and the cycle prescaler, with bulk arithmetic: advancing by n costs O(1), whatever n is.
#pragma once
#include <cstdint>

#include "model/core/bits.hpp"

namespace pmusim {

// Result of adding n increments to a counter.
struct AddResult {
    uint64_t overflows = 0;       // how many times the overflow condition was met
    uint64_t first_overflow = 0;  // 1-based index of the increment that overflowed first (0: none)
};

// A counter `width` bits wide whose overflow condition is a carry out of bit `overflow_bit`
// (bit overflow_bit goes 1 -> 0 on an increment). A 32-bit counter uses (32, 31); the PMUv3 cycle counter
// uses (64, 31) with PMCR.LC = 0 and (64, 63) with LC = 1 (armv8-pmuv3.md section 5).
class Counter {
public:
    Counter() = default;
    Counter(unsigned width, unsigned overflow_bit) : width_(width), overflow_bit_(overflow_bit) {}

    uint64_t value = 0;

    unsigned width() const { return width_; }
    unsigned overflow_bit() const { return overflow_bit_; }
    void configure(unsigned width, unsigned overflow_bit) {
        width_ = width;
        overflow_bit_ = overflow_bit;
        value &= bit_mask(0, width_);
    }

    // Increments still needed before the next overflow (>= 1). Saturates at UINT64_MAX for a 64-bit period.
    uint64_t increments_to_overflow() const {
        const uint64_t low = value & bit_mask(0, overflow_bit_ + 1);
        if (overflow_bit_ >= 63) return low == 0 ? ~uint64_t{0} : (~low + 1);
        return (uint64_t{1} << (overflow_bit_ + 1)) - low;
    }

    AddResult add(uint64_t n) {
        AddResult r;
        if (n == 0) return r;
        const uint64_t first = increments_to_overflow();
        if (n >= first && !(overflow_bit_ >= 63 && (value & bit_mask(0, 64)) == 0)) {
            r.first_overflow = first;
            r.overflows = overflow_bit_ >= 63 ? 1 : 1 + (n - first) / (uint64_t{1} << (overflow_bit_ + 1));
        }
        value = (value + n) & bit_mask(0, width_);
        return r;
    }

private:
    unsigned width_ = 32;
    unsigned overflow_bit_ = 31;
};

// Divides a cycle stream by `divisor` (the 64-cycle divider of PMCR.D / ARM11 PMNC.D), keeping the
// remainder across bulk advances so that 64 advances of 1 cycle and one advance of 64 give the same tick.
class Prescaler {
public:
    explicit Prescaler(uint64_t divisor = 64) : divisor_(divisor) {}

    uint64_t phase() const { return phase_; }  // cycles counted since the last tick (0..divisor-1)
    uint64_t divisor() const { return divisor_; }
    void reset() { phase_ = 0; }

    // Advances by `cycles`; returns how many ticks (divided counts) happened.
    uint64_t advance(uint64_t cycles) {
        const uint64_t before = phase_;
        const uint64_t ticks = cycles / divisor_ + (before + cycles % divisor_) / divisor_;
        phase_ = (before + cycles % divisor_) % divisor_;
        return ticks;
    }

    // Cycle offset (1-based) within an advance that starts at `phase_before` at which tick k (1-based) falls.
    static uint64_t cycle_of_tick(uint64_t phase_before, uint64_t k, uint64_t divisor) {
        return k * divisor - phase_before;
    }

private:
    uint64_t divisor_;
    uint64_t phase_ = 0;
};

}  // namespace pmusim
