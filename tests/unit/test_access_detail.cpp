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

// AccessContext::detail off against the full record in every context an access can come from: instruction accesses
// at every privilege (the refused ones trap: UNDEFINED / illegal instruction, or a trap to a higher level), Secure
// and Non-secure, from a debugger and from software through the memory map (the ARMv7 software lock), through the
// register and through each memory-mapped slot; and the lean path of the memory map (Pmu::read_slot_lean,
// write_slot_lean: status and value only, the TLM socket's path) against both.
void same_all(const AccessRecord& full, const AccessRecord& fast, const std::string& what) {
    same(full, fast, what);
    EXPECT_EQ(full.reg, fast.reg) << what;
    EXPECT_EQ(full.value_written, fast.value_written) << what;
    for (size_t i = 0; i < full.diagnostics.size() && i < fast.diagnostics.size(); ++i)
        EXPECT_EQ(full.diagnostics[i].severity, fast.diagnostics[i].severity) << what;
}

std::vector<AccessContext> contexts(const Platform& p) {
    std::vector<AccessContext> out;
    for (unsigned priv : p.riscv ? std::vector<unsigned>{0, 3} : std::vector<unsigned>{0, 1, 2, 3})
        for (bool secure : {false, true}) {
            AccessContext c;
            c.privilege = priv;
            c.secure = secure;
            out.push_back(c);
        }
    for (AccessOrigin o : {AccessOrigin::external_debug, AccessOrigin::memory_mapped}) {
        AccessContext c;
        c.origin = o;
        out.push_back(c);
    }
    return out;
}

TEST(AccessPaths, FastEqualsFullInEveryContext) {
    size_t traps = 0, accesses = 0;
    for (const Platform& p : all_platforms()) {
        // `lean` takes the same accesses as `fast`, but those through the memory map by Pmu::read_slot_lean and
        // write_slot_lean (the TLM socket's path), which return the status and the value only.
        auto full = p.make({}), fast = p.make({}), lean = p.make({});
        const auto& regs = full->bank().all();
        const auto& regs_fast = fast->bank().all();
        const auto& regs_lean = lean->bank().all();
        ASSERT_EQ(regs.size(), regs_fast.size());
        ASSERT_EQ(regs.size(), regs_lean.size());
        for (const AccessContext& base : contexts(p)) {
            AccessContext on = base, off = base;
            off.detail = false;
            const std::string ctx = fmt::format("{} privilege {} secure {} origin {}", p.name, base.privilege, base.secure,
                                                static_cast<int>(base.origin));
            for (uint64_t v : {uint64_t{0xFFFFFFFF}, uint64_t{0x5A5A5A5A}, uint64_t{0}, uint64_t{0xC5ACCE55}}) {
                for (size_t i = 0; i < regs.size(); ++i) {
                    Register& a = *regs[i];
                    Register& b = *regs_fast[i];
                    const std::string what = fmt::format("{} {} value {:#x}", ctx, a.name, v);
                    Register& c = *regs_lean[i];
                    const AccessRecord r1 = full->read(a, on), r2 = fast->read(b, off);
                    same_all(r1, r2, what + " read");
                    same_all(r1, lean->read(c, off), what + " read (lean's PMU)");
                    const AccessRecord w1 = full->write(a, v, on), w2 = fast->write(b, v, off);
                    same_all(w1, w2, what + " write");
                    same_all(w1, lean->write(c, v, off), what + " write (lean's PMU)");
                    traps += r1.trapped() + w1.trapped();
                    accesses += 2;
                    for (const auto& [offset, shift] : a.offsets) {
                        (void)shift;
                        const std::string at = fmt::format("{} @{:#x}", what, offset);
                        const AccessRecord ro = full->read_offset(offset, on);
                        same_all(ro, fast->read_offset(offset, off), at + " read");
                        const AccessOutcome rl = lean->read_slot_lean(lean->bank().find_offset(offset), off);
                        EXPECT_EQ(rl.status, ro.status) << at << " lean read";
                        EXPECT_EQ(rl.value_read, ro.value_read) << at << " lean read";
                        const AccessRecord wo = full->write_offset(offset, v, on);
                        same_all(wo, fast->write_offset(offset, v, off), at + " write");
                        const AccessOutcome wl = lean->write_slot_lean(lean->bank().find_offset(offset), v, off);
                        EXPECT_EQ(wl.status, wo.status) << at << " lean write";
                        EXPECT_EQ(wl.value_read, wo.value_read) << at << " lean write";
                    }
                }
                EventBatch batch;
                batch.cycles = 1000;
                for (uint32_t e = 0; e < 64; ++e) batch.add(e, 0x10000000u);
                full->advance(batch);
                fast->advance(batch);
                lean->advance(batch);
                EXPECT_EQ(full->irq(), fast->irq()) << ctx;
                EXPECT_EQ(full->fiq(), fast->fiq()) << ctx;
                EXPECT_EQ(full->irq(), lean->irq()) << ctx;
                EXPECT_EQ(full->fiq(), lean->fiq()) << ctx;
            }
            for (size_t i = 0; i < regs.size(); ++i) {
                EXPECT_EQ(regs[i]->read(), regs_fast[i]->read()) << ctx << " " << regs[i]->name << " after";
                EXPECT_EQ(regs[i]->read(), regs_lean[i]->read()) << ctx << " " << regs[i]->name << " after (lean)";
            }
        }
    }
    // EL0/User and unprivileged accesses with the enables clear are refused on every family.
    EXPECT_GT(traps, accesses / 20);
}

}  // namespace
}  // namespace pmusim
