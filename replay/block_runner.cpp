#include "replay/block_runner.hpp"

namespace pmusim::replay {

std::unique_ptr<Block> BlockRunner::make_block(const TraceRecord* recs, size_t i, size_t m, const uint8_t* joins) {
    const auto& tm = c_.tm;
    const bool through = joins != nullptr;
    auto b = std::make_unique<Block>();
    b->pc = recs[i].pc;
    size_t inner = 0;
    for (size_t j = i; j < m && b->size() < Block::max; ++j) {
        const TraceRecord& r = recs[j];
        const bool jumped = through && j > i && joins[j - 1] && b->insns.back().branch;  // the joining branch went here
        if (j > i && ((!jumped && r.pc != recs[j - 1].pc + recs[j - 1].size) || r.privilege != recs[i].privilege || r.isa != recs[i].isa))
            break;
        const isa::Decoded& d = decode_record(c_.decode, r);
        if (d.is_csr || (d.is_sysreg && !regs_.plain_sysreg(d)) || !d.retires) break;
        b->keys.push_back(record_key(r));
        b->insns.push_back(d.insn);
        b->kinds.push_back(d.kind);
        // A run's records are fixed: a failed condition is the instruction's, as complete() would make it (its
        // retire kind, and step() times it so). The block cache's records may go either way: completed per record.
        if (through) b->insns.back().cond_failed = r.cond_failed;
        // A division timed from its operands ends a plan's block: stepped on its own, with its operands, after
        // the body before it (a body with one is stepped record by record).
        if (through && d.insn.cls == isa::InsnClass::div && tm && tm->params().divider_from_operands) break;
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
    const bool div_operands = tm && tm->params().divider_from_operands &&
                              std::any_of(b->insns.begin(), b->insns.end() - 1, [](const isa::RetiredInsn& x) { return x.cls == isa::InsnClass::div; });
    if (tm && b->size() >= 2 && !div_operands) {
        std::vector<uint64_t> pcs;
        std::vector<uint8_t> sizes;
        for (size_t j = i; j + 1 < i + b->size(); ++j) {
            pcs.push_back(recs[j].pc);
            sizes.push_back(recs[j].size);
        }
        b->memo = std::make_unique<timing::BlockMemo>(std::vector<isa::RetiredInsn>(b->insns.begin(), b->insns.end() - 1),
                                                      std::move(pcs), std::move(sizes));
        // A last branch's timing joins the body's recordings (its prediction is made each time).
        const TraceRecord& last = recs[i + b->size() - 1];
        b->memo->set_after(last.pc);
        if (b->insns.back().branch) b->memo->set_tail(b->insns.back(), last.pc, last.size);
    }
    for (unsigned k = 0; k + 1 < b->size(); ++k) {
        const uint32_t id = s_.hist.id(b->insns[k], kind_of(b->kinds[k], b->insns[k]));  // a joining branch: taken
        auto it = std::find_if(b->counts.begin(), b->counts.end(), [&](const auto& c) { return c.first == id; });
        if (it == b->counts.end()) b->counts.emplace_back(id, 1);
        else ++it->second;
    }
    for (bool taken : {false, true}) {
        isa::RetiredInsn last = b->insns.back();
        if (taken && last.branch) last.branch = static_cast<uint8_t>(last.branch | isa::br_taken);
        b->last_ids[taken] = s_.hist.id(last, kind_of(b->kinds.back(), last));
    }
    return b;
}

}  // namespace pmusim::replay
