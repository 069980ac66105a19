// The block runner: records in batches from the reader's storage; each record with its successor in the batch runs
// in a decoded block where one is cached or can be built (its body timed from the timing model's recordings:
// TimingModel::step_block), else through the record stepper. Exactly what the stepper does with the same records
// (tests/unit/test_replay_engines.cpp). Specialised by whether the timing model runs (kTm) and the timing mode (kT).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "replay/block.hpp"
#include "replay/core.hpp"
#include "replay/registers.hpp"
#include "replay/session.hpp"
#include "replay/stepper.hpp"

namespace pmusim::replay {

class BlockRunner {
public:
    BlockRunner(Session& s, Core& c, const RegisterAccess& regs, RecordStepper& stepper)
        : s_(s), c_(c), regs_(regs), stepper_(stepper) {}

    // The block engine over every record of `reader`. The last record of a batch waits for the next batch (its
    // successor's PC) and is stepped alone.
    template <bool kTm, Timing kT>
    void run(trace::TraceReader& reader);
    // The first `m` records of `recs` (each with its successor after it): each runs in a block where one is cached
    // or can be built, else through the stepper.
    template <bool kTm, Timing kT>
    void replay_records(const TraceRecord* recs, size_t m);

    // A block from the records at recs[i] (of which the first `m` have their successor at hand): nullptr when the
    // first instruction cannot start one. `joins` (a run's plan, whose records are fixed; nullptr: the block
    // cache's, records that may go either way): the block goes on through a conditional branch that falls through
    // (its successor next in the run) with no data access, up to BlockMemo::max_inner of them; the timing model
    // predicts them one by one before it times the body (TimingModel::step_block). joins[j] (a group of runs,
    // RunPlanner::extend): record j's successor starts the next run; the block goes on through it too when it is a
    // branch with no data access (taken: marked so in the block's instructions, as the run fixes it).
    std::unique_ptr<Block> make_block(const TraceRecord* recs, size_t i, size_t m, const uint8_t* joins = nullptr);

private:
    // make_block() into the cache.
    Block* build(const TraceRecord* recs, size_t i, size_t m) {
        auto b = make_block(recs, i, m);
        return b ? blocks_.put(std::move(b)) : nullptr;
    }
    // Block `b` over the records from `recs` (the first `avail` have their successor at hand), as far as they match
    // it: how many it took.
    template <bool kTm, Timing kT>
    size_t run_block(const Block& b, const TraceRecord* recs, size_t avail);
    // Block `b` whole over recs[0..b.size()] with the block timing for all but the last instruction: b.size() or 0.
    template <Timing kT>
    size_t run_timed_block(const Block& b, const TraceRecord* recs);
    // A whole block whose records changed no kind before the last: one histogram add per kind, the last (`last`,
    // completed from its record) on its own; then its cycles.
    void retire_whole(const Block& b, const isa::RetiredInsn& last, uint64_t cycles) {
        for (const auto& [id, count] : b.counts) s_.hist.add_id(id, count);
        s_.hist.add(last, kind_of(b.kinds[b.size() - 1], last));
        s_.retired(b.size(), cycles);
    }

    Session& s_;
    Core& c_;
    const RegisterAccess& regs_;
    RecordStepper& stepper_;
    BlockCache blocks_;
    // A block body's data accesses for the block timing (kept: a MemRef array on the stack is built per call).
    std::vector<timing::MemRef> body_mem_ = std::vector<timing::MemRef>(Block::max * TraceRecord::max_mem);
    std::array<uint8_t, Block::max> body_n_mem_{};
};

template <bool kTm, Timing kT>
void BlockRunner::run(trace::TraceReader& reader) {
    const Options& o = c_.o;
    Result& r = s_.r;
    TraceRecord carry;
    bool held = false;
    const TraceRecord* recs = nullptr;
    for (size_t n; (n = reader.next_batch(recs)) != 0;) {
        for (size_t i = 0; i < n; ++i) c_.check_isa(recs[i]);
        if (held) stepper_.step(carry, &recs[0]);
        const size_t m = n - 1;  // records whose successor is in the batch
        replay_records<kTm, kT>(recs, m);
        carry = recs[m];
        held = true;
        const uint64_t before = r.records;
        r.records += n;
        if (o.on_progress && (before >> 18) != (r.records >> 18)) o.on_progress(Progress{r.records, reader.bytes_read(), false});
        if (o.stop && *o.stop) break;  // Ctrl-C: every record read is replayed, no more are read
    }
    if (o.stop && *o.stop) r.interrupted = true;
    if (held) stepper_.step(carry, nullptr);
}

template <bool kTm, Timing kT>
void BlockRunner::replay_records(const TraceRecord* recs, size_t m) {
    for (size_t i = 0; i < m;) {
        const TraceRecord& rec = recs[i];
        size_t done = 0;
        if (rec.privilege == c_.priv && !rec.interrupt) {
            Block* b = blocks_.find(rec);
            if (!b) b = build(recs, i, m);
            if (b) done = run_block<kTm, kT>(*b, recs + i, m - i);
        }
        if (done == 0) {
            stepper_.step(rec, &recs[i + 1]);
            done = 1;
        }
        i += done;
    }
}

// Each record is timed exactly as step() times it; retirement is added per kind for the whole block unless a record
// changed a kind (a failed condition, an unaligned access).
template <bool kTm, Timing kT>
size_t BlockRunner::run_block(const Block& b, const TraceRecord* recs, size_t avail) {
    if constexpr (kTm)
        if (b.memo && avail >= b.size())
            if (const size_t k = run_timed_block<kT>(b, recs)) return k;
    const size_t n = std::min<size_t>(b.size(), avail);
    size_t k = 0;
    bool plain = true;
    uint64_t cycles = 0;
    for (; k < n; ++k) {
        const TraceRecord& rec = recs[k];
        if (rec.trapped || rec.interrupt || record_key(rec) != b.keys[k]) break;  // step() takes traps and interrupts
        if constexpr (kTm) {
            const isa::RetiredInsn insn = complete(b.insns[k], rec, &recs[k + 1]);
            plain &= !(insn.cond_failed | insn.unaligned);
            const uint64_t c = stepper_.model_cycles(insn, rec, &recs[k + 1]);
            if constexpr (kT == Timing::model) cycles += c;
        } else {
            plain &= !(rec.cond_failed | unaligned(rec));
        }
        if constexpr (kT == Timing::trace) {
            cycles += c_.trace_cycles(rec);
            c_.prev_time = rec.time;
        }
        c_.gprs(rec);
    }
    if (k == 0) return 0;
    if constexpr (kT == Timing::cpi1) cycles = k;
    if constexpr (kT != Timing::trace) c_.prev_time = recs[k - 1].time;
    if (plain && k == b.size()) {
        retire_whole(b, complete(b.insns[k - 1], recs[k - 1], &recs[k]), cycles);
        return k;
    }
    for (size_t j = 0; j < k; ++j) {
        const isa::RetiredInsn insn = complete(b.insns[j], recs[j], &recs[j + 1]);
        s_.hist.add(insn, kind_of(b.kinds[j], insn));
    }
    s_.retired(k, cycles);
    return k;
}

// Only when every record is the block's instruction at its address, none trapped or entered by an interrupt, and
// those before the last are as decoded (no failed condition, no unaligned access); else 0 (the caller then runs it
// record by record).
template <Timing kT>
size_t BlockRunner::run_timed_block(const Block& b, const TraceRecord* recs) {
    timing::TimingModel& tm = *c_.tm;
    const size_t n = b.size(), body = n - 1;
    timing::MemRef* mem = body_mem_.data();
    uint8_t* n_mem = body_n_mem_.data();
    uint64_t pc = b.pc;
    size_t at = 0;
    bool odd = false;  // a failed condition or an unaligned access before the last
    for (size_t k = 0; k < body; ++k) {  // the checks and the data accesses in one pass
        const TraceRecord& rec = recs[k];
        if (rec.trapped || rec.interrupt || rec.pc != pc || record_key(rec) != b.keys[k]) return 0;
        odd |= rec.cond_failed;
        n_mem[k] = rec.n_mem;
        for (unsigned i = 0; i < rec.n_mem; ++i) {
            const trace::MemAccess& a = rec.mem[i];
            odd |= a.size > 1 && a.size <= 16 && a.addr % a.size;  // unaligned(), as complete() sees it
            mem[at++] = timing::MemRef{a.addr, a.is_write, a.size};
        }
        pc += rec.size;
    }
    const TraceRecord& last_rec = recs[body];
    if (odd || last_rec.trapped || last_rec.interrupt || last_rec.pc != pc || record_key(last_rec) != b.keys[body]) return 0;
    c_.mem_seen |= at != 0;
    const uint64_t replayed = b.memo->replayed;
    const isa::RetiredInsn last = complete(b.insns[body], recs[body], &recs[n]);
    uint64_t cycles = 0;
    if (b.memo->has_tail() && !recs[n].interrupt) {  // (before an interrupt entry model_cycles tells the model)
        timing::MemRef last_mem[TraceRecord::max_mem];
        for (unsigned i = 0; i < last_rec.n_mem; ++i) last_mem[i] = timing::MemRef{last_rec.mem[i].addr, last_rec.mem[i].is_write, last_rec.mem[i].size};
        c_.mem_seen |= last_rec.n_mem != 0;
        const timing::BlockTail tail{&last, last_rec.pc, last_rec.size, recs[n].pc, last_mem, last_rec.n_mem};
        cycles = tm.step_block(*b.memo, mem, n_mem, tail, s_.batch);
    } else {
        cycles = tm.step_block(*b.memo, mem, n_mem, s_.batch);
        cycles += stepper_.model_cycles(last, recs[body], &recs[n]);
    }
    s_.r.timed_blocks += b.memo->replayed - replayed;
    if constexpr (kT == Timing::trace) {
        cycles = 0;
        for (size_t k = 0; k < n; ++k) {
            cycles += c_.trace_cycles(recs[k]);
            c_.prev_time = recs[k].time;
        }
    } else {
        c_.prev_time = recs[body].time;
    }
    if constexpr (kT == Timing::cpi1) cycles = n;
    for (size_t k = 0; k < n; ++k) c_.gprs(recs[k]);
    retire_whole(b, last, cycles);
    return n;
}

}  // namespace pmusim::replay
