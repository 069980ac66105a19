// Test helpers around one PMU built from a named platform: accesses by register name at a given privilege,
// external and software memory-mapped accesses, and bulk advances. Fixtures inherit it next to their gtest base.
#pragma once
#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>

#include "model/pmu/arm_pmu.hpp"
#include "platforms/platform.hpp"

namespace pmusim {

class PmuHarness {
protected:
    void build(const char* platform, PlatformOptions opts = {}) { pmu = find_platform(platform)->make(opts); }

    AccessRecord w(const std::string& reg, uint64_t v, unsigned el = 1) {
        Register* r = pmu->bank().find(reg);
        EXPECT_NE(r, nullptr) << reg;
        AccessContext c;
        c.privilege = el;
        return pmu->write(*r, v, c);
    }
    AccessRecord rd(const std::string& reg, unsigned el = 1) {
        Register* r = pmu->bank().find(reg);
        EXPECT_NE(r, nullptr) << reg;
        AccessContext c;
        c.privilege = el;
        return pmu->read(*r, c);
    }
    uint64_t val(const std::string& reg) {
        const auto rec = rd(reg);
        EXPECT_FALSE(rec.trapped()) << reg;
        return rec.value_read;
    }
    AccessRecord ext_rd(uint64_t off) {
        AccessContext c;
        c.origin = AccessOrigin::external_debug;
        return pmu->read_offset(off, c);
    }
    AccessRecord ext_wr(uint64_t off, uint64_t v, AccessOrigin o = AccessOrigin::external_debug) {
        AccessContext c;
        c.origin = o;
        return pmu->write_offset(off, v, c);
    }
    AdvanceResult run(uint64_t cycles, std::initializer_list<EventCount> events = {}) {
        EventBatch b;
        b.cycles = cycles;
        for (const auto& e : events) b.add(e.event, e.count);
        return pmu->advance(b);
    }

    std::unique_ptr<Pmu> pmu;
};

// A fixture around one ARM architected PMU.
class ArmPmuTest : public ::testing::Test, public PmuHarness {
protected:
    explicit ArmPmuTest(const char* default_platform) : default_platform_(default_platform) {}

    void make(const char* platform = nullptr, PlatformOptions opts = {}) {
        build(platform ? platform : default_platform_, std::move(opts));
        arm = static_cast<ArmPmu*>(pmu.get());
    }
    void SetUp() override { make(); }

    ArmPmu* arm = nullptr;

private:
    const char* default_platform_;
};

}  // namespace pmusim
