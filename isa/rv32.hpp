// RV32IMC: the CSR instructions (encode/decode) and the classification of every instruction into the classes
// that performance events count. RISC-V unprivileged spec: base opcode map (ch. 34), Zicsr (ch. 9),
// "C" extension quadrants (ch. 26).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace pmusim::isa::rv32 {

enum class CsrOp { rw, rs, rc };

struct CsrInsn {
    CsrOp op = CsrOp::rs;
    bool immediate = false;  // csrrwi/csrrsi/csrrci: `src` is a 5-bit zero-extended immediate
    unsigned rd = 0;
    unsigned src = 0;  // rs1, or uimm[4:0]
    unsigned csr = 0;
};

uint32_t encode(const CsrInsn& i);
std::optional<CsrInsn> decode_csr(uint32_t insn);

// Which of the VeeR EL2 CSR events a CSR instruction is (veer-el2-mhpm.md §4.2): a pure read (16), a write with
// rd = x0 (18), or a read/write (17).
enum class CsrClass { read, read_write, write };
CsrClass csr_class(const CsrInsn& i);
bool csr_reads(const CsrInsn& i);   // csrrw/csrrwi with rd = x0 do not read
bool csr_writes(const CsrInsn& i);  // csrrs/csrrc with rs1 = x0 (uimm = 0) do not write

// Numbers of the standard counter CSRs by name (RISC-V privileged spec, CSR listing): cycle, time, instret,
// hpmcounter3-31 and their "h" halves, mcounteren, mhpmevent3h-31h (Sscofpmf).
std::optional<unsigned> standard_counter_csr(std::string_view name);

// x0-x31 by number ("x5") or ABI name ("t0", "fp"), case-sensitive lower case as assemblers print them.
std::optional<unsigned> gpr_by_name(std::string_view name);

// The memory operand of a load or store: its size in bytes and, for a store, the register holding the data.
struct MemOp {
    unsigned size = 4;
    bool store = false;
    unsigned data_reg = 0;  // rs2 of a store
};
std::optional<MemOp> mem_op(uint32_t insn);

enum class Klass : uint8_t {
    illegal, alu, load, store, branch, jal, jalr, mul, div, csr, ecall, ebreak, mret, wfi, fence, fence_i,
    bitmanip,  // RV32 Zba, Zbb, Zbc, Zbs
};

struct Info {
    Klass klass = Klass::illegal;
    bool compressed = false;  // 16-bit encoding
    unsigned size = 4;        // bytes
};

// Where a control-transfer instruction goes (RISC-V unprivileged spec 2.5, 16.4): the PC-relative offset of a
// conditional branch's or a JAL's target (c.j, c.jal, c.beqz, c.bnez included), or for a JALR (c.jr, c.jalr) the
// source register and immediate of target = (rs1 + imm) & ~1. kind none: not a branch or jump.
struct Transfer {
    enum Kind : uint8_t { none, relative, indirect } kind = none;
    bool conditional = false;  // a conditional branch: it may also fall through
    int32_t offset = 0;        // relative: target - pc; indirect: the immediate
    unsigned rs1 = 0;          // indirect
};
Transfer transfer(uint32_t insn, bool rv64 = false);

// Classifies one instruction; `insn` holds 16 (compressed, low two bits != 0b11) or 32 bits. With rv64, the RV64
// forms too (ld, sd, lwu, the *W operations, c.ld, c.sd, c.addiw, c.ldsp, c.sdsp).
Info classify(uint32_t insn, bool rv64 = false);

}  // namespace pmusim::isa::rv32
