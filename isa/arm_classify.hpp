// Classification of A64, A32 and T32 instructions into the classes that ARM PMU events count (Arm ARM C4 "A64
// instruction set encoding", F4 "A32", F3 "T32": the top-level encoding tables). Not a disassembler: only what
// events need.
#pragma once
#include <cstdint>

#include "isa/insn_class.hpp"

namespace pmusim::isa::arm {

RetiredInsn classify_a64(uint32_t insn);
// The bytes an A64 load or store instruction moves, from its encoding (0: not a load or store, or not decoded: the
// single-structure SIMD loads and stores, PRFM).
unsigned a64_access_bytes(uint32_t insn);
RetiredInsn classify_a32(uint32_t insn);
// T32: a 16-bit instruction in the low half, or a 32-bit one as (first halfword << 16) | second halfword.
RetiredInsn classify_t32(uint32_t insn, bool is32);
// Whether a first T32 halfword starts a 32-bit instruction (bits [15:11] = 0b11101, 0b11110 or 0b11111).
constexpr bool t32_is_32bit(uint32_t hw1) { return ((hw1 >> 11) & 0x1F) >= 0x1D; }

}  // namespace pmusim::isa::arm
