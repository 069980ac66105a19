#include "replay/stretch_policy.hpp"

#include <algorithm>

namespace pmusim::replay {

bool StretchPolicy::sparse_allowed(const Seen& e, uint32_t id, uint64_t gap, bool recording) const {
    if (std::find(hopeless_.begin(), hopeless_.end(), gap) != hopeless_.end()) return false;
    if (recording && sparse_gap_) return false;  // one already (its meetings: record)
    if (e.unarmed) return false;
    return id >= bad_.size() || bad_[id] < 2;
}

void StretchPolicy::anchored(uint32_t id, uint64_t sparse_gap, uint64_t instructions) {
    anchor_ = id;
    sparse_gap_ = sparse_gap;
    met_ = instructions;
    tried_ = 0;
}

StretchPolicy::Other StretchPolicy::other_run(uint32_t id, uint64_t instructions) const {
    if (!sparse_gap_ && good(id) && instructions - met_ > min_instructions) return Other::switch_to;
    if (instructions - met_ > (sparse_gap_ ? 4 * sparse_gap_ : patience)) return Other::lost;
    return Other::keep;
}

void StretchPolicy::give_up(uint64_t instructions) {
    sparse_failed(instructions);
    anchors_ = 0;
    wait_until_ = instructions + backoff_;
    backoff_ = std::min<uint64_t>(backoff_ * 2, max_backoff);
}

void StretchPolicy::sparse_failed(uint64_t instructions) {
    if (!sparse_gap_) return;
    sparse_gap_ = 0;
    sparse_until_ = instructions + sparse_backoff_;
    sparse_backoff_ = std::min<uint64_t>(sparse_backoff_ * 2, max_sparse_backoff);
}

void StretchPolicy::sparse_unarmed() {
    seen_[anchor_].unarmed = true;  // sparse_anchor() sized it when it chose the anchor
    sparse_gap_ = 0;
}

bool StretchPolicy::sparse_hopeless(uint64_t instructions) {
    if (!sparse_gap_) return false;
    hopeless_.push_back(sparse_gap_);
    sparse_failed(instructions);
    return true;
}

void StretchPolicy::repeated() {
    if (good_.size() <= anchor_) good_.resize(anchor_ + 1, 0);
    good_[anchor_] = 1;
    backoff_ = min_instructions;
    if (sparse_gap_) sparse_backoff_ = sparse_backoff0;
    anchors_ = 0;
}

bool StretchPolicy::differed(uint64_t instructions) {
    sparse_failed(instructions);
    if (bad_.size() <= anchor_) bad_.resize(anchor_ + 1, 0);
    ++bad_[anchor_];
    return next_anchor();
}

}  // namespace pmusim::replay
