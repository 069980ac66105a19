#include "replay/replay.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include <fmt/format.h>

#include "isa/a32_coproc.hpp"
#include "isa/a64_sysreg.hpp"
#include "isa/arm_classify.hpp"
#include "isa/reg_use.hpp"
#include "isa/rv32.hpp"
#include "model/core/zeroed_table.hpp"
#include "replay/producer.hpp"
#include "platforms/timing_params.hpp"

namespace pmusim::replay {

namespace {

using trace::IsaState;
using trace::RegKind;
using trace::RunShape;
using trace::TraceRecord;

// What the replay needs to know of an instruction, decoded once per distinct encoding.
struct Decoded {
    isa::RetiredInsn insn;
    uint32_t kind = 0;    // RetireHistogram::kind(insn) of the encoding alone
    bool retires = true;  // RISC-V ecall/ebreak trap instead of retiring
    bool is_csr = false;
    isa::rv32::CsrInsn csr;
    bool is_sysreg = false;  // ARM MRS/MSR, MRC/MCR
    EncodingSpace space = EncodingSpace::a64_sysreg;
    uint32_t key = 0;
    bool sys_read = false;
    unsigned rt = 0;
};

isa::InsnClass rv_class(isa::rv32::Klass k, const isa::rv32::CsrInsn* csr) {
    using K = isa::rv32::Klass;
    using C = isa::InsnClass;
    switch (k) {
        case K::load: return C::load;
        case K::store: return C::store;
        case K::branch: return C::branch;
        case K::jal:
        case K::jalr: return C::jump;
        case K::mul: return C::mul;
        case K::bitmanip: return C::bitmanip;
        case K::div: return C::div;
        case K::ecall: return C::ecall;
        case K::ebreak: return C::ebreak;
        case K::mret: return C::mret;
        case K::fence: return C::fence;
        case K::fence_i: return C::fence_i;
        case K::csr: {
            const auto c = isa::rv32::csr_class(*csr);
            return c == isa::rv32::CsrClass::read ? C::csr_read : c == isa::rv32::CsrClass::write ? C::csr_write : C::csr_read_write;
        }
        default: return C::alu;  // ALU operations, and WFI (implemented as a NOP on VeeR EL2)
    }
}

Decoded decode_rv(uint32_t enc, bool rv64) {
    Decoded d;
    const auto info = isa::rv32::classify(enc, rv64);
    d.insn.compressed = info.compressed;
    // Branch detail: JAL has its target in the encoding, JALR in a register; a JALR with rd x0 and rs1 ra or t0
    // returns (the unprivileged spec's return-address stack hints, 2.5: pop).
    d.insn.regs = isa::rv_reg_use(enc, rv64);
    const uint32_t link = isa::reg_bit(1) | isa::reg_bit(5);
    using K = isa::rv32::Klass;
    if (info.klass == K::branch) d.insn.branch = isa::br_immediate | isa::br_conditional;
    if (info.klass == K::jal) {
        // Beyond a B-type branch's 13-bit offset (VeeR EL2's BTB holds no more: such a JAL is not predicted, event 27).
        const int32_t off = isa::rv32::transfer(enc, rv64).offset;
        d.insn.branch = static_cast<uint8_t>(isa::br_immediate | (off < -4096 || off > 4094 ? isa::br_far : 0));
    }
    if (info.klass == K::jalr) {
        const bool ret = d.insn.regs.dst == 0 && (d.insn.regs.src & link);
        d.insn.branch = static_cast<uint8_t>(isa::br_register | (ret ? isa::br_return : 0));
    }
    if (info.klass == K::mret) d.insn.branch = isa::br_register | isa::br_exc_return;
    // A jump that links in ra or t0 is a call (the RISC-V return-address hint convention).
    if ((info.klass == K::jal || info.klass == K::jalr) && (d.insn.regs.dst & link))
        d.insn.branch = static_cast<uint8_t>(d.insn.branch | isa::br_call);
    if (const auto c = isa::rv32::decode_csr(enc)) {
        d.is_csr = true;
        d.csr = *c;
    }
    d.insn.cls = rv_class(info.klass, d.is_csr ? &d.csr : nullptr);
    d.retires = info.klass != isa::rv32::Klass::ecall && info.klass != isa::rv32::Klass::ebreak;
    return d;
}

Decoded decode_arm(uint32_t enc, IsaState isa, uint8_t size) {
    Decoded d;
    if (isa == IsaState::a64) {
        d.insn = isa::arm::classify_a64(enc);
        d.insn.regs = isa::a64_reg_use(enc);
        if (const auto m = isa::a64::decode(enc)) {
            d.is_sysreg = true;
            d.space = EncodingSpace::a64_sysreg;
            d.key = isa::a64::key(*m);
            d.sys_read = m->is_read;
            d.rt = m->rt;
        }
        return d;
    }
    const bool t32 = isa == IsaState::t32;
    d.insn = t32 ? isa::arm::classify_t32(enc, size == 4) : isa::arm::classify_a32(enc);
    d.insn.regs = t32 ? isa::t32_reg_use(enc, size == 4) : isa::a32_reg_use(enc);
    const auto m = t32 ? (size == 4 ? isa::a32::decode_t32(enc) : std::nullopt) : isa::a32::decode_a32(enc);
    if (m && m->coproc == 15) {
        d.is_sysreg = true;
        d.space = EncodingSpace::cp15;
        d.key = isa::a32::cp15_key(*m);
        d.sys_read = m->is_read;
        d.rt = m->rt;
    }
    return d;
}

// Retired instructions counted by kind between two flushes: the platform's retire() then runs once per kind with
// its count (events in a batch have no order), not once per instruction. A kind is everything retire() reads.
// Kinds get dense numbers as they are first seen (a trace has a few dozen), so a block adds its counts by number.
class RetireHistogram {
public:
    // The kind of an instruction as a number.
    static uint32_t kind(const isa::RetiredInsn& i) {
        return static_cast<uint32_t>(i.cls) | (i.compressed ? 1u << 5 : 0u) | (i.cond_failed ? 1u << 6 : 0u) |
               (i.multiple ? 1u << 7 : 0u) | (i.unaligned ? 1u << 8 : 0u) | (static_cast<uint32_t>(i.branch) << 9);
    }
    // The dense number of kind `key` (kind(i)), given one the first time.
    uint32_t id(const isa::RetiredInsn& i, uint32_t key) {
        Slot& s = slots_[(key * 0x9E3779B1u) >> 26];
        if (s.used && s.key == key) return s.id;
        uint32_t n = 0;
        while (n < keys_.size() && keys_[n] != key) ++n;
        if (n == keys_.size()) {
            keys_.push_back(key);
            insns_.push_back(i);
            counts_.push_back(0);
        }
        s = Slot{key, n, true};
        return n;
    }
    void add_id(uint32_t id, uint64_t n) {
        if (counts_[id] == 0) touched_.push_back(id);
        counts_[id] += n;
    }
    // `key` is kind(i); the replay builds it from the decoded part and the record's.
    void add(const isa::RetiredInsn& i, uint32_t key, uint64_t n = 1) { add_id(id(i, key), n); }
    void drain(const Platform& p, EventBatch& b) {
        for (uint32_t k : touched_) {
            p.retire(insns_[k], counts_[k], b);
            counts_[k] = 0;
        }
        touched_.clear();
    }

private:
    struct Slot {  // a direct-mapped cache of kind -> number
        uint32_t key = 0, id = 0;
        bool used = false;
    };
    std::array<Slot, 64> slots_{};
    std::vector<uint32_t> keys_;
    std::vector<isa::RetiredInsn> insns_;
    std::vector<uint64_t> counts_;
    std::vector<uint32_t> touched_;  // numbers with a count, in the order first counted
};

// Everything a record's decoding depends on (encoding, instruction set, size), and its privilege, as one number;
// bit 56 marks a valid key.
inline uint64_t record_key(const TraceRecord& r) {
    return r.encoding | uint64_t{static_cast<uint8_t>(r.isa)} << 32 | uint64_t{r.size} << 40 |
           uint64_t{r.privilege} << 48 | uint64_t{1} << 56;
}

// An access not aligned to its size, where the trace gives both.
inline bool unaligned(const TraceRecord& rec) {
    bool u = false;
    for (unsigned i = 0; i < rec.n_mem; ++i)
        u |= rec.mem[i].size > 1 && rec.mem[i].size <= 16 && rec.mem[i].addr % rec.mem[i].size;
    return u;
}

// A RISC-V division's source registers (rs1, rs2) and whether it is a remainder (rem and remu: funct3 6 and 7).
inline unsigned div_source(uint32_t encoding, unsigned k) { return (encoding >> (15 + 5 * k)) & 31u; }
inline bool div_is_rem(uint32_t encoding) { return ((encoding >> 13) & 3u) == 3u; }

// Whether a control transfer at `pc` of `size` bytes whose successor is at `next_pc` was taken: when the successor
// is not the instruction that follows it; a RISC-V jump (JAL, JALR: never conditional) always, even to the
// instruction that follows (tests/veer-rtl/unpred: a c.j to pc + 2 is in the RTL's event 26). ARM's unconditional
// encodings may still be conditional inside a T32 IT block, so there the successor decides.
inline bool branch_taken(const isa::RetiredInsn& insn, IsaState state, uint64_t pc, unsigned size, uint64_t next_pc) {
    const bool rv = state == IsaState::rv32 || state == IsaState::rv64;
    return next_pc != pc + size || (rv && !(insn.branch & isa::br_conditional));
}

// What a record adds to its decoded instruction: the condition, alignment, and whether a branch was taken
// (branch_taken; at the end of the trace: when it is unconditional).
inline isa::RetiredInsn complete(const isa::RetiredInsn& decoded, const TraceRecord& rec, const TraceRecord* next) {
    isa::RetiredInsn insn = decoded;
    insn.cond_failed = rec.cond_failed;
    insn.unaligned = unaligned(rec);
    if (insn.branch) {
        const bool taken = next ? branch_taken(insn, rec.isa, rec.pc, rec.size, next->pc) : !(insn.branch & isa::br_conditional);
        if (taken && !rec.cond_failed) insn.branch = static_cast<uint8_t>(insn.branch | isa::br_taken);
    }
    return insn;
}

// The retire kind of a completed instruction: the decoded part's, with what the record added.
inline uint32_t kind_of(uint32_t decoded_kind, const isa::RetiredInsn& insn) {
    return decoded_kind | (insn.cond_failed ? 1u << 6 : 0u) | (insn.unaligned ? 1u << 8 : 0u) |
           (static_cast<uint32_t>(insn.branch & isa::br_taken) << 9);
}

// A direct-mapped cache of decoded encodings: traces repeat a small set of static instructions.
class DecodeCache {
public:
    const Decoded& get(uint32_t enc, IsaState isa, uint8_t size) {
        // One key for encoding, state and size; bit 48 marks a filled slot.
        const uint64_t key = enc | uint64_t{static_cast<uint8_t>(isa)} << 32 | uint64_t{size} << 40 | uint64_t{1} << 48;
        Slot& s = slots_[(enc ^ (enc >> 12) ^ static_cast<uint32_t>(isa)) & (slots_.size() - 1)];
        if (s.key != key) {
            s.key = key;
            s.d = isa == IsaState::rv32 || isa == IsaState::rv64 ? decode_rv(enc, isa == IsaState::rv64) : decode_arm(enc, isa, size);
            s.d.kind = RetireHistogram::kind(s.d.insn);
        }
        return s.d;
    }

private:
    struct Slot {
        uint64_t key = 0;  // 0: empty
        Decoded d;
    };
    std::array<Slot, 4096> slots_{};
};

// A basic block as the trace ran it: consecutive instructions from `pc` up to and including a branch, decoded
// once. Its instructions are matched record by record on record_key() (encoding, state, size, privilege), so a
// block is never replayed over other code (self-modifying code, a different state) and privilege changes end it.
// Instructions that access registers (CSR, MRS/MSR, MRC/MCR) or do not retire (ecall, ebreak) are never in a
// block: the per-instruction step, which both engines share, takes them.
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

// Regions of interest (--roi): which retired instructions the report counts. The replay ends its batches where
// the state changes, so every batch lies wholly inside or wholly outside (events in a batch have no order).
class RoiTracker {
public:
    explicit RoiTracker(const std::vector<Region>& regions) {
        for (const auto& r : regions) counts_.push_back(RegionCount{r, 0, false});
    }
    bool active() const { return !counts_.empty(); }
    bool inside() const { return inside_; }
    // Follows a retired instruction at `pc`; true when the state changes with it: the caller then ends the batch
    // and commit()s the new state.
    bool step(uint64_t pc) {
        bool any = false;
        for (auto& c : counts_) {
            const Region& g = c.region;
            if (g.extent) {
                if (pc == g.start) ++c.entered;
                c.open_at_end = pc >= g.start && pc < g.end;
            } else {
                if (c.open_at_end && pc == g.end) c.open_at_end = false;  // END itself is not counted
                if (!c.open_at_end && pc == g.start) {
                    c.open_at_end = true;
                    ++c.entered;
                }
            }
            any |= c.open_at_end;
        }
        next_ = any;
        return next_ != inside_;
    }
    void commit() { inside_ = next_; }
    // Adds a flushed batch to the region's totals when it lies inside.
    void add(const EventBatch& b) {
        if (!inside_) return;
        cycles_ += b.cycles;
        for (const auto& e : b.events)
            if (e.event < totals_.size()) totals_[e.event] += e.count;
    }
    void retired() { instructions_ += inside_; }
    // Replaces the whole trace's counts in `r` with the regions' (keeping the whole trace's apart).
    void finish(Result& r, uint32_t cycle_event) {
        r.trace_instructions = r.instructions;
        r.trace_cycles = r.cycles;
        r.instructions = instructions_;
        r.cycles = cycles_;
        for (auto& [n, c] : r.event_totals) c = (n < totals_.size() ? totals_[n] : 0) + (n == cycle_event ? cycles_ : 0);
        r.regions = counts_;
    }

private:
    std::vector<RegionCount> counts_;  // open_at_end doubles as "inside" while replaying
    bool inside_ = false, next_ = false;
    uint64_t instructions_ = 0, cycles_ = 0;
    ZeroedTable<uint64_t> totals_{65536};  // by event number (16 bits)
};

// --timing cpi1: one cycle per instruction leaves no cycle for a stall, so the timing model is built without its
// stall events (front end, back end, fetch, result-use waits, pre- and post-sync: their count is 0, consistent with
// cycles == instructions); its other events stand.
timing::TimingParams without_stalls(timing::TimingParams t) {
    for (uint32_t* e : {&t.ev_stall_frontend, &t.ev_stall_backend, &t.ev_fetch_stall, &t.ev_dep_stall, &t.ev_presync, &t.ev_postsync})
        *e = timing::no_event;
    return t;
}

class Replayer {
public:
    Replayer(const Options& o, const Platform& p) : o_(o), p_(p), totals_(65536), roi_(o.roi) {
        if (o.pmu) {
            pmu_ = o.pmu;
        } else {
            owned_ = p.make(o.platform_options);
            pmu_ = owned_.get();
        }
        if (!o.events.empty()) select_events();
        if (!o.timing_events && o.timing == Timing::model)
            throw std::invalid_argument("--architectural needs --timing cpi1 or trace (the timing model gives the cycles)");
        if (p.timing)
            if (o.timing_events || o.timing == Timing::model)
                tm_.emplace(o.timing == Timing::cpi1 ? without_stalls(*p.timing) : *p.timing);
        if (tm_) tm_->set_check_blocks(o.check_block_timing);
        // The block engine replays the VeeR EL2 predictor's calls from a memo where they repeat (set_memo); the
        // reference stepper steps every one.
        if (tm_ && o.engine == Engine::block) tm_->predictor().set_memo(true);
        isa::a32::CoprocMove sctlr;  // SCTLR: MCR p15, 0, Rt, c1, c0, 0
        sctlr.crn = 1;
        sctlr.is_read = false;
        sctlr_key_ = isa::a32::cp15_key(sctlr);
        next_sample_ = o.sample_period ? o.sample_period : ~uint64_t{0};
        next_interval_ = o.interval;
        if (o.on_interval)
            for (const auto& e : p.event_names())
                if (p.implements(*pmu_, e.number)) series_events_.push_back(e.number);
    }

    Result run(std::unique_ptr<trace::TraceReader> reader) {
        if (!reader) {
            trace::ReaderOptions ro = o_.reader;
            ro.isa = p_.isa == IsaKind::a64 ? IsaState::a64 : p_.isa == IsaKind::a32 ? IsaState::a32 : IsaState::rv32;
            reader = trace::open_reader(o_.trace, o_.format, ro);
        }
        reader_ = reader.get();
        r_.format = std::string(reader->format());
        if (o_.timing == Timing::trace && !reader->has_time())
            throw std::invalid_argument(fmt::format("{}: --timing trace: this {} trace carries no timestamps (use --timing model or cpi1)",
                                                    o_.trace, r_.format));
        producer_ = producer_of(*reader);  // what its read-backs depend on (replay/producer.hpp)
        r_.producer = producer_.name;
        r_.producer_timing = producer_.clock;
        // A trace from reset starts with VeeR EL2's reset mrac: no region cacheable (the program's writes follow).
        if (tm_ && tm_->params().follows_mrac && reader->starts_at_reset()) tm_->set_mrac(0);

        // The block engine hands whole batches to the PMU; --interval, sample points and SystemC's hook see every
        // instruction, and --roi ends a batch at every region boundary (RoiTracker): these take the reference path.
        const bool blocks = o_.engine == Engine::block && !o_.interval && !o_.advance_hook && !o_.sample_period &&
                            !roi_.active();
        if (blocks) {
            const bool runs = reader->stores_runs();
            specialised([&](auto tm, auto mode) {
                constexpr bool kTm = decltype(tm)::value;
                constexpr Timing kT = decltype(mode)::value;
                if (runs) this->template run_runs<kTm, kT>(*reader);
                else this->template run_blocks<kTm, kT>(*reader);
            });
        } else {
            run_reference(*reader);
        }
        // Nothing to replay is an error, whatever the engine: never a report of 0 records.
        if (r_.records == 0)
            throw trace::TraceError(o_.trace, 0, fmt::format("no instruction records in this {} trace", r_.format));
        if (o_.on_progress) o_.on_progress(Progress{r_.records, reader->bytes_read(), true});
        flush();
        // The series ends with the trace's totals.
        if (o_.on_interval && (!last_point_ || last_point_->first != r_.instructions || last_point_->second != total_cycles_))
            interval_point();
        r_.skipped_note(reader.get());
        readback_notes();
        if (!reader->end_note().empty()) r_.notes.push_back(reader->end_note());
        collect();
        return r_;
    }

private:
    // Calls f(tm, mode) with whether the timing model runs and the timing mode as compile-time constants
    // (std::integral_constant): the block engine's loops are specialised by both.
    template <typename F>
    void specialised(F&& f) {
        auto by_mode = [&](auto tm) {
            switch (o_.timing) {
                case Timing::model: return f(tm, std::integral_constant<Timing, Timing::model>{});
                case Timing::trace: return f(tm, std::integral_constant<Timing, Timing::trace>{});
                case Timing::cpi1: return f(tm, std::integral_constant<Timing, Timing::cpi1>{});
            }
        };
        if (tm_) by_mode(std::true_type{});
        else by_mode(std::false_type{});
    }

    // The reference: one record at a time. One record is held back: whether a branch was taken shows in the next
    // record's PC.
    void run_reference(trace::TraceReader& reader) {
        TraceRecord recs[2];
        unsigned cur = 0;
        bool held = false;
        while (reader.next(recs[cur])) {
            const TraceRecord& rec = recs[cur];
            ++r_.records;
            if (rec.isa != checked_isa_) {
                check_isa(rec);
                checked_isa_ = rec.isa;
            }
            if (held) step(recs[cur ^ 1], &rec);
            held = true;
            cur ^= 1;
            if (o_.on_progress && (r_.records & 0x3FFFF) == 0) o_.on_progress(Progress{r_.records, reader.bytes_read(), false});
            if (o_.stop && *o_.stop) break;  // Ctrl-C: the records read so far are counted
        }
        // Ctrl-C during the last read (a pipe that stalls): the counts are the records read before it.
        if (o_.stop && *o_.stop) r_.interrupted = true;
        if (held) step(recs[cur ^ 1], nullptr);
    }

    // The block engine: records in batches from the reader's storage; each record with its successor in the
    // batch runs in a block where one is cached, else through step(). The last record of a batch waits for the
    // next batch (its successor's PC) and is stepped alone.
    template <bool kTm, Timing kT>
    void run_blocks(trace::TraceReader& reader) {
        TraceRecord carry;
        bool held = false;
        const TraceRecord* recs = nullptr;
        for (size_t n; (n = reader.next_batch(recs)) != 0;) {
            for (size_t i = 0; i < n; ++i)
                if (recs[i].isa != checked_isa_) {
                    check_isa(recs[i]);
                    checked_isa_ = recs[i].isa;
                }
            if (held) step(carry, &recs[0]);
            const size_t m = n - 1;  // records whose successor is in the batch
            replay_records<kTm, kT>(recs, m);
            carry = recs[m];
            held = true;
            const uint64_t before = r_.records;
            r_.records += n;
            if (o_.on_progress && (before >> 18) != (r_.records >> 18)) o_.on_progress(Progress{r_.records, reader.bytes_read(), false});
            if (o_.stop && *o_.stop) break;  // Ctrl-C: every record read is replayed, no more are read
        }
        if (o_.stop && *o_.stop) r_.interrupted = true;
        if (held) step(carry, nullptr);
    }

    // The first `m` records of `recs` (each with its successor after it): each runs in a block where one is cached
    // or can be built, else through step().
    template <bool kTm, Timing kT>
    void replay_records(const TraceRecord* recs, size_t m) {
        for (size_t i = 0; i < m;) {
            const TraceRecord& rec = recs[i];
            size_t done = 0;
            if (rec.privilege == priv_ && !rec.interrupt) {
                Block* b = blocks_.find(rec);
                if (!b) b = build(recs, i, m);
                if (b) done = run_block<kTm, kT>(*b, recs + i, m - i);
            }
            if (done == 0) {
                step(rec, &recs[i + 1]);
                done = 1;
            }
            i += done;
        }
    }

    // The block engine on a file that stores runs (native format version 2, traces/runs.hpp): a run whose shape
    // is made of blocks (RunPlan::fast) is replayed from its values alone, without a record per instruction;
    // any other (a register access, a trap, an interrupt, an unaligned access, another privilege) is expanded into
    // records and replayed as above. A run waits for the next (its successor's PC); its values are copied
    // when it waits across two calls of the reader.
    template <bool kTm, Timing kT>
    void run_runs(trace::TraceReader& reader) {
        const trace::Run* runs = nullptr;
        const trace::RunShape* held = nullptr;
        std::vector<unsigned char> held_values;
        if (kTm && o_.repeat_stretches && kT != Timing::trace) {
            loop_mode_ = LoopMode::wait;
            tm_->loop_journal(true);  // stretches that refill lines, compared set by set (loop_same_caches)
        }
        for (size_t n; (n = reader.next_runs(runs)) != 0;) {
            const uint64_t before = r_.records;
            if (held) {
                const trace::Run unit[2] = {{held, held_values.data()}, runs[0]};
                replay_units<kTm, kT>(unit, 2);
            }
            replay_units<kTm, kT>(runs, n);
            held = runs[n - 1].shape;
            held_values.assign(runs[n - 1].values, runs[n - 1].values + held->value_bytes);
            if (o_.on_progress && (before >> 18) != (r_.records >> 18)) o_.on_progress(Progress{r_.records, reader.bytes_read(), false});
            if (o_.stop && *o_.stop) break;  // Ctrl-C: every record read is replayed, no more are read
        }
        if (o_.stop && *o_.stop) r_.interrupted = true;
        if (held) {
            if constexpr (kTm) loop_abort<kTm, kT>(held);  // runs held back as a stretch's first runs: timed now
            replay_run<kTm, kT>(*held, held_values.data(), nullptr);
            r_.records += held->records;
        }
    }

    // runs[0..n-1), each with its successor after it (runs[n - 1] only a successor): with the timing model, a few
    // runs at a time where each replays from its values (the block that ends one and the one that starts the next
    // are timed as one), and stretches that repeat added again as a whole (loop_unit).
    template <bool kTm, Timing kT>
    void replay_units(const trace::Run* runs, size_t n) {
        for (size_t i = 0; i + 1 < n; ++i) {
            if constexpr (kTm) {
                if (loop_mode_ != LoopMode::off)
                    if (const size_t k = loop_unit<kTm, kT>(runs + i, n - i)) {
                        i += k - 1;
                        continue;
                    }
            }
            const uint64_t fast0 = r_.fast_runs;
            size_t k = kTm ? replay_group<kTm, kT>(runs + i, n - i) : 0;
            if (k == 0) {
                replay_run<kTm, kT>(*runs[i].shape, runs[i].values, runs[i + 1].shape);
                k = 1;
            }
            for (size_t j = i; j < i + k; ++j) r_.records += runs[j].shape->records;
            if constexpr (kTm) {
                if (loop_mode_ == LoopMode::record && loop_armed_) loop_log(runs + i, k, r_.fast_runs - fast0 == k);
            }
            i += k - 1;
        }
    }

    static uint64_t first_pc(const trace::RunShape& s) { return trace::run_value(s.protos.data(), 0); }
    // Whether an interrupt was taken before a shape's first record (its flags byte, bit 3: traces/native.cpp).
    static bool first_interrupt(const trace::RunShape& s) { return s.protos[27] & 8u; }

    // How a shape of runs replays, worked out at its first execution.
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
            // Executions since the last flush, its last instruction not taken [0] and taken [1]: retirement is
            // added per kind at the flush (drain_runs), not per execution.
            uint64_t execs[2] = {0, 0};
            bool listed = false;  // in Replayer::counted_
            bool through = false;  // its block goes on through a branch that falls through (make_block)
        };
        std::vector<TraceRecord> protos;  // the shape's records, values left out
        std::vector<trace::ValueOffsets> offs;  // where each record's values lie (its time: none without one)
        // Every record in one of the segments' blocks, none trapped, entered by an interrupt or condition-failed,
        // all at one privilege, and every record timed under --timing trace.
        bool fast = false;
        uint8_t privilege = 0;
        bool mem = false;  // some record accesses data
        std::vector<Segment> segs;
        std::vector<std::pair<uint32_t, uint8_t>> align;   // accesses of 2-16 bytes: their address and size
        std::vector<std::pair<uint8_t, uint32_t>> live_out;  // the last value each register is given in the run
        uint8_t width = 8;  // bytes per value (RunShape::width)
        uint32_t value_bytes = 0;  // of the runs' values (a group's: theirs one after the other)
        std::vector<uint8_t> joins;  // per record: its successor starts another run of the group (extend_plan)
        // What the timing reads of a run's values besides its shape (Replayer::loop_words): the offsets of its data
        // addresses (the first loop_addrs) and its divisions' operands; whether a division takes an operand from the
        // register file.
        std::vector<uint32_t> loop_offs;
        uint32_t loop_addrs = 0;
        bool loop_from_gpr = false;
        // The plans of these runs followed by another (extend_plan), by the other's shape id: the first max_next met.
        std::vector<std::pair<uint32_t, std::unique_ptr<RunPlan>>> next;
    };
    static constexpr size_t max_next = 4;   // successors' plans kept per plan
    static constexpr size_t max_group = 2;  // runs replayed as one plan at most (3 and 4 measured slower: more plans and recordings to warm up, bodies split at max_inner)
    // Group plans made at most (their blocks and recordings are kept): a bound on memory whatever the trace.
    static constexpr size_t max_group_plans = 4096;

    // The plan of shape `s`, made at its first execution (values `v`: the records' lines, for errors).
    RunPlan& plan(const trace::RunShape& s, const unsigned char* v) {
        return s.id < plans_.size() && plans_[s.id] ? *plans_[s.id] : plan_for(s, v);
    }
    RunPlan& plan_for(const trace::RunShape& s, const unsigned char* v) {
        if (s.id >= plans_.size()) plans_.resize(s.id + 1);
        auto p = std::make_unique<RunPlan>();
        const size_t n = s.records;
        p->protos.resize(n + 1);
        s.expand(v, p->protos.data());
        uint32_t bytes = 0;
        p->offs = trace::value_offsets(p->protos.data(), n, s.width, bytes);
        p->width = s.width;
        p->value_bytes = s.value_bytes;
        p->joins.assign(n, 0);
        plan_records(p.get());
        plans_[s.id] = std::move(p);
        return *plans_[s.id];
    }

    // The plan of the runs of plan `p` followed by a run of shape `c` (values `vc`): their records and values as one
    // run's, `c`'s values after the others' (group_values_), the blocks on either side of the jump into `c` merged
    // (make_block's `joins`). Not fast where any of the runs alone would not be, or where their values differ in
    // width.
    std::unique_ptr<RunPlan> extend_plan(const RunPlan& p, const trace::RunShape& c, const unsigned char* vc) {
        auto e = std::make_unique<RunPlan>();
        const size_t np = p.offs.size(), nc = c.records;
        e->protos.assign(p.protos.begin(), p.protos.begin() + static_cast<std::ptrdiff_t>(np));
        e->protos.resize(np + nc + 1);
        c.expand(vc, e->protos.data() + np);
        uint32_t bytes_c = 0;
        auto offs_c = trace::value_offsets(e->protos.data() + np, nc, c.width, bytes_c);
        e->width = p.width;
        e->offs = p.offs;
        e->joins = p.joins;
        e->joins.back() = 1;  // p's last record: its successor starts c
        e->joins.resize(np + nc, 0);
        e->value_bytes = p.value_bytes + c.value_bytes;
        if (c.width != p.width || bytes_c != c.value_bytes) return e;  // not fast
        auto shift = [&](uint32_t& o) {
            if (o != trace::ValueOffsets::none) o += p.value_bytes;
        };
        for (size_t i = 0; i < nc; ++i) {
            trace::ValueOffsets& o = offs_c[i];
            shift(o.time);
            for (unsigned k = 0; k < e->protos[np + i].n_mem; ++k) {
                shift(o.addr[k]);
                shift(o.data[k]);
            }
            for (unsigned k = 0; k < e->protos[np + i].n_regs; ++k) shift(o.reg[k]);
            e->offs.push_back(o);
        }
        plan_records(e.get());
        return e;
    }

    // The rest of a plan from its records (p.protos[0..n)), their value offsets and `joins`.
    void plan_records(RunPlan* p) {
        const size_t n = p->offs.size();
        const TraceRecord* recs = p->protos.data();
        for (size_t i = 0; i < n; ++i)
            if (recs[i].isa != checked_isa_) {
                check_isa(recs[i]);
                checked_isa_ = recs[i].isa;
            }
        p->privilege = recs[0].privilege;
        bool fast = true;
        std::vector<uint32_t> div_offs;  // loop_offs after the addresses
        for (size_t i = 0; i < n; ++i) {
            const TraceRecord& r = recs[i];
            // A failed condition is part of the run's shape: its blocks carry it (make_block).
            fast &= !r.trapped && !r.interrupt && r.privilege == p->privilege && r.isa == recs[0].isa;
            fast &= i == 0 || p->joins[i - 1] || r.pc == recs[i - 1].pc + recs[i - 1].size;
            if (o_.timing == Timing::trace) fast &= r.has_time;
            p->mem |= r.n_mem != 0;
            for (unsigned k = 0; k < r.n_mem; ++k)
                if (r.mem[k].size > 1 && r.mem[k].size <= 16) p->align.emplace_back(p->offs[i].addr[k], r.mem[k].size);
        }
        for (size_t i = 0; fast && i < n;) {
            auto b = make_block(recs, i, n, p->joins.data());
            if (!b) {
                fast = false;
                break;
            }
            RunPlan::Segment g;
            g.first = static_cast<unsigned>(i);
            const size_t len = b->size();
            for (size_t k = i; k < i + len; ++k) {
                const TraceRecord& r = recs[k];
                auto& slots = k + 1 < i + len ? g.body_mem : g.last_mem;
                for (unsigned a = 0; a < r.n_mem; ++a) slots.push_back({p->offs[k].addr[a], r.mem[a].is_write, r.mem[a].size});
                if (k + 1 < i + len) g.body_n.push_back(r.n_mem);
            }
            if (b->memo) b->memo->set_fixed_counts();  // replay_fast() passes g.body_n
            g.through = std::any_of(b->insns.begin(), b->insns.end() - 1, [](const isa::RetiredInsn& x) { return x.branch != 0; });
            if (tm_ && tm_->params().divider_from_operands)
                for (size_t k = i; k < i + len; ++k)
                    if (b->insns[k - i].cls == isa::InsnClass::div) g.divs.push_back(div_plan(recs, p->offs, k, i));
            for (const auto* slots : {&g.body_mem, &g.last_mem})
                for (const auto& a : *slots) p->loop_offs.push_back(a.off);
            for (const auto& d : g.divs)
                for (unsigned o = 0; o < 2; ++o) {
                    if (d.off[o] != trace::ValueOffsets::none) div_offs.push_back(d.off[o]);
                    else if (d.reg[o] != 0) p->loop_from_gpr = true;
                }
            g.block = std::move(b);
            p->segs.push_back(std::move(g));
            i += len;
        }
        p->loop_addrs = static_cast<uint32_t>(p->loop_offs.size());
        p->loop_offs.insert(p->loop_offs.end(), div_offs.begin(), div_offs.end());
        // The register file after the run: per register, the last value it is given (late writebacks before the
        // record's own writes, as gprs() applies them).
        const bool rv = recs[0].isa == IsaState::rv32 || recs[0].isa == IsaState::rv64;
        std::array<uint32_t, 32> last;
        last.fill(trace::ValueOffsets::none);
        for (size_t i = 0; i < n; ++i)
            for (bool before : {true, false})
                for (unsigned k = 0; k < recs[i].n_regs; ++k) {
                    const trace::RegWrite& w = recs[i].regs[k];
                    if (w.before == before && w.kind == RegKind::gpr && w.index < 32 && !(rv && w.index == 0))
                        last[w.index] = p->offs[i].reg[k];
                }
        for (unsigned g = 0; g < 32; ++g)
            if (last[g] != trace::ValueOffsets::none) p->live_out.emplace_back(static_cast<uint8_t>(g), last[g]);
        p->fast = fast;
    }

    // Where the operands of the division at recs[k] come from (div_operands() on the run's records): its own late
    // writebacks, else the last value an earlier record of the run gives the register, else the register file.
    static typename RunPlan::Segment::Div div_plan(const TraceRecord* recs, const std::vector<trace::ValueOffsets>& offs,
                                                   size_t k, size_t first) {
        typename RunPlan::Segment::Div d{static_cast<unsigned>(k - first), {trace::ValueOffsets::none, trace::ValueOffsets::none},
                                         {0, 0}, div_is_rem(recs[k].encoding)};
        for (unsigned o = 0; o < 2; ++o) {
            const unsigned r = div_source(recs[k].encoding, o);
            d.reg[o] = static_cast<uint8_t>(r);
            if (r == 0) continue;  // x0: the register file's, always 0
            auto last_write = [&](size_t j, bool before, uint32_t& off) {
                for (unsigned w = 0; w < recs[j].n_regs; ++w) {
                    const trace::RegWrite& x = recs[j].regs[w];
                    if (x.before == before && x.kind == RegKind::gpr && x.index == r) off = offs[j].reg[w];
                }
            };
            // gprs() applies a record's late writebacks, then its own writes; div_operands() reads the division's
            // late writebacks over the register file.
            for (size_t j = 0; j < k; ++j) {
                last_write(j, true, d.off[o]);
                last_write(j, false, d.off[o]);
            }
            last_write(k, true, d.off[o]);
        }
        return d;
    }

    // A division of a fast run: its operands to the timing model.
    void div_operands(const typename RunPlan::Segment::Div& d, const unsigned char* v, unsigned width) {
        uint64_t x[2];
        for (unsigned o = 0; o < 2; ++o)
            x[o] = d.off[o] == trace::ValueOffsets::none ? gpr_[d.reg[o]] : trace::run_value(v, d.off[o], width);
        tm_->set_div_operands(static_cast<uint32_t>(x[0]), static_cast<uint32_t>(x[1]), d.rem, reader_->has_register_values());
    }

    // One execution of shape `s` with its values; `next` is its successor's shape (none at the end of the trace).
    // A run an interrupt entry follows is replayed record by record (its last record's step is told).
    template <bool kTm, Timing kT>
    void replay_run(const trace::RunShape& s, const unsigned char* v, const trace::RunShape* next) {
        RunPlan& p = plan(s, v);
        const bool next_interrupt = next && first_interrupt(*next);
        bool fast = p.fast && next && !next_interrupt && p.privilege == priv_;
        for (const auto& [off, size] : p.align) fast &= trace::run_value(v, off, p.width) % size == 0;  // as unaligned()
        if (fast) {
            ++r_.fast_runs;
            replay_fast<kTm, kT>(p, v, first_pc(*next));
            return;
        }
        const size_t n = s.records;
        if (run_recs_.size() < n + 1) run_recs_.resize(RunShape::max + 1);
        s.expand(v, run_recs_.data());
        if (next) {
            run_recs_[n].pc = first_pc(*next);  // the successor: its PC and interrupt are all a record's step reads of it
            run_recs_[n].interrupt = next_interrupt;
            replay_records<kTm, kT>(run_recs_.data(), n);
        } else {
            replay_records<kTm, kT>(run_recs_.data(), n - 1);
            step(run_recs_[n - 1], nullptr);
        }
    }

    // Up to max_group runs from runs[0] (`n` at hand: the last is only a successor) as one fast plan (extend_plan),
    // when each would replay from its values: how many it took (0: none, nothing done).
    template <bool kTm, Timing kT>
    size_t replay_group(const trace::Run* runs, size_t n) {
        const trace::RunShape& s0 = *runs[0].shape;
        RunPlan* p = &plan(s0, runs[0].values);
        if (!p->fast || p->privilege != priv_) return 0;
        size_t used = 1;
        for (; used < max_group && used + 1 < n; ++used) {
            const trace::RunShape& s = *runs[used].shape;
            RunPlan* e = nullptr;
            for (auto& [id, plan] : p->next)
                if (id == s.id) e = plan.get();
            if (!e) {
                // The first few successors met keep their plans (their recordings with them); others go alone.
                if (p->next.size() == max_next || group_plans_ == max_group_plans) break;
                ++group_plans_;
                p->next.emplace_back(s.id, extend_plan(*p, s, runs[used].values));
                e = p->next.back().second.get();
            }
            if (!e->fast || e->privilege != priv_) break;
            p = e;
        }
        const trace::RunShape& next = *runs[used].shape;
        if (used < 2 || first_interrupt(next)) return 0;
        if (group_values_.size() < p->value_bytes) group_values_.resize(p->value_bytes);
        for (size_t k = 0, at = 0; k < used; at += runs[k].shape->value_bytes, ++k)
            std::memcpy(group_values_.data() + at, runs[k].values, runs[k].shape->value_bytes);
        const unsigned char* v = group_values_.data();
        for (const auto& [off, size] : p->align)
            if (trace::run_value(v, off, p->width) % size != 0) return 0;  // as unaligned()
        r_.fast_runs += used;
        r_.grouped_runs += used;
        replay_fast<kTm, kT>(*p, v, first_pc(next));
        return used;
    }

    // A run of a fast plan: per block, its body timed from the recording (or stepped), its last record stepped,
    // its retirement added per kind; the register file's live-outs at the end. Exactly what replay_records() does
    // with the same records (tests/unit/test_replay_engines.cpp).
    template <bool kTm, Timing kT>
    void replay_fast(RunPlan& p, const unsigned char* v, uint64_t next_pc) {
        mem_seen_ |= p.mem;
        const size_t nsegs = p.segs.size();
        for (size_t g = 0; g < nsegs; ++g) {
            RunPlan::Segment& seg = p.segs[g];
            const Block& b = *seg.block;
            const size_t n = b.size();
            const TraceRecord* recs = p.protos.data() + seg.first;
            const TraceRecord& last = recs[n - 1];
            const uint64_t after = g + 1 < nsegs ? p.protos[p.segs[g + 1].first].pc : next_pc;
            isa::RetiredInsn last_insn = b.insns[n - 1];
            const bool taken = last_insn.branch && branch_taken(last_insn, last.isa, last.pc, last.size, after);
            if (taken) last_insn.branch = static_cast<uint8_t>(last_insn.branch | isa::br_taken);
            uint64_t cycles = 0;
            if constexpr (kTm) {
                timing::MemRef last_mem[TraceRecord::max_mem];
                gather(seg.last_mem.data(), seg.last_mem.size(), v, p.width, last_mem);
                const auto n_last = static_cast<unsigned>(seg.last_mem.size());
                if (b.memo) {
                    timing::MemRef* mem = body_mem_.data();
                    gather(seg.body_mem.data(), seg.body_mem.size(), v, p.width, mem);
                    const uint64_t replayed = b.memo->replayed;
                    const uint8_t* n_mem = seg.body_n.data();
                    if (b.memo->has_tail()) {
                        const timing::BlockTail tail{&last_insn, last.pc, last.size, after, last_mem, n_last};
                        cycles = tm_->step_block(*b.memo, mem, n_mem, tail, batch_);
                    } else {
                        cycles = tm_->step_block(*b.memo, mem, n_mem, batch_);
                        if (!seg.divs.empty()) div_operands(seg.divs.back(), v, p.width);  // the last, the body has none
                        cycles += step_raw(last_insn, last.pc, last.size, after, last_mem, n_last);
                    }
                    r_.timed_blocks += b.memo->replayed - replayed;
                    if (seg.through) r_.timed_through += b.memo->replayed - replayed;
                } else {
                    // Stepped record by record (a branch before the last falls through).
                    size_t at = 0;
                    const auto* div = seg.divs.data();
                    for (size_t k = 0; k + 1 < n; at += recs[k].n_mem, ++k) {
                        const TraceRecord& r = recs[k];
                        timing::MemRef mem[TraceRecord::max_mem];
                        gather(seg.body_mem.data() + at, r.n_mem, v, p.width, mem);
                        if (div != seg.divs.data() + seg.divs.size() && div->record == k) div_operands(*div++, v, p.width);
                        cycles += step_raw(b.insns[k], r.pc, r.size, recs[k + 1].pc, mem, r.n_mem);
                    }
                    if (div != seg.divs.data() + seg.divs.size()) div_operands(*div, v, p.width);
                    cycles += step_raw(last_insn, last.pc, last.size, after, last_mem, n_last);
                }
            }
            if constexpr (kT == Timing::trace) {
                cycles = 0;
                for (size_t k = 0; k < n; ++k) {
                    const uint64_t t = trace::run_value(v, p.offs[seg.first + k].time, p.width);
                    cycles += t - std::min(t, prev_time_);
                    prev_time_ = t;
                }
            }
            if constexpr (kT == Timing::cpi1) cycles = n;
            ++seg.execs[taken];
            if (!seg.listed) {
                seg.listed = true;
                counted_.push_back(&seg);
            }
            retired(n, cycles);
        }
        if constexpr (kT != Timing::trace) settle_run(p, v);
        else
            for (const auto& [g, off] : p.live_out) gpr_[g] = trace::run_value(v, off, p.width);
    }

    // The time of a fast run's last record (0 without one).
    static uint64_t last_time(const RunPlan& p, const unsigned char* v) {
        const uint32_t at = p.offs.back().time;
        return at == trace::ValueOffsets::none ? 0 : trace::run_value(v, at, p.width);
    }
    // What a fast run leaves besides its timing: the last record's time and the register file's live-outs.
    void settle_run(const RunPlan& p, const unsigned char* v) {
        prev_time_ = last_time(p, v);
        for (const auto& [g, off] : p.live_out) gpr_[g] = trace::run_value(v, off, p.width);
    }

    // The data accesses `slots[0..n)` of a fast run with values `v` (of `width` bytes) into `out`.
    static void gather(const typename RunPlan::Slot* slots, size_t n, const unsigned char* v, unsigned width, timing::MemRef* out) {
        for (size_t a = 0; a < n; ++a) out[a] = timing::MemRef{trace::run_value(v, slots[a].off, width), slots[a].write, slots[a].size};
    }

    // The timing model's step of one instruction (which also adds its events to the batch).
    uint64_t step_raw(const isa::RetiredInsn& insn, uint64_t pc, uint8_t size, uint64_t next_pc, const timing::MemRef* mem, unsigned n_mem) {
        return tm_->step(insn, pc, size, next_pc, mem, n_mem, batch_);
    }

    // A block from the records at recs[i] (of which the first `m` have their successor at hand), in the cache:
    // nullptr when the first instruction cannot start one.
    Block* build(const TraceRecord* recs, size_t i, size_t m) {
        auto b = make_block(recs, i, m);
        return b ? blocks_.put(std::move(b)) : nullptr;
    }
    // `joins` (a run's plan, whose records are fixed; nullptr: the block cache's, records that may go either way):
    // the block goes on through a conditional branch that falls through (its successor next in the run) with no
    // data access, up to BlockMemo::max_inner of them; the timing model predicts them one by one before it times
    // the body (TimingModel::step_block). joins[j] (a group of runs, extend_plan): record j's successor starts the
    // next run; the block goes on through it too when it is a branch with no data access (taken: marked so in the
    // block's instructions, as the run fixes it).
    std::unique_ptr<Block> make_block(const TraceRecord* recs, size_t i, size_t m, const uint8_t* joins = nullptr) {
        const bool through = joins != nullptr;
        auto b = std::make_unique<Block>();
        b->pc = recs[i].pc;
        size_t inner = 0;
        for (size_t j = i; j < m && b->size() < Block::max; ++j) {
            const TraceRecord& r = recs[j];
            const bool jumped = through && j > i && joins[j - 1] && b->insns.back().branch;  // the joining branch went here
            if (j > i && ((!jumped && r.pc != recs[j - 1].pc + recs[j - 1].size) || r.privilege != recs[i].privilege ||
                          r.isa != recs[i].isa))
                break;
            const Decoded& d = cache_.get(r.encoding, r.isa, r.size);
            if (d.is_csr || (d.is_sysreg && !plain_sysreg(d)) || !d.retires) break;
            b->keys.push_back(record_key(r));
            b->insns.push_back(d.insn);
            b->kinds.push_back(d.kind);
            // A run's records are fixed: a failed condition is the instruction's, as complete() would make it (its
            // retire kind, and step() times it so). The block cache's records may go either way: completed per record.
            if (through) b->insns.back().cond_failed = r.cond_failed;
            // A division timed from its operands ends a plan's block: stepped on its own, with its operands, after
            // the body before it (a body with one is stepped record by record).
            if (through && d.insn.cls == isa::InsnClass::div && tm_ && tm_->params().divider_from_operands) break;
            if (d.insn.branch) {
                if (!through || j + 1 >= m || r.n_mem || r.cond_failed) break;
                const bool taken = branch_taken(d.insn, r.isa, r.pc, r.size, recs[j + 1].pc);
                const bool falls = (d.insn.branch & isa::br_conditional) && !taken;
                const bool joined = joins[j] && !(d.insn.branch & isa::br_exc_return) && d.insn.cls != isa::InsnClass::ecall &&
                                    d.insn.cls != isa::InsnClass::ebreak && d.insn.cls != isa::InsnClass::mret;
                if ((!falls && !joined) || ++inner > timing::BlockMemo::max_inner) break;
                if (taken) b->insns.back().branch = static_cast<uint8_t>(b->insns.back().branch | isa::br_taken);
            }
        }
        if (b->keys.empty()) return {};
        // A body with a division whose time follows its operands is stepped record by record (model_cycles hands
        // the operands over).
        const bool div_operands = tm_ && tm_->params().divider_from_operands &&
                                  std::any_of(b->insns.begin(), b->insns.end() - 1, [](const isa::RetiredInsn& x) { return x.cls == isa::InsnClass::div; });
        if (tm_ && b->size() >= 2 && !div_operands) {
            std::vector<uint64_t> pcs;
            std::vector<uint8_t> sizes;
            for (size_t j = i; j + 1 < i + b->size(); ++j) {
                pcs.push_back(recs[j].pc);
                sizes.push_back(recs[j].size);
            }
            b->memo = std::make_unique<timing::BlockMemo>(
                std::vector<isa::RetiredInsn>(b->insns.begin(), b->insns.end() - 1), std::move(pcs), std::move(sizes));
            // A last branch's timing joins the body's recordings (its prediction is made each time).
            const TraceRecord& last = recs[i + b->size() - 1];
            b->memo->set_after(last.pc);
            if (b->insns.back().branch) b->memo->set_tail(b->insns.back(), last.pc, last.size);
        }
        for (unsigned k = 0; k + 1 < b->size(); ++k) {
            const uint32_t id = hist_.id(b->insns[k], kind_of(b->kinds[k], b->insns[k]));  // a joining branch: taken
            auto it = std::find_if(b->counts.begin(), b->counts.end(), [&](const auto& c) { return c.first == id; });
            if (it == b->counts.end()) b->counts.emplace_back(id, 1);
            else ++it->second;
        }
        for (bool taken : {false, true}) {
            isa::RetiredInsn last = b->insns.back();
            if (taken && last.branch) last.branch = static_cast<uint8_t>(last.branch | isa::br_taken);
            b->last_ids[taken] = hist_.id(last, kind_of(b->kinds.back(), last));
        }
        return b;
    }

    // Runs block `b` over the records from `recs` (the first `avail` have their successor at hand), as far as
    // they match it; returns how many it took. Each record is timed exactly as step() times it; retirement is
    // added per kind for the whole block unless a record changed a kind (a failed condition, an unaligned access).
    template <bool kTm, Timing kT>
    size_t run_block(const Block& b, const TraceRecord* recs, size_t avail) {
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
                const uint64_t c = model_cycles(insn, rec, &recs[k + 1]);
                if constexpr (kT == Timing::model) cycles += c;
            } else {
                plain &= !(rec.cond_failed | unaligned(rec));
            }
            if constexpr (kT == Timing::trace) {
                cycles += trace_cycles(rec);
                prev_time_ = rec.time;
            }
            gprs(rec);
        }
        if (k == 0) return 0;
        if constexpr (kT == Timing::cpi1) cycles = k;
        if constexpr (kT != Timing::trace) prev_time_ = recs[k - 1].time;
        if (plain && k == b.size()) {
            retire_whole(b, complete(b.insns[k - 1], recs[k - 1], &recs[k]), cycles);
            return k;
        }
        for (size_t j = 0; j < k; ++j) {
            const isa::RetiredInsn insn = complete(b.insns[j], recs[j], &recs[j + 1]);
            hist_.add(insn, kind_of(b.kinds[j], insn));
        }
        retired(k, cycles);
        return k;
    }

    // A whole block whose records changed no kind before the last: one histogram add per kind, the last (`last`,
    // completed from its record) on its own; then its cycles.
    void retire_whole(const Block& b, const isa::RetiredInsn& last, uint64_t cycles) {
        for (const auto& [id, count] : b.counts) hist_.add_id(id, count);
        hist_.add(last, kind_of(b.kinds[b.size() - 1], last));
        retired(b.size(), cycles);
    }

    // `k` instructions of a block retired in `cycles`: the batch ends when it is long.
    void retired(size_t k, uint64_t cycles) {
        batch_.cycles += cycles;
        r_.instructions += k;
        pending_ += k;
        if (pending_ >= 4096) flush();
    }

    // Block `b` whole over recs[0..b.size()] (its successor included) with the timing model's block timing
    // (TimingModel::step_block) for all but the last instruction: only when every record is the block's
    // instruction at its address, none trapped or entered by an interrupt, and those before the last are as
    // decoded (no failed condition, no unaligned access). Returns how many it took: b.size() or 0 (the caller then
    // runs it record by record).
    template <Timing kT>
    size_t run_timed_block(const Block& b, const TraceRecord* recs) {
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
        mem_seen_ |= at != 0;
        const uint64_t replayed = b.memo->replayed;
        const isa::RetiredInsn last = complete(b.insns[body], recs[body], &recs[n]);
        uint64_t cycles = 0;
        if (b.memo->has_tail() && !recs[n].interrupt) {  // (before an interrupt entry model_cycles tells the model)
            timing::MemRef last_mem[TraceRecord::max_mem];
            for (unsigned i = 0; i < last_rec.n_mem; ++i) last_mem[i] = timing::MemRef{last_rec.mem[i].addr, last_rec.mem[i].is_write, last_rec.mem[i].size};
            mem_seen_ |= last_rec.n_mem != 0;
            const timing::BlockTail tail{&last, last_rec.pc, last_rec.size, recs[n].pc, last_mem, last_rec.n_mem};
            cycles = tm_->step_block(*b.memo, mem, n_mem, tail, batch_);
        } else {
            cycles = tm_->step_block(*b.memo, mem, n_mem, batch_);
            cycles += model_cycles(last, recs[body], &recs[n]);
        }
        r_.timed_blocks += b.memo->replayed - replayed;
        if constexpr (kT == Timing::trace) {
            cycles = 0;
            for (size_t k = 0; k < n; ++k) {
                cycles += trace_cycles(recs[k]);
                prev_time_ = recs[k].time;
            }
        } else {
            prev_time_ = recs[body].time;
        }
        if constexpr (kT == Timing::cpi1) cycles = n;
        for (size_t k = 0; k < n; ++k) gprs(recs[k]);
        retire_whole(b, last, cycles);
        return n;
    }


    // The timing model's cycles for one instruction (which also adds its events to the batch).
    uint64_t model_cycles(const isa::RetiredInsn& insn, const TraceRecord& rec, const TraceRecord* next) {
        if (insn.cls == isa::InsnClass::div && tm_->params().divider_from_operands) div_operands(rec);
        timing::MemRef mem[trace::TraceRecord::max_mem];
        for (unsigned i = 0; i < rec.n_mem; ++i) mem[i] = timing::MemRef{rec.mem[i].addr, rec.mem[i].is_write, rec.mem[i].size};
        mem_seen_ |= rec.n_mem != 0;
        if (next && next->interrupt) tm_->set_next_interrupted();
        return step_raw(insn, rec.pc, rec.size, next ? next->pc : rec.pc + rec.size, mem, rec.n_mem);
    }

    // The cycles since the previous record, from the trace's timestamps (prev_time_ is the caller's to move on).
    uint64_t trace_cycles(const TraceRecord& rec) const {
        // Every record must carry its time: a trace without timestamps has no cycles to give.
        if (!rec.has_time)
            throw trace::TraceError(o_.trace, rec.line,
                                    fmt::format("--timing trace: this {} record has no timestamp (use --timing model or cpi1)", r_.format));
        return rec.time - std::min(rec.time, prev_time_);
    }

    // A RISC-V division's operands for the timing model, from the register file with the late writebacks that
    // land before it.
    void div_operands(const TraceRecord& rec) {
        uint64_t v[2];
        for (unsigned k = 0; k < 2; ++k) {
            const unsigned r = div_source(rec.encoding, k);
            v[k] = gpr_[r];
            for (unsigned i = 0; i < rec.n_regs; ++i)
                if (rec.regs[i].before && rec.regs[i].kind == RegKind::gpr && rec.regs[i].index == r && r) v[k] = rec.regs[i].value;
        }
        tm_->set_div_operands(static_cast<uint32_t>(v[0]), static_cast<uint32_t>(v[1]), div_is_rem(rec.encoding),
                              reader_->has_register_values());
    }

    // The register file, for an instruction in a block (none reads it): the late writebacks that land before it,
    // then what it writes; step() applies the two around the instruction.
    void gprs(const TraceRecord& rec) {
        const bool rv = rec.isa == IsaState::rv32 || rec.isa == IsaState::rv64;
        for (unsigned i = 0; i < rec.n_regs; ++i)
            if (rec.regs[i].before) set_gpr(rec.regs[i], rv);
        for (unsigned i = 0; i < rec.n_regs; ++i)
            if (!rec.regs[i].before) set_gpr(rec.regs[i], rv);
    }

    // --events (docs/cli.md "Choosing events"): every event is counted exactly by the replay; the first N (the
    // PMU's event counters) also program its counters, as a perf user would, so the traced program's read-backs
    // see them (its own writes still win).
    void select_events() {
        std::vector<uint32_t> numbers;
        for (const auto& text : o_.events) {
            EventInfo e;
            try {
                e = parse_event_spec(p_, text);
            } catch (const std::invalid_argument& x) {
                throw std::invalid_argument(std::string("--events: ") + x.what());
            }
            if (!p_.implements(*pmu_, e.number))
                throw std::invalid_argument(fmt::format("--events: '{}' ({}, {:#x}) is not an event platform {} implements",
                                                        text, e.name, e.number, p_.name));
            r_.selected.push_back({text, e.number});
            numbers.push_back(e.number);
        }
        // The platform programs as many as the PMU has event counters (PMCR.N, its `counters` option included).
        const size_t n = p_.program_counters(*pmu_, numbers);
        const size_t counters = n;
        if (n < numbers.size()) {
            std::string on, off;
            for (size_t i = 0; i < numbers.size(); ++i) (i < n ? on : off) += (i == 0 || i == n ? "" : ", ") + o_.events[i];
            r_.notes.push_back(fmt::format("{} events for {} event counters: {} program the counters; {} are counted by "
                                           "the replay only (exactly: a simulator need not multiplex)",
                                           numbers.size(), counters, on, off));
        }
    }

    void check_isa(const TraceRecord& rec) {
        const bool rv = rec.isa == IsaState::rv32 || rec.isa == IsaState::rv64;
        const bool ok = rv ? p_.isa == IsaKind::rv32
                           : rec.isa == IsaState::a64 ? p_.isa == IsaKind::a64
                                                      : (rec.isa == IsaState::a32 || rec.isa == IsaState::t32) && p_.isa == IsaKind::a32;
        if (!ok) {
            const std::string what = rec.isa == IsaState::unknown
                                         ? std::string("an instruction of an instruction set the trace does not name")
                                         : fmt::format("{} {} instruction", rec.isa == IsaState::t32 ? "a" : "an", to_string(rec.isa));
            throw trace::TraceError(o_.trace, rec.line,
                                    fmt::format("{}, but platform {} runs {}", what, p_.name,
                                                p_.isa == IsaKind::a64 ? "A64" : p_.isa == IsaKind::a32 ? "A32/T32" : "RV32"));
        }
    }

    void step(const TraceRecord& rec, const TraceRecord* next) {
        const bool rv = rec.isa == IsaState::rv32 || rec.isa == IsaState::rv64;
        // Late writebacks (VeeR EL2 nbL/nbD) land before the instruction reads its sources.
        for (unsigned i = 0; i < rec.n_regs; ++i)
            if (rec.regs[i].before) set_gpr(rec.regs[i], rv);
        if (rec.interrupt) interrupt(rec);
        if (rec.privilege != priv_) {
            flush();
            priv_ = rec.privilege;
            pmu_->set_exec_context(ExecContext{priv_, false});
        }
        const Decoded& d = cache_.get(rec.encoding, rec.isa, rec.size);
        if (roi_.active() && d.retires && !rec.trapped) {
            if (roi_.step(rec.pc)) {  // a region boundary ends the batch
                flush();
                roi_.commit();
            }
            roi_.retired();
        }
        if (d.retires && !rec.trapped) ++r_.instructions;
        const isa::RetiredInsn insn = complete(d.insn, rec, next);
        // Cycles: the timing model's (which also adds its microarchitectural events), or the trace's timestamps.
        uint64_t cycles = 1;
        if (tm_ && d.is_csr) tm_->set_next_csr(static_cast<uint16_t>(d.csr.csr));  // its pre- and post-sync
        if (tm_) cycles = model_cycles(insn, rec, next);
        if (o_.timing == Timing::trace) cycles = trace_cycles(rec);
        if (o_.timing == Timing::cpi1) cycles = 1;
        prev_time_ = rec.time;
        if (d.is_csr) {
            csr(rec, d, insn, cycles);
        } else if (rec.trapped) {
            batch_.cycles += cycles;  // an instruction that trapped: its cycles pass, it does not retire
        } else if (d.is_sysreg && !rec.cond_failed) {
            sysreg(rec, d, insn, cycles);
        } else {
            batch_.cycles += cycles;
            hist_.add(insn, kind_of(d.kind, insn));
            if (++pending_ >= 4096 || total_cycles_ + batch_.cycles >= next_sample_) flush();
        }
        for (unsigned i = 0; i < rec.n_regs; ++i)
            if (!rec.regs[i].before) set_gpr(rec.regs[i], rv);
        if (d.retires && interval_due()) interval_point();
    }

    // Whether the time series takes a point after this instruction (Options::interval, interval_cycles).
    bool interval_due() {
        if (!o_.interval || !o_.on_interval) return false;
        if (!o_.interval_cycles) return r_.instructions % o_.interval == 0;
        const uint64_t now = total_cycles_ + batch_.cycles;
        if (now < next_interval_) return false;
        next_interval_ = (now / o_.interval + 1) * o_.interval;
        return true;
    }

    // An interrupt taken before `rec` (the trace shows it: TraceRecord::interrupt). After a pmu/fw-halt (an mpmc
    // write) the core slept until this interrupt woke it (veer-el2-mhpm.md §5): the trace's gap before `rec`, less
    // the cycles of waking and entering (fw_halt_wake), passes in pmu/fw-halt, where mcycle and events 1-56 stop
    // and events 512-516 count. Without timestamps the sleep is not known and none passes.
    void interrupt(const TraceRecord& rec) {
        irq_seen_ = true;
        flush();
        const bool woke = halt_pending_;
        if (halt_pending_) {
            halt_pending_ = false;
            const unsigned wake = p_.timing ? p_.timing->fw_halt_wake : 0;
            const uint64_t gap = rec.has_time ? rec.time - std::min(rec.time, prev_time_) : 0;
            if (gap > wake) {
                EventBatch sleep;
                sleep.cycles = gap - wake;
                pmu_->set_state(CoreState::fw_halt);
                advance(sleep);
                pmu_->set_state(CoreState::run);
                if (o_.timing == Timing::trace) prev_time_ += gap - wake;  // the rest of the gap is the entry's
                slept_ += gap - wake;
            }
        }
        if (p_.interrupt) p_.interrupt(rec.cause, batch_);
        if (tm_) tm_->take_interrupt(rec.cause, woke);
    }

    // A point of the time series, with the PMU up to date.
    void interval_point() {
        flush();
        IntervalPoint pt;
        pt.instructions = r_.instructions;
        pt.cycles = total_cycles_;
        pt.irq = pmu_->irq();
        pt.counters = pmu_->counter_values();
        pt.events.reserve(series_events_.size());
        for (uint32_t e : series_events_)
            pt.events.emplace_back(e, totals_[e] + (e == p_.cycle_event ? total_cycles_ : 0));
        last_point_.emplace(pt.instructions, pt.cycles);
        o_.on_interval(pt);
    }

    // The register file holds what the trace shows, in trace order (x0 of RISC-V stays 0).
    void set_gpr(const trace::RegWrite& w, bool rv) {
        if (w.kind == RegKind::gpr && w.index < 32 && !(rv && w.index == 0)) gpr_[w.index] = w.value;
    }

    // An ARM system-register instruction at its point in the trace: the access first, then its events
    // (docs/script.md); the value written comes from the register file when the trace has register values.
    void sysreg(const TraceRecord& rec, const Decoded& d, const isa::RetiredInsn& insn, uint64_t cycles) {
        // ARM11: SCTLR.Z (bit 11) turns branch prediction on and off (arm11-pmnc.md; ARM1176 TRM 3.2.7).
        if (tm_ && tm_->params().follows_sctlr_z && d.space == EncodingSpace::cp15 && d.key == sctlr_key_ && !d.sys_read &&
            reader_->has_register_values())
            tm_->predictor().set_enabled((gpr_[d.rt] >> 11) & 1);
        Register* reg = pmu_->bank().find(d.space, d.key);
        if (reg) {
            flush();
            AccessContext ctx;
            ctx.privilege = priv_;
            if (d.sys_read) {
                const AccessRecord a = pmu_->read(*reg, ctx);
                for (unsigned i = 0; i < rec.n_regs && !a.trapped(); ++i) {
                    if (rec.regs[i].kind != RegKind::gpr || rec.regs[i].before || rec.regs[i].index != d.rt) continue;
                    const uint64_t mask = reg->width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << reg->width) - 1);
                    readback(rec, rec.regs[i].value, a.value_read & mask, reg->name);
                }
            } else if (reader_->has_register_values()) {  // asked each time: some formats show it as they go
                const uint64_t v = (rec.isa == IsaState::a64 && d.rt == 31) ? 0 : gpr_[d.rt];
                pmu_->write(*reg, v, ctx);
            } else if (!noted_values_) {
                noted_values_ = true;
                r_.notes.push_back(fmt::format("the trace carries no register values: writes to PMU registers (the first: "
                                               "{} on line {}) are not applied; events are counted only",
                                               reg->name, rec.line));
            }
        }
        batch_.cycles += cycles;
        p_.retire(insn, 1, batch_);
        if (reg) flush();
    }

    // A system-register access that sysreg() retires as any other instruction: none of the PMU's registers (say
    // TPIDR_EL0, DCZID_EL0), and not SCTLR (whose Z bit some platforms follow). A block may go on through it.
    bool plain_sysreg(const Decoded& d) const {
        return !(d.space == EncodingSpace::cp15 && d.key == sctlr_key_) && pmu_->bank().find(d.space, d.key) == nullptr;
    }

    // A CSR instruction at its point in the trace (the traced program programs its own PMU).
    void csr(const TraceRecord& rec, const Decoded& d, const isa::RetiredInsn& insn, uint64_t cycles) {
        flush();
        Register* reg = pmu_->bank().find(EncodingSpace::csr, d.csr.csr);
        AccessContext ctx;
        ctx.privilege = priv_;
        const bool reads = isa::rv32::csr_reads(d.csr), writes = isa::rv32::csr_writes(d.csr);
        if (rec.trapped) {
            // The access trapped in the trace: it wrote nothing and did not retire. The check is that the model
            // refuses it too (a read-back of a trap).
            if (reg) {
                const AccessRecord a = reads ? pmu_->read(*reg, ctx) : AccessRecord{};
                if (reads) {
                    ++r_.readbacks_checked;
                    if (a.trapped()) ++r_.readbacks_matched;
                    else r_.mismatches.push_back({rec.line, reg->name, 0, a.value_read, Readback::Trap::traced});
                }
            }
            batch_.cycles += cycles;
            flush();
            return;
        }
        uint64_t old = 0;
        if (reg && reads) {
            AccessRecord a = pmu_->read(*reg, ctx);
            old = a.value_read;
            // Under --timing trace a running counter is read csr_read_lead cycles before the instruction commits
            // (TimingParams::csr_read_lead): one of its cycles passes first, which shows how fast the register
            // counts cycles (0 when inhibited or counting something else), and the value read is moved by as many
            // cycles as the sample point lies from there (earlier or later).
            const unsigned lead = p_.timing ? p_.timing->csr_read_lead : 0;
            if (o_.timing == Timing::trace && lead && cycles >= 1 && !a.trapped()) {
                batch_.cycles = 1;
                flush();
                --cycles;
                a = pmu_->read(*reg, ctx);
                const uint64_t rate = a.value_read - old;
                const int64_t shift = static_cast<int64_t>(cycles) - static_cast<int64_t>(lead);  // from prev + 1
                old = a.value_read + static_cast<uint64_t>(shift * static_cast<int64_t>(rate));
                a.value_read = old;
            }
            // Read-back: the traced value the instruction returned, against the prediction.
            for (unsigned i = 0; i < rec.n_regs && d.csr.rd; ++i) {
                if (rec.regs[i].kind != RegKind::gpr || rec.regs[i].before || rec.regs[i].index != d.csr.rd) continue;
                if (a.trapped()) {  // the trace shows a value where the model refuses the access
                    ++r_.readbacks_checked;
                    r_.mismatches.push_back({rec.line, reg->name, rec.regs[i].value, 0, Readback::Trap::predicted});
                    continue;
                }
                readback(rec, rec.regs[i].value, old, reg->name);
            }
        }
        const uint64_t src = d.csr.immediate ? d.csr.src : gpr_[d.csr.src];
        auto apply = [&](uint64_t prev) {
            return d.csr.op == isa::rv32::CsrOp::rw ? src : d.csr.op == isa::rv32::CsrOp::rs ? (prev | src) : (prev & ~src);
        };
        const uint64_t value = apply(old);
        // VeeR EL2 mrac (0x7C0, outside the PMU): the timing model follows its writes (fetch cacheability).
        if (tm_ && tm_->params().follows_mrac && d.csr.csr == 0x7C0 && writes && reader_->has_register_values())
            tm_->set_mrac(static_cast<uint32_t>(apply(tm_->mrac())));
        // mstatus (0x300): the timing model follows MIE (VeeR EL2 event 49).
        if (tm_ && tm_->params().ev_irq_disabled != timing::no_event && d.csr.csr == 0x300 && writes &&
            reader_->has_register_values())
            tm_->set_mstatus(static_cast<uint32_t>(apply(tm_->mstatus())));
        batch_.cycles += cycles;
        p_.retire(insn, 1, batch_);
        // VeeR EL2 (veer-el2-mhpm.md §4.1): the instruction's own events count before its write lands.
        if (p_.events_before_write) flush();
        if (reg && writes) pmu_->write(*reg, value & 0xFFFFFFFFu, ctx);
        // pmu/fw-halt (VeeR EL2 mpmc): the core drains the instructions already in its pipeline, which the trace
        // shows retiring, then sleeps until an interrupt (interrupt() above), so the PMU goes on counting here.
        if (pmu_->state() == CoreState::fw_halt) {
            pmu_->set_state(CoreState::run);
            halt_pending_ = true;
            if (p_.fw_halt) p_.fw_halt(batch_);
            if (tm_ && (value & 2u)) tm_->set_mie();  // haltie: MIE set on the way into fw-halt (veer §5)
        }
        flush();
    }

    // The PMU (or, under SystemC, the module through its hook) takes a batch.
    void advance(const EventBatch& b) {
        if (o_.advance_hook) o_.advance_hook(b);
        else pmu_->advance(b);
    }

    // The retirement of the fast runs' blocks since the last flush, per kind times their executions.
    void drain_runs() {
        for (RunPlan::Segment* g : counted_) {
            const Block& b = *g->block;
            const uint64_t execs = g->execs[0] + g->execs[1];
            for (const auto& [id, count] : b.counts) hist_.add_id(id, count * execs);
            for (unsigned t = 0; t < 2; ++t)
                if (g->execs[t]) hist_.add_id(b.last_ids[t], g->execs[t]);
            g->execs[0] = g->execs[1] = 0;
            g->listed = false;
        }
        counted_.clear();
    }

    void flush() {
        drain_runs();
        hist_.drain(p_, batch_);
        if (batch_.cycles == 0 && batch_.events.empty()) return;
        advance(batch_);
        if (loop_events_) {
            for (const auto& e : batch_.events) loop_events_total_.add(e.event, e.count);
            loop_events_total_.cycles += batch_.cycles;
        }
        total_cycles_ += batch_.cycles;
        if (total_cycles_ >= next_sample_) next_sample_ = (total_cycles_ / o_.sample_period + 1) * o_.sample_period;
        roi_.add(batch_);
        for (const auto& e : batch_.events)
            if (e.event < totals_.size()) totals_[e.event] += e.count;
        batch_.clear();
        pending_ = 0;
    }

    // Which implemented events the replay produces: those the retirement of some class signals, and cycles.
    void collect() {
        r_.cycles = total_cycles_;
        if (slept_)
            r_.notes.push_back(fmt::format("the core slept {} cycles in pmu/fw-halt (mpmc), woken by an interrupt; mcycle "
                                           "and events 1-56 do not count them", slept_));
        const std::vector<bool> produced =
            producible_events(p_, mem_seen_, tm_.has_value(), irq_seen_ || reader_->shows_interrupts());
        if (tm_ && !mem_seen_)
            for (uint32_t e : tm_->address_events())
                if (p_.implements(*pmu_, e)) {
                    r_.notes.push_back("the trace carries no data addresses: data-cache and bus events are not modelled");
                    break;
                }
        for (const auto& e : p_.event_names()) {
            if (!p_.implements(*pmu_, e.number)) continue;
            if (!produced[e.number]) {
                r_.not_modelled.push_back(e.number);
                continue;
            }
            r_.event_totals.emplace_back(e.number, totals_[e.number] + (e.number == p_.cycle_event ? total_cycles_ : 0));
        }
        r_.counters = pmu_->counter_values();
        if (roi_.active()) roi_.finish(r_, p_.cycle_event);
    }

    // A read-back: the value the trace shows in the destination register against the predicted read, at the width
    // of that register (A64 Xt and RV64 x: 64 bits; A32/T32 Rt and RV32 x: 32), so bits the trace shows above the
    // register's width are never masked away (an MRS of a 32-bit register zero-extends into Xt: Arm ARM C5.2).
    // A read of a counter the producer does not implement is not compared; one of the cycle counter is counted
    // apart (replay/producer.hpp).
    void readback(const TraceRecord& rec, uint64_t traced, uint64_t predicted, const std::string& reg) {
        const bool wide = rec.isa == IsaState::a64 || rec.isa == IsaState::rv64;
        const uint64_t expect = wide ? predicted : (predicted & 0xFFFFFFFFu);
        const ReadbackKind kind = classify_readback(*pmu_, producer_, reg);
        if (kind == ReadbackKind::uncounted) {
            ++r_.uncounted_readbacks;
            return;
        }
        Readback rb{rec.line, reg, traced, expect};
        rb.basis = kind == ReadbackKind::clock ? Readback::Basis::clock : Readback::Basis::trace;
        ++r_.readbacks_checked;
        r_.clock_readbacks += kind == ReadbackKind::clock;
        if (o_.keep_readbacks) r_.readbacks.push_back(rb);
        if (traced == expect) {
            ++r_.readbacks_matched;
            r_.clock_matched += kind == ReadbackKind::clock;
        } else {
            r_.mismatches.push_back(rb);
        }
    }

    // What the read-backs' figures mean (docs/accuracy.md, "Read-backs").
    void readback_notes() {
        if (r_.clock_readbacks && o_.timing != producer_.clock)
            r_.notes.push_back(fmt::format("the cycle counter runs on the clock of {}, which --timing {} reproduces: "
                                           "its read-backs are shown, not checked, under --timing {}",
                                           producer_.name, timing_name(producer_.clock), timing_name(o_.timing)));
        if (r_.uncounted_readbacks)
            r_.notes.push_back(fmt::format("{} read-back{} of mhpmcounters not compared: {} does not count VeeR EL2's "
                                           "events (its mhpmcounter3-31 read 0)",
                                           r_.uncounted_readbacks, r_.uncounted_readbacks == 1 ? "" : "s", producer_.name));
    }

    // Stretches that repeat (docs/performance.md, "Stretches that repeat"). A stretch runs from an execution of
    // the anchor run (a run executed often) to the first execution of the anchor at least loop_min instructions
    // later. Recorded (its runs' shapes and the values the timing reads: data addresses, division operands; the
    // events and cycles it adds; the timing model's state words before and after, TimingModel::loop_state) while
    // it is timed, with a checkpoint at each end; when the model's state at a checkpoint is its state at one of the
    // last loop_period checkpoints, shifted in time, and no cache took in or wrote back a line in between, the same
    // runs with the same addresses, followed by the anchor again, would time the same from there on. The runs that
    // follow are then compared with the stretch as they come (held back, not timed); a whole stretch matched and the
    // anchor next, its events are added again and the model shifted (TimingModel::skip_loop); a run that differs
    // first has the runs held back timed as usual.
    enum class LoopMode : uint8_t { off, wait, record, skip };
    static constexpr uint64_t loop_min = 1024;           // instructions a stretch holds at least
    static constexpr size_t loop_max_runs = 1u << 16;    // runs a stretch holds at most (a bound on memory)
    // Instructions without the anchor before another is chosen.
    static constexpr uint64_t loop_patience = uint64_t{1} << 14;
    static constexpr unsigned loop_heat = 16;            // executions of a run's shape before it may be an anchor
    static constexpr unsigned loop_tries = 16;           // stretches recorded with one anchor before another is chosen
    struct LoopStretch {
        std::vector<const trace::RunShape*> shapes;  // its runs
        std::vector<const RunPlan*> plans;           // their plans (alone)
        std::vector<uint64_t> words;                 // the values the timing reads, run after run
        uint64_t instructions = 0, records = 0;
        EventBatch events;                           // what it added to the PMU's batches (cycles included)
        uint64_t fast_runs = 0, grouped_runs = 0, timed_blocks = 0, timed_through = 0;
        timing::TimingModel::LoopMarks from, to;     // the timing model's counts before and after
        // The register file after it: per register written, the run that writes it last and where its value lies.
        std::vector<std::tuple<uint8_t, uint32_t, uint32_t>> live_out;
        // Its data addresses moved on (TimingModel::shift_invariant): how far the state's addresses moved from its
        // start to its end (each repeat moves them as far again), or `free` where the state holds none (each
        // repeat may then lie anywhere, the distance its first address gives).
        uint64_t shift = 0;
        bool free = false;
        // Where it starts: its anchor and the state there (LoopPoint::state, addrs), to take it again at once
        // (loop_resume) when the anchor meets that state again.
        uint32_t anchor = 0;
        std::vector<uint64_t> from_state, from_addrs;
    };
    // A checkpoint while recording: the anchor met, the state then and where the recording was.
    struct LoopPoint {
        std::vector<uint64_t> state;  // the timing model's words (and the privilege)
        std::vector<uint64_t> addrs;  // the data addresses it holds (TimingModel::loop_state)
        timing::TimingModel::LoopMarks marks;
        size_t runs = 0, words = 0;   // the log's length
        uint64_t instructions = 0;    // r_.instructions
        EventBatch events;            // everything flushed since the recording started
        uint64_t fast_runs = 0, grouped_runs = 0, timed_blocks = 0, timed_through = 0;  // r_'s
    };
    static constexpr size_t loop_period = 16;  // checkpoints kept: a stretch may span up to this many
    static constexpr size_t loop_walk_reach = 4;  // and one with its addresses moved up to this many

    // The words of a run that the timing reads beyond its shape (single-run plan `p`): its data addresses and its
    // divisions' operands; false where a division takes an operand from the register file (not in the run).
    bool loop_words(const RunPlan& p, const unsigned char* v, std::vector<uint64_t>& out) {
        if (!p.fast || p.loop_from_gpr) return false;
        for (uint32_t off : p.loop_offs) out.push_back(trace::run_value(v, off, p.width));
        return true;
    }

    void loop_log(const trace::Run* runs, size_t k, bool fast) {
        bool ok = fast;
        for (size_t j = 0; j < k && ok; ++j) {
            const RunPlan& p = plan(*runs[j].shape, runs[j].values);
            loop_log_shapes_.push_back(runs[j].shape);
            ok = loop_words(p, runs[j].values, loop_log_words_);
        }
        if (!ok) {
            loop_armed_ = false;  // not replayable from values: again from the anchor's next execution
            loop_events_ = false;
            if (loop_sparse_gap_) {
                // A sparse anchor's stretch would hold such a run each time, and so would any other anchor's with
                // the same gap (another run of the same iteration): none again.
                loop_sparse_hopeless_.push_back(loop_sparse_gap_);
                loop_sparse_failed();
                loop_mode_ = LoopMode::wait;
            }
        } else if (loop_log_shapes_.size() > loop_max_runs) {
            loop_give_up();
        }
    }

    // No anchor for a while: after too many tries with one, or a stretch too long.
    void loop_give_up() {
        loop_sparse_failed();
        loop_mode_ = LoopMode::wait;
        loop_armed_ = false;
        loop_events_ = false;
        loop_anchors_ = 0;
        loop_wait_until_ = r_.instructions + loop_backoff_;
        loop_backoff_ = std::min<uint64_t>(loop_backoff_ * 2, uint64_t{1} << 24);
    }

    // Sparse anchors: a run met again after exactly as many instructions as the time before, more than
    // loop_patience (the head of an outer loop whose iterations are alike, the start of a program traced again and
    // again), where the stretches of other anchors repeated less than half of that gap. It becomes the anchor at
    // once (not while a stretch repeats), its stretch one gap long, spanning the inner loops between: where the
    // iterations are alike they leave the state words as they found them, and the caches too where every set the
    // stretch accesses ends as it started (TimingModel::loop_same_caches).
    static constexpr unsigned loop_sparse_tries = 2;            // checkpoints without a stretch before giving it up
    static constexpr uint64_t loop_sparse_backoff0 = uint64_t{1} << 20;  // instructions without one after that
    bool loop_sparse(uint32_t id) {
        if (id >= loop_seen_.size()) loop_seen_.resize(id + 1);
        LoopSeen& seen = loop_seen_[id];
        const uint64_t at = r_.instructions + 1;
        const uint64_t gap = seen.last ? at - seen.last : 0;
        const bool again = gap > loop_patience && gap == seen.gap;
        // Where the inner stretches repeated most of the gap already, they are kept (one anchor at a time).
        const uint64_t repeated = r_.repeated_instructions - seen.repeated;
        seen.last = at;
        seen.gap = gap;
        seen.repeated = r_.repeated_instructions;
        if (!again || repeated * 2 > gap || r_.instructions < loop_sparse_until_) return false;
        if (std::find(loop_sparse_hopeless_.begin(), loop_sparse_hopeless_.end(), gap) != loop_sparse_hopeless_.end()) return false;
        if (loop_mode_ == LoopMode::record && loop_sparse_gap_) return false;  // one already (its meetings: record)
        if (seen.unarmed) return false;
        return id >= loop_bad_.size() || loop_bad_[id] < 2;
    }
    // A sparse anchor met where the model's state cannot be put in words (the LSU buffers busy, say): never a sparse
    // anchor again, and the next run with a gap of its own tried at once (another run of the same iteration).
    size_t loop_sparse_unarmed() {
        loop_seen_[loop_anchor_].unarmed = true;  // loop_sparse() sized it when it chose the anchor
        loop_sparse_gap_ = 0;
        loop_mode_ = LoopMode::wait;
        return 0;
    }
    unsigned loop_max_tries() const { return loop_sparse_gap_ ? loop_sparse_tries : loop_tries; }
    // A sparse anchor given up (no stretch found, or its stretch differed at once): none for a while.
    void loop_sparse_failed() {
        if (!loop_sparse_gap_) return;
        loop_sparse_gap_ = 0;
        loop_sparse_until_ = r_.instructions + loop_sparse_backoff_;
        loop_sparse_backoff_ = std::min<uint64_t>(loop_sparse_backoff_ * 2, uint64_t{1} << 32);
    }

    // A checkpoint now (the anchor met): false where the model's state cannot be put in words. `first`: the
    // recording starts here.
    bool loop_point(bool first) {
        flush();
        if (first) {
            loop_points_.clear();
            loop_log_shapes_.clear();
            loop_log_words_.clear();
            loop_events_total_.clear();
        }
        LoopPoint pt;
        pt.state.reserve(loop_points_.empty() ? 64 : loop_points_.back().state.size());
        if (!tm_->loop_state(pt.state, &pt.addrs)) return false;
        pt.state.push_back(priv_);
        pt.marks = tm_->loop_mark();
        if (first) tm_->loop_forget(pt.marks);
        pt.runs = loop_log_shapes_.size();
        pt.words = loop_log_words_.size();
        pt.instructions = r_.instructions;
        pt.events = loop_events_total_;
        pt.fast_runs = r_.fast_runs;
        pt.grouped_runs = r_.grouped_runs;
        pt.timed_blocks = r_.timed_blocks;
        pt.timed_through = r_.timed_through;
        if (loop_points_.size() == loop_period + 1) {  // the oldest goes, with its part of the log
            loop_points_.erase(loop_points_.begin());
            const LoopPoint& o = loop_points_.front();
            tm_->loop_forget(o.marks);
            const size_t dr = o.runs, dw = o.words;
            loop_log_shapes_.erase(loop_log_shapes_.begin(), loop_log_shapes_.begin() + static_cast<std::ptrdiff_t>(dr));
            loop_log_words_.erase(loop_log_words_.begin(), loop_log_words_.begin() + static_cast<std::ptrdiff_t>(dw));
            for (LoopPoint& q : loop_points_) {
                q.runs -= dr;
                q.words -= dw;
            }
            pt.runs -= dr;
            pt.words -= dw;
        }
        loop_points_.push_back(std::move(pt));
        loop_events_ = true;
        return true;
    }

    // The stretch from checkpoint `from` to the last one, to repeat.
    void loop_take(const LoopPoint& from) {
        const LoopPoint& to = loop_points_.back();
        LoopStretch& l = loop_;
        l.shapes.assign(loop_log_shapes_.begin() + static_cast<std::ptrdiff_t>(from.runs), loop_log_shapes_.end());
        l.words.assign(loop_log_words_.begin() + static_cast<std::ptrdiff_t>(from.words), loop_log_words_.end());
        l.instructions = to.instructions - from.instructions;
        l.records = 0;
        l.plans.clear();
        for (const trace::RunShape* sh : l.shapes) {
            l.records += sh->records;
            l.plans.push_back(plans_[sh->id].get());
        }
        loop_held_.reserve(l.shapes.size());
        l.events.clear();
        for (const auto& e : to.events.events) {
            const uint64_t before = from.events.count(e.event);
            if (e.count != before) l.events.add(e.event, e.count - before);
        }
        l.events.cycles = to.events.cycles - from.events.cycles;
        l.fast_runs = to.fast_runs - from.fast_runs;
        l.grouped_runs = to.grouped_runs - from.grouped_runs;
        l.timed_blocks = to.timed_blocks - from.timed_blocks;
        l.timed_through = to.timed_through - from.timed_through;
        l.from = from.marks;
        l.to = to.marks;
        l.anchor = loop_anchor_;
        l.from_state = from.state;
        l.from_addrs = from.addrs;
        std::array<std::pair<uint32_t, uint32_t>, 32> last;
        last.fill({~0u, 0});
        for (size_t j = 0; j < l.shapes.size(); ++j)
            for (const auto& [g, off] : l.plans[j]->live_out) last[g] = {static_cast<uint32_t>(j), off};
        l.live_out.clear();
        for (unsigned g = 0; g < 32; ++g)
            if (last[g].first != ~0u) l.live_out.emplace_back(static_cast<uint8_t>(g), last[g].first, last[g].second);
    }

    // At a unit's first run `runs[0]` (n at hand, the last only a successor): how many runs it took (0: none, the
    // caller replays runs[0] as usual).
    template <bool kTm, Timing kT>
    size_t loop_unit(const trace::Run* runs, size_t n) {
        // Nothing while loop_abort() times the runs it held back (their stretch's, up to a run that differs): the
        // next anchor after them starts again.
        if (loop_aborting_) return 0;
        const uint32_t id = runs[0].shape->id;
        if ((loop_mode_ == LoopMode::wait || loop_mode_ == LoopMode::record) && loop_sparse(id))
            return loop_anchor_at<kTm, kT>(runs, n, loop_seen_[id].gap);
        switch (loop_mode_) {
            case LoopMode::off:
                return 0;
            case LoopMode::wait: {
                if (id >= loop_heat_.size()) loop_heat_.resize(id + 1, 0);
                // An anchor whose stretches repeated before is taken again at once; another once it is hot.
                const bool good = id < loop_good_.size() && loop_good_[id];
                if (!good && (++loop_heat_[id] < loop_heat || r_.instructions < loop_wait_until_ || (id < loop_bad_.size() && loop_bad_[id] >= 2)))
                    return 0;
                return loop_anchor_at<kTm, kT>(runs, n);
            }
            case LoopMode::record: {
                if (id != loop_anchor_) {
                    // A loop that has ended while another whose stretches repeated runs (two loops in turn): that
                    // one's run, once the anchor has not been met for a stretch's length (a sparse anchor keeps
                    // its turn: the inner loops run between its meetings).
                    if (!loop_sparse_gap_ && id < loop_good_.size() && loop_good_[id] && r_.instructions - loop_met_ > loop_min)
                        return loop_anchor_at<kTm, kT>(runs, n);
                    // The anchor not met again for long (a loop that has ended): another, the next hot run.
                    if (r_.instructions - loop_met_ > (loop_sparse_gap_ ? 4 * loop_sparse_gap_ : loop_patience)) {
                        loop_sparse_failed();
                        loop_mode_ = LoopMode::wait;
                        loop_armed_ = loop_events_ = false;
                        if (++loop_anchors_ >= loop_tries) loop_give_up();
                    }
                    return 0;
                }
                loop_met_ = r_.instructions;
                if (!loop_armed_) {
                    // The model's state cannot be put in words here (the D-bus buffer holds a store, say): another
                    // anchor, the next hot run.
                    if (!(loop_armed_ = loop_point(true)) && loop_sparse_gap_) return loop_sparse_unarmed();
                    if (!loop_armed_ && ++loop_tried_ >= loop_max_tries()) {
                        loop_mode_ = LoopMode::wait;
                        if (++loop_anchors_ >= loop_tries) loop_give_up();
                    }
                    if (loop_armed_ && loop_resume(runs)) return loop_skip<kTm, kT>(runs, n);
                    return 0;
                }
                if (r_.instructions - loop_points_.back().instructions < loop_min) return 0;
                // A checkpoint: a stretch repeats where the state is one met at an earlier checkpoint.
                if (!loop_point(false)) {
                    loop_armed_ = false;
                    return 0;
                }
                if (loop_resume(runs)) return loop_skip<kTm, kT>(runs, n);
                const LoopPoint& now = loop_points_.back();
                const LoopPoint* from = nullptr;
                uint64_t shift = 0;
                // Where addresses may move (TimingModel::shift_invariant), a stretch with the same addresses first
                // (pass 0: as elsewhere, loop_skip then checks its first run), else one moved (pass 1) from the last
                // loop_walk_reach checkpoints only, whose first run is the anchor met now so moved: a loop that walks
                // repeats from one of those (a walk of 4 bytes an iteration, 1,024 instructions a checkpoint, moves
                // a multiple of 16 bytes in 4), where a stretch moved over more checkpoints is a pattern that seldom
                // lasts (Dhrystone: 6,560 instructions, found again at a cost in every copy).
                const bool walks = tm_->shift_invariant();
                for (int pass = walks ? 0 : 1; pass < 2 && !from; ++pass)
                    for (size_t j = loop_points_.size() - 1; j-- > 0 && !from;)
                        if (loop_points_[j].state == now.state && shifted(loop_points_[j].addrs, now.addrs, shift) &&
                            (shift == 0 ? tm_->loop_same_caches(loop_points_[j].marks, now.marks)
                                        : timing::TimingModel::loop_hits_only(loop_points_[j].marks, now.marks)) &&
                            (pass == 1 || shift == 0) &&
                            (pass == 0 || !walks ||
                             (j + 1 + loop_walk_reach >= loop_points_.size() && anchor_fits(runs[0], loop_points_[j], shift, loop_free()))))
                            from = &loop_points_[j];
                if (!from) {
                    if (++loop_tried_ >= loop_max_tries()) loop_give_up();
                    return 0;
                }
                // Elsewhere a loop walking through memory leaves the same state with other addresses: loop_skip then
                // finds the anchor itself differing from the stretch's first run, and loop_abort drops the anchor.
                loop_take(*from);
                loop_.shift = shift;
                loop_.free = loop_free();
                loop_enter(shift);
                return loop_skip<kTm, kT>(runs, n);
            }
            case LoopMode::skip:
                return loop_skip<kTm, kT>(runs, n);
        }
        return 0;
    }

    // Skipping: runs[0..n-1) compared with the stretch and held back while they match; a whole stretch followed by
    // the anchor is added again. Returns how many runs it took; at a run that differs, the runs held back are timed
    // (loop_abort) and that run is left to the caller.
    template <bool kTm, Timing kT>
    size_t loop_skip(const trace::Run* runs, size_t n) {
        LoopStretch& l = loop_;
        size_t k = 0;
        const size_t len = l.shapes.size();
        for (; k + 1 < n; ++k) {
            const trace::Run& r = runs[k];
            if (loop_at_ == len) {
                if (r.shape->id != loop_anchor_) break;
                loop_repeat();
            }
            if (r.shape != l.shapes[loop_at_]) break;
            const RunPlan& p = *l.plans[loop_at_];
            const uint64_t* w = l.words.data() + loop_word_at_;
            const uint32_t* offs = p.loop_offs.data();
            const size_t nw = p.loop_offs.size();
            uint64_t differ = 0;
            if (loop_shift_ == 0 && loop_shift_set_) {  // the same addresses
                if (p.width == 4)
                    for (size_t j = 0; j < nw; ++j) differ |= trace::run_value(r.values, offs[j], 4) ^ w[j];
                else
                    for (size_t j = 0; j < nw; ++j) differ |= trace::run_value(r.values, offs[j], 8) ^ w[j];
            } else {
                differ = !shifted_run(r.values, p, w, loop_shift_, loop_shift_set_);
            }
            if (differ) break;
            loop_word_at_ += nw;
            ++loop_at_;
            loop_held_.push_back(r);  // its values in the reader's buffer until the caller reads again (loop_pin)
        }
        if (k + 1 < n) loop_abort<kTm, kT>(runs[k].shape);  // runs[k] differs
        else loop_pin();
        return k;
    }

    // Whether the data addresses `to` are those of `from` moved by one distance (returned in `shift`), a multiple of
    // loop_shift_unit, each of the same kind (TimingModel::shift_invariant; both empty: 0). On a model where a
    // shift is not invariant, loop_state() keeps the addresses in its words: both are empty.
    bool shifted(const std::vector<uint64_t>& from, const std::vector<uint64_t>& to, uint64_t& shift) const {
        shift = 0;
        if (from.size() != to.size()) return false;
        if (from.empty()) return true;
        shift = to[0] - from[0];
        if (shift % timing::TimingModel::loop_shift_unit) return false;
        for (size_t j = 0; j < from.size(); ++j)
            if (to[j] - from[j] != shift || !tm_->same_data_kind(from[j], to[j])) return false;
        return true;
    }

    // A run's words against the stretch's `w`, its data addresses moved by loop_shift_ (the first address sets it
    // where the repeat may lie anywhere), its other words the same.
    bool shifted_run(const unsigned char* v, const RunPlan& p, const uint64_t* w, uint64_t& shift, bool& set) const {
        for (size_t j = 0; j < p.loop_offs.size(); ++j) {
            const uint64_t a = trace::run_value(v, p.loop_offs[j], p.width);
            if (j >= p.loop_addrs) {
                if (a != w[j]) return false;
                continue;
            }
            if (!set) {
                shift = a - w[j];
                if (shift % timing::TimingModel::loop_shift_unit) return false;
                set = true;
            }
            if (a - w[j] != shift || (shift && !tm_->same_data_kind(a, w[j]))) return false;
        }
        return true;
    }

    // Whether run `r` (the anchor, met now) is the first run of the stretch from checkpoint `from` with its
    // addresses moved by `shift` (by any multiple of loop_shift_unit where `free`).
    bool anchor_fits(const trace::Run& r, const LoopPoint& from, uint64_t shift, bool free) {
        return anchor_fits(r, loop_log_words_.data() + from.words, loop_log_words_.size() - from.words, shift, free);
    }
    // The same against the stretch's words `w` (`n` of them).
    bool anchor_fits(const trace::Run& r, const uint64_t* w, size_t n, uint64_t shift, bool free) {
        const RunPlan& p = plan(*r.shape, r.values);
        if (p.loop_offs.size() > n) return false;
        bool set = !free;
        return shifted_run(r.values, p, w, shift, set);
    }

    // At a checkpoint (the anchor met, runs[0]): whether the stretch kept from the anchor's last repeats starts
    // from this state (its addresses moved, where they may move) with this run. Then it is taken again at once:
    // the runs that follow are compared with it, as after loop_take.
    bool loop_resume(const trace::Run* runs) {
        const LoopStretch& k = loop_kept_;
        if (k.shapes.empty() || k.anchor != loop_anchor_ || loop_points_.empty()) return false;
        const LoopPoint& now = loop_points_.back();
        uint64_t shift = 0;
        if (now.state != k.from_state || !shifted(k.from_addrs, now.addrs, shift) ||
            !anchor_fits(runs[0], k.words.data(), k.words.size(), shift, loop_free()))
            return false;
        loop_ = k;
        loop_enter(shift);
        return true;
    }

    // Whether the state at the last checkpoint holds no data address where addresses may move: a repeat may then
    // lie anywhere (LoopStretch::free).
    bool loop_free() const { return loop_points_.back().addrs.empty() && tm_->shift_invariant(); }

    // Skipping loop_ from the anchor met now, the state's addresses moved by `shift` from the stretch's start.
    void loop_enter(uint64_t shift) {
        loop_shift_ = shift;  // the first repeat starts from the state moved by `shift`
        loop_shift_set_ = !loop_.free;
        loop_events_ = false;
        loop_mode_ = LoopMode::skip;
        loop_release();
        loop_repeats_ = 0;
    }

    // Runs[0]'s shape becomes the anchor and a recording starts there; the stretch kept for it is taken at once
    // where it starts from this state (loop_resume). Returns the runs taken, as loop_unit.
    template <bool kTm, Timing kT>
    size_t loop_anchor_at(const trace::Run* runs, size_t n, uint64_t sparse_gap = 0) {
        loop_anchor_ = runs[0].shape->id;
        loop_sparse_gap_ = sparse_gap;
        loop_met_ = r_.instructions;
        loop_mode_ = LoopMode::record;
        loop_tried_ = 0;
        loop_armed_ = loop_point(true);
        if (!loop_armed_ && sparse_gap) return loop_sparse_unarmed();
        return loop_armed_ && loop_resume(runs) ? loop_skip<kTm, kT>(runs, n) : 0;
    }

    // The values of the runs held back that still lie in the reader's buffer, copied (the caller reads the next
    // runs, which may reuse it).
    void loop_pin() {
        size_t bytes = 0;
        for (size_t j = loop_pinned_; j < loop_held_.size(); ++j) bytes += loop_held_[j].shape->value_bytes;
        if (bytes == 0) {
            loop_pinned_ = loop_held_.size();
            return;
        }
        loop_chunks_.emplace_back(new unsigned char[bytes]);  // left uninitialised: every byte is copied over
        unsigned char* at = loop_chunks_.back().get();
        for (size_t j = loop_pinned_; j < loop_held_.size(); ++j) {
            trace::Run& r = loop_held_[j];
            std::memcpy(at, r.values, r.shape->value_bytes);
            r.values = at;
            at += r.shape->value_bytes;
        }
        loop_pinned_ = loop_held_.size();
    }

    void loop_release() {
        loop_held_.clear();
        loop_chunks_.clear();
        loop_pinned_ = 0;
        loop_at_ = 0;
        loop_word_at_ = 0;
    }

    // The stretch again, from the runs held back: its events, its retirement and the timing model moved on.
    void loop_repeat() {
        LoopStretch& l = loop_;
        if (loop_good_.size() <= loop_anchor_) loop_good_.resize(loop_anchor_ + 1, 0);
        loop_good_[loop_anchor_] = 1;
        ++loop_repeats_;
        loop_backoff_ = loop_min;
        if (loop_sparse_gap_) loop_sparse_backoff_ = loop_sparse_backoff0;
        loop_anchors_ = 0;
        for (const auto& e : l.events.events) batch_.add(e.event, e.count);
        batch_.cycles += l.events.cycles;
        r_.instructions += l.instructions;
        r_.repeated_instructions += l.instructions;
        r_.records += l.records;
        pending_ += l.instructions;
        r_.fast_runs += l.fast_runs;
        r_.grouped_runs += l.grouped_runs;
        r_.timed_blocks += l.timed_blocks;
        r_.timed_through += l.timed_through;
        tm_->skip_loop(l.from, l.to, l.shift);
        // The next repeat's addresses: moved on as far again, or anywhere where the state holds none.
        loop_shift_ += l.shift;
        loop_shift_set_ = !l.free;
        // What the runs leave besides their timing (settle_run): each register's last value, the last time.
        for (const auto& [g, run, off] : l.live_out) gpr_[g] = trace::run_value(loop_held_[run].values, off, l.plans[run]->width);
        prev_time_ = last_time(*l.plans.back(), loop_held_.back().values);
        loop_release();
        if (pending_ >= 4096) flush();
    }

    // The runs held back timed as usual, `next` after the last (nothing held: nothing done).
    template <bool kTm, Timing kT>
    void loop_abort(const trace::RunShape* next) {
        if (loop_mode_ == LoopMode::skip) {
            loop_mode_ = LoopMode::record;
            loop_armed_ = false;
            // The anchor itself differs (a run inside an inner loop that walks through memory, its addresses not
            // those of the stretch's start), or the stretch never repeated before it differed: another anchor, the
            // next hot run.
            if (loop_held_.empty() || loop_repeats_ == 0) {
                loop_sparse_failed();
                if (loop_bad_.size() <= loop_anchor_) loop_bad_.resize(loop_anchor_ + 1, 0);
                ++loop_bad_[loop_anchor_];  // after two such, never an anchor again
                loop_mode_ = LoopMode::wait;
                if (++loop_anchors_ >= loop_tries) loop_give_up();
            } else if (!tm_->has_caches()) {
                // A stretch that repeated: kept, to be taken again when its anchor meets its state (loop_resume).
                // Not where caches are modelled: by then other code may have evicted its lines or made other lines
                // of their sets more recent, and its repeats count hits and leave the LRU order as it is
                // (TimingModel::skip_loop). The recorded stretches are exact because they repeat at once.
                loop_kept_ = loop_;
            }
        }
        if (loop_held_.empty()) return;
        std::vector<trace::Run> runs;
        runs.swap(loop_held_);
        runs.push_back({next, nullptr});
        std::vector<std::unique_ptr<unsigned char[]>> chunks;
        chunks.swap(loop_chunks_);  // the held runs' values while replay_units may hold back others
        loop_release();
        loop_aborting_ = true;
        replay_units<kTm, kT>(runs.data(), runs.size());
        loop_aborting_ = false;
    }

    const Options& o_;
    const Platform& p_;
    std::optional<timing::TimingModel> tm_;
    uint32_t sctlr_key_ = 0;
    bool mem_seen_ = false;
    bool irq_seen_ = false, halt_pending_ = false;  // an interrupt in the trace; an mpmc fw-halt not yet woken
    uint64_t slept_ = 0;                             // cycles in pmu/fw-halt
    uint64_t next_interval_ = 0;           // --interval-unit cycles: the next point's cycle
    uint64_t next_sample_ = 0;             // the next sample point (cycles); all ones without sampling
    std::vector<uint32_t> series_events_;  // the time series' events
    std::optional<std::pair<uint64_t, uint64_t>> last_point_;  // instructions and cycles of the last point
    std::unique_ptr<Pmu> owned_;
    Pmu* pmu_ = nullptr;
    Result r_;
    Producer producer_;
    EventBatch batch_;
    uint64_t pending_ = 0, prev_time_ = 0, total_cycles_ = 0;
    unsigned priv_ = 0xFF;
    const trace::TraceReader* reader_ = nullptr;
    bool noted_values_ = false;
    uint64_t gpr_[32] = {};
    ZeroedTable<uint64_t> totals_;  // by event number (16 bits)
    DecodeCache cache_;
    // A block body's data accesses for the block timing (kept: a MemRef array on the stack is built per call).
    std::vector<timing::MemRef> body_mem_ = std::vector<timing::MemRef>(Block::max * TraceRecord::max_mem);
    std::array<uint8_t, Block::max> body_n_mem_{};
    RetireHistogram hist_;
    RoiTracker roi_;
    BlockCache blocks_;
    std::vector<std::unique_ptr<RunPlan>> plans_;  // by shape number (run_runs)
    std::vector<unsigned char> group_values_;  // replay_group: the runs' values, one after the other
    size_t group_plans_ = 0;                   // extend_plan's plans made
    std::vector<RunPlan::Segment*> counted_;        // blocks of fast runs executed since the last flush
    std::vector<TraceRecord> run_recs_;            // a run expanded into records, and its successor
    IsaState checked_isa_ = static_cast<IsaState>(0xFF);  // the instruction set last found to match the platform
    // Stretches that repeat (loop_unit).
    LoopMode loop_mode_ = LoopMode::off;
    LoopStretch loop_;               // skip: the stretch repeated
    bool loop_armed_ = false;        // record: loop_ started at the anchor (else waiting for it)
    bool loop_events_ = false;       // flush() adds each batch to loop_events_total_
    EventBatch loop_events_total_;   // record: everything flushed since the recording started
    std::vector<LoopPoint> loop_points_;  // record: the last checkpoints, oldest first
    std::vector<const trace::RunShape*> loop_log_shapes_;  // record: the runs since the oldest checkpoint
    std::vector<uint64_t> loop_log_words_;                 // and their words
    uint32_t loop_anchor_ = 0;       // its first run's shape
    uint64_t loop_met_ = 0;          // r_.instructions when the anchor was last met
    unsigned loop_tried_ = 0;        // stretches recorded (or starts failed) with this anchor
    unsigned loop_anchors_ = 0;      // anchors tried since the last stretch that repeated, or the last wait
    uint64_t loop_repeats_ = 0;      // skip: times the stretch repeated since it was taken
    uint64_t loop_wait_until_ = 0, loop_backoff_ = loop_min;  // wait: no anchor before this many instructions
    std::vector<uint32_t> loop_heat_;  // executions per shape (wait)
    std::vector<uint8_t> loop_bad_;    // per shape: times it was the anchor and differed from the stretch's start
    std::vector<uint8_t> loop_good_;   // per shape: an anchor whose stretch repeated
    struct LoopSeen {           // per shape, at the start of a unit (loop_sparse)
        uint64_t last = 0;      // r_.instructions + 1 when last met (0: never)
        uint64_t gap = 0;       // the instructions between that meeting and the one before
        uint64_t repeated = 0;  // r_.repeated_instructions when last met
        bool unarmed = false;   // met as a sparse anchor where no checkpoint could be taken
    };
    std::vector<LoopSeen> loop_seen_;
    uint64_t loop_sparse_gap_ = 0;     // the anchor's gap where it is a sparse one (else 0)
    uint64_t loop_sparse_until_ = 0, loop_sparse_backoff_ = loop_sparse_backoff0;  // no sparse anchor before this
    std::vector<uint64_t> loop_sparse_hopeless_;  // gaps whose stretches hold a run not replayable from values
    size_t loop_at_ = 0, loop_word_at_ = 0;  // skip: runs of the stretch matched, and their words
    LoopStretch loop_kept_;          // the last stretch that repeated (loop_resume; none: no runs)
    bool loop_aborting_ = false;     // loop_abort() times the runs it held back
    uint64_t loop_shift_ = 0;        // skip: how far this repeat's data addresses lie from the stretch's
    bool loop_shift_set_ = true;     // and whether that is known yet (LoopStretch::free: at its first address)
    std::vector<trace::Run> loop_held_;  // skip: the runs held back (their values in the reader's buffer, or pinned)
    size_t loop_pinned_ = 0;             // of those, the first not pinned
    std::vector<std::unique_ptr<unsigned char[]>> loop_chunks_;  // the pinned values
};

}  // namespace

void Result::skipped_note(const trace::TraceReader* reader) {
    if (reader->skipped_lines())
        notes.push_back(fmt::format("{} malformed lines skipped (the first: {})", reader->skipped_lines(),
                                    reader->first_skip_message()));
}

Result run(const Options& o, std::unique_ptr<trace::TraceReader> reader) {
    const Platform* p = find_platform(o.platform);
    if (!p) throw std::invalid_argument(fmt::format("unknown platform '{}'", o.platform));
    // On the heap: the replay may run on a SystemC thread's small stack (pmusim run --vcd).
    auto r = std::make_unique<Replayer>(o, *p);
    return r->run(std::move(reader));
}

Result run(const Options& o) { return run(o, nullptr); }

std::vector<bool> producible_events(const Platform& p, bool with_addresses, bool with_model, bool with_interrupts) {
    std::vector<bool> produced(65536, false);
    EventBatch probe;
    for (int c = 0; c <= static_cast<int>(isa::InsnClass::fence_i); ++c)
        for (bool comp : {false, true})
            // no branch, and each kind of branch taken (conditional ones untaken too)
            for (int br : {0x00, 0x41, 0x42, 0x46, 0x49, 0x4A, 0x11, 0x51, 0x62}) {
                isa::RetiredInsn probe_insn;
                probe_insn.cls = static_cast<isa::InsnClass>(c);
                probe_insn.compressed = comp;
                probe_insn.branch = static_cast<uint8_t>(br);
                probe_insn.unaligned = br == 0;
                p.retire(probe_insn, 1, probe);
            }
    if (with_interrupts && p.interrupt)
        for (unsigned cause = 0; cause < 64; ++cause) p.interrupt(cause, probe);
    for (const auto& e : probe.events) produced[e.event] = true;
    produced[p.cycle_event] = true;
    if (const auto params = with_model ? p.timing : std::nullopt) {
        const timing::TimingModel tm(*params);
        for (uint32_t e : tm.produced_events()) produced[e] = true;
        // Cache and bus events need the data addresses, which some formats do not carry.
        if (!with_addresses)
            for (uint32_t e : tm.address_events())
                if (probe.count(e) == 0) produced[e] = false;  // unless retirement alone signals it
    }
    return produced;
}

}  // namespace pmusim::replay
