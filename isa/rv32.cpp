#include "isa/rv32.hpp"

namespace pmusim::isa::rv32 {

namespace {
constexpr uint32_t opcode_system = 0x73;
// funct3 of the Zicsr instructions: 1 csrrw, 2 csrrs, 3 csrrc; +4 for the immediate forms.
unsigned funct3(CsrOp op, bool imm) { return (op == CsrOp::rw ? 1u : op == CsrOp::rs ? 2u : 3u) + (imm ? 4u : 0u); }
}  // namespace

uint32_t encode(const CsrInsn& i) {
    return ((i.csr & 0xFFFu) << 20) | ((i.src & 31u) << 15) | (funct3(i.op, i.immediate) << 12) | ((i.rd & 31u) << 7) |
           opcode_system;
}

std::optional<CsrInsn> decode_csr(uint32_t insn) {
    const unsigned f3 = (insn >> 12) & 7u;
    if ((insn & 0x7Fu) != opcode_system || f3 == 0 || f3 == 4) return std::nullopt;
    CsrInsn i;
    i.op = (f3 & 3u) == 1 ? CsrOp::rw : (f3 & 3u) == 2 ? CsrOp::rs : CsrOp::rc;
    i.immediate = f3 & 4u;
    i.rd = (insn >> 7) & 31u;
    i.src = (insn >> 15) & 31u;
    i.csr = insn >> 20;
    return i;
}

bool csr_reads(const CsrInsn& i) { return !(i.op == CsrOp::rw && i.rd == 0); }
bool csr_writes(const CsrInsn& i) { return i.op == CsrOp::rw || i.src != 0; }

CsrClass csr_class(const CsrInsn& i) {
    if (i.op == CsrOp::rw && i.rd == 0) return CsrClass::write;      // csrw, csrwi: event 18
    if (i.op != CsrOp::rw && i.src == 0) return CsrClass::read;       // csrr (csrrs/c with x0 or uimm 0): event 16
    return CsrClass::read_write;                                      // everything else: event 17
}

std::optional<unsigned> standard_counter_csr(std::string_view n) {
    auto indexed = [&](std::string_view prefix, std::string_view suffix) -> std::optional<unsigned> {
        if (n.size() <= prefix.size() + suffix.size() || n.substr(0, prefix.size()) != prefix ||
            n.substr(n.size() - suffix.size()) != suffix)
            return std::nullopt;
        unsigned v = 0;
        for (char c : n.substr(prefix.size(), n.size() - prefix.size() - suffix.size())) {
            if (c < '0' || c > '9') return std::nullopt;
            v = v * 10 + static_cast<unsigned>(c - '0');
        }
        return v >= 3 && v <= 31 ? std::optional<unsigned>(v) : std::nullopt;
    };
    if (n == "cycle") return 0xC00u;
    if (n == "time") return 0xC01u;
    if (n == "instret") return 0xC02u;
    if (n == "cycleh") return 0xC80u;
    if (n == "timeh") return 0xC81u;
    if (n == "instreth") return 0xC82u;
    if (n == "mcounteren") return 0x306u;
    if (auto k = indexed("hpmcounter", "h")) return 0xC80u + *k;
    if (auto k = indexed("hpmcounter", "")) return 0xC00u + *k;
    if (auto k = indexed("mhpmevent", "h")) return 0x720u + *k;
    return std::nullopt;
}

std::optional<unsigned> gpr_by_name(std::string_view n) {
    // The psABI's register names (RISC-V ELF psABI, integer register convention) and x0-x31 (RISC-V unprivileged
    // spec 2.1), by length and first letter: called per register column of each VeeR exec.log line.
    const auto digit = [&n](size_t i) { return n[i] >= '0' && n[i] <= '9' ? static_cast<unsigned>(n[i] - '0') : 99u; };
    if (n.size() == 2) {
        const unsigned d = digit(1);
        switch (n[0]) {
            case 'a': if (d <= 7) return 10 + d; break;                          // a0-a7 = x10-x17
            case 's': if (d <= 9) return d <= 1 ? 8 + d : 16 + d; break;         // s0-s1 = x8-x9, s2-s9 = x18-x25
            case 't': if (d <= 6) return d <= 2 ? 5 + d : 25 + d; break;         // t0-t2 = x5-x7, t3-t6 = x28-x31
            case 'x': if (d <= 9) return d; break;
            default: break;
        }
        if (n == "ra") return 1u;
        if (n == "sp") return 2u;
        if (n == "gp") return 3u;
        if (n == "tp") return 4u;
        if (n == "fp") return 8u;
    } else if (n.size() == 3) {
        if (n == "s10") return 26u;
        if (n == "s11") return 27u;
        if (n[0] == 'x' && n[1] >= '1' && n[1] <= '9' && digit(2) <= 9) {  // x10-x31: no leading zero
            const unsigned v = 10 * static_cast<unsigned>(n[1] - '0') + digit(2);
            if (v <= 31) return v;
        }
    } else if (n == "zero") {
        return 0u;
    }
    return std::nullopt;
}

std::optional<MemOp> mem_op(uint32_t insn) {
    const Info info = classify(insn, true);
    if (info.klass != Klass::load && info.klass != Klass::store) return std::nullopt;
    MemOp m;
    m.store = info.klass == Klass::store;
    if (info.compressed) {
        const unsigned cf3 = (insn >> 13) & 7u;
        m.size = (cf3 == 3 || cf3 == 7) ? 8 : 4;  // c.ld/c.sd/c.ldsp/c.sdsp, else c.lw/c.sw/c.lwsp/c.swsp
        const unsigned q = insn & 3u;
        if (m.store) m.data_reg = q == 0 ? 8 + ((insn >> 2) & 7u) : (insn >> 2) & 31u;  // c.sw rs2' / c.swsp rs2
        return m;
    }
    const unsigned f3 = (insn >> 12) & 7u;
    m.size = 1u << (f3 & 3u);  // b, h, w (bu/hu share the low bits)
    if (m.store) m.data_reg = (insn >> 20) & 31u;
    return m;
}

Info classify(uint32_t insn, bool rv64) {
    Info info;
    if ((insn & 3u) != 3u) {
        // Compressed (RVC): quadrant in bits [1:0], funct3 in [15:13].
        info.compressed = true;
        info.size = 2;
        const unsigned q = insn & 3u, f3 = (insn >> 13) & 7u;
        const unsigned rd = (insn >> 7) & 31u, rs2 = (insn >> 2) & 31u, bit12 = (insn >> 12) & 1u;
        const uint32_t h = insn & 0xFFFFu;
        switch (q) {
            case 0:
                if (f3 == 0) info.klass = (h & 0x1FE0u) ? Klass::alu : Klass::illegal;  // c.addi4spn (nzuimm != 0)
                else if (f3 == 2) info.klass = Klass::load;                            // c.lw
                else if (f3 == 6) info.klass = Klass::store;                           // c.sw
                else if (rv64 && f3 == 3) info.klass = Klass::load;                    // c.ld (RV64)
                else if (rv64 && f3 == 7) info.klass = Klass::store;                   // c.sd (RV64)
                break;  // c.fld/c.flw/c.fsd/c.fsw: no F/D in RV32IMC
            case 1:
                if (f3 == 1 || f3 == 5) info.klass = Klass::jal;          // c.jal, c.j
                else if (f3 == 6 || f3 == 7) info.klass = Klass::branch;  // c.beqz, c.bnez
                else if (f3 == 4 && ((insn >> 10) & 3u) == 3u && bit12) info.klass = rv64 ? Klass::alu : Klass::illegal;  // c.subw/addw
                else info.klass = Klass::alu;  // c.nop/c.addi, c.li, c.lui/c.addi16sp, c.srli/srai/andi/sub/xor/or/and
                break;
            case 2:
                if (f3 == 0) info.klass = Klass::alu;         // c.slli
                else if (f3 == 2) info.klass = rd ? Klass::load : Klass::illegal;  // c.lwsp (rd != 0)
                else if (f3 == 6) info.klass = Klass::store;  // c.swsp
                else if (rv64 && f3 == 3) info.klass = rd ? Klass::load : Klass::illegal;  // c.ldsp
                else if (rv64 && f3 == 7) info.klass = Klass::store;                       // c.sdsp
                else if (f3 == 4) {
                    if (!bit12) info.klass = rs2 == 0 ? (rd ? Klass::jalr : Klass::illegal) : Klass::alu;  // c.jr / c.mv
                    else if (rs2 == 0) info.klass = rd == 0 ? Klass::ebreak : Klass::jalr;                 // c.ebreak / c.jalr
                    else info.klass = Klass::alu;                                                           // c.add
                }
                break;
            default: break;
        }
        return info;
    }
    const unsigned opcode = insn & 0x7Fu, f3 = (insn >> 12) & 7u, f7 = insn >> 25;
    switch (opcode) {
        case 0x03: info.klass = f3 == 7 || (!rv64 && (f3 == 3 || f3 == 6)) ? Klass::illegal : Klass::load; break;  // lb..lwu, ld
        case 0x23: info.klass = f3 <= 2 || (rv64 && f3 == 3) ? Klass::store : Klass::illegal; break;             // sb..sd
        case 0x1B: info.klass = rv64 ? Klass::alu : Klass::illegal; break;                                       // addiw, slliw, ...
        case 0x3B:                                                                                                // addw, mulw, divw, ...
            info.klass = !rv64 ? Klass::illegal : f7 == 0x01 ? (f3 < 4 ? Klass::mul : Klass::div) : Klass::alu;
            break;
        case 0x63: info.klass = (f3 == 2 || f3 == 3) ? Klass::illegal : Klass::branch; break;
        case 0x6F: info.klass = Klass::jal; break;
        case 0x67: info.klass = f3 == 0 ? Klass::jalr : Klass::illegal; break;
        case 0x37:
        case 0x17: info.klass = Klass::alu; break;  // lui, auipc
        case 0x13:
            // OP-IMM; on RV32, funct7 other than slli/srli/srai's is Zbb/Zbs (clz, ctz, cpop, sext.b/h, bseti, bclri,
            // binvi, bexti, rori, orc.b, rev8: RISC-V Bit-Manipulation ISA-extensions 1.0.0, ch. 2).
            info.klass = !rv64 && ((f3 == 1 && f7 != 0) || (f3 == 5 && f7 != 0 && f7 != 0x20)) ? Klass::bitmanip : Klass::alu;
            break;
        case 0x33:
            if (f7 == 0x01) info.klass = f3 < 4 ? Klass::mul : Klass::div;  // M: mul/mulh/mulhsu/mulhu; div/divu/rem/remu
            // Zba sh1add/sh2add/sh3add (0x10), Zbb min/max (0x05, with Zbc clmul), rol/ror (0x30), zext.h (0x04), Zbs
            // bset/bclr/bext/binv (0x14, 0x24, 0x34), and andn/orn/xnor (0x20 with funct3 7, 6, 4).
            else if (f7 == 0x10 || f7 == 0x05 || f7 == 0x30 || f7 == 0x04 || f7 == 0x14 || f7 == 0x24 || f7 == 0x34 ||
                     (f7 == 0x20 && (f3 == 4 || f3 == 6 || f3 == 7)))
                info.klass = Klass::bitmanip;
            else info.klass = Klass::alu;
            break;
        case 0x0F: info.klass = f3 == 0 ? Klass::fence : f3 == 1 ? Klass::fence_i : Klass::illegal; break;
        case 0x73:
            if (f3 != 0 && f3 != 4) info.klass = Klass::csr;
            else if (insn == 0x00000073u) info.klass = Klass::ecall;
            else if (insn == 0x00100073u) info.klass = Klass::ebreak;
            else if (insn == 0x30200073u) info.klass = Klass::mret;
            else if (insn == 0x10500073u) info.klass = Klass::wfi;
            break;
        default: break;
    }
    return info;
}

namespace {
// Sign-extends the low `bits` bits of v.
int32_t sext(uint32_t v, unsigned bits) {
    const uint32_t m = uint32_t{1} << (bits - 1);
    return static_cast<int32_t>((v ^ m) - m);
}
uint32_t bit(uint32_t v, unsigned i) { return (v >> i) & 1u; }
}  // namespace

Transfer transfer(uint32_t insn, bool rv64) {
    Transfer t;
    const Info info = classify(insn, rv64);
    if (info.klass != Klass::branch && info.klass != Klass::jal && info.klass != Klass::jalr) return t;
    if (info.compressed) {
        const uint32_t h = insn & 0xFFFFu;
        if (info.klass == Klass::jalr) {  // c.jr, c.jalr (CR format): rs1 in [11:7], no immediate
            t.kind = Transfer::indirect;
            t.rs1 = (h >> 7) & 31u;
        } else if (info.klass == Klass::jal) {  // c.j, c.jal (CJ): offset[11|4|9:8|10|6|7|3:1|5] in [12:2]
            const uint32_t o = bit(h, 12) << 11 | bit(h, 11) << 4 | bit(h, 10) << 9 | bit(h, 9) << 8 | bit(h, 8) << 10 |
                               bit(h, 7) << 6 | bit(h, 6) << 7 | ((h >> 3) & 7u) << 1 | bit(h, 2) << 5;
            t.kind = Transfer::relative;
            t.offset = sext(o, 12);
        } else {  // c.beqz, c.bnez (CB): offset[8|4:3] in [12:10], offset[7:6|2:1|5] in [6:2]
            const uint32_t o = bit(h, 12) << 8 | ((h >> 10) & 3u) << 3 | ((h >> 5) & 3u) << 6 | ((h >> 3) & 3u) << 1 |
                               bit(h, 2) << 5;
            t.kind = Transfer::relative;
            t.conditional = true;
            t.offset = sext(o, 9);
        }
        return t;
    }
    if (info.klass == Klass::jalr) {  // I-type
        t.kind = Transfer::indirect;
        t.rs1 = (insn >> 15) & 31u;
        t.offset = sext(insn >> 20, 12);
    } else if (info.klass == Klass::jal) {  // J-type: imm[20|10:1|11|19:12] in [31:12]
        const uint32_t o = bit(insn, 31) << 20 | ((insn >> 21) & 0x3FFu) << 1 | bit(insn, 20) << 11 | ((insn >> 12) & 0xFFu) << 12;
        t.kind = Transfer::relative;
        t.offset = sext(o, 21);
    } else {  // B-type: imm[12|10:5] in [31:25], imm[4:1|11] in [11:7]
        const uint32_t o = bit(insn, 31) << 12 | ((insn >> 25) & 0x3Fu) << 5 | ((insn >> 8) & 0xFu) << 1 | bit(insn, 7) << 11;
        t.kind = Transfer::relative;
        t.conditional = true;
        t.offset = sext(o, 13);
    }
    return t;
}

}  // namespace pmusim::isa::rv32
