// Instructions a script may contain, per instruction set, parsed into one small form the runner executes
// on its register file. Each model's issue adds its instruction set's forms.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "isa/insn_class.hpp"
#include "platforms/platform.hpp"

namespace pmusim {

struct ScriptInsn {
    enum class Kind { set_imm, sys_read, sys_write, nop, csr };
    Kind kind = Kind::nop;
    unsigned reg = 0;         // core register written (set_imm, sys_read) or read (sys_write)
    uint64_t imm = 0;
    std::string sysreg;       // system-register operand as written (name or generic encoding)
    bool has_cp15 = false;    // MRC/MCR: the operand is the CP15 encoding below
    uint32_t cp15 = 0;        // cp15_key(opc1, CRn, CRm, opc2)
    isa::RetiredInsn cls;     // what it retires as (ldr rN, =imm: a literal-pool load)
    unsigned retired = 1;     // instructions it retires as (li: 1 or 2)
    // RISC-V CSR instructions: csrrw/csrrs/csrrc (op 0/1/2), the immediate forms, rd and rs1 or uimm.
    unsigned csr_op = 0;
    bool csr_imm = false;
    unsigned csr_src = 0;
    uint32_t encoding = 0;    // machine encoding where it has one (0: none)
};

struct ParseOutcome {
    std::optional<ScriptInsn> insn;
    bool is_instruction = false;  // the mnemonic is an instruction of this ISA (a parse error is then malformed)
    std::string error;            // what was expected, when malformed
};

// Parses one instruction in the platform's assembly syntax.
ParseOutcome parse_instruction(IsaKind isa, std::string_view text);
// Core register by name for the ISA (x0..x30, xzr for A64): its index, or nullopt.
std::optional<unsigned> core_register(IsaKind isa, std::string_view name);
std::string core_register_name(IsaKind isa, unsigned index);
unsigned core_register_count(IsaKind isa);
unsigned zero_register(IsaKind isa);  // index that reads as zero and ignores writes, or count if none

}  // namespace pmusim
