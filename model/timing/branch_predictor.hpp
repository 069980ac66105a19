// Branch prediction for the timing model: a direction predictor for conditional branches (none, static
// backward-taken/forward-not-taken, a bimodal table of 2-bit counters, or gshare), a target buffer for indirect
// jumps, and an optional return stack; or the VeeR EL2 predictor as a whole (veer_el2: a tagged BTB that every
// predicted branch needs, a gshare BHT and a fetch-time return stack). Pure data structures; the timing model
// decides what a miss costs.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace pmusim::timing {

// A multiply-xorshift mix of 64 bits (every input bit moves about half the output bits): the tables' signatures.
inline uint64_t mix64(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

struct PredictorConfig {
    // btac (ARM1176 TRM, DDI 0301H, 5.2.2-5.2.3): a direct-mapped branch target address cache of 2^table_bits
    // entries, each a branch's address (its tag) and a 2-bit counter; a branch it does not hold is predicted by the
    // static rule (backward taken, forward not taken) and, once resolved, taken or not, is allocated there,
    // evicting only the branch at the same index.
    enum class Direction { not_taken, btfn, bimodal, gshare, veer_el2, btac };
    Direction direction = Direction::bimodal;
    unsigned table_bits = 9;    // 2^table_bits two-bit counters (veer_el2: in two banks; btac: its entries)
    unsigned history_bits = 0;  // gshare, veer_el2: global history length
    unsigned btb_bits = 9;      // 2^btb_bits entries of indirect-jump targets (0: indirect jumps always miss);
                                // veer_el2: of branches, in 2 ways
    unsigned btb_tag_bits = 0;  // veer_el2: the BTB's tag, folded from the address bits above the index
    // The indirect-jump target table's ways (not veer_el2's BTB): 1, direct-mapped and untagged (a jump reads the
    // target its index holds, whichever jump left it); 2, sets of two ways tagged with the jump's address, the least
    // recently used way replaced (BranchPredictor::indirect).
    unsigned btb_ways = 1;
    unsigned ras_depth = 0;     // return stack entries (0: returns go through the target buffer)
    unsigned wrong_path_fetch = 0;  // veer_el2: 2-byte halves fetched past a misprediction before the flush
                                    // (their calls and returns move the return stack)
    unsigned wrong_path_windows = 0;  // veer_el2: 4-byte windows fetched past a flushing branch before the flush,
                                      // as the global history sees them (BranchPredictor::wrong_path_history)
    unsigned refill_windows = 0;      // veer_el2: ... none for a branch within this many windows of a flush
    bool enabled = true;        // false: every taken branch is a misprediction (ARM11 out of reset)
    // btac: a direct branch with fewer than this many instructions between it and the branch before it is predicted
    // by the static rule, not by the BTAC, and not folded (ARM1176 TRM 5.2.3: "Around 65% of all branches are
    // preceded by enough non-branch cycles to be completely predicted"; 0: every one is).
    unsigned btac_reach = 0;
};

class BranchPredictor {
public:
    explicit BranchPredictor(const PredictorConfig& c);

    // A conditional branch at `pc` to `target` that was or was not taken: true when mispredicted.
    bool conditional(uint64_t pc, uint64_t target, bool taken) {
        if (counts()) return counted(pc, taken);
        return conditional_other(pc, target, taken);
    }
    // Whether conditional() goes by a table of 2-bit counters (bimodal, gshare, prediction on), which reads no
    // target: then counted() is all of it.
    bool counts() const { return counts_ && cfg_.enabled; }
    // conditional() where counts(), inline: the common case.
    __attribute__((always_inline)) bool counted(uint64_t pc, bool taken) {
        uint64_t idx = pc >> 1;
        if (gshare_) idx ^= s_.history;
        idx &= counter_mask_;
        uint8_t& c = counters_[idx];
        const uint8_t was = c;
        const bool predicted = was >= 2;
        if (taken && was < 3) c = static_cast<uint8_t>(was + 1);
        if (!taken && was > 0) c = static_cast<uint8_t>(was - 1);
        // The tables' signature (loop_state): an entry's mix out, its new value's in.
        if (c != was) plain_sig_ ^= mix64(idx << 2 | was) ^ mix64(idx << 2 | c);
        if (hmask_) s_.history = ((s_.history << 1) | (taken ? 1u : 0u)) & hmask_;
        return predicted != taken;
    }
    // An indirect jump at `pc` that went to `target`: true when mispredicted. Returns use the return stack
    // when there is one.
    bool indirect(uint64_t pc, uint64_t target, bool is_return);
    // btac: a direct branch (B, BL, BLX immediate) at `pc` to `target`, taken or not, through the BTAC (ARM1176
    // TRM 5.2.2: it holds BL and BLX too). A branch it misses goes by the static rule (5.2.3: forward conditional
    // branches not taken, backward ones taken; an unconditional one, which no rule there predicts not taken, as
    // taken). Prediction off: predicted not taken. Whether it was mispredicted, and whether a BTAC hit predicted it.
    struct Direct {
        bool mispredicted = false, hit = false;
    };
    // `dynamic` false: the branch came too soon after the branch before it for the BTAC to predict it
    // (PredictorConfig::btac_reach): the static rule predicts it, and the BTAC is updated all the same.
    Direct direct(uint64_t pc, uint64_t target, bool taken, bool conditional, bool dynamic = true);
    // btac: the instructions between the last branch (from its successor, where it went) and `pc`, or ~0u when
    // unknown or not one straight run from there (branch_seen sets the successor).
    unsigned since_branch(uint64_t pc, unsigned size) const {
        return pc >= s_.after_branch && pc - s_.after_branch < 4096 ? static_cast<unsigned>((pc - s_.after_branch) / size) : ~0u;
    }
    void branch_seen(uint64_t next_pc) { s_.after_branch = next_pc; }
    // The target of the branch folded last (the timing model's, ARM1176 TRM 5.2.4: a branch there is a predicted
    // branch onto a branch, which is not folded), part of the state: take_folded says whether `pc` is it and
    // forgets it (every branch asks).
    void set_folded(uint64_t target) { s_.folded_target = target; }
    bool take_folded(uint64_t pc) {
        const bool onto = s_.folded_target == pc;
        s_.folded_target = ~uint64_t{0};
        return onto;
    }
    // The branch target instruction cache (TimingParams::btic_bytes; Cortex-A53 TRM, DDI 0500F, 2.1, Instruction Fetch Unit: a single
    // entry, up to two instruction-cache fetches of a predicted taken branch's target): whether the taken branch at
    // `pc` to `target` hits it (it is the branch the entry holds, and lies fewer than `bytes` after its target), after
    // which the entry holds it (every taken branch predicted right replaces it: assumed, the TRM names no policy).
    bool btic(uint64_t pc, uint64_t target, unsigned bytes) {
        const bool hit = s_.btic_pc == pc && s_.btic_target == target && target <= pc && pc - target < bytes;
        s_.btic_pc = pc;
        s_.btic_target = target;
        return hit;
    }
    // A call: its return address goes on the return stack.
    void call(uint64_t return_address);
    bool return_stack_empty() const { return ras_.empty(); }

    // veer_el2: what the core makes of a control transfer (VeeR EL2 RTL, el2_dec_decode_ctl.sv): a conditional
    // branch; a JAL whose offset fits 13 signed bits linking x1 or x5 (call) or not (jump); a JALR x0 through x1
    // or x5 (ret); any other JAL or JALR (other: never predicted, always a flush).
    enum class VeerKind { cond, call, jump, ret, other };
    struct VeerOutcome {
        bool mispredicted = false;  // event 25: a direction or return-target misprediction
        bool flush = false;         // the pipeline refetches: mispredictions, other jumps, BTB errors
    };
    // One control transfer at `pc` of `size` bytes, taken or not, to `target` when taken.
    VeerOutcome veer(uint64_t pc, unsigned size, VeerKind kind, bool taken, uint64_t target);
    // One control transfer whose outcome the trace does not show (an interrupt was taken before its successor,
    // which the trace does not show either): taken to go where the predictor sends it.
    VeerOutcome veer_as_predicted(uint64_t pc, unsigned size, VeerKind kind);
    // veer_el2: the fetch sent to `next` by a flush that is no branch's (mret, an interrupt's entry): the history
    // restored from execute's, the fetch past `from` (sequential) lost.
    void veer_flush_to(uint64_t next, uint64_t from) { redirect(next, true, wrong_path_history(from, false)); }
    // veer_el2: the global history the BHT is read with for a branch at `pc` fetched next, and execute's (the
    // outcomes of the executed branches that hit in the BTB, newest in bit 0).
    uint64_t veer_fetch_history(uint64_t pc, unsigned size) const { return read_history(pc + size - 2); }
    uint64_t veer_history() const { return s_.history; }
    void set_enabled(bool e) { cfg_.enabled = e; }
    bool enabled() const { return cfg_.enabled; }

    // veer_el2: key the predictor's whole state for the block engine's grouped replay (state_key, group_begin,
    // group_end, apply): its scalars, exactly, and a 64-bit signature of its tables (counters, BTB, replacement bits,
    // return stack) that every table write keeps up to date: two different tables with the same signature, which
    // would replay the wrong group, are a 2^-64 chance. Off by default (the reference stepper runs without it); the
    // block engine turns it on. (It no longer remembers single veer() calls: on the natural RV32 trace about a third
    // of them met a state seen before, and keying each cost more than stepping the misses saved, docs/performance.md.)
    void set_memo(bool on);
    bool memo() const { return memo_; }
    // The same predictor state (tables, return stack, histories, fetch position); the memos left out.
    bool same_state(const BranchPredictor& o) const;
    // With the memo on, a group of calls replayed as one (TimingModel::predict_body): the state a group starts from
    // as words (the scalars and the tables' signature), and what the group changed: its
    // table writes in order, the scalars and the signature after.
    static constexpr size_t state_words = 6;
    void state_key(uint64_t* out) const;
    // The whole state as words appended to `out` (TimingModel::loop_state): two predictors with the same words
    // predict the same from there on (but for a chance of 2^-64 per pair of states: the tables go in as 64-bit
    // signatures). VeeR EL2's with its memo on by its scalars and table signature (state_key), any other by its
    // scalars, its return stack and the signature of its counters and targets.
    void loop_state(std::vector<uint64_t>& out) const;
    struct Changes;
    void group_begin();
    bool group_end(Changes& out);  // false: more than max_group_writes writes (not to be kept)
    void apply(const Changes& c);
    static constexpr size_t max_group_writes = 32;

private:
    bool conditional_other(uint64_t pc, uint64_t target, bool taken);
    // Direction::btac: `static_taken` the static rule's prediction for a branch the BTAC misses; `*hit` whether it held it.
    bool btac(uint64_t pc, bool taken, bool static_taken, bool* hit = nullptr);
    PredictorConfig cfg_;
    std::vector<uint8_t> counters_;
    // Fixed for the run (the constructor): the direction is bimodal or gshare (counts()), gshare, and the counters'
    // index mask.
    bool counts_ = false, gshare_ = false;
    uint64_t counter_mask_ = 0;
    std::vector<uint64_t> btac_tags_;  // btac: the address of the branch each entry holds (~0: none)
    std::vector<uint64_t> targets_;
    // btb_ways 2: the address of the jump each target entry holds (~0: none), and the way each set replaces next.
    std::vector<uint64_t> target_tags_;
    std::vector<uint8_t> target_lru_;
    bool indirect_2way(uint64_t pc, uint64_t target);
    std::vector<uint64_t> ras_;
    // veer_el2 state: BTB entries (2 ways per set), the way each set replaces next, the return stack.
    struct BtbEntry {
        bool valid = false, call = false, ret = false;
        bool pc4 = false;  // a 32-bit instruction
        uint8_t bank = 0;  // the 2-byte half of its 4-byte fetch group the branch ends in
        uint32_t tag = 0;
        uint64_t target = 0;
    };
    std::vector<BtbEntry> btb_;
    std::vector<uint8_t> lru_;
    struct RasEntry {
        uint64_t addr = 0;
        bool valid = false;
    };
    std::vector<RasEntry> veer_ras_;
    // The set index and tag fold the address in pieces of set_bits_ and btb_tag_bits (veer_lookup).
    unsigned set_bits_ = 0;
    uint64_t set_mask_ = 0, tag_mask_ = 0;
    size_t half_ = 0;      // counters in a bank
    uint64_t hmask_ = 0;   // the global history's bits
    struct VeerSlot {
        uint32_t set = 0, tag = 0;
        uint8_t bank = 0;
    };
    // The slots of recent addresses, direct-mapped by end / 2 (an entry's initial address maps to another index).
    struct SlotMemo {
        uint64_t end;
        VeerSlot slot;
    };
    static constexpr size_t slot_memos = 256;
    mutable std::array<SlotMemo, slot_memos> slot_memo_;
    // The way of the BTB entry for the branch whose last 2 bytes are at `end` (-1: none), and its set, tag, bank.
    int veer_lookup(uint64_t end, VeerSlot& slot) const;
    size_t counter_index(const VeerSlot& slot, uint64_t history) const {
        return slot.bank * half_ + ((slot.set ^ history) & (half_ - 1));
    }
    uint8_t& veer_counter(const VeerSlot& slot, uint64_t history) { return counters_[counter_index(slot, history)]; }
    uint8_t veer_counter(const VeerSlot& slot, uint64_t history) const { return counters_[counter_index(slot, history)]; }
public:
    // The state besides the tables, one struct as a group's changes keep and restore it. history: the global history
    // (gshare's too). veer_el2's two global histories (BranchPredictor::veer_window has the rules): history is
    // execute's, fetch_history the one fetch reads the BHT with. Fetch runs in 4-byte windows from run_start, the
    // address it was last sent to; window is the window of the last branch seen, read with window_history.
    // ras_top: the top slot of veer_el2's return stack, a ring (ras_push, ras_pop). folded_target: set_folded. btic_pc, btic_target: btic().
    struct Scalars {
        uint64_t history = 0, fetch_history = 0, stale_history = 0, window_history = 0;
        uint64_t run_start = 0, run_window = 0, window = ~uint64_t{0};
        uint64_t folded_target = ~uint64_t{0};
        uint64_t btic_pc = ~uint64_t{0}, btic_target = ~uint64_t{0};  // btic(): the entry's branch and target
        uint64_t after_branch = ~uint64_t{0};  // btac: the last branch's successor (since_branch)
        bool run_after_flush = false;
        size_t ras_top = 0;
        // Every field once, f called with the field of each of `s` in turn: operator== and loop_state() are written
        // from it (test_timing.cpp, BranchPredictor.ScalarsVisitNamesEveryField, checks it against the struct).
        template <class F, class... S>
        static void visit(F&& f, S&... s) {
            f(s.history...);
            f(s.fetch_history...);
            f(s.stale_history...);
            f(s.window_history...);
            f(s.run_start...);
            f(s.run_window...);
            f(s.window...);
            f(s.folded_target...);
            f(s.btic_pc...);
            f(s.btic_target...);
            f(s.after_branch...);
            f(s.run_after_flush...);
            f(s.ras_top...);
        }
        bool operator==(const Scalars& o) const {
            bool same = true;
            visit([&same](const auto& a, const auto& b) { same = same && a == b; }, *this, o);
            return same;
        }
    };

private:
    Scalars s_;
    uint64_t window_of(uint64_t half) const { return window_in_run(half, s_.run_start); }
    // The first window after a flush: it reads s_.stale_history and its bits are lost.
    bool first_after_flush(uint64_t w) const { return s_.run_after_flush && w == s_.run_window; }
    static uint64_t window_in_run(uint64_t half, uint64_t start) {
        if (!(start & 2) || half < start || ((half ^ start) >> 6) != 0) return half & ~uint64_t{3};
        return ((half - start) & 2) ? half - 2 : half;
    }
    static uint64_t next_window(uint64_t w);
    // One window's effect on a fetch history h: BTB hits, the direction fetch follows, where it goes if taken.
    struct WindowScan {
        unsigned valids = 0;
        bool taken = false;
        uint64_t target = 0;
    };
    struct Known {  // a half whose lookup is known (its way, -1 for none, and slot), and one not to look at
        uint64_t half = ~uint64_t{0};
        int way = -1;
        VeerSlot slot{};
        uint64_t skip = ~uint64_t{0};
    };
    WindowScan scan_window(uint64_t w, uint64_t h, const Known& known) const;
    struct WindowMemo {
        uint64_t w = ~uint64_t{0}, skip = 0;
        uint64_t generation = 0;
        int8_t way[2] = {-1, -1};
        VeerSlot slot[2];
    };
    static constexpr size_t window_memos = 256;
    mutable std::array<WindowMemo, window_memos> window_memo_{};
    uint64_t btb_generation_ = 1;  // changes with every BTB write: the memo's lookups are then redone
    static uint64_t merged(uint64_t h, const WindowScan& s, uint64_t mask) {
        return s.valids ? ((h << s.valids) | (s.taken ? 1u : 0u)) & mask : h;
    }
    // The fetch history after the windows fetched past a flushing branch until the flush (wrong_path_windows).
    uint64_t wrong_path_history(uint64_t next, bool taken) const;
    uint64_t read_history(uint64_t end) const;  // the history the window of `end` reads the BHT with
    uint64_t veer_window(uint64_t end, const Known& known);  // read_history(end), and the window's effect
    void redirect(uint64_t next, bool flush, uint64_t stale = 0);
    void ras_push(uint64_t addr);
    RasEntry ras_pop();
    // Fetch along a wrong path from `addr` for `halfwords`: predicted-taken calls and returns move the stack.
    void veer_wrong_path(uint64_t addr, unsigned halfwords);
    template <VeerKind kind>
    VeerOutcome veer_k(uint64_t pc, unsigned size, bool taken, uint64_t target);  // veer(), its kind known

    // The signature (set_memo). Every veer_el2 table write goes through put(): it keeps sig_ (the XOR of each entry's
    // signature, entry_sig) and, within a group (group_begin), logs the write.
    enum class Table : uint8_t { counter, btb, lru, ras };
    struct Write {
        Table table;
        uint32_t index;
        uint64_t a, b;  // the entry as words: a counter or replacement bit (a); a BTB entry's target and btb_flags;
                        // a return-stack entry's address and valid bit
    };
    static uint64_t entry_sig(Table t, size_t i, uint64_t a, uint64_t b);
    // entry_sig of each counter at each of its 4 values, counter i's at 4 * i (set_memo: a flat table, the counters'
    // writes being most of put()'s), and entry_sig read through it.
    std::vector<uint64_t> counter_sigs_;
    uint64_t sig_of(Table t, size_t i, uint64_t a, uint64_t b) const {
        return t == Table::counter ? counter_sigs_[4 * i + a] : entry_sig(t, i, a, b);
    }
    uint64_t veer_table_sig() const;  // the XOR of entry_sig over every table entry
    // Sets the entry, from its words (inline in branch_predictor.cpp, its one file: the table is then known).
    [[gnu::always_inline]] void put(Table t, size_t i, uint64_t a, uint64_t b);
    void set_entry(Table t, size_t i, uint64_t a, uint64_t b);  // the same without the signature or the log
    void put_counter(size_t i, uint8_t v) {
        if (!memo_) counters_[i] = v;
        else if (counters_[i] != v) put(Table::counter, i, v, 0);  // put() of the same value: no change
    }
    void put_btb(size_t i, const BtbEntry& e);
    void put_lru(size_t set, uint8_t v) {
        if (!memo_) lru_[set] = v;
        else if (lru_[set] != v) put(Table::lru, set, v, 0);  // put() of the same value: no change
    }
    void put_ras(size_t i, const RasEntry& e) {
        if (memo_) put(Table::ras, i, e.addr, e.valid);
        else veer_ras_[i] = e;
    }
    static constexpr size_t memo_key_words = 8;
public:
    struct Changes {
        std::vector<Write> writes;
        Scalars after{};
        uint64_t sig = 0;
    };

private:
    bool grouping_ = false;
    std::vector<Write> group_log_;  // the table writes since group_begin()
    bool memo_ = false;  // set_memo
    uint64_t sig_ = 0;
    // The other predictors' counters and targets as a signature (loop_state): the XOR of a mix of each entry that
    // differs from its reset value, kept by conditional() and indirect().
    uint64_t plain_sig_ = 0;
    // A call's key: its arguments, the scalars (histories of at most 16 bits: set_memo) and sig_ (state_key takes
    // the state's part).
    std::array<uint64_t, memo_key_words> memo_key(uint64_t pc, unsigned size, VeerKind kind, bool taken, uint64_t target) const;
};

}  // namespace pmusim::timing
