#include "platforms/timing_follows.hpp"

#include "isa/a32_coproc.hpp"

namespace pmusim {

namespace {

class FollowsNone final : public TimingFollows {
public:
    bool follows(EncodingSpace, uint32_t) const override { return false; }
    void write(const RegisterWrite&, timing::TimingModel&) const override {}
};

// ARM: SCTLR (MCR p15, 0, Rt, c1, c0, 0). ARM11 follows its Z bit (bit 11), which turns branch prediction on and off
// (arm11-pmnc.md; ARM1176 TRM 3.2.7), where the timing parameters say so (follows_sctlr_z). SCTLR is followed on
// every ARM family, so an access to it is never inside a block.
class FollowsArm final : public TimingFollows {
public:
    FollowsArm() {
        isa::a32::CoprocMove sctlr;
        sctlr.crn = 1;
        sctlr.is_read = false;
        sctlr_key_ = isa::a32::cp15_key(sctlr);
    }
    bool follows(EncodingSpace space, uint32_t key) const override { return space == EncodingSpace::cp15 && key == sctlr_key_; }
    void write(const RegisterWrite& w, timing::TimingModel& tm) const override {
        if (tm.params().follows_sctlr_z && follows(w.space, w.key)) tm.predictor().set_enabled((w.apply(0) >> 11) & 1);
    }

private:
    uint32_t sctlr_key_ = 0;
};

// VeeR EL2: mrac (0x7C0, outside the PMU: the region access control, veer-el2-mhpm.md), whose writes set which
// regions fetch from the I-cache, where the timing parameters say so (follows_mrac); mstatus (0x300), whose MIE
// the timing model follows for event 49 (cycles with interrupts disabled), where it counts that event.
class FollowsVeer final : public TimingFollows {
public:
    bool follows(EncodingSpace space, uint32_t key) const override { return space == EncodingSpace::csr && (key == mrac || key == mstatus); }
    void write(const RegisterWrite& w, timing::TimingModel& tm) const override {
        if (w.space != EncodingSpace::csr) return;
        if (w.key == mrac && tm.params().follows_mrac) tm.set_mrac(static_cast<uint32_t>(w.apply(tm.mrac())));
        if (w.key == mstatus && tm.params().ev_irq_disabled != timing::no_event)
            tm.set_mstatus(static_cast<uint32_t>(w.apply(tm.mstatus())));
    }
    // At reset no region is cacheable (mrac 0); the program's writes follow.
    void reset(timing::TimingModel& tm) const override {
        if (tm.params().follows_mrac) tm.set_mrac(0);
    }
    // mpmc's haltie (bit 1) sets mstatus.MIE on the way into pmu/fw-halt (veer-el2-mhpm.md §5).
    void halt(uint64_t value, timing::TimingModel& tm) const override {
        if (value & 2u) tm.set_mie();
    }

private:
    static constexpr uint32_t mrac = 0x7C0, mstatus = 0x300;
};

}  // namespace

const TimingFollows& timing_follows(const Platform& p) {
    static const FollowsNone none;
    static const FollowsArm arm;
    static const FollowsVeer veer;
    if (p.family == "veer-el2") return veer;
    if (p.family == "armv8-pmuv3" || p.family == "armv7-cp15" || p.family == "arm11-pmnc") return arm;
    return none;
}

}  // namespace pmusim
