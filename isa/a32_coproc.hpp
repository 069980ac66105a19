// A32 and T32 coprocessor register moves, MCR and MRC (Arm ARM A8.8.98 MCR, A8.8.107 MRC):
//   A32: cond:4 1110 opc1:3 L CRn:4 Rt:4 coproc:4 opc2:3 1 CRm:4   (L = 1: MRC)
//   T32 (encoding T1): 1110 1110 opc1:3 L CRn:4 | Rt:4 coproc:4 opc2:3 1 CRm:4, i.e. the A32 word with cond = 0b1110;
//   hw1 (the first halfword in memory) is bits [31:16] of the value used here.
#pragma once
#include <cstdint>
#include <optional>

namespace pmusim::isa::a32 {

struct CoprocMove {
    bool is_read = true;  // MRC (read) or MCR (write)
    unsigned coproc = 15;
    unsigned opc1 = 0, crn = 0, crm = 0, opc2 = 0;
    unsigned rt = 0;
    unsigned cond = 0xE;  // A32 only
};

uint32_t encode_a32(const CoprocMove& m);
std::optional<CoprocMove> decode_a32(uint32_t insn);
uint32_t encode_t32(const CoprocMove& m);
std::optional<CoprocMove> decode_t32(uint32_t insn);  // hw1 << 16 | hw2

// The model's CP15 key (model/core/register.hpp cp15_key).
uint32_t cp15_key(const CoprocMove& m);

}  // namespace pmusim::isa::a32
