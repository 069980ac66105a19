#include "replay/run_plan.hpp"

#include <algorithm>

namespace pmusim::replay {

using trace::RegKind;

namespace {

// Where the operands of the division at recs[k] come from (RecordStepper's div_operands on the run's records): its
// own late writebacks, else the last value an earlier record of the run gives the register, else the register file.
RunPlan::Segment::Div div_plan(const TraceRecord* recs, const std::vector<trace::ValueOffsets>& offs, size_t k, size_t first) {
    RunPlan::Segment::Div d{static_cast<unsigned>(k - first), {trace::ValueOffsets::none, trace::ValueOffsets::none}, {0, 0},
                            div_is_rem(recs[k].encoding)};
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
        // The stepper applies a record's late writebacks, then its own writes; div_operands() reads the division's
        // late writebacks over the register file.
        for (size_t j = 0; j < k; ++j) {
            last_write(j, true, d.off[o]);
            last_write(j, false, d.off[o]);
        }
        last_write(k, true, d.off[o]);
    }
    return d;
}

}  // namespace

RunPlan& RunPlanner::plan_for(const trace::RunShape& s, const unsigned char* v) {
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
    peak_ = std::max<uint64_t>(peak_, ++kept_);
    return *plans_[s.id];
}

RunPlan* RunPlanner::new_group(RunPlan& p, const trace::RunShape& s, const unsigned char* v) {
    // The first few successors met keep their plans (their recordings with them); others go alone.
    if (p.next.size() == max_next || group_plans_ == max_group_plans) return nullptr;
    ++group_plans_;
    p.next.emplace_back(s.id, extend(p, s, v));
    return p.next.back().second.get();
}

// Their records and values as one run's, `c`'s values after the others' (`seam` bytes on), the blocks on either
// side of the jump into `c` merged (make_block's `joins`). Not fast where any of the runs alone would not be, or
// where their values differ in width.
std::unique_ptr<RunPlan> RunPlanner::extend(const RunPlan& p, const trace::RunShape& c, const unsigned char* vc) {
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
    const uint32_t at_c = p.value_bytes + seam;  // where c's values start
    e->value_bytes = at_c + c.value_bytes;
    if (c.width != p.width || bytes_c != c.value_bytes) {  // not fast
        e->last_time_at = e->offs.back().time;
        return e;
    }
    auto shift = [&](uint32_t& o) {
        if (o != trace::ValueOffsets::none) o += at_c;
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
void RunPlanner::plan_records(RunPlan* p) {
    const size_t n = p->offs.size();
    const TraceRecord* recs = p->protos.data();
    for (size_t i = 0; i < n; ++i) c_.check_isa(recs[i]);
    p->privilege = recs[0].privilege;
    p->last_time_at = p->offs.back().time;
    bool fast = true;
    for (size_t i = 0; i < n; ++i) {
        const TraceRecord& r = recs[i];
        // A failed condition is part of the run's shape: its blocks carry it (make_block).
        fast &= !r.trapped && !r.interrupt && r.privilege == p->privilege && r.isa == recs[0].isa;
        fast &= i == 0 || p->joins[i - 1] || r.pc == recs[i - 1].pc + recs[i - 1].size;
        if (c_.o.timing == Timing::trace) fast &= r.has_time;
        p->mem |= r.n_mem != 0;
        for (unsigned k = 0; k < r.n_mem; ++k)
            if (const unsigned size = r.mem[k].size; size > 1 && size <= 16) {
                if ((size & (size - 1)) == 0) p->align_masks.emplace_back(p->offs[i].addr[k], size - 1);
                else p->align.emplace_back(p->offs[i].addr[k], static_cast<uint8_t>(size));
            }
    }
    std::vector<uint32_t> div_offs;  // loop_offs after the addresses
    p->fast = fast;
    if (fast) plan_segments(p, div_offs);
    if (p->fast) plan_arch(p);
    p->loop_addrs = static_cast<uint32_t>(p->loop_offs.size());
    p->loop_offs.insert(p->loop_offs.end(), div_offs.begin(), div_offs.end());
    plan_live_out(p);
}

// The plan's records cut into blocks (make_block with the run's joins): not fast where one cannot start a block.
void RunPlanner::plan_segments(RunPlan* p, std::vector<uint32_t>& div_offs) {
    const size_t n = p->offs.size();
    const TraceRecord* recs = p->protos.data();
    const auto& tm = c_.tm;
    for (size_t i = 0; i < n;) {
        auto b = blocks_.make_block(recs, i, n, p->joins.data());
        if (!b) {
            p->fast = false;
            return;
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
        if (b->memo) b->memo->set_fixed_accesses();  // replay_fast() passes g.body_n and g.body_mem's directions
        g.through = std::any_of(b->insns.begin(), b->insns.end() - 1, [](const isa::RetiredInsn& x) { return x.branch != 0; });
        if (tm && tm->params().divider_from_operands)
            for (size_t k = i; k < i + len; ++k)
                if (b->insns[k - i].cls == isa::InsnClass::div) g.divs.push_back(div_plan(recs, p->offs, k, i));
        for (const auto* slots : {&g.body_mem, &g.last_mem})
            for (const auto& a : *slots) p->loop_offs.push_back(a.off);
        for (const auto& d : g.divs)
            for (unsigned o = 0; o < 2; ++o) {
                if (d.off[o] != trace::ValueOffsets::none) div_offs.push_back(d.off[o]);
                else if (d.reg[o] != 0) p->loop_from_gpr = true;
            }
        const TraceRecord& last = recs[i + len - 1];
        g.last_insn[0] = g.last_insn[1] = b->insns.back();
        g.last_insn[1].branch = static_cast<uint8_t>(g.last_insn[1].branch | isa::br_taken);
        g.last_end = last.pc + last.size;
        g.last_branch = g.last_insn[0].branch != 0;
        g.last_always = always_taken(g.last_insn[0], last.isa);
        g.block = std::move(b);
        g.execs.block = g.block.get();
        if (!p->segs.empty()) p->segs.back().after = recs[i].pc;
        p->segs.push_back(std::move(g));
        i += len;
    }
}

// A fast plan's retirement without the timing model (RunPlan::Arch): replay_fast's taken for each segment but the
// last, whose successor is the next segment's first record.
void RunPlanner::plan_arch(RunPlan* p) {
    RunPlan::Arch& a = p->arch;
    const TraceRecord* recs = p->protos.data();
    const size_t nsegs = p->segs.size();
    for (size_t g = 0; g < nsegs; ++g) {
        RunPlan::Segment& seg = p->segs[g];
        a.records += seg.block->size();
        if (g + 1 < nsegs) {
            a.execs.inner.emplace_back(&seg.execs, static_cast<uint8_t>(seg.last_taken(recs[p->segs[g + 1].first].pc)));
            continue;
        }
        a.execs.last = &seg.execs;
        a.last_end = seg.last_end;
        a.last_branch = seg.last_branch;
        a.last_always = seg.last_always;
    }
}

// The register file after the run: per register, the last value it is given (late writebacks before the record's
// own writes, as the stepper applies them).
void RunPlanner::plan_live_out(RunPlan* p) {
    const size_t n = p->offs.size();
    const TraceRecord* recs = p->protos.data();
    const bool rv = is_rv(recs[0].isa);
    std::array<uint32_t, 32> last;
    last.fill(trace::ValueOffsets::none);
    for (size_t i = 0; i < n; ++i)
        for (bool before : {true, false})
            for (unsigned k = 0; k < recs[i].n_regs; ++k) {
                const trace::RegWrite& w = recs[i].regs[k];
                if (w.before == before && w.kind == RegKind::gpr && w.index < 32 && !(rv && w.index == 0)) last[w.index] = p->offs[i].reg[k];
            }
    for (unsigned g = 0; g < 32; ++g)
        if (last[g] != trace::ValueOffsets::none) p->live_out.emplace_back(static_cast<uint8_t>(g), last[g]);
}

}  // namespace pmusim::replay
