// AccessContext::detail off (the TLM socket's fast path) must change nothing but the record's description: the
// same status, values and diagnostics, and the same state after, for every register of every platform, read and
// written with values that set, clear and mix every bit. Checked against the full path, access by access.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "model/core/pmu.hpp"
#include "platforms/platform.hpp"

namespace pmusim {
namespace {

void same(const AccessRecord& full, const AccessRecord& fast, const std::string& what) {
    EXPECT_EQ(full.status, fast.status) << what;
    EXPECT_EQ(full.value_read, fast.value_read) << what;
    EXPECT_EQ(full.old_value, fast.old_value) << what;
    EXPECT_EQ(full.new_value, fast.new_value) << what;
    EXPECT_EQ(full.target, fast.target) << what;
    ASSERT_EQ(full.diagnostics.size(), fast.diagnostics.size()) << what;
    for (size_t i = 0; i < full.diagnostics.size(); ++i) {
        EXPECT_EQ(full.diagnostics[i].code, fast.diagnostics[i].code) << what;
        EXPECT_EQ(full.diagnostics[i].message, fast.diagnostics[i].message) << what;
    }
    EXPECT_TRUE(fast.fields.empty()) << what;
}

TEST(AccessDetail, OffChangesOnlyTheDescription) {
    for (const Platform& p : all_platforms()) {
        auto full = p.make({}), fast = p.make({});
        AccessContext on, off;
        on.privilege = off.privilege = p.riscv ? 3 : 1;
        off.detail = false;
        const auto& regs = full->bank().all();
        const auto& regs_fast = fast->bank().all();
        ASSERT_EQ(regs.size(), regs_fast.size());
        size_t described = 0;
        for (uint64_t v : {uint64_t{0xFFFFFFFF}, uint64_t{0x5A5A5A5A}, uint64_t{0}, uint64_t{1}}) {
            for (size_t i = 0; i < regs.size(); ++i) {
                Register& a = *regs[i];
                Register& b = *regs_fast[i];
                const std::string what = fmt::format("{} {} value {:#x}", p.name, a.name, v);
                const AccessRecord r1 = full->read(a, on), r2 = fast->read(b, off);
                same(r1, r2, what + " read");
                described += r1.fields.size();
                const AccessRecord w1 = full->write(a, v, on), w2 = fast->write(b, v, off);
                same(w1, w2, what + " write");
            }
            // Events between the rounds, so that counters move and overflow paths run in both.
            EventBatch batch;
            batch.cycles = 1000;
            for (uint32_t e = 0; e < 64; ++e) batch.add(e, 3);
            full->advance(batch);
            fast->advance(batch);
        }
        EXPECT_GT(described, 0u) << p.name << ": the full path describes fields";
        for (size_t i = 0; i < regs.size(); ++i)
            EXPECT_EQ(regs[i]->read(), regs_fast[i]->read()) << p.name << " " << regs[i]->name << " after";
    }
}

}  // namespace
}  // namespace pmusim
