// --architectural --timing cpi1 over a file of runs (RunReplayer::retire_fast): what a run's retirement reads,
// by shape number, in one dense table, so that a run costs a lookup by its shape's number and no walk over its plan.
// A shape's own facts (its first PC, whether an interrupt was taken before it) are filled when it is first met, as a
// run or as a successor; its plan's summary (RunPlan::Arch) when its plan is made, and forgotten with the plans
// (RunPlanner::drop_all). An entry not filled yet fails the fast test (`gate`, `stop_before`), so that a table read
// before it is filled sends the run to the general path, which fills it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "replay/run_plan.hpp"
#include "traces/runs.hpp"

namespace pmusim::replay {

struct alignas(64) ArchShape {  // a cache line: an entry is found by a shift
    // How a run of the shape is tested before it retires from this entry (RunReplayer::runs_fast's tests on the plan).
    enum Gate : uint8_t {
        open = 0,     // a fast plan with no access of 2-16 bytes: nothing to test in its values
        masks = 1,    // a fast plan whose accesses of 2-16 bytes are powers of two: `masks` tests them
        aligned = 2,  // a fast plan with other accesses of 2-16 bytes: RunPlan::aligned() tests them
        closed = 3,   // not a fast plan
        unplanned = 4,
    };
    const RunPlan* plan = nullptr;  // none yet (or forgotten)
    RunExecs* execs = nullptr;      // plan->arch.execs
    // Which of execs->execs a fast run counts, by whether its successor starts elsewhere than at last_end (count[1])
    // or there (count[0]): its last record is taken where it is a branch and the successor is not the instruction
    // after it, or it is always taken (RunPlan::Arch::last_branch, last_always).
    uint64_t* count[2] = {nullptr, nullptr};
    const std::pair<uint32_t, uint32_t>* mask = nullptr;  // plan->align_masks
    uint64_t first_pc = 0;          // the shape's first record's PC
    uint64_t last_end = 0;          // RunPlan::Arch::last_end
    uint16_t n_masks = 0;
    uint8_t records = 0;            // at most trace::RunShape::max; 0: not seen yet (first_pc, stop_before not filled)
    uint8_t gate = unplanned;
    uint8_t privilege = 0;          // the plan's
    // The plan's privilege where the gate is open (a fast plan with nothing to test in its values), else none
    // (no privilege is 0xff): at that privilege a run passes its own tests (RunReplayer::retire_fast).
    uint8_t open_at = 0xFF;
    bool stop_before = true;        // an interrupt was taken before its first record (or not seen yet)
    bool settles = false;           // it leaves registers or a time (RunPlan::live_out, last_time_at)

    // Whether the accesses of 2-16 bytes of a run with values `v` are aligned (gate `masks`): the masks are below 16,
    // so an address's low byte (values are little-endian) decides.
    bool masks_clear(const unsigned char* v) const {
        unsigned low = 0;
        for (uint16_t k = 0; k < n_masks; ++k) low |= v[mask[k].first] & mask[k].second;
        return low == 0;
    }
    // Whether a run with values `v` passes the gate (a fast plan, every access aligned).
    bool passes(const unsigned char* v) const {
        return gate == open || (gate == masks && masks_clear(v)) || (gate == aligned && plan->aligned(v));
    }
    // The count a fast run adds one to, its successor starting at `next_pc`.
    uint64_t* counted(uint64_t next_pc) const { return count[next_pc != last_end]; }
};

static_assert(sizeof(ArchShape) == 64 && trace::RunShape::max <= UINT8_MAX, "an entry is a cache line");

class ArchShapes {
public:
    // The entry of shape `s`, its own facts filled at its first sight. A reference into the table: valid until the
    // next at() of a shape not met before.
    ArchShape& at(const trace::RunShape& s) {
        if (s.id >= v_.size()) v_.resize(s.id + 1);
        ArchShape& e = v_[s.id];
        if (!e.records) {  // a shape has at least one record
            e.first_pc = first_pc(s);
            e.stop_before = first_interrupt(s);
            e.records = static_cast<uint8_t>(s.records);
        }
        return e;
    }
    // `p`, the plan of e's shape, summarised into `e`.
    static void plan(ArchShape& e, RunPlan& p) {
        e.plan = &p;
        e.execs = &p.arch.execs;
        e.last_end = p.arch.last_end;
        e.privilege = p.privilege;
        e.count[1] = &p.arch.execs.execs[p.arch.last_branch ? 1 : 0];
        e.count[0] = &p.arch.execs.execs[p.arch.last_branch && p.arch.last_always ? 1 : 0];
        e.settles = !p.live_out.empty() || p.last_time_at != trace::ValueOffsets::none;
        e.mask = p.align_masks.data();
        const bool few = p.align_masks.size() <= UINT16_MAX;
        e.n_masks = few ? static_cast<uint16_t>(p.align_masks.size()) : 0;
        e.gate = !p.fast ? ArchShape::closed
                 : !p.align.empty() || !few ? ArchShape::aligned
                 : e.n_masks ? ArchShape::masks
                             : ArchShape::open;
        e.open_at = e.gate == ArchShape::open ? e.privilege : uint8_t{0xFF};
    }
    // An entry for each of the shapes numbered below `n` (TraceReader::run_shapes), not seen yet where new: the run
    // loop then finds a run's entry by its number without a test.
    void cover(size_t n) {
        if (n > v_.size()) v_.resize(std::max(n, 2 * v_.size()));
    }
    ArchShape* data() { return v_.data(); }
    size_t size() const { return v_.size(); }
    // The plans are dropped: their summaries go (the shapes' own facts stay).
    void forget_plans() {
        for (ArchShape& e : v_) {
            e.plan = nullptr;
            e.execs = nullptr;
            e.count[0] = e.count[1] = nullptr;
            e.gate = ArchShape::unplanned;
            e.open_at = 0xFF;
        }
    }

private:
    std::vector<ArchShape> v_;  // by shape number
};

}  // namespace pmusim::replay
