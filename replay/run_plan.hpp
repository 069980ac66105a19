// Run plans: how a shape of runs of a native version-2 file (traces/runs.hpp) replays, worked out at its first
// execution. A fast plan is made of blocks (BlockRunner::make_block) and replays a run from its values alone, with
// no record per instruction (replay/run_replayer.hpp); a group plan is two runs one after the other as one.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "replay/block.hpp"
#include "replay/block_runner.hpp"
#include "replay/core.hpp"
#include "traces/runs.hpp"

namespace pmusim::replay {

struct RunPlan {
    struct Slot {  // a data access of a record: where its address lies, its direction and size
        uint32_t off;
        bool write;
        uint8_t size;
    };
    struct Segment {
        std::unique_ptr<Block> block;
        unsigned first = 0;            // its first record in the run
        std::vector<Slot> body_mem;    // the accesses of the records before its last, in order
        std::vector<uint8_t> body_n;   // how many each of those records makes
        std::vector<Slot> last_mem;    // the last record's
        // Divisions timed from their operands (divider_from_operands), by record in the segment: where each
        // operand's value lies among the run's values (none: in the register file as the run starts, the
        // register `reg`), and whether it is a remainder.
        struct Div {
            unsigned record;
            std::array<uint32_t, 2> off;
            std::array<uint8_t, 2> reg;
            bool rem;
        };
        std::vector<Div> divs;
        uint64_t after = 0;               // where the next segment starts (none after the last: the run's successor)
        // The block's last instruction as decoded [0] and taken [1] (br_taken set), and what replay_fast reads of its
        // record per execution: its PC plus its size, whether it is a branch, and whether it is always taken
        // (records.hpp branch_taken: a RISC-V jump).
        isa::RetiredInsn last_insn[2];
        uint64_t last_end = 0;
        bool last_branch = false, last_always = false;
        // Whether its last instruction was taken where the next record is at `next_pc` (records.hpp branch_taken).
        bool last_taken(uint64_t next_pc) const { return last_branch && taken_to(last_end, last_always, next_pc); }
        BlockExecs execs;      // executions since the last flush (retired per kind there)
        bool through = false;  // its block goes on through a branch that falls through (make_block)
    };
    std::vector<TraceRecord> protos;        // the shape's records, values left out
    std::vector<trace::ValueOffsets> offs;  // where each record's values lie (its time: none without one)
    uint32_t last_time_at = trace::ValueOffsets::none;  // offs.back().time (last_time)
    // Every record in one of the segments' blocks, none trapped, entered by an interrupt or condition-failed,
    // all at one privilege, and every record timed under --timing trace.
    bool fast = false;
    uint8_t privilege = 0;
    bool mem = false;  // some record accesses data
    std::vector<Segment> segs;
    // Accesses of 2-16 bytes (unaligned() tests them): their address and size where the size is not a power of two,
    // else their address and the mask of the low bits an aligned address leaves clear (aligned()).
    std::vector<std::pair<uint32_t, uint8_t>> align;
    std::vector<std::pair<uint32_t, uint32_t>> align_masks;
    std::vector<std::pair<uint8_t, uint32_t>> live_out;  // the last value each register is given in the run
    uint8_t width = 8;         // bytes per value (RunShape::width)
    uint32_t value_bytes = 0;  // of the runs' values (a group's: theirs one after the other, RunPlanner::seam apart)
    std::vector<uint8_t> joins;  // per record: its successor starts another run of the group (RunPlanner::extend)
    // What the timing reads of a run's values besides its shape (Stretches::words): the offsets of its data
    // addresses (the first loop_addrs) and its divisions' operands; whether a division takes an operand from the
    // register file.
    std::vector<uint32_t> loop_offs;
    uint32_t loop_addrs = 0;
    bool loop_from_gpr = false;
    // The plans of these runs followed by another (RunPlanner::extend), by the other's shape id: the first
    // RunPlanner::max_next met.
    std::vector<std::pair<uint32_t, std::unique_ptr<RunPlan>>> next;
    // A fast plan's retirement without the timing model (replay_fast's, worked out once): every segment but the
    // last ends where the next starts, so whether its last instruction was taken is fixed (RunExecs::inner); only
    // the last segment's depends on the run's successor (its PC against last_end).
    struct Arch {
        RunExecs execs;             // the segments' executions
        uint64_t last_end = 0;      // the last segment's last record: its PC plus its size
        bool last_branch = false;   // it is a branch
        bool last_always = false;   // it is always taken (RISC-V: a jump; records.hpp branch_taken)
        // (The three: the last segment's own, copied by plan_arch.)
        uint32_t records = 0;       // the run's (the plan's) records
    } arch;
    // Whether the run with values `v` has no unaligned access (as unaligned()).
    __attribute__((always_inline)) bool aligned(const unsigned char* v) const {
        uint64_t low = 0;
        for (const auto& [off, mask] : align_masks) low |= trace::run_value(v, off, width) & mask;
        for (const auto& [off, size] : align) low |= trace::run_value(v, off, width) % size;
        return low == 0;
    }
};

// The first record's PC of a shape.
inline uint64_t first_pc(const trace::RunShape& s) { return trace::run_value(s.protos.data(), 0); }
// Whether an interrupt was taken before a shape's first record (its flags byte, bit 3: traces/native.cpp).
inline bool first_interrupt(const trace::RunShape& s) { return s.protos[27] & 8u; }

// The time of a fast run's last record (0 without one).
inline uint64_t last_time(const RunPlan& p, const unsigned char* v) {
    return p.last_time_at == trace::ValueOffsets::none ? 0 : trace::run_value(v, p.last_time_at, p.width);
}

// The plans by shape, and the group plans hung on them.
class RunPlanner {
public:
    static constexpr size_t max_next = 4;   // successors' plans kept per plan
    static constexpr size_t max_group = 2;  // runs replayed as one plan at most (3 and 4 measured slower: more plans and recordings to warm up, bodies split at max_inner)
    // Group plans made at most (their blocks and recordings are kept): a bound on memory whatever the trace.
    static constexpr size_t max_group_plans = 4096;
    // Bytes between the values of two runs of a group plan: the tag before each run's values in the native format
    // (traces/native.cpp), so that a group's runs read from one buffer are replayed in place, with no copy.
    static constexpr uint32_t seam = 4;
    // Single-run plans kept at most: a bound on memory whatever the number of distinct runs in the trace (a plan
    // with its blocks and recordings takes up to some 40 KB; docs/performance.md). Past it, the caller drops every
    // plan (drop_all) where nothing refers to one, and each is made again at its shape's next execution.
    static constexpr size_t max_plans = 4096;

    RunPlanner(Core& c, BlockRunner& blocks) : c_(c), blocks_(blocks) {}
    // The plan of shape `s`, made at its first execution (values `v`: the records' lines, for errors).
    RunPlan& plan(const trace::RunShape& s, const unsigned char* v) {
        return s.id < plans_.size() && plans_[s.id] ? *plans_[s.id] : plan_for(s, v);
    }
    bool over_budget() const { return kept_ > max_plans; }
    void drop_all() {
        for (auto& p : plans_) p.reset();  // the index by shape number stays (8 bytes a shape)
        kept_ = 0;
        group_plans_ = 0;
    }
    uint64_t peak() const { return peak_; }  // the most plans kept at once
    // The plan of shape `id`, made before.
    const RunPlan* made(uint32_t id) const { return plans_[id].get(); }
    // The plan of plan `p`'s runs followed by a run of shape `s` (values `v`): kept in `p` (nullptr: none made and
    // no more may be).
    RunPlan* group(RunPlan& p, const trace::RunShape& s, const unsigned char* v) {
        for (auto& [id, plan] : p.next)
            if (id == s.id) return plan.get();
        return new_group(p, s, v);
    }

private:
    RunPlan* new_group(RunPlan& p, const trace::RunShape& s, const unsigned char* v);
    RunPlan& plan_for(const trace::RunShape& s, const unsigned char* v);
    std::unique_ptr<RunPlan> extend(const RunPlan& p, const trace::RunShape& c, const unsigned char* vc);
    void plan_records(RunPlan* p);
    void plan_segments(RunPlan* p, std::vector<uint32_t>& div_offs);
    void plan_arch(RunPlan* p);
    void plan_live_out(RunPlan* p);

    Core& c_;
    BlockRunner& blocks_;
    std::vector<std::unique_ptr<RunPlan>> plans_;  // by shape number
    size_t group_plans_ = 0;                       // extend()'s plans made
    size_t kept_ = 0;                              // plans_ not empty (max_plans)
    uint64_t peak_ = 0;
};

}  // namespace pmusim::replay
