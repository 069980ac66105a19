// Branch prediction for the timing model: a direction predictor for conditional branches (none, static
// backward-taken/forward-not-taken, a bimodal table of 2-bit counters, or gshare), a target buffer for indirect
// jumps, and an optional return stack. Pure data structures; the timing model decides what a miss costs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pmusim::timing {

struct PredictorConfig {
    enum class Direction { not_taken, btfn, bimodal, gshare };
    Direction direction = Direction::bimodal;
    unsigned table_bits = 9;    // 2^table_bits two-bit counters
    unsigned history_bits = 0;  // gshare: global history length
    unsigned btb_bits = 9;      // 2^btb_bits entries of indirect-jump targets (0: indirect jumps always miss)
    unsigned ras_depth = 0;     // return stack entries (0: returns go through the target buffer)
    bool enabled = true;        // false: every taken branch is a misprediction (ARM11 out of reset)
};

class BranchPredictor {
public:
    explicit BranchPredictor(const PredictorConfig& c);

    // A conditional branch at `pc` to `target` that was or was not taken: true when mispredicted.
    bool conditional(uint64_t pc, uint64_t target, bool taken);
    // An indirect jump at `pc` that went to `target`: true when mispredicted. Returns use the return stack
    // when there is one.
    bool indirect(uint64_t pc, uint64_t target, bool is_return);
    // A call: its return address goes on the return stack.
    void call(uint64_t return_address);
    void set_enabled(bool e) { cfg_.enabled = e; }
    bool enabled() const { return cfg_.enabled; }

private:
    PredictorConfig cfg_;
    std::vector<uint8_t> counters_;
    std::vector<uint64_t> targets_;
    std::vector<uint64_t> ras_;
    uint64_t history_ = 0;
};

}  // namespace pmusim::timing
