// A basic block's memo for the block timing (TimingModel::step_block): its body's instructions, keys, recordings
// of their timing and exit states, and the memory references and tail a block execution hands in. Split out of
// timing_model.hpp; TimingModel fills in what it records.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "isa/insn_class.hpp"
#include "model/timing/branch_predictor.hpp"
#include "model/timing/cache.hpp"
#include "model/timing/key_policy.hpp"
#include "model/timing/lsu_buffers.hpp"
#include "model/timing/pipeline_state.hpp"

namespace pmusim::timing {

class TimingModel;

struct MemRef {
    uint64_t addr;
    bool write;
    unsigned size = 0;  // bytes (0: unknown)
};

// The block's last instruction when it is a branch, as one execution gives it: br_taken set when taken, its
// successor's PC, its data accesses.
struct BlockTail {
    const isa::RetiredInsn* insn;
    uint64_t pc;
    unsigned size;
    uint64_t next_pc;
    const MemRef* mem;
    unsigned n_mem;
};

// The body of a basic block: its instructions but the last (none that changes mstatus), at consecutive addresses
// but after a taken branch, timed as one by TimingModel::step_block(); and, when the block ends in a branch, that
// branch (set_tail), whose timing joins the body's recordings (its prediction does not). A body may hold up to
// max_inner branches whose outcome is the same at every execution (the replay's runs, whose shape fixes them:
// br_taken set where taken, the next instruction its target): each is predicted per execution, before the body is
// timed, and its flush is keyed. The caller (the replay's block cache or a run's plan) owns one per block; the
// model fills in what it records.
class BlockMemo {
public:
    BlockMemo(std::vector<isa::RetiredInsn> insns, std::vector<uint64_t> pcs, std::vector<uint8_t> sizes)
        : insns_(std::move(insns)), pcs_(std::move(pcs)), sizes_(std::move(sizes)), body_(insns_.size()) {}
    // The branch that ends the block (br_taken clear), right after the body.
    void set_tail(const isa::RetiredInsn& insn, uint64_t pc, uint8_t size) {
        insns_.push_back(insn);
        pcs_.push_back(pc);
        sizes_.push_back(size);
        has_tail_ = true;
    }
    // The address of the instruction after the body (the block's last): where a taken branch that ends the body
    // goes. Without it, a body's branches are taken to fall through.
    void set_after(uint64_t pc) {
        after_ = pc;
        for (InnerBranch& x : inner_at_) x.next = inner_next(x.i);
    }
    size_t size() const { return body_; }  // the body's instructions
    // The body from instruction `from` on as timed after a partial replay (suffixes_; nullptr: none yet).
    const BlockMemo* suffix(size_t from) const { return from < suffixes_.size() ? suffixes_[from].get() : nullptr; }
    bool has_tail() const { return has_tail_; }
    // The caller gives the same access counts (n_mem) and the same direction of every access at every execution (a
    // run's plan: its slots fix both): neither is compared with the first's nor keyed (body_key, key_accesses).
    void set_fixed_accesses() { fixed_accesses_ = true; }
    static constexpr size_t max_insns = 64;  // longer bodies are stepped
    static constexpr size_t max_inner = 8;   // bodies with more branches are stepped
    static constexpr size_t max_bus = 16;  // dbus_queue: bodies with more bus accesses are stepped
    // The D-bus buffer's key words (key_dbus): its state, then per bus access 8 bits and per load a bit per earlier
    // load, packed into words of 60 bits (an item never straddles two: a word is given up when the next item does
    // not fit, so each full word holds at least 61 bits less the largest item), the last word even when empty.
    static constexpr size_t max_dbus_item = max_bus - 1 > 8 ? max_bus - 1 : 8;
    static constexpr size_t max_dbus_words = 1 + (8 * max_bus + max_bus * (max_bus - 1) / 2) / (61 - max_dbus_item) + 1;
    // The most words a body's key takes (body_key): four for the issue state and seven for the fetch state, a word
    // of the live-ins not ready and one per such register, 5 bits per access (12 to a word, at most 4 an
    // instruction), the D-bus buffer's, a word per 4 of the body's branches for their flushes, the LSU buffers'
    // commit cycles, D-bus buffer and the accesses that hit its words (two), a word for a store multiple's locks, a
    // word for the tail's outcome.
    static constexpr size_t max_key_words = 4 + 7 + 1 + 32 + (4 * max_insns + 11) / 12 + max_dbus_words +
                                            (max_inner + 3) / 4 + 1 + LsuBuffers::max_bus_words + 2 + 1 + 1;
    // Executions replayed from a recording, recorded, and stepped (a miss or nothing to key on); of those stepped,
    // those replayed in part (a recording's prefix up to the first lookup that missed, then stepped: replay_partial).
    uint64_t replayed = 0, recorded = 0, stepped = 0, partial = 0;

    // An instruction fetch of the body that looks up the ITLB and the I-cache: the address, the instruction's index,
    // and whether it is not that instruction's first (its second line): where an instruction's lookups begin.
    struct Fetch {
        uint64_t at;
        uint8_t insn;
        bool later;
    };

    // The pipeline and fetch state step() left after some of the body's instructions (TimingModel::save_exit),
    // relative to the entry's cycle s_.now: what a replay sets (restore_exit).
    struct Exit {
        uint64_t cycles = 0;
        std::vector<EventCount> events;
        // The registers written: their ready cycle - s_.now and, where `addr` (addr_by_producer_, not register 31),
        // their address ready cycle - s_.now (address_latency); one list, one pass to restore.
        struct Written {
            uint8_t reg;
            bool addr;
            int64_t ready, addr_ready;
        };
        std::vector<Written> written;
        int64_t prev_issue = 0, divider_free = 0, lsu_free = 0;
        int64_t stm_issue = 0;  // the last store multiple's issue and registers, where the body has one (stm_set)
        uint32_t stm_regs = 0;
        bool stm_set = false;
        uint32_t prev_dst = 0;
        uint8_t prev_shape = 0;
        isa::InsnClass prev_cls = isa::InsnClass::alu;
        bool pair_open = false, next_fetch_new = false, flushed = false, lsu_set = false;
        bool div_set = false;  // the body has a division (has_div_): divider_free is its
        uint64_t last_ifetch_line = 0, last_fetch = 0, fill_line = 0, phase_line = 0;
        int64_t fetch_at = 0;
        std::array<uint64_t, 4> fetched{};  // s_.fetched as fetched_held() has it, relative to the entry (record_body)
        bool refetch = false;

        // The PipelineState fields kept here one for one, each named once: f(the state's field, this one's, how,
        // set). `how` is relative (kept as a cycle less the entry's, s_.now) or as_is; `set` says whether a replay
        // sets it: a field a body may leave as the entry had it (the key did not hold it whole) is set only where
        // the body moved it. save_exit and restore_exit are both written from this list; body_exit_fields.hpp names
        // every PipelineState field, those kept here and why each other one is not (BlockTiming.ExitNamesEvery...).
        static constexpr std::true_type relative{};
        static constexpr std::false_type as_is{};
        template <class S, class E, class F>
        static void visit(S& s, E& e, F&& f) {
            f(s.prev_issue, e.prev_issue, relative, true);
            f(s.divider_free, e.divider_free, relative, e.div_set);
            f(s.lsu_free, e.lsu_free, relative, e.lsu_set);
            f(s.stm_issue, e.stm_issue, relative, e.stm_set);
            f(s.stm_regs, e.stm_regs, as_is, e.stm_set);
            f(s.prev_dst, e.prev_dst, as_is, true);
            f(s.prev_shape, e.prev_shape, as_is, true);
            f(s.prev_cls, e.prev_cls, as_is, true);
            f(s.pair_open, e.pair_open, as_is, true);
            f(s.next_fetch_new, e.next_fetch_new, as_is, true);
            f(s.flushed, e.flushed, as_is, true);
            f(s.last_ifetch_line, e.last_ifetch_line, as_is, true);
            f(s.last_fetch, e.last_fetch, as_is, true);
            f(s.fill_line, e.fill_line, as_is, true);
            f(s.phase_line, e.phase_line, as_is, true);
            f(s.fetch_at, e.fetch_at, relative, true);
            f(s.refetch, e.refetch, as_is, true);
        }
    };

private:
    friend class TimingModel;
    // The state before body instruction `at` (> 0) that has a lookup (an instruction fetch or a data access), where
    // the instructions before it hit: a replay whose lookup first misses at `at` sets it and steps on from there
    // (replay_partial).
    struct Prefix : Exit {
        uint8_t at = 0;
    };
    // What step() did from one entry state (the key; see step_block), relative to the entry's cycle s_.now.
    struct Recording : Exit {
        std::vector<uint64_t> key;
        uint64_t used = 0;  // the body's executions (use_clock_) when it was last recorded or replayed
        std::vector<Prefix> prefixes;  // in order of `at` (partial_ok() models only)
        // store_buffer: per load and store of the body, in order, where its access lies in the body's, its commit
        // cycle and (a bus load) the cycle its data returns, relative to the entry (as step() timed them).
        struct LsCommit {
            uint16_t mem;        // its first access among the body's
            bool store, has_mem;  // a store; the trace gives its address
            bool has_data;        // a bus load: `data` holds when its data returns
            uint32_t commit;
            int32_t data;  // relative to the entry: 0 or less for a first load taking its bytes from the ibuf
        };
        std::vector<LsCommit> ls_commit;
        // The LSU buffers' part of the last replay that could be saved (lsu_replay). The key: the buffers' state at
        // the entry (LsuBuffers::save, relative to the entry), s_.lsu_pending, s_.lsu_prev_eff and per access bits
        // 1:0 of its first and last byte, whether it goes to the DCCM or the bus and its words; every data word (the
        // state's and the accesses') as its place among the key's distinct words and its bits 1:0. The result: the
        // state after the feed and the settle to the body's end (its words as places too), the cycles counted full
        // meanwhile and s_.lsu_pending after. A replay with the same key sets these, each place's word its own,
        // instead of feeding the buffers access by access.
        struct LsuMemo {
            std::vector<uint64_t> key, exit;
            uint64_t full = 0, pending = 0;
            uint32_t misses = 0;  // replays since the last that applied it (lsu_replay keys only some)
        };
        mutable LsuMemo lsu;
        // The instructions that look up the ITLB and the I-cache, in order, with the address each looks up (an
        // instruction across two lines: twice, its address and the next line's start; walked by fetch_lookups).
        std::vector<Fetch> ifetch;
        // The ITLB's and I-cache's refills when claim_body() last found every one of those lines: while neither
        // has changed, they are all still there (a line leaves a cache only when another enters).
        mutable uint64_t itlb_refills = ~uint64_t{0}, l1i_refills = ~uint64_t{0};
        // Those lookups' lines, worked out once (record_body): the I-cache's in order, the ITLB's as runs of one
        // page looked up so many times in a row (a body's fetches seldom leave a page).
        std::vector<Cache::Ref> l1i_lines;
        std::vector<std::pair<Cache::Ref, uint8_t>> itlb_runs;
        // dbus_queue: the D-bus buffer's state at the exit, its cycles relative to the entry, each address as where
        // it comes from (dbus_source).
        struct Dbus {
            int64_t free = 0, ibuf_last = 0, sent_until = 0, read_resp = 0;
            bool ibuf = false, ibuf_join = false;
            uint8_t ibuf_bytes = 0, sent_bytes = 0;
            uint8_t ibuf_word = 0, sent_word = 0, read_beat = 0;
        } dbus;
    };
    // The body's instructions, then the tail's when there is one.
    std::vector<isa::RetiredInsn> insns_;
    std::vector<uint64_t> pcs_;
    std::vector<uint8_t> sizes_;
    size_t body_;
    bool has_tail_ = false;
    bool tail_usable_ = false;  // the tail's timing can join the recordings (prepare)
    bool prepared_ = false, usable_ = false, fetch_path_ = false, has_div_ = false, fixed_accesses_ = false;
    uint32_t live_in_ = 0;  // registers read before the body writes them
    std::vector<uint32_t> inner_;  // the body's branches, in order (prepare)
    // The same with what predict_inner() hands predict() for each: its address, size and successor (inner_next),
    // and whether it is a counted_branch().
    struct InnerBranch {
        uint64_t pc, next;
        uint32_t i;
        uint8_t size;
        bool counted;
        bool taken;  // br_taken (a counted branch's prediction reads no more of the instruction, nor a VeeR one's)
        uint8_t veer;  // VeeR EL2: its veer_kind + 1 where predict_inner calls veer() itself (not an mret), else 0
    };
    std::vector<InnerBranch> inner_at_;
    // Where the branch at i goes: the next instruction, or taken the one after it in the body, or after_.
    uint64_t inner_next(uint32_t i) const {
        const isa::RetiredInsn& in = insns_[i];
        if ((in.branch & isa::br_taken) && !in.cond_failed && (i + 1 < pcs_.size() || after_))
            return i + 1 < pcs_.size() ? pcs_[i + 1] : after_;
        return pcs_[i] + sizes_[i];
    }
    uint64_t after_ = 0;  // set_after (0: none)
    // The predictions of the body's branches and its tail from one predictor state (TimingModel::predict_body):
    // the key (the predictor's state words, the body's exit address, the tail's address, successor and kind), the
    // flushes, the mispredictions and the predictor's changes.
    struct Predicted {
        std::array<uint64_t, BranchPredictor::state_words + 4> key{};
        bool valid = false;
        std::array<unsigned, max_inner> inner_flush{};
        unsigned tail_flush = 0;
        uint32_t mispredicts = 0;
        BranchPredictor::Changes changes;
    };
    static constexpr size_t max_predicted = 8;
    std::array<Predicted, max_predicted> predicted_{};
    unsigned next_predicted_ = 0;  // the entry a new key replaces
    // At most max_recordings; a new one replaces the one least recently used (TimingModel::keep_recording).
    static constexpr size_t max_recordings = 16;
    std::vector<Recording> recs_;
    uint64_t use_clock_ = 0;
    unsigned last_hit_ = 0;
    KeyPolicy policy_;  // whether to key the next execution (key_policy.hpp)
    std::vector<uint8_t> n_mem_;  // accesses per body instruction at the first execution (the key's)
    size_t total_mem_ = 0;
    // The accesses of the body's loads and stores (as n_mem_ has them), one by one in order (the data lookups of
    // probe_body and claim_body, in one loop: data_lookups): where each lies among the body's, its instruction's
    // index in the body and whether it is not that instruction's first access (where an instruction's lookups begin).
    struct DataAccess {
        uint16_t at;
        uint8_t insn;
        bool later;
    };
    std::vector<DataAccess> data_at_;
    // before_[i] (i up to the body's size): the accesses and the branches of the body's first i instructions, where
    // a range stepped from instruction i takes its first access and its first branch's flush (step_range,
    // time_suffix; only after a key, which holds the access counts n_mem_).
    struct Before {
        uint32_t at;
        uint32_t branches;
    };
    std::vector<Before> before_;
    // suffixes_[i]: the body from instruction i on, timed as a body of its own (keyed, recorded, replayed) after
    // a partial replay whose lookup missed at instruction i - 1 (TimingModel::replay_partial); made at first use.
    // Shared by copies (the check hook's).
    std::vector<std::shared_ptr<BlockMemo>> suffixes_;
};

}  // namespace pmusim::timing
