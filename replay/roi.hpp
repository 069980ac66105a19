// Regions of interest (--roi; docs/cli.md "Regions of interest"): which retired instructions the report counts.
// The replay ends its batches where the state changes, so every batch lies wholly inside or wholly outside (events
// in a batch have no order).
#pragma once
#include <cstdint>
#include <vector>

#include "model/core/zeroed_table.hpp"
#include "replay/replay.hpp"

namespace pmusim::replay {

class RoiTracker {
public:
    explicit RoiTracker(const std::vector<Region>& regions) {
        for (const auto& r : regions) counts_.push_back(RegionCount{r, 0, false});
    }
    bool active() const { return !counts_.empty(); }
    bool inside() const { return inside_; }
    // Follows a retired instruction at `pc`; true when the state changes with it: the caller then ends the batch
    // and commit()s the new state.
    bool step(uint64_t pc) {
        bool any = false;
        for (auto& c : counts_) {
            const Region& g = c.region;
            if (g.extent) {
                if (pc == g.start) ++c.entered;
                c.open_at_end = pc >= g.start && pc < g.end;
            } else {
                if (c.open_at_end && pc == g.end) c.open_at_end = false;  // END itself is not counted
                if (!c.open_at_end && pc == g.start) {
                    c.open_at_end = true;
                    ++c.entered;
                }
            }
            any |= c.open_at_end;
        }
        next_ = any;
        return next_ != inside_;
    }
    void commit() { inside_ = next_; }
    // Adds a flushed batch to the region's totals when it lies inside.
    void add(const EventBatch& b) {
        if (!inside_) return;
        cycles_ += b.cycles;
        for (const auto& e : b.events)
            if (e.event < totals_.size()) totals_[e.event] += e.count;
    }
    void retired() { instructions_ += inside_; }
    // Replaces the whole trace's counts in `r` with the regions' (keeping the whole trace's apart).
    void finish(Result& r, uint32_t cycle_event) {
        r.trace_instructions = r.instructions;
        r.trace_cycles = r.cycles;
        r.instructions = instructions_;
        r.cycles = cycles_;
        for (auto& [n, c] : r.event_totals) c = (n < totals_.size() ? totals_[n] : 0) + (n == cycle_event ? cycles_ : 0);
        r.regions = counts_;
    }

private:
    std::vector<RegionCount> counts_;  // open_at_end doubles as "inside" while replaying
    bool inside_ = false, next_ = false;
    uint64_t instructions_ = 0, cycles_ = 0;
    ZeroedTable<uint64_t> totals_{65536};  // by event number (16 bits)
};

}  // namespace pmusim::replay
