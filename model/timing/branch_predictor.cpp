#include "model/timing/branch_predictor.hpp"

namespace pmusim::timing {

BranchPredictor::BranchPredictor(const PredictorConfig& c)
    : cfg_(c), counters_(size_t{1} << c.table_bits, 1), targets_(c.btb_bits ? size_t{1} << c.btb_bits : 0, ~uint64_t{0}) {}

bool BranchPredictor::conditional(uint64_t pc, uint64_t target, bool taken) {
    if (!cfg_.enabled) return taken;  // prediction off: every branch is predicted not taken
    bool predicted = false;
    switch (cfg_.direction) {
        case PredictorConfig::Direction::not_taken: predicted = false; break;
        case PredictorConfig::Direction::btfn: predicted = target < pc; break;
        case PredictorConfig::Direction::bimodal:
        case PredictorConfig::Direction::gshare: {
            const uint64_t mask = counters_.size() - 1;
            uint64_t idx = pc >> 1;
            if (cfg_.direction == PredictorConfig::Direction::gshare) idx ^= history_;
            uint8_t& c = counters_[idx & mask];
            predicted = c >= 2;
            if (taken && c < 3) ++c;
            if (!taken && c > 0) --c;
            if (cfg_.history_bits) history_ = ((history_ << 1) | (taken ? 1u : 0u)) & ((uint64_t{1} << cfg_.history_bits) - 1);
            break;
        }
    }
    return predicted != taken;
}

bool BranchPredictor::indirect(uint64_t pc, uint64_t target, bool is_return) {
    if (!cfg_.enabled) return true;
    if (is_return && cfg_.ras_depth) {
        const bool hit = !ras_.empty() && ras_.back() == target;
        if (!ras_.empty()) ras_.pop_back();
        return !hit;
    }
    if (targets_.empty()) return true;
    uint64_t& slot = targets_[(pc >> 1) & (targets_.size() - 1)];
    const bool hit = slot == target;
    slot = target;
    return !hit;
}

void BranchPredictor::call(uint64_t return_address) {
    if (!cfg_.ras_depth) return;
    if (ras_.size() == cfg_.ras_depth) ras_.erase(ras_.begin());  // the oldest entry falls off
    ras_.push_back(return_address);
}

}  // namespace pmusim::timing
