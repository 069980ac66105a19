#include "model/timing/branch_predictor.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

namespace pmusim::timing {

BranchPredictor::BranchPredictor(const PredictorConfig& c)
    : cfg_(c), counters_(size_t{1} << c.table_bits, 1), targets_(c.btb_bits ? size_t{1} << c.btb_bits : 0, ~uint64_t{0}) {
    if (c.direction == PredictorConfig::Direction::veer_el2) {
        btb_.resize(c.btb_bits ? size_t{1} << c.btb_bits : 0);
        lru_.resize(btb_.size() / 2);
        veer_ras_.resize(c.ras_depth);
        targets_.clear();
        set_bits_ = c.btb_bits ? c.btb_bits - 1 : 0;
        set_mask_ = (uint64_t{1} << set_bits_) - 1;
        tag_mask_ = (uint64_t{1} << c.btb_tag_bits) - 1;
        half_ = counters_.size() / 2;
    }
    if (c.direction == PredictorConfig::Direction::btac) btac_tags_.assign(counters_.size(), ~uint64_t{0});
    if (c.btb_ways == 2 && targets_.size() >= 2) {
        target_tags_.assign(targets_.size(), ~uint64_t{0});
        target_lru_.assign(targets_.size() / 2, 0);
    }
    hmask_ = c.history_bits ? (uint64_t{1} << c.history_bits) - 1 : 0;
    gshare_ = c.direction == PredictorConfig::Direction::gshare;
    counts_ = gshare_ || c.direction == PredictorConfig::Direction::bimodal;
    counter_mask_ = counters_.size() - 1;
    for (size_t i = 0; i < slot_memos; ++i) slot_memo_[i].end = ((i + 1) % slot_memos) << 1;
}

// conditional() where the counters' inline path (counted) does not apply: prediction off, a fixed direction, or
// veer_el2's table (the timing model calls veer() instead). Bimodal and gshare with prediction on
// never come here: conditional() takes counted() for them.
bool BranchPredictor::conditional_other(uint64_t pc, uint64_t target, bool taken) {
    if (!cfg_.enabled) return taken;  // prediction off: every branch is predicted not taken
    switch (cfg_.direction) {
        case PredictorConfig::Direction::not_taken: return taken;
        case PredictorConfig::Direction::btfn: return (target < pc) != taken;
        case PredictorConfig::Direction::btac: return btac(pc, taken, target < pc);
        case PredictorConfig::Direction::bimodal:
        case PredictorConfig::Direction::gshare:
        case PredictorConfig::Direction::veer_el2:
            return counted(pc, taken);
    }
    return taken;
}

// ARM1176 TRM (DDI 0301H) 5.2.2: the BTAC is direct-mapped, a 2-bit saturating counter per branch, updated on
// every occurrence; a resolved branch, taken or not, is allocated, and an entry is evicted only by another branch
// at its index. 5.2.3: a branch the BTAC does not hold is predicted statically, backward taken and forward not
// taken. Assumed (the TRM gives neither): the index is the address's bits from bit 2 up (ARM state's word-aligned
// instructions), and a newly allocated entry starts weakly in the direction the branch went.
bool BranchPredictor::btac(uint64_t pc, bool taken, bool static_taken, bool* hit_out) {
    const uint64_t idx = (pc >> 2) & (counters_.size() - 1);
    uint64_t& tag = btac_tags_[idx];
    uint8_t& c = counters_[idx];
    const uint64_t tag_was = tag;
    const uint8_t was = c;
    const bool hit = tag == pc;
    if (hit_out) *hit_out = hit;
    const bool predicted = hit ? was >= 2 : static_taken;
    if (!hit) {
        tag = pc;
        c = taken ? 2 : 1;
    } else if (taken && was < 3) {
        c = static_cast<uint8_t>(was + 1);
    } else if (!taken && was > 0) {
        c = static_cast<uint8_t>(was - 1);
    }
    // The tables' signature (loop_state): the entry's old words out, its new ones in.
    auto entry = [idx](uint64_t t, uint8_t v) { return mix64(t ^ mix64(idx << 2 | v | uint64_t{1} << 42)); };
    if (tag != tag_was || c != was) plain_sig_ ^= entry(tag_was, was) ^ entry(tag, c);
    return predicted != taken;
}

BranchPredictor::Direct BranchPredictor::direct(uint64_t pc, uint64_t target, bool taken, bool conditional, bool dynamic) {
    Direct d;
    if (!cfg_.enabled) {
        d.mispredicted = taken;  // prediction off: every branch is predicted not taken
        return d;
    }
    const bool static_taken = !conditional || target < pc;
    d.mispredicted = btac(pc, taken, static_taken, &d.hit);
    if (!dynamic) {  // too soon for the BTAC (btac_reach): the static rule's prediction, the BTAC updated all the same
        d.hit = false;
        d.mispredicted = static_taken != taken;
    }
    return d;
}

bool BranchPredictor::indirect(uint64_t pc, uint64_t target, bool is_return) {
    if (!cfg_.enabled) return true;
    if (is_return && cfg_.ras_depth) {
        const bool hit = !ras_.empty() && ras_.back() == target;
        if (!ras_.empty()) ras_.pop_back();
        return !hit;
    }
    if (targets_.empty()) return true;
    if (!target_lru_.empty()) return indirect_2way(pc, target);
    const size_t i = (pc >> 1) & (targets_.size() - 1);
    uint64_t& slot = targets_[i];
    const bool hit = slot == target;
    if (!hit) plain_sig_ ^= mix64(slot ^ mix64(i | uint64_t{1} << 40)) ^ mix64(target ^ mix64(i | uint64_t{1} << 40));
    slot = target;
    return !hit;
}

// btb_ways 2 (the Cortex-A9's BTAC, TRM DDI 0388I 7.3: "a 2-way BTAC of 512 entries organized as 2-way x 256
// entries"). Assumed (the TRM gives none of them): the set is the address's halfword index, as the direct-mapped
// table's; a way's tag is the jump's whole address; a jump it misses is allocated the set's least recently used way
// (with 2 ways, one bit a set: the way not used last); a hit or an allocation makes the other way the next victim.
// A hit with another target than the jump's is a misprediction, its entry's target corrected in place.
bool BranchPredictor::indirect_2way(uint64_t pc, uint64_t target) {
    const size_t set = (pc >> 1) & (target_lru_.size() - 1);
    const size_t base = 2 * set;
    int way = target_tags_[base] == pc ? 0 : target_tags_[base + 1] == pc ? 1 : -1;
    const bool hit = way >= 0 && targets_[base + static_cast<size_t>(way)] == target;
    if (way < 0) way = target_lru_[set];
    const size_t i = base + static_cast<size_t>(way);
    // The tables' signature (loop_state): an entry's old words out, its new ones in; the set's replacement bit too.
    auto entry = [](size_t at, uint64_t tag, uint64_t t) { return mix64(t ^ mix64(tag ^ mix64(at | uint64_t{1} << 41))); };
    if (target_tags_[i] != pc || targets_[i] != target) {
        plain_sig_ ^= entry(i, target_tags_[i], targets_[i]) ^ entry(i, pc, target);
        target_tags_[i] = pc;
        targets_[i] = target;
    }
    const uint8_t next = static_cast<uint8_t>(way ^ 1);
    if (target_lru_[set] != next) {
        auto bit = [set](uint8_t v) { return mix64(set << 1 | v | uint64_t{1} << 43); };
        plain_sig_ ^= bit(target_lru_[set]) ^ bit(next);
        target_lru_[set] = next;
    }
    return !hit;
}

void BranchPredictor::call(uint64_t return_address) {
    if (!cfg_.ras_depth) return;
    if (ras_.size() == cfg_.ras_depth) ras_.erase(ras_.begin());  // the oldest entry falls off
    ras_.push_back(return_address);
}

// The VeeR EL2 predictor, from the RTL (chipsalliance/Cores-VeeR-EL2: src/design/ifu/el2_ifu_bp_ctl.sv,
// exu/el2_exu.sv, exu/el2_exu_alu_ctl.sv, dec/el2_dec_decode_ctl.sv, lib/el2_lib.sv) and the parameters of its
// default build (snapshots/default/el2_param.vh: BTB_SIZE 512, BTB_BTAG_SIZE 5, BHT_SIZE 512, BHT_GHR_SIZE 8,
// RET_STACK_SIZE 8), written from those facts:
// - Fetch reads the BTB and BHT for each 2-byte half of a 4-byte fetch group; a branch's entry belongs to the half
//   its last 2 bytes are in (its "bank"), at the set of that 4-byte group. Set index: address bits [9:2] ^ [17:10]
//   ^ [25:18]; tag: bits [14:10] ^ [19:15] ^ [24:20]; 2 ways, and an entry matches only its own bank.
// - A branch is predicted taken only when it hits in the BTB: a conditional one when its BHT counter says so;
//   calls, returns and jumps in the BTB always. A return takes the top of the return stack.
// - The BHT: 2-bit counters in two banks (the branch's bank), indexed by the BTB set XOR the global history fetch
//   keeps, which is not always the committed path's: per fetch window, restored late after a flush (veer_window).
// - A misprediction (event 25, exu_pmu_i0_br_misp): a conditional branch the other way; a call, jump or return
//   not in the BTB; a return whose return-stack target is wrong. Other JALs and JALRs are never predicted: always
//   a flush, never event 25.
// - A taken misprediction of a branch not in the BTB allocates it (the set's LRU way); a hit makes the other way
//   the set's next victim. Counters: a misprediction of a conditional branch, and every branch that hit, update
//   theirs (a call, jump or return writes "strongly taken").
// - The return stack is fetch-time: a call that hits pushes, a return that hits pops; a push drops the oldest
//   entry, a pop leaves the oldest in place. What a call pushes is its return address only for a 16-bit call.
// - A BTB hit on an instruction of another kind (another address aliasing the tag) is a branch error: a flush
//   that invalidates the entry; the instruction then runs unpredicted.
[[gnu::always_inline]] inline int BranchPredictor::veer_lookup(uint64_t end, VeerSlot& slot) const {
    SlotMemo& memo = slot_memo_[(end >> 1) & (slot_memos - 1)];
    if (memo.end == end) {
        slot = memo.slot;
    } else {
        const unsigned set_bits = set_bits_, tag_bits = cfg_.btb_tag_bits;
        slot.bank = static_cast<uint8_t>((end >> 1) & 1u);
        const uint64_t s = end >> 2;
        slot.set = static_cast<uint32_t>((s ^ (s >> set_bits) ^ (s >> (2 * set_bits))) & set_mask_);
        const uint64_t t = s >> set_bits;
        slot.tag = static_cast<uint32_t>((t ^ (t >> tag_bits) ^ (t >> (2 * tag_bits))) & tag_mask_);
        memo = {end, slot};
    }
    const BtbEntry* ways = &btb_[size_t{slot.set} * 2];
    int hit = -1;
    for (int w = 0; w < 2; ++w)
        if (ways[w].valid && ways[w].tag == slot.tag && ways[w].bank == slot.bank) hit = w;
    return hit;
}

// The fetch-side global history (el2_ifu_bp_ctl.sv: fghr, merged_ghr, fghr_ns; el2_ifu_ifc_ctl.sv:
// fetch_addr_next), checked against a copy of the RTL that prints each BHT read (tests/veer-rtl/rtl_trace.sh bht,
// vm and sorthash):
// - Fetch reads 4 bytes at a time, from the address it was sent to (a taken branch's target, a flush's address) in
//   steps of 4, except that crossing a 64-byte I-cache line realigns it to the line; a window that starts 2 bytes
//   before a line's end holds only those 2 bytes (eoc_mask).
// - Every branch that hits in the BTB within one window reads the BHT with the same history. The window then shifts
//   in one bit when one of its halves hits, the predicted direction of the branch fetch follows; two bits, 0 and
//   that direction, when both halves hit (even where the first is predicted taken and the second never executes).
// - A flush restores the history from execute's (s_.history: the outcome of each executed branch that hit) one
//   cycle late: the first window fetched after it reads the BHT with the history fetch had before the flush, and
//   what that window shifts in is lost until the next flush.

uint64_t BranchPredictor::next_window(uint64_t w) {
    const uint64_t n = ((w >> 2) + 1) << 2;
    return ((n ^ w) >> 6) != 0 ? n : n | (w & 2);
}

inline BranchPredictor::WindowScan BranchPredictor::scan_window(uint64_t w, uint64_t h, const Known& known) const {
    // The window's BTB lookups, memoized until the BTB changes (btb_generation_).
    WindowMemo& memo = window_memo_[(w >> 2) & (window_memos - 1)];
    if (memo.w != w || memo.generation != btb_generation_ || memo.skip != known.skip) {
        memo.w = w;
        memo.generation = btb_generation_;
        memo.skip = known.skip;
        for (unsigned k = 0; k < 2; ++k) {
            const uint64_t half = w + 2 * k;
            memo.way[k] = -1;
            if (half == known.skip || (k && ((half ^ w) >> 6) != 0)) continue;  // not looked at; past the line's end
            memo.way[k] = static_cast<int8_t>(half == known.half ? known.way : veer_lookup(half, memo.slot[k]));
            if (half == known.half) memo.slot[k] = known.slot;
        }
    }
    WindowScan s;
    for (unsigned k = 0; k < 2; ++k) {
        if (memo.way[k] < 0) continue;
        const BtbEntry& e = btb_[size_t{memo.slot[k].set} * 2 + static_cast<size_t>(memo.way[k])];
        const bool taken = e.call || e.ret || veer_counter(memo.slot[k], h) >= 2;
        if (s.valids++ == 0 || !s.taken) {
            s.taken = taken;
            s.target = e.ret && !e.call && !veer_ras_.empty() && veer_ras_[s_.ras_top].valid ? veer_ras_[s_.ras_top].addr : e.target;
        }
    }
    return s;
}

uint64_t BranchPredictor::read_history(uint64_t end) const {
    const uint64_t w = window_of(end);
    if (w == s_.window) return s_.window_history;
    return first_after_flush(w) ? s_.stale_history : s_.fetch_history;
}

inline uint64_t BranchPredictor::veer_window(uint64_t end, const Known& known) {
    const uint64_t w = window_of(end);
    if (w == s_.window) return s_.window_history;
    const bool first = first_after_flush(w);
    const uint64_t h = first ? s_.stale_history : s_.fetch_history;
    if (!first) s_.fetch_history = merged(h, scan_window(w, h, known), hmask_);  // the first's is lost
    s_.window = w;
    s_.window_history = h;
    return h;
}

uint64_t BranchPredictor::wrong_path_history(uint64_t next, bool taken) const {
    uint64_t h = s_.fetch_history;
    uint64_t w = taken ? next & ~uint64_t{1} : next_window(s_.window);
    // Soon after a flush fetch is only just ahead of decode: the branch flushes before fetch moves on.
    const bool refilling = s_.run_after_flush && s_.window - s_.run_window < 4 * cfg_.refill_windows;
    for (unsigned n = refilling ? 0 : cfg_.wrong_path_windows; n > 0; --n) {
        const WindowScan s = scan_window(w, h, {});
        h = merged(h, s, hmask_);
        w = s.taken ? s.target & ~uint64_t{1} : next_window(w);
    }
    return h;
}

// Fetch sent to `next`: by a predicted-taken branch, or by a flush (the history restored from execute's).
void BranchPredictor::redirect(uint64_t next, bool flush, uint64_t stale) {
    if (flush) {
        s_.stale_history = stale;
        s_.fetch_history = s_.history;
    }
    s_.run_start = next;
    s_.run_window = window_of(next);
    s_.run_after_flush = flush;
    s_.window = ~uint64_t{0};
}

// The return stack as a ring: entry i from the top is veer_ras_[(s_.ras_top + i) % depth]. A push moves the top
// down one (over the oldest entry, which falls off); a pop moves it up one, after copying the oldest entry into
// the slot it leaves, which becomes the bottom: the oldest stays in place.
void BranchPredictor::ras_push(uint64_t addr) {
    const size_t d = veer_ras_.size();
    if (d == 0) return;
    s_.ras_top = s_.ras_top ? s_.ras_top - 1 : d - 1;
    put_ras(s_.ras_top, {addr, true});
}

BranchPredictor::RasEntry BranchPredictor::ras_pop() {
    const size_t d = veer_ras_.size();
    if (d == 0) return {};
    const RasEntry top = veer_ras_[s_.ras_top];
    put_ras(s_.ras_top, veer_ras_[s_.ras_top ? s_.ras_top - 1 : d - 1]);
    s_.ras_top = s_.ras_top + 1 == d ? 0 : s_.ras_top + 1;
    return top;
}

// What a call that hits pushes: its start plus 2 for a 16-bit call, plus 0 for a 32-bit one (el2_ifu_bp_ctl.sv,
// rs_addr: the branch's start plus ~pc4 halfwords); a return from a 32-bit call never matches it
// (tests/veer-rtl/straight: each of its 20 returns mispredicts).
static uint64_t pushed_address(uint64_t start, bool pc4) { return start + (pc4 ? 0u : 2u); }

void BranchPredictor::veer_wrong_path(uint64_t addr, unsigned halfwords) {
    for (unsigned n = 0; n < halfwords; ++n, addr += 2) {
        VeerSlot slot;
        const int w = veer_lookup(addr, slot);
        if (w < 0) continue;
        const BtbEntry& e = btb_[size_t{slot.set} * 2 + static_cast<size_t>(w)];
        if (!e.call && !e.ret && veer_counter(slot, s_.fetch_history) < 2) continue;  // a conditional branch predicted not taken
        if (e.call && !e.ret) ras_push(pushed_address(addr - (e.pc4 ? 2u : 0u), e.pc4));
        uint64_t next = e.target;
        if (e.ret && !e.call) {
            const RasEntry top = ras_pop();
            if (top.valid) next = top.addr;
        }
        addr = next - 2;  // the loop steps to `next`
    }
}

// veer() with its kind known (the tests of the kind then fold away): the one definition, veer() picks it.
template <BranchPredictor::VeerKind kind>
[[gnu::always_inline]] inline BranchPredictor::VeerOutcome BranchPredictor::veer_k(uint64_t pc, unsigned size, bool taken, uint64_t target) {
    VeerOutcome out;
    if (kind == VeerKind::other) out.flush = true;
    if (!cfg_.enabled || btb_.empty()) {
        out.mispredicted = taken && kind != VeerKind::other;
        out.flush |= out.mispredicted;
        return out;
    }
    VeerSlot slot;
    const int hit = veer_lookup(pc + size - 2, slot);  // the entry of the branch's last 2 bytes
    // The window's scan knows this half already; a 4-byte branch's first half is not looked at (an entry there
    // would be a branch start error, which the model leaves out).
    const uint64_t fhist = veer_window(pc + size - 2, {pc + size - 2, hit, slot, size == 4 ? pc : ~uint64_t{0}});
    const BtbEntry* ways = &btb_[size_t{slot.set} * 2];
    if (hit >= 0) put_lru(slot.set, ways[0].valid && ways[0].tag == slot.tag ? 1 : 0);  // the other way replaces next
    // A hit on another kind of instruction, or a direct one to another target: a branch error.
    if (hit >= 0) {
        const BtbEntry& e = ways[hit];
        const bool pret = e.ret && !e.call;
        const bool wrong_kind = kind == VeerKind::other || pret != (kind == VeerKind::ret);
        const bool wrong_target = kind != VeerKind::ret && taken && e.target != target;
        if (wrong_kind || wrong_target) {
            BtbEntry invalid = e;
            invalid.valid = false;
            put_btb(size_t{slot.set} * 2 + static_cast<size_t>(hit), invalid);
            ++btb_generation_;
            out.flush = true;
            out.mispredicted = taken && kind != VeerKind::other;  // refetched unpredicted
            redirect(taken ? target : pc + size, true, wrong_path_history(e.target, true));
            return out;
        }
    }
    const uint64_t fall_through = pc + size;
    if (kind == VeerKind::other) {
        veer_wrong_path(fall_through, cfg_.wrong_path_fetch);
        redirect(target, true, wrong_path_history(fall_through, false));
        return out;
    }
    const size_t ci = counter_index(slot, fhist);
    const uint8_t counter = counters_[ci];
    bool predicted = false, right_target = true;
    uint64_t predicted_next = fall_through;
    if (hit >= 0) {
        predicted = kind == VeerKind::cond ? counter >= 2 : true;
        if (predicted) predicted_next = ways[hit].target;
        if (kind == VeerKind::call) {
            ras_push(pushed_address(pc, size == 4));
        } else if (kind == VeerKind::ret) {
            const RasEntry top = ras_pop();
            right_target = top.valid && top.addr == target;
            if (top.valid) predicted_next = top.addr;
        }
    }
    out.mispredicted = predicted != taken || !right_target;
    out.flush |= out.mispredicted;
    if (kind == VeerKind::cond) {
        if (hit >= 0 || out.mispredicted) {
            if (taken && counter < 3) put_counter(ci, static_cast<uint8_t>(counter + 1));
            if (!taken && counter > 0) put_counter(ci, static_cast<uint8_t>(counter - 1));
        }
    } else if (hit >= 0 && right_target) {
        put_counter(ci, 3);
    }
    if (hit >= 0) s_.history = ((s_.history << 1) | (taken ? 1u : 0u)) & hmask_;
    if (out.flush || taken)
        redirect(taken ? target : fall_through, out.flush, out.flush ? wrong_path_history(predicted_next, predicted) : 0);
    if (out.mispredicted && taken && hit < 0) {
        const unsigned w = lru_[slot.set];
        ++btb_generation_;
        put_btb(size_t{slot.set} * 2 + w, {true, kind == VeerKind::call || kind == VeerKind::jump,
                                            kind == VeerKind::ret || kind == VeerKind::jump, size == 4, slot.bank, slot.tag, target});
        put_lru(slot.set, static_cast<uint8_t>(w ^ 1u));
    }
    // Until the flush, fetch went on along the predicted path: its calls and returns that hit moved the return
    // stack, which the flush does not restore.
    if (out.mispredicted) veer_wrong_path(predicted_next, cfg_.wrong_path_fetch);
    return out;
}

BranchPredictor::VeerOutcome BranchPredictor::veer(uint64_t pc, unsigned size, VeerKind kind, bool taken, uint64_t target) {
    switch (kind) {
        case VeerKind::cond: return veer_k<VeerKind::cond>(pc, size, taken, target);
        case VeerKind::call: return veer_k<VeerKind::call>(pc, size, taken, target);
        case VeerKind::jump: return veer_k<VeerKind::jump>(pc, size, taken, target);
        case VeerKind::ret: return veer_k<VeerKind::ret>(pc, size, taken, target);
        case VeerKind::other: break;
    }
    return veer_k<VeerKind::other>(pc, size, taken, target);
}

// A control transfer whose successor the trace does not show: the RTL's trace port prints the instruction at mepc
// before an interrupt's handler although the interrupt flushed it, and the reader drops it (tests/veer-rtl/irq), so
// the record after the branch is the handler's first. The branch committed, and the predictor was updated with
// its real outcome, which only the handler's mret tells (the entry's write of mepc, which TimingModel::predict_other
// follows where the trace shows it); where it is not known it is taken here to be the predicted one. Without this the handler's address looked like a taken branch's target: a BTB entry
// with another target, which invalidated the entry (a branch error) and counted a misprediction (irq: event 25 7
// against the RTL's 3; 3 with this).
BranchPredictor::VeerOutcome BranchPredictor::veer_as_predicted(uint64_t pc, unsigned size, VeerKind kind) {
    const uint64_t fall_through = pc + size;
    if (kind == VeerKind::other || !cfg_.enabled || btb_.empty()) return veer(pc, size, kind, kind == VeerKind::other, fall_through);
    VeerSlot slot;
    const int hit = veer_lookup(pc + size - 2, slot);
    if (hit < 0) {
        // Not predicted: a conditional branch falls through; a jump, call or return goes to a target the trace
        // does not show: a flush, the predictor left as it is.
        if (kind == VeerKind::cond) return veer(pc, size, kind, false, fall_through);
        VeerOutcome out;
        out.mispredicted = out.flush = true;
        return out;
    }
    const BtbEntry& e = btb_[size_t{slot.set} * 2 + static_cast<size_t>(hit)];
    uint64_t target = e.target;
    if (kind == VeerKind::ret && !veer_ras_.empty() && veer_ras_[0].valid) target = veer_ras_[0].addr;
    const bool taken = kind != VeerKind::cond || veer_counter(slot, read_history(pc + size - 2)) >= 2;
    return veer(pc, size, kind, taken, taken ? target : fall_through);
}

// The signature (set_memo). A BTB entry as two words: its target, and its flags, bank and tag; a return stack entry as
// its address and whether it is valid. Every field once, without loss: put(), veer_table_sig() and same_state() are
// written from these, set_entry() takes the words apart again. (Templates: the entries are private types.)
template <class E>
static std::pair<uint64_t, uint64_t> btb_words(const E& e) {
    return {e.target, uint64_t{e.valid} | uint64_t{e.call} << 1 | uint64_t{e.ret} << 2 | uint64_t{e.pc4} << 3 |
                          uint64_t{e.bank} << 8 | uint64_t{e.tag} << 16};
}
template <class E>
static std::pair<uint64_t, uint64_t> ras_words(const E& e) {
    return {e.addr, e.valid};
}

uint64_t BranchPredictor::entry_sig(Table t, size_t i, uint64_t a, uint64_t b) {
    return mix64(a ^ mix64(b ^ mix64(uint64_t{i} << 2 | static_cast<uint64_t>(t))));
}

inline void BranchPredictor::set_entry(Table t, size_t i, uint64_t a, uint64_t b) {  // (this file's alone)
    switch (t) {
        case Table::counter: counters_[i] = static_cast<uint8_t>(a); break;
        case Table::lru: lru_[i] = static_cast<uint8_t>(a); break;
        case Table::ras: veer_ras_[i] = {a, b != 0}; break;
        case Table::btb:
            ++btb_generation_;  // the window memo's lookups are redone (scan_window)
            btb_[i] = {(b & 1u) != 0, (b & 2u) != 0, (b & 4u) != 0, (b & 8u) != 0, static_cast<uint8_t>(b >> 8),
                       static_cast<uint32_t>(b >> 16), a};
            break;
    }
}

inline void BranchPredictor::put(Table t, size_t i, uint64_t a, uint64_t b) {
    uint64_t oa = 0, ob = 0;
    switch (t) {
        case Table::counter: oa = counters_[i]; break;
        case Table::lru: oa = lru_[i]; break;
        case Table::ras: std::tie(oa, ob) = ras_words(veer_ras_[i]); break;
        case Table::btb: std::tie(oa, ob) = btb_words(btb_[i]); break;
    }
    if (oa == a && ob == b) return;
    sig_ ^= sig_of(t, i, oa, ob) ^ sig_of(t, i, a, b);
    set_entry(t, i, a, b);
    if (grouping_) group_log_.push_back({t, static_cast<uint32_t>(i), a, b});
}

void BranchPredictor::put_btb(size_t i, const BtbEntry& e) {
    if (!memo_) {
        btb_[i] = e;
        return;
    }
    const auto [a, b] = btb_words(e);
    put(Table::btb, i, a, b);
}

void BranchPredictor::set_memo(bool on) {
    memo_ = on && cfg_.direction == PredictorConfig::Direction::veer_el2 && cfg_.history_bits <= 16 && veer_ras_.size() <= 255;
    if (!memo_) return;
    sig_ = veer_table_sig();
    counter_sigs_.resize(4 * counters_.size());  // (a VeeR EL2 counter is 2 bits: 0 to 3)
    for (size_t i = 0; i < counter_sigs_.size(); ++i) counter_sigs_[i] = entry_sig(Table::counter, i / 4, i % 4, 0);
}

// The signature put() keeps, worked out from the tables whole.
uint64_t BranchPredictor::veer_table_sig() const {
    uint64_t sig = 0;
    for (size_t i = 0; i < counters_.size(); ++i) sig ^= entry_sig(Table::counter, i, counters_[i], 0);
    for (size_t i = 0; i < lru_.size(); ++i) sig ^= entry_sig(Table::lru, i, lru_[i], 0);
    for (size_t i = 0; i < veer_ras_.size(); ++i) {
        const auto [a, b] = ras_words(veer_ras_[i]);
        sig ^= entry_sig(Table::ras, i, a, b);
    }
    for (size_t i = 0; i < btb_.size(); ++i) {
        const auto [a, b] = btb_words(btb_[i]);
        sig ^= entry_sig(Table::btb, i, a, b);
    }
    return sig;
}

void BranchPredictor::loop_state(std::vector<uint64_t>& out) const {
    out.push_back(cfg_.enabled);
    const bool veer = cfg_.direction == PredictorConfig::Direction::veer_el2;
    if (veer && memo_) {  // its scalars and the signature its writes keep
        uint64_t k[state_words];
        state_key(k);
        out.insert(out.end(), k, k + state_words);
        return;
    }
    // The scalars whole (Scalars::visit), then the tables': VeeR EL2's signature worked out from them (without the
    // memo: a test's predictor; the reference stepper repeats no stretch), any other's signature and return stack.
    Scalars::visit([&out](const auto& v) { out.push_back(static_cast<uint64_t>(v)); }, s_);
    if (veer) {
        out.push_back(veer_table_sig());
        return;
    }
    out.push_back(plain_sig_);
    out.push_back(ras_.size());
    out.insert(out.end(), ras_.begin(), ras_.end());
}

bool BranchPredictor::same_state(const BranchPredictor& o) const {
    auto same_btb = [](const BtbEntry& x, const BtbEntry& y) { return btb_words(x) == btb_words(y); };
    auto same_ras = [](const RasEntry& x, const RasEntry& y) { return ras_words(x) == ras_words(y); };
    return counters_ == o.counters_ && btac_tags_ == o.btac_tags_ && targets_ == o.targets_ &&
           target_tags_ == o.target_tags_ && target_lru_ == o.target_lru_ && ras_ == o.ras_ && lru_ == o.lru_ &&
           std::equal(btb_.begin(), btb_.end(), o.btb_.begin(), o.btb_.end(), same_btb) &&
           std::equal(veer_ras_.begin(), veer_ras_.end(), o.veer_ras_.begin(), o.veer_ras_.end(), same_ras) && s_ == o.s_;
}

inline std::array<uint64_t, BranchPredictor::memo_key_words> BranchPredictor::memo_key(uint64_t pc, unsigned size, VeerKind kind,
                                                                                bool taken, uint64_t target) const {
    return {pc,
            target,
            uint64_t{size} | static_cast<uint64_t>(kind) << 4 | uint64_t{taken} << 7 | uint64_t{s_.run_after_flush} << 8 |
                uint64_t{s_.ras_top} << 16,
            s_.history | s_.fetch_history << 16 | s_.stale_history << 32 | s_.window_history << 48,
            s_.run_start,
            s_.run_window,
            s_.window,
            sig_};
}

void BranchPredictor::state_key(uint64_t* out) const {
    const auto k = memo_key(0, 0, VeerKind::cond, false, 0);
    out[0] = k[2];  // s_.run_after_flush, s_.ras_top (the call's own fields are 0)
    std::copy(k.begin() + 3, k.end(), out + 1);
}

void BranchPredictor::group_begin() {
    group_log_.clear();
    grouping_ = true;
}

bool BranchPredictor::group_end(Changes& out) {
    grouping_ = false;
    if (group_log_.size() > max_group_writes) return false;
    out.writes = group_log_;
    out.after = s_;
    out.sig = sig_;
    return true;
}

void BranchPredictor::apply(const Changes& c) {
    for (const Write& w : c.writes) set_entry(w.table, w.index, w.a, w.b);
    s_ = c.after;
    sig_ = c.sig;
}

}  // namespace pmusim::timing
