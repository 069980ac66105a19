// What the replay reads of a trace record beside its decoded instruction: its decoding key, alignment, a branch's
// outcome and a division's operands. Shared by every engine (one definition).
#pragma once
#include <cstdint>

#include "isa/decode.hpp"
#include "traces/trace_record.hpp"

namespace pmusim::replay {

using trace::IsaState;
using trace::TraceRecord;

static_assert(static_cast<uint8_t>(isa::DecodeMode::a64) == static_cast<uint8_t>(IsaState::a64) &&
                  static_cast<uint8_t>(isa::DecodeMode::a32) == static_cast<uint8_t>(IsaState::a32) &&
                  static_cast<uint8_t>(isa::DecodeMode::t32) == static_cast<uint8_t>(IsaState::t32) &&
                  static_cast<uint8_t>(isa::DecodeMode::rv32) == static_cast<uint8_t>(IsaState::rv32) &&
                  static_cast<uint8_t>(isa::DecodeMode::rv64) == static_cast<uint8_t>(IsaState::rv64),
              "isa::DecodeMode is numbered as trace::IsaState");

inline bool is_rv(IsaState s) { return s == IsaState::rv32 || s == IsaState::rv64; }

// A record's instruction, decoded once per encoding.
inline const isa::Decoded& decode_record(isa::DecodeCache& cache, const TraceRecord& r) {
    return cache.get(r.encoding, static_cast<isa::DecodeMode>(r.isa), r.size);
}

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
// The rule in its two inputs, worked out once per block where they are fixed (RunPlan::Segment: replay_fast): the
// instruction's end (pc + size) and whether it is always taken (always_taken).
inline bool taken_to(uint64_t end, bool always, uint64_t next_pc) { return next_pc != end || always; }
inline bool always_taken(const isa::RetiredInsn& insn, IsaState state) {
    return is_rv(state) && !(insn.branch & isa::br_conditional);
}
inline bool branch_taken(const isa::RetiredInsn& insn, IsaState state, uint64_t pc, unsigned size, uint64_t next_pc) {
    return taken_to(pc + size, always_taken(insn, state), next_pc);
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

}  // namespace pmusim::replay
