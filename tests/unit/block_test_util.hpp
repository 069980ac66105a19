// What the block timing's tests (tests/unit/test_block_*.cpp) share: their includes, the names they use
// unqualified, and helpers.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/timing/timing_model.hpp"
#include "platforms/timing_params.hpp"

namespace pmusim::testutil {

// An instruction of class `c` that writes register `dst` and reads register `src`.
inline isa::RetiredInsn op(isa::InsnClass c, uint8_t dst, uint8_t src) {
    isa::RetiredInsn i;
    i.cls = c;
    i.regs.dst = isa::reg_bit(dst);
    i.regs.src = isa::reg_bit(src);
    return i;
}

// Every event's count the same, those counted 0 aside.
inline void expect_same_events(const EventBatch& got, const EventBatch& want, unsigned execution) {
    for (const auto& e : want.events) ASSERT_EQ(got.count(e.event), e.count) << "execution " << execution << " event " << e.event;
    for (const auto& e : got.events) ASSERT_EQ(want.count(e.event), e.count) << "execution " << execution << " event " << e.event;
}

}  // namespace pmusim::testutil

using namespace pmusim;
using namespace pmusim::timing;
using pmusim::testutil::expect_same_events;
using pmusim::testutil::op;
using C = pmusim::isa::InsnClass;
