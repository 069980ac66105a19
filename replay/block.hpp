// A basic block as the trace ran it, and the cache of blocks the block engine replays (replay/block_runner.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "model/timing/timing_model.hpp"
#include "replay/records.hpp"

namespace pmusim::replay {

// Consecutive instructions from `pc` up to and including a branch, decoded once. Its instructions are matched
// record by record on record_key() (encoding, state, size, privilege), so a block is never replayed over other code
// (self-modifying code, a different state) and privilege changes end it. Instructions that access registers (CSR,
// MRS/MSR, MRC/MCR) or do not retire (ecall, ebreak) are never in a block: the per-instruction step, which both
// engines share, takes them.
struct Block {
    static constexpr unsigned max = 64;
    uint64_t pc = 0;
    std::vector<uint64_t> keys;
    std::vector<isa::RetiredInsn> insns;  // decoded
    std::vector<uint32_t> kinds;          // RetireHistogram kinds, as decoded
    // The retire kinds of all but the last instruction (the branch, whose kind depends on the trace): each kind's
    // number (RetireHistogram::id) and how many, for one histogram add per kind when no record changes a kind.
    std::vector<std::pair<uint32_t, uint32_t>> counts;
    // The last instruction's kind number as decoded, not taken [0] and taken [1] (no failed condition or
    // unaligned access).
    uint32_t last_ids[2] = {0, 0};
    // The timing of the instructions before the last (the timing model's block timing); the last, usually a
    // branch, is timed by step() on every execution.
    std::unique_ptr<timing::BlockMemo> memo;
    unsigned size() const { return static_cast<unsigned>(keys.size()); }
};

// Executions of a block counted since the last flush, its last instruction not taken [0] and taken [1]: a fast
// run's retirement is added per kind at the flush (Session::flush), not per execution.
struct BlockExecs {
    const Block* block = nullptr;
    uint64_t execs[2] = {0, 0};
    bool listed = false;  // in the session's list of blocks to drain
};

// Executions of a fast run (its plan's blocks one after the other, replay/run_plan.hpp) counted since the last flush
// without the timing model, its last block's last instruction not taken [0] and taken [1]: the session adds them to
// its blocks' BlockExecs at the flush (Session::drain_execs), each block before the last ending taken or not as
// `inner` says.
struct RunExecs {
    std::vector<std::pair<BlockExecs*, uint8_t>> inner;
    BlockExecs* last = nullptr;
    uint64_t execs[2] = {0, 0};
    bool listed = false;  // in the session's list of runs to drain
};

// Blocks by start PC and first instruction, direct-mapped.
class BlockCache {
public:
    Block* find(const TraceRecord& r) {
        Block* b = slot(r.pc).get();
        return b && b->pc == r.pc && b->keys[0] == record_key(r) ? b : nullptr;
    }
    Block* put(std::unique_ptr<Block> b) {
        auto& s = slot(b->pc);
        s = std::move(b);
        return s.get();
    }

private:
    std::unique_ptr<Block>& slot(uint64_t pc) { return slots_[(pc ^ (pc >> 13)) >> 1 & (slots_.size() - 1)]; }
    std::vector<std::unique_ptr<Block>> slots_ = std::vector<std::unique_ptr<Block>>(4096);
};

}  // namespace pmusim::replay
