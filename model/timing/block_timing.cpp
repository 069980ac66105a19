// Block timing (TimingModel::step_block, timing_model.hpp): the body of a basic block timed by replaying what
// step() did the first time it ran from the same entry state. step() stays the definition; this file only
// decides which bodies can be keyed (the key itself and the search of the recordings: block_key.cpp), which cache
// lines a recording touches (probed, then touched), and restores the state step() left (block_exit.hpp).
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "model/timing/block_exit.hpp"
#include "model/timing/timing_model.hpp"

namespace pmusim::timing {

namespace {

bool is_data(const isa::RetiredInsn& i) { return i.cls == isa::InsnClass::load || i.cls == isa::InsnClass::store; }

}  // namespace

void TimingModel::prepare(BlockMemo& m, const uint8_t* n_mem) const {
    m.prepared_ = true;
    m.n_mem_.assign(n_mem, n_mem + m.size());
    m.total_mem_ = 0;
    m.data_at_.clear();
    m.before_.assign(1, BlockMemo::Before{0, 0});
    for (size_t i = 0; i < m.size(); ++i) {
        if (is_data(m.insns_[i]))
            for (unsigned k = 0; k < n_mem[i]; ++k)
                m.data_at_.push_back({static_cast<uint16_t>(m.total_mem_ + k), static_cast<uint8_t>(i), k != 0});
        m.total_mem_ += n_mem[i];
        m.before_.push_back({static_cast<uint32_t>(m.total_mem_), m.before_.back().branches + (m.insns_[i].branch != 0)});
    }
    m.usable_ = false;
    const size_t n = m.size();  // the body
    // Every branch of the body is predicted per execution (predict_inner), whether or not the body can be keyed.
    m.inner_.clear();
    for (size_t i = 0; i < n; ++i)
        if (m.insns_[i].branch) m.inner_.push_back(static_cast<uint32_t>(i));
    m.inner_at_.clear();
    const bool veer = p_.predictor.direction == PredictorConfig::Direction::veer_el2;
    for (const uint32_t i : m.inner_) {
        const isa::RetiredInsn& in = m.insns_[i];
        const bool direct_veer = veer && veer_predicted_directly(in);
        m.inner_at_.push_back({m.pcs_[i], m.inner_next(i), i, m.sizes_[i], counted_branch(in), (in.branch & isa::br_taken) != 0,
                               static_cast<uint8_t>(direct_veer ? static_cast<unsigned>(veer_kind(in)) + 1 : 0)});
    }
    if (m.inner_.size() > BlockMemo::max_inner) return;
    // An out-of-order core's state (OooCore) is not in the key: its bodies are stepped.
    if (ooo_) return;
    if (n == 0 || n > BlockMemo::max_insns || m.total_mem_ > 4 * BlockMemo::max_insns) return;
    const uint64_t pc0 = m.pcs_[0];
    const bool local0 = p_.local_code && p_.local_code->contains(pc0);
    uint32_t written = 0;
    for (size_t i = 0; i < n; ++i) {
        const isa::RetiredInsn& in = m.insns_[i];
        using C = isa::InsnClass;
        // Nothing that changes mstatus (ecall, ebreak, mret), nothing the trace's data completes (a failed
        // condition, an unaligned access).
        if (isa::is_trap(in.cls) || in.cond_failed || in.unaligned) return;
        // A branch with no data access and not an exception return (its outcome fixed, its flush keyed).
        if (in.branch && ((in.branch & isa::br_exc_return) || in.cls == C::load || in.cls == C::store)) return;
        // No pre- or post-sync instruction (sync_stall): their waits depend on the previous instruction's issue.
        if (p_.sync_stall && (in.cls == C::fence || in.cls == C::fence_i || in.cls == C::csr_read ||
                              in.cls == C::csr_read_write || in.cls == C::csr_write))
            return;
        // At consecutive addresses but after a taken branch (its target next).
        if (i && !(m.insns_[i - 1].branch & isa::br_taken) && m.pcs_[i] != m.pcs_[i - 1] + m.sizes_[i - 1]) return;
        // One mrac region (its cacheability is one bit of the key), wholly in or out of the local code memory.
        if ((m.pcs_[i] >> 28) != (pc0 >> 28)) return;
        if ((p_.local_code && p_.local_code->contains(m.pcs_[i])) != local0) return;
        m.live_in_ |= in.regs.src & ~written;
        written |= in.regs.dst;
        m.has_div_ |= in.cls == C::div;
    }
    m.fetch_path_ = l1i_.has_value() && !local0;
    m.usable_ = true;
    // The tail: a branch right after the body, in its region, that changes neither mstatus nor the privilege
    // (no ecall, ebreak or exception return), with no data access and no pre- or post-sync.
    if (!m.has_tail_) return;
    const isa::RetiredInsn& t = m.insns_[n];
    using C = isa::InsnClass;
    if (!t.branch || (t.branch & isa::br_exc_return) || isa::is_trap(t.cls) ||
        t.cls == C::load || t.cls == C::store || t.cond_failed || t.unaligned)
        return;
    if (p_.sync_stall && (t.cls == C::fence || t.cls == C::fence_i || t.cls == C::csr_read || t.cls == C::csr_read_write ||
                          t.cls == C::csr_write))
        return;
    if ((!(m.insns_[n - 1].branch & isa::br_taken) && m.pcs_[n] != m.pcs_[n - 1] + m.sizes_[n - 1]) ||
        (m.pcs_[n] >> 28) != (pc0 >> 28) || (p_.local_code && p_.local_code->contains(m.pcs_[n])) != local0)
        return;
    m.live_in_ |= t.regs.src & ~written;
    m.tail_usable_ = true;
}

template <class Self, class F, class G>
size_t TimingModel::fetch_lookups(Self& self, const BlockMemo::Recording& r, F&& f, size_t upto, G&& at_insn) {
    auto& itlb = self.itlb_;
    auto& l1i = self.l1i_;
    for (const BlockMemo::Fetch& x : r.ifetch) {
        if (x.insn >= upto) break;
        if (!x.later) at_insn();
        if ((itlb && !f(*itlb, itlb->ref(x.at), 0, claim_itlb)) || !f(*l1i, l1i->ref(x.at), 0, claim_l1i)) return x.insn;
    }
    return all_hit;
}

template <class Self, class F, class G>
size_t TimingModel::data_lookups(Self& self, const BlockMemo& m, const MemRef* mem, F&& f, size_t upto, G&& at_insn) {
    auto& dtlb = self.dtlb_;
    auto& l1d = self.l1d_;
    if (!l1d && !dtlb) return all_hit;
    const bool line_once = self.p_.count_line_once && l1d;
    for (const BlockMemo::DataAccess& d : m.data_at_) {  // the counts keyed (body_key): m.n_mem_'s
        if (d.insn >= upto) break;
        if (!d.later) at_insn();
        const MemRef& a = mem[d.at];
        const bool seq = line_once && d.later && l1d->line_of(a.addr) == l1d->line_of(mem[d.at - 1].addr);
        if (!seq && dtlb && !f(*dtlb, dtlb->ref(a.addr), 0, claim_dtlb)) return d.insn;
        if (l1d && !f(*l1d, l1d->ref(a.addr), l1d->dirty_part(a.addr, a.write), claim_l1d)) return d.insn;
    }
    return all_hit;
}

// Whether every lookup of the recording's body (its instruction fetches that look up the ITLB and I-cache, its data
// lookups) hits, changing nothing: record_body() keeps a recording only of a body whose lookups all hit.
bool TimingModel::probe_body(const BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem) const {
    auto probe = [](const Cache& c, const Cache::Ref& ref, uint8_t, ClaimSlot) { return c.probe(ref); };
    return fetch_lookups(*this, r, probe) == all_hit && data_lookups(*this, m, mem, probe) == all_hit;
}

// The lookups of the recording's body as step() makes them where every one hits (lines moved to the front of their
// sets, marked dirty, counted), each made as it is found: true. Where one misses: false, and those made undone,
// latest first (Cache::untouch), but where a data lookup misses, the data lookups of the instructions before its
// instruction: those are kept (claim_changes_, claim_touches_) for the replay_partial() that follows, which goes on
// from them or releases them (release_claims). One search of a set per lookup; a lookup that changes no set (its
// line in front with its part marked: most of them) leaves no undo.
bool TimingModel::claim_body(const BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem) {
    // Each cache's next undo and its touches in locals (claim_changes_ and claim_touches_ for release_claims).
    std::array<Cache::Undo*, claim_slots> next;
    for (size_t k = 0; k < claim_slots; ++k) next[k] = claim_undo_[k].data();
    std::array<uint64_t, claim_slots> touches{};
    auto claim = [&](Cache& c, const Cache::Ref& ref, uint8_t part, ClaimSlot k) {
        if (!c.touch_present(ref, part, next[k])) return false;
        ++touches[k];
        return true;
    };
    // The data claims (the DTLB's, the D-cache's) before the current data instruction's lookups.
    Cache::Undo* mark_next[2] = {next[claim_dtlb], next[claim_l1d]};
    uint64_t mark_touches[2] = {0, 0};
    auto mark = [&] {
        for (size_t k = 0; k < 2; ++k) {
            mark_next[k] = next[claim_dtlb + k];
            mark_touches[k] = touches[claim_dtlb + k];
        }
    };
    auto release = [&] {
        for (size_t k = 0; k < claim_slots; ++k) {
            claim_changes_[k] = static_cast<size_t>(next[k] - claim_undo_[k].data());
            claim_touches_[k] = touches[k];
        }
        release_claims();
        return false;
    };
    claim_data_miss_ = data_lookups(*this, m, mem, claim, all_hit, mark);
    if (claim_data_miss_ != all_hit) {  // the missing instruction's data claims undone, those before it kept
        Cache* const data[2] = {dtlb_ ? &*dtlb_ : nullptr, l1d_ ? &*l1d_ : nullptr};
        for (size_t k = 0; k < 2; ++k) {
            if (data[k]) data[k]->untouch(mark_next[k], next[claim_dtlb + k], touches[claim_dtlb + k] - mark_touches[k]);
            claim_changes_[claim_dtlb + k] = static_cast<size_t>(mark_next[k] - claim_undo_[claim_dtlb + k].data());
            claim_touches_[claim_dtlb + k] = mark_touches[k];
        }
        claim_changes_[claim_itlb] = claim_changes_[claim_l1i] = 0;  // (no fetch claimed yet)
        claim_touches_[claim_itlb] = claim_touches_[claim_l1i] = 0;
        return false;
    }
    if (r.ifetch.empty()) return true;
    const uint64_t it_refills = itlb_ ? itlb_->refills() : 0, i_refills = l1i_->refills();
    if (r.l1i_refills == i_refills && r.itlb_refills == it_refills) {  // no line entered either since: still there
        for (const auto& [ref, n] : r.itlb_runs) {
            itlb_->touch(ref, 0);
            itlb_->touch_again(n - 1u);
        }
        for (const Cache::Ref& ref : r.l1i_lines) l1i_->touch(ref, 0);
        return true;
    }
    if (fetch_lookups(*this, r, claim) != all_hit) return release();
    r.itlb_refills = it_refills;
    r.l1i_refills = i_refills;
    return true;
}

// The claims kept (claim_changes_, claim_touches_) undone, latest first; none kept after.
void TimingModel::release_claims() {
    Cache* const caches[claim_slots] = {dtlb_ ? &*dtlb_ : nullptr, l1d_ ? &*l1d_ : nullptr, itlb_ ? &*itlb_ : nullptr,
                                        l1i_ ? &*l1i_ : nullptr};
    for (size_t k = 0; k < claim_slots; ++k)
        if (caches[k]) caches[k]->untouch(claim_undo_[k].data(), claim_undo_[k].data() + claim_changes_[k], claim_touches_[k]);
    claim_changes_ = {};
    claim_touches_ = {};
}

// The body step() by step(), and the tail's timing after it (its prediction already made).
uint64_t TimingModel::step_body(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b, bool with_tail) {
    ++m.stepped;
    return step_range(m, mem, n_mem, b, 0, m.size() + (with_tail ? 1 : 0));
}

// step() without handing out the store buffer's count (step_block() does, after), the body's branches with the
// flushes predict_inner() found.
uint64_t TimingModel::step_range(const BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b, size_t from,
                                 size_t to) {
    // The first's accesses among the body's, its branch's flush among inner_flush_ (from 0: any body, prepared or not).
    const BlockMemo::Before first = from ? m.before_[std::min(from, m.size())] : BlockMemo::Before{0, 0};
    size_t at = first.at, k = first.branches;
    uint64_t cycles = 0;
    const size_t n = m.size(), end = std::min(to, n);
    const isa::RetiredInsn* insns = m.insns_.data();
    for (size_t i = from; i < end; at += n_mem[i], ++i) {
        const unsigned flush = insns[i].branch ? inner_flush_[k++] : 0;
        cycles += timed(insns[i], m.pcs_[i], m.sizes_[i], mem + at, n_mem[i], b, flush);
    }
    if (from <= n && to > n) cycles += timed(*tail_insn_, m.pcs_[n], m.sizes_[n], nullptr, 0, b, tail_flush_);
    return cycles;
}

// A recording whose lookups first miss at instruction `first`, right after claim_body() failed: its prefix (the
// state before `first`, all lookups before it hits) set, those lookups made, then step() from `first` on. The
// instructions before `first` time as they did when recorded: the same entry state (the key), the same hits.
uint64_t TimingModel::replay_partial(BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem, const uint8_t* n_mem,
                                     EventBatch& b, bool with_tail) {
    if (!partial_ok() || r.prefixes.empty()) {
        release_claims();
        return step_body(m, mem, n_mem, b, with_tail);
    }
    // The claim just made (block(), replay_checked()): where a data lookup missed, at first_data, the data lookups
    // of the instructions before it are made (kept); else none.
    const size_t first_data = claim_data_miss_;
    // The fetches before the first data miss, each made as it is found (Cache::touch_present, as claim_body()): one
    // search of a set per lookup, not a probe and then a touch. Those of the instruction whose fetch misses (its
    // first line's, where its second misses) are undone, and all of them where no prefix is kept (the body stepped).
    struct Made {  // per cache (the ITLB, the I-cache): its next undo (in claim_undo_) and its touches so far
        std::array<Cache::Undo*, 2> next;
        std::array<uint64_t, 2> touches;
    };
    Cache* const fetch[2] = {itlb_ ? &*itlb_ : nullptr, l1i_ ? &*l1i_ : nullptr};
    const Made none{{claim_undo_[claim_itlb].data(), claim_undo_[claim_l1i].data()}, {0, 0}};
    Made made = none, before = none;  // before: as it was before the current instruction's fetches
    auto undo_to = [&](const Made& to) {
        for (size_t k = 0; k < 2; ++k)
            if (fetch[k]) fetch[k]->untouch(to.next[k], made.next[k], made.touches[k] - to.touches[k]);
        made = to;
    };
    auto claim = [&](Cache& c, const Cache::Ref& ref, uint8_t, ClaimSlot k) {
        const size_t s = k - claim_itlb;
        if (!c.touch_present(ref, 0, made.next[s])) return false;
        ++made.touches[s];
        return true;
    };
    size_t first = first_data;
    const size_t fetch_miss = fetch_lookups(*this, r, claim, first_data, [&] { before = made; });
    if (fetch_miss != all_hit) {
        undo_to(before);
        first = fetch_miss;
    }
    auto p = std::lower_bound(r.prefixes.begin(), r.prefixes.end(), first,
                              [](const BlockMemo::Prefix& x, size_t at) { return x.at < at; });
    if (p == r.prefixes.end() || p->at != first) {
        undo_to(none);
        release_claims();
        return step_body(m, mem, n_mem, b, with_tail);
    }
    if (first != first_data) {  // a fetch missed first: the data lookups before it instead of those kept
        release_claims();
        auto touch = [](Cache& c, const Cache::Ref& ref, uint8_t part, ClaimSlot) {
            c.touch(ref, part);  // present (the claim found them)
            return true;
        };
        data_lookups(*this, m, mem, touch, first);  // in step()'s order per cache, as claim_body()
    }
    ++m.stepped;
    ++m.partial;
    const uint64_t now0 = s_.now;
    restore_exit(*p, now0, b);
    s_.now = now0 + p->cycles;
    const uint64_t missed = step_range(m, mem, n_mem, b, first, first + 1);
    return p->cycles + missed + time_suffix(m, mem, n_mem, b, first + 1, with_tail);
}

// The rest of a body whose instruction before `from` missed a lookup: its timing follows from the state step()
// left, as any body's does (block(): keyed, recorded, replayed); bodies of fewer than two instructions stepped.
uint64_t TimingModel::time_suffix(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b, size_t from,
                                  bool with_tail) {
    const size_t n = m.size();
    if (from > n) return 0;  // the tail was the instruction that missed
    if (from + 2 > n) return step_range(m, mem, n_mem, b, from, n + (with_tail ? 1 : 0));
    if (m.suffixes_.size() < n) m.suffixes_.resize(n);
    auto& slot = m.suffixes_[from];
    if (!slot) {
        auto part = [&](const auto& v) { return std::vector<std::decay_t<decltype(v[0])>>(v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(n)); };
        slot = std::make_shared<BlockMemo>(part(m.insns_), part(m.pcs_), part(m.sizes_));
        if (m.has_tail_) slot->set_tail(m.insns_[n], m.pcs_[n], m.sizes_[n]);
        slot->set_after(m.after_);
        slot->fixed_accesses_ = m.fixed_accesses_;
        prepare(*slot, m.n_mem_.data() + from);
    }
    BlockMemo& s = *slot;
    if (with_tail && !s.tail_usable_) return step_range(m, mem, n_mem, b, from, n + 1);
    const size_t at = m.before_[from].at, k = m.before_[from].branches;  // the suffix's first access, first flush
    // The suffix's flushes first in inner_flush_ (the body's before it are used).
    std::copy(inner_flush_.begin() + static_cast<std::ptrdiff_t>(k), inner_flush_.begin() + static_cast<std::ptrdiff_t>(m.inner_.size()), inner_flush_.begin());
    return block(s, mem + at, n_mem + from, b, with_tail);
}

// The body (`stepped` instructions, the tail's included) step() by step() into body_events_; where partial_ok(), the
// state before each instruction after the first that makes a lookup (its data accesses, its instruction fetch) saved
// as one of the recording's prefixes (kept only with the recording).
uint64_t TimingModel::record_prefixes(const BlockMemo& m, BlockMemo::Recording& r, const MemRef* mem, const uint8_t* n_mem,
                                      size_t stepped, uint64_t now0, uint64_t lsu_free0,
                                      uint64_t stm_issue0) {
    uint64_t cycles = 0;
    size_t from = 0;
    if (partial_ok()) {
        const size_t nd = l1d_ || dtlb_ ? m.data_at_.size() : 0;  // (data_lookups() makes none without)
        for (size_t d = 0, f = 0;;) {  // the data instructions and the fetches, merged in order
            const size_t next = std::min(d < nd ? m.data_at_[d].insn : all_hit, f < r.ifetch.size() ? r.ifetch[f].insn : all_hit);
            if (next == all_hit) break;
            while (d < nd && m.data_at_[d].insn == next) ++d;
            while (f < r.ifetch.size() && r.ifetch[f].insn == next) ++f;  // (an instruction across two lines: two)
            if (next == 0) continue;
            cycles += step_range(m, mem, n_mem, body_events_, from, next);
            from = next;
            BlockMemo::Prefix& p = r.prefixes.emplace_back();
            p.at = static_cast<uint8_t>(next);
            save_exit(p, m, next, cycles, now0, lsu_free0, stm_issue0);
        }
    }
    return cycles + step_range(m, mem, n_mem, body_events_, from, stepped);
}

// A new entry state: step() per instruction; its outcome becomes a recording when every lookup hit.
uint64_t TimingModel::record_body(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b,
                                  const uint64_t* key, size_t key_len, bool with_tail) {
    const size_t stepped = m.size() + (with_tail ? 1 : 0);  // instructions timed, the tail's included
    BlockMemo::Recording r;
    // The instructions that look up the I-cache: those that enter a new line (step(): s_.last_ifetch_line), on
    // the cacheable path only; one whose last halfword lies in the next line looks that line up too, at its start
    // (where the step follows the fetched bytes: fetch_bytes, the full step's kernels).
    const bool cacheable = (key[0] >> 35) & 1u;
    if (m.fetch_path_ && cacheable) {
        uint64_t last = key[4];  // s_.last_ifetch_line as body_key() put it
        for (size_t i = 0; i < stepped; ++i) {
            const uint64_t pc = m.pcs_[i], line = l1i_->line_of(pc);
            const uint64_t last_line = full_ && p_.fetch_bytes ? l1i_->line_of(pc + m.sizes_[i] - 1) : line;
            for (uint64_t l = line; l <= last_line; ++l) {
                if (l == last) continue;
                const uint64_t at = l == line ? pc : l * p_.l1i->line;
                const bool later = !r.ifetch.empty() && r.ifetch.back().insn == i;  // (its first line may be the last's)
                r.ifetch.push_back({at, static_cast<uint8_t>(i), later});
                r.l1i_lines.push_back(l1i_->ref(at));
                if (itlb_) {
                    const Cache::Ref page = itlb_->ref(at);
                    if (r.itlb_runs.empty() || r.itlb_runs.back().first.base != page.base ||
                        r.itlb_runs.back().first.tag != page.tag)
                        r.itlb_runs.push_back({page, 0});
                    ++r.itlb_runs.back().second;
                }
                last = l;
            }
            if (i < m.size() && (m.insns_[i].branch & isa::br_taken)) last = ~uint64_t{0};  // a redirect: fetched anew
        }
    }
    if (!probe_body(m, r, mem)) return step_body(m, mem, n_mem, b, with_tail);
    // The lookups expected (checked against the caches' counts below: a recording is kept only when step() made
    // exactly these, all hits).
    uint64_t d_lookups = 0, dtlb_lookups = 0;
    for (size_t i = 0, at = 0; i < m.size(); at += n_mem[i], ++i) {
        if (!is_data(m.insns_[i])) continue;
        for (unsigned k = 0; k < n_mem[i]; ++k) {
            const bool seq = p_.count_line_once && k && l1d_ && l1d_->line_of(mem[at + k].addr) == l1d_->line_of(mem[at + k - 1].addr);
            dtlb_lookups += !seq && dtlb_;
            d_lookups += l1d_.has_value();
        }
    }
    struct Counts {
        uint64_t accesses = 0, refills = 0, writebacks = 0;
    };
    auto counts = [](const std::optional<Cache>& c) {
        return c ? Counts{c->accesses(), c->refills(), c->writebacks()} : Counts{};
    };
    const Counts i0 = counts(l1i_), it0 = counts(itlb_), d0 = counts(l1d_), dt0 = counts(dtlb_), l20 = counts(l2_),
                 mt0 = counts(main_tlb_);
    const uint64_t now0 = s_.now, lsu_free0 = s_.lsu_free, stm_issue0 = s_.stm_issue;
    if (p_.dbus_queue) dbus_entry_ = dbus_canonical(s_.now);
    body_events_.clear();
    std::vector<std::pair<uint64_t, uint64_t>> commits;  // the body's loads' and stores' commits (store_buffer)
    if (lsu_) ls_log_ = &commits;
    ++m.stepped;
    const uint64_t cycles = record_prefixes(m, r, mem, n_mem, stepped, now0, lsu_free0, stm_issue0);
    ls_log_ = nullptr;
    for (const auto& e : body_events_.events) b.add(e.event, e.count);
    auto same = [](const Counts& before, const Counts& after, uint64_t lookups) {
        return after.accesses - before.accesses == lookups && after.refills == before.refills && after.writebacks == before.writebacks;
    };
    const size_t nf = r.ifetch.size();
    if (!same(i0, counts(l1i_), nf) || !same(it0, counts(itlb_), itlb_ ? nf : 0) || !same(d0, counts(l1d_), d_lookups) ||
        !same(dt0, counts(dtlb_), dtlb_lookups) || !same(l20, counts(l2_), 0) || !same(mt0, counts(main_tlb_), 0))
        return cycles;  // not what this file expects of step(): never replayed
    --m.stepped;
    ++m.recorded;
    r.key.assign(key, key + key_len);
    save_exit(r, m, stepped, cycles, now0, lsu_free0, stm_issue0);
    if (lsu_) {
        // The model's commits; a replay takes off the holds still pending then, as timed() does.
        size_t k = 0;
        for (size_t i = 0, at = 0; i < m.size(); at += n_mem[i], ++i) {
            const isa::RetiredInsn& in = m.insns_[i];
            if (!is_data(in) || in.cond_failed) continue;
            if (k == commits.size()) return cycles;  // not what this file expects of step(): never replayed
            const auto [commit, ret] = commits[k++];
            const int64_t data = ret ? static_cast<int64_t>(ret - now0) : 0;
            if (data != static_cast<int32_t>(data)) return cycles;  // not what this file expects: never replayed
            r.ls_commit.push_back({static_cast<uint16_t>(at), in.cls == isa::InsnClass::store, n_mem[i] != 0, ret != 0,
                                   static_cast<uint32_t>(commit - now0), static_cast<int32_t>(data)});
        }
        if (k != commits.size()) return cycles;
    }
    if (p_.dbus_queue) {
        const MemRef* bus[BlockMemo::max_bus];
        const size_t nb = bus_accesses(m, mem, bus);
        const DbusState& x = s_.dbus;
        auto& rd = r.dbus;
        rd.free = static_cast<int64_t>(x.free - now0);
        rd.ibuf = x.ibuf;
        rd.ibuf_join = x.ibuf_join;
        rd.ibuf_bytes = x.ibuf_bytes;
        rd.sent_bytes = x.sent_bytes;
        rd.ibuf_last = static_cast<int64_t>(x.ibuf_last - now0);
        rd.sent_until = static_cast<int64_t>(x.sent_until - now0);
        rd.read_resp = static_cast<int64_t>(x.read_resp - now0);
        rd.ibuf_word = x.ibuf ? dbus_source(x.ibuf_word, false, dbus_entry_, bus, nb) : 0;
        rd.sent_word = dbus_source(x.sent_word, false, dbus_entry_, bus, nb);
        rd.read_beat = dbus_source(x.read_beat, true, dbus_entry_, bus, nb);
        if (rd.ibuf_word == 255 || rd.sent_word == 255 || rd.read_beat == 255) return cycles;  // not expected
    }
    keep_recording(m, std::move(r));
    return cycles;
}

// A new recording kept: in a free place, else in that of the one least recently recorded or replayed (on natural
// traces a few entry states recur often among many that come once: those stay). Which recordings are kept changes
// only which executions are replayed, never what they give.
void TimingModel::keep_recording(BlockMemo& m, BlockMemo::Recording&& r) {
    r.used = ++m.use_clock_;
    if (m.recs_.size() < BlockMemo::max_recordings) {
        m.recs_.push_back(std::move(r));
        return;
    }
    size_t oldest = 0;
    for (size_t k = 1; k < m.recs_.size(); ++k)
        if (m.recs_[k].used < m.recs_[oldest].used) oldest = k;
    m.recs_[oldest] = std::move(r);
}

// The body's branches predicted in order, before it is timed: predict() reads and writes only the predictor, which
// timed() does not touch. Each goes to the next instruction: the fall-through, or (taken) its target.
void TimingModel::predict_inner(const BlockMemo& m, EventBatch& b) {
    if (inner_flush_.size() < m.inner_.size()) inner_flush_.resize(m.inner_.size());
    unsigned* flush = inner_flush_.data();
    uint64_t counted = 0;  // counted_branch()es: their predictable event added once
    const bool table = bp_.counts();  // (predict_counted's test, the same for every branch)
    for (const BlockMemo::InnerBranch& x : m.inner_at_) {
        if (x.counted) {
            *flush++ = table ? predict_table(x.taken, x.pc, x.next, b) : predict_counted(x.taken, x.pc, x.size, x.next, b);
            ++counted;
        } else if (x.veer && !s_.next.interrupted) {  // predict_other's first case, without its tests of the instruction
            *flush++ = veer_flush(bp_.veer(x.pc, x.size, static_cast<BranchPredictor::VeerKind>(x.veer - 1), x.taken, x.next), b);
        } else {
            *flush++ = predict_other(m.insns_[x.i], x.pc, x.size, x.next, b);
        }
    }
    if (counted && p_.ev_predictable != no_event) b.add(p_.ev_predictable, counted);
}

uint64_t TimingModel::step_block(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, EventBatch& b) {
    if (!m.prepared_) prepare(m, n_mem);
    predict_body(m, nullptr, b);
    const uint64_t cycles = block(m, mem, n_mem, b, false);
    emit_lsu_buffers(b);
    return cycles;
}

uint64_t TimingModel::step_block(BlockMemo& m, const MemRef* mem, const uint8_t* n_mem, const BlockTail& t, EventBatch& b) {
    if (!m.prepared_) prepare(m, n_mem);
    const isa::RetiredInsn& in = *t.insn;
    if (!m.tail_usable_ || t.n_mem || in.cond_failed || in.unaligned) {  // the tail stepped on its own
        predict_body(m, nullptr, b);
        const uint64_t cycles = block(m, mem, n_mem, b, false);
        return cycles + step(in, t.pc, t.size, t.next_pc, t.mem, t.n_mem, b);
    }
    // The predictions first: they read and write only the predictor, which the body does not touch.
    predict_body(m, &t, b);
    tail_insn_ = &in;
    const uint64_t cycles = block(m, mem, n_mem, b, true);
    emit_lsu_buffers(b);
    return cycles;
}

// replay_body's part for the D-bus buffer (dbus_queue): its state at the exit, each address from where it comes.
void TimingModel::replay_dbus(const BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem, uint64_t now0) {
    if (!r.dbus.ibuf && !r.dbus.sent_word && !r.dbus.read_beat && s_.dbus.quiet()) {
        s_.dbus.free = now0 + static_cast<uint64_t>(r.dbus.free);  // nothing buffered before or after: the rest is 0
    } else {
        const auto& rd = r.dbus;
        const MemRef* bus[BlockMemo::max_bus];
        DbusState entry;
        if (rd.ibuf || rd.sent_word || rd.read_beat) {  // an address to restore: where it comes from
            entry = dbus_canonical(now0);
            bus_accesses(m, mem, bus);
        }
        auto from = [&](uint8_t src) {
            if (src == 0) return ~uint64_t{0};
            if (src == 1) return entry.ibuf_word;
            if (src == 2) return entry.sent_word;
            if (src == 3) return entry.read_beat;
            return src < 4 + BlockMemo::max_bus ? bus[src - 4]->addr >> 2 : bus[src - 4 - BlockMemo::max_bus]->addr >> 3;
        };
        s_.dbus.free = now0 + static_cast<uint64_t>(rd.free);
        s_.dbus.ibuf = rd.ibuf;
        s_.dbus.ibuf_join = rd.ibuf_join;
        s_.dbus.ibuf_bytes = rd.ibuf_bytes;
        s_.dbus.sent_bytes = rd.sent_bytes;
        s_.dbus.ibuf_word = rd.ibuf ? from(rd.ibuf_word) : 0;
        s_.dbus.sent_word = from(rd.sent_word);
        s_.dbus.read_beat = from(rd.read_beat);
        // A part that holds nothing keeps its cycle as 0 (dbus_drain, dbus_canonical).
        s_.dbus.ibuf_last = rd.ibuf ? now0 + static_cast<uint64_t>(rd.ibuf_last) : 0;
        s_.dbus.sent_until = rd.sent_word ? now0 + static_cast<uint64_t>(rd.sent_until) : 0;
        s_.dbus.read_resp = rd.read_beat ? now0 + static_cast<uint64_t>(rd.read_resp) : 0;
    }
}

void TimingModel::save_exit(BlockMemo::Exit& e, const BlockMemo& m, size_t n, uint64_t cycles, uint64_t now0,
                            uint64_t lsu_free0, uint64_t stm_issue0) const {
    e.cycles = cycles;
    e.events = body_events_.events;
    uint32_t written = 0;
    for (size_t i = 0; i < n; ++i) written |= m.insns_[i].regs.dst;
    for (uint32_t w = written; w; w &= w - 1) {
        const unsigned reg = static_cast<unsigned>(__builtin_ctz(w));
        const bool addr = addr_by_producer_ && reg != 31;
        e.written.push_back({static_cast<uint8_t>(reg), addr, static_cast<int64_t>(s_.ready[reg] - now0),
                             addr ? static_cast<int64_t>(s_.addr_ready[reg] - now0) : 0});
    }
    e.div_set = m.has_div_;
    e.lsu_set = s_.lsu_free != lsu_free0;  // a multiple moved it on (a cycle after the entry: the key had the old one)
    e.stm_set = s_.stm_issue != stm_issue0;  // a store multiple issued in the body (a cycle after any before)
    BlockMemo::Exit::visit(s_, e, [now0](const auto& from, auto& to, auto relative, bool) {
        using T = std::remove_reference_t<decltype(to)>;
        if constexpr (decltype(relative)::value) to = static_cast<T>(from - now0);
        else to = from;
    });
    // An entry that holds nothing back is kept as s_.fetch_at (no later than s_.fetch_at + 1: the same to timed()).
    for (size_t k = 0; k < e.fetched.size(); ++k)
        e.fetched[k] = (k < p_.fetch_queue && fetched_held(k) ? fetched_held(k) : s_.fetch_at) - now0;
}

// The recording's loads and stores to the LSU buffers, then the buffers settled to the body's end (as
// emit_lsu_buffers() would next). Where the buffers' state at the entry (the D-bus buffer's among save()'s words),
// s_.lsu_pending and the accesses' places, bits and words are those of the replay the recording's LsuMemo kept
// (over the DCCM or the bus), the result is that replay's, shifted to this entry and with this entry's words: set
// from the memo. The engines' differential test compares the buffers after every replayed body (replay_checked,
// same_state).
void TimingModel::lsu_replay(const BlockMemo::Recording& r, const MemRef* mem, uint64_t now0) {
    // Each data word as its place among the key's distinct words (lsu_words_) and its bits 1:0 (the DCCM's bank):
    // the buffers compare words only with each other, for equality and by those bits (lsu_buffers.hpp), so two
    // entries whose keys agree behave the same with each word of the one for the other's at that place.
    size_t k = 0, nw = 0;
    auto find = [this, &nw](uint64_t w) {  // w's place among the distinct words so far, nw where it is none
        size_t i = 0;
        while (i < nw && lsu_words_[i] != w) ++i;
        return i;
    };
    auto place = [this, &nw, &find](uint64_t w) -> uint64_t {
        const size_t i = find(w);
        if (i == nw) lsu_words_[nw++] = w;
        return uint64_t{i} << 2 | (w & 3u);
    };
    auto& memo = r.lsu;
    // A recording whose memo missed its last 4 replays is keyed again only at every 64th (keying and saving cost
    // more than the feed they save where the D-bus buffer's cycles seldom repeat: docs/performance.md, speed21b).
    const bool keyed = memo.misses < 4 || memo.misses % 64 == 0;
    if (const size_t n = keyed ? lsu_->save(now0, lsu_key_.data() + 2, [&place](uint64_t w, bool) { return place(w); }) : 0) {
        lsu_key_[0] = s_.lsu_pending;
        lsu_key_[1] = s_.lsu_prev_eff - now0;  // the first access's predecessor (a dual one marks from it)
        k = 2 + n;
        for (const auto& c : r.ls_commit) {  // per access: bits 1:0 of its first and last byte, DCCM or bus, its words
            LsuAccess a;
            lsu_place(a, c.has_mem ? mem + c.mem : nullptr, c.has_mem ? 1 : 0);
            lsu_key_[k++] = (a.first & 3u) | (a.last & 3u) << 2 | uint64_t{a.dccm} << 4 | uint64_t{a.bus} << 5 |
                            place(a.first >> 2) << 8 | place(a.last >> 2) << 36;
        }
    }
    if (k && memo.key.size() == k && std::memcmp(memo.key.data(), lsu_key_.data(), k * sizeof(uint64_t)) == 0) {
        lsu_->load(now0, memo.exit.data(), memo.exit.size(), [this](uint64_t w) { return lsu_words_[w >> 2]; });
        lsu_->add_full(memo.full);
        s_.lsu_pending = memo.pending;
        s_.lsu_prev_eff = now0 + r.cycles - s_.lsu_pending;
        ++lsu_memo_hits_;
        memo.misses = 0;
        return;
    }
    ++memo.misses;
    const uint64_t full0 = lsu_->full();
    for (const auto& c : r.ls_commit) {
        if (!c.store) s_.lsu_pending = 0;
        const uint64_t eff = now0 + c.commit - s_.lsu_pending;
        const MemRef* a = c.has_mem ? mem + c.mem : nullptr;
        lsu_commit(c.store, eff, s_.lsu_prev_eff, a, a ? 1 : 0, c.has_data ? now0 + static_cast<uint64_t>(int64_t{c.data}) : 0);
        s_.lsu_prev_eff = eff;  // a body has no dual access: only the last one's matters (below)
    }
    s_.lsu_prev_eff = now0 + r.cycles - s_.lsu_pending;
    lsu_->settle(s_.lsu_prev_eff);
    if (!k) return;
    // Every word the buffers hold at the exit is one of the entry's or the accesses' (kept as its place).
    bool found = true;
    if (const size_t n = lsu_->save(now0, lsu_exit_.data(), [nw, &find, &found](uint64_t w, bool) {
            const size_t i = find(w);
            found &= i < nw;
            return uint64_t{i} << 2 | (w & 3u);
        })) {
        if (!found) return;
        memo.key.assign(lsu_key_.begin(), lsu_key_.begin() + static_cast<std::ptrdiff_t>(k));
        memo.exit.assign(lsu_exit_.begin(), lsu_exit_.begin() + static_cast<std::ptrdiff_t>(n));
        memo.full = lsu_->full() - full0;
        memo.pending = s_.lsu_pending;
    }
}

size_t TimingModel::bus_accesses(const BlockMemo& m, const MemRef* mem, const MemRef** out) const {
    size_t n = 0;
    for (size_t j = 0; j < m.total_mem_ && n < BlockMemo::max_bus; ++j)
        if (!p_.local_data->contains(mem[j].addr)) out[n++] = &mem[j];
    return n;
}

uint8_t TimingModel::dbus_source(uint64_t v, bool beat, const DbusState& entry, const MemRef* const* bus, size_t n_bus) const {
    static_assert(4 + 2 * BlockMemo::max_bus <= 255, "a source in a byte, 255 not one");
    if (v == ~uint64_t{0}) return 0;
    for (size_t j = n_bus; j-- > 0;)  // a word a store's, a beat a load's
        if (bus[j]->write != beat && (bus[j]->addr >> (beat ? 3 : 2)) == v)
            return static_cast<uint8_t>(4 + (beat ? BlockMemo::max_bus : 0) + j);
    if (entry.ibuf && v == entry.ibuf_word && !beat) return 1;
    if (v == entry.sent_word && !beat) return 2;
    if (v == entry.read_beat && beat) return 3;
    return 255;
}

// The test hook (set_check_blocks): block()'s replay of the recording (or where a lookup misses, its prefix and
// step() on: replay_partial) compared with step() per instruction on a copy of the entry state.
uint64_t TimingModel::replay_checked(BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem,
                                     const uint8_t* n_mem, EventBatch& b, bool with_tail) {
    TimingModel check(*this);  // the entry state, before claim_body() makes the lookups
    EventBatch replayed;
    uint64_t cycles = r.cycles;
    if (claim_body(m, r, mem)) {
        m.policy_.hit();
        replay_body(m, r, mem, replayed);
    } else {
        const uint64_t partial = m.partial;
        cycles = replay_partial(m, r, mem, n_mem, replayed, with_tail);
        if (m.partial == partial) {  // stepped whole: nothing replayed to check
            for (const auto& e : replayed.events) b.add(e.event, e.count);
            return cycles;
        }
    }
    for (const auto& e : replayed.events) b.add(e.event, e.count);
    EventBatch eb;
    BlockMemo plain(m);
    const uint64_t c = check.step_body(plain, mem, n_mem, eb, with_tail);
    if (check.lsu_) check.lsu_->settle(check.s_.lsu_prev_eff);  // as the replay did (lsu_replay), as emit_lsu_buffers would
    auto sorted = [](std::vector<EventCount> v) {
        std::sort(v.begin(), v.end(), [](const EventCount& x, const EventCount& y) { return x.event < y.event; });
        return v;
    };
    const auto got = sorted(replayed.events), want = sorted(eb.events);
    bool events_same = got.size() == want.size();
    for (size_t k = 0; events_same && k < got.size(); ++k)
        events_same = got[k].event == want[k].event && got[k].count == want[k].count;
    if (c != cycles || !events_same || !same_state(check))
        throw std::logic_error("block timing: a replayed recording differs from step() at pc " + std::to_string(m.pcs_[0]));
    return cycles;
}

// Every field of the state as same_state compares it (PipelineState::visit): as it is, but a held cycle (a fetch
// buffer entry, the last fetch) only while it can still hold a fetch back.
namespace {
struct StateCollect {
    std::vector<uint64_t>& out;
    template <class T>
    void operator()(const T& f, FieldKind k, bool live) {
        out.push_back(k == FieldKind::held && !live ? 0 : static_cast<uint64_t>(f));
    }
    template <class N>
    void nested(const N& n) {
        N::visit(n, [&](const auto& f, FieldKind, bool) { out.push_back(static_cast<uint64_t>(f)); });
    }
};
}  // namespace

void TimingModel::state_words(std::vector<uint64_t>& out) const {
    PipelineState::visit(s_, StateCollect{out}, StateLiveness(*this));
}

bool TimingModel::same_state(const TimingModel& o) const {
    std::vector<uint64_t> mine, theirs;
    state_words(mine);
    o.state_words(theirs);
    if (mine != theirs || !(lsu_ == o.lsu_)) return false;
    const auto a = caches_of(*this), b = caches_of(o);
    for (size_t k = 0; k < a.size(); ++k)
        if (a[k]->has_value() != b[k]->has_value() || (*a[k] && !(*a[k])->same_state(**b[k]))) return false;
    return true;
}

}  // namespace pmusim::timing
