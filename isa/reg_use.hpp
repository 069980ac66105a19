// Which general-purpose registers an instruction reads and writes, for the timing model's result-use stalls.
// A64: the common integer classes (loads and stores, add/sub, logical, moves, multiply/divide, conditional select,
// compare-and-branch, register branches); register 31 (SP or ZR) is never a dependency; both registers of a pair. RISC-V: RV32/RV64 I, M and
// C exactly. Anything else reports no registers (never a false dependency). Arm ARM C4.1 (A64 encoding index);
// RISC-V unprivileged ISA ch. 2, 7, 16 (formats and the RVC register fields). ARM: also the operand shapes some
// pipelines time apart (RegUse::shifted, RegUse::shape): shifted and extended register operands, shifts by a
// register, EXTR.
#pragma once
#include <cstdint>

#include "isa/insn_class.hpp"

namespace pmusim::isa {

RegUse a64_reg_use(uint32_t insn);
RegUse rv_reg_use(uint32_t insn, bool rv64 = false);
// A32 and T32 (ARMv7-A/R and ARMv6): the integer instructions; r13 (SP) and r14 (LR) are tracked, the PC never.
// Loads of several registers write them all; a base register's write-back is not a result (it is ready at once).
// ARM ARM (DDI 0406C) A5 (A32 encodings) and A6 (T32 encodings). T32 as classify_t32 takes it.
RegUse a32_reg_use(uint32_t insn);
RegUse t32_reg_use(uint32_t insn, bool is32);

}  // namespace pmusim::isa
