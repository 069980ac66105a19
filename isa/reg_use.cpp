#include "isa/reg_use.hpp"

namespace pmusim::isa {

namespace {

uint8_t reg(uint32_t insn, unsigned lsb, bool zero_is_none = false) {
    const auto r = static_cast<uint8_t>((insn >> lsb) & 31u);
    return (zero_is_none && r == 0) ? no_reg : r;
}

RegUse use(uint8_t dst, uint8_t s0 = no_reg, uint8_t s1 = no_reg, uint8_t s2 = no_reg) {
    RegUse u;
    u.dst = reg_bit(dst);
    u.src = reg_bit(s0) | reg_bit(s1) | reg_bit(s2);
    return u;
}

// A load or store: `addr` forms the address, `data` is stored (src) or loaded (dst).
RegUse mem(uint32_t loaded, uint32_t stored, uint32_t addr) {
    RegUse u;
    u.dst = loaded;
    u.src = stored | addr;
    u.addr = addr;
    return u;
}

RegUse masks(uint32_t dst, uint32_t src) {
    RegUse u;
    u.dst = dst;
    u.src = src;
    return u;
}

// A64 register 31 is SP or ZR: neither is tracked.
uint8_t x(uint32_t insn, unsigned lsb) {
    const auto r = static_cast<uint8_t>((insn >> lsb) & 31u);
    return r == 31 ? no_reg : r;
}

// A32/T32: the 4-bit register field at `lsb`, as a mask; the PC (15) is never a dependency.
uint32_t r4(uint32_t insn, unsigned lsb) {
    const unsigned r = (insn >> lsb) & 15u;
    return r == 15 ? 0u : uint32_t{1} << r;
}

constexpr uint32_t sp_bit = 1u << 13, lr_bit = 1u << 14;

// A64 logical and add/sub (shifted register, extended register; C4.1.67): whether Rm is shifted or extended. A
// shift of 0 is none; an extension is none when it is UXTX (or, in a 32-bit operation, UXTW) with no shift after it.
bool a64_rm_shifted(uint32_t i) {
    if ((i & 0x1F200000u) == 0x0B200000u) {  // extended register: option 15:13, imm3 12:10
        const unsigned option = (i >> 13) & 7u, imm3 = (i >> 10) & 7u;
        const bool plain = imm3 == 0 && (option == 3u || (!(i >> 31) && option == 2u));
        return !plain;
    }
    return ((i >> 10) & 0x3Fu) != 0;  // shifted register: imm6
}

RegUse with_shape(RegUse u, uint32_t shifted, uint8_t shape = 0, uint32_t amount = 0) {
    u.shifted = shifted;
    u.shape = shape;
    u.amount = amount;
    return u;
}

// An extend (RegUse::rotated): Rd from Rm, rotated and extended, plus Rn in its accumulating forms (no Rn: 0).
RegUse extend(uint32_t rd, uint32_t rn, uint32_t rm) {
    RegUse u = masks(rd, rn | rm);
    u.rotated = rm;
    return u;
}

RegUse with_mul_ops(RegUse u, uint32_t ops, uint32_t hi = 0) {
    u.mul_ops = ops;
    u.mul_hi = hi;
    return u;
}

}  // namespace

static RegUse a64_gprs(uint32_t i) {
    const uint8_t rd = x(i, 0), rn = x(i, 5), rm = x(i, 16), ra = x(i, 10);
    // Loads and stores (C4.1.66): op0 x1x0.
    if ((i & 0x0A000000u) == 0x08000000u) {
        const uint32_t base = reg_bit(rn);
        if (i & (1u << 26)) {
            // SIMD&FP registers (V, bit 26; not tracked): only the general-purpose registers that form the address,
            // the base and a register offset (C4.1.66: load/store register (register offset), option 011 with bits
            // 11:10 = 10; Advanced SIMD load/store structures post-indexed by a register, Rm not 31).
            const unsigned op = (i >> 27) & 7u;
            if (op == 3u) return {};  // LDR (literal)
            const bool reg_offset = op == 7u && !((i >> 24) & 1u) && ((i >> 21) & 1u) && ((i >> 10) & 3u) == 2u;
            const bool post_reg = op == 1u && ((i >> 23) & 1u);  // Rm 31 (an immediate) is no register (x())
            const uint32_t addr = base | (reg_offset || post_reg ? reg_bit(rm) : 0u);
            return op == 1u || op == 5u || op == 7u ? mem(0, 0, addr) : RegUse{};
        }
        if (((i >> 27) & 7u) == 3u && !((i >> 24) & 1u)) return mem(reg_bit(rd), 0, 0);  // LDR (literal)
        const bool pair = ((i >> 27) & 7u) == 5u;  // LDP/STP and kin: bits 29:27 = 101
        if (pair) {
            const uint32_t regs = reg_bit(rd) | reg_bit(x(i, 10));
            return (i >> 22) & 1u ? mem(regs, 0, base) : mem(0, regs, base);
        }
        if (((i >> 27) & 7u) == 7u) {
            // Load/store register: unsigned offset (bit 24 = 1), or immediate/register forms (bit 24 = 0).
            const unsigned opc = (i >> 22) & 3u;
            const bool reg_offset = !((i >> 24) & 1u) && ((i >> 21) & 1u) && ((i >> 10) & 3u) == 2u;
            const uint32_t addr = base | (reg_offset ? reg_bit(rm) : 0u);
            // A register offset scaled by the access size (S, bit 12, with a size above a byte: LSL #1 to #3) is a
            // shifted operand (Cortex-A53: Chips and Cheese, "ARM's Cortex A53: Tiny But Important", 2023, a load's
            // latency 3 cycles with a simple address, 4 with a scaled index).
            const uint32_t scaled = reg_offset && ((i >> 12) & 1u) && ((i >> 30) & 3u) ? reg_bit(rm) : 0u;
            if (opc == 0) return with_shape(mem(0, reg_bit(rd), addr), scaled);  // store
            if (((i >> 30) & 3u) == 3u && opc == 2) return {};                    // PRFM
            return with_shape(mem(reg_bit(rd), 0, addr), scaled);  // load (sign-extending ones too)
        }
        return {};
    }
    const unsigned op = (i >> 23) & 0x3Fu;  // bits 28:23 of data processing (immediate)
    if ((i & 0x1C000000u) == 0x10000000u) {  // data processing, immediate: op0 100x
        if (op == 0x22 || op == 0x23) return use(rd, rn);  // add/sub (immediate)
        if (op == 0x24) return use(rd, rn);       // logical (immediate)
        if (op == 0x25) {                          // move wide: MOVK reads its destination
            const unsigned opc = (i >> 29) & 3u;
            return opc == 3 ? use(rd, rd) : use(rd);
        }
        if (op == 0x26) return use(rd, rn);       // bitfield
        if (op == 0x27) return with_shape(use(rd, rn, rm), 0, shape_extract);  // EXTR
        if ((op & 0x3Eu) == 0x20) return use(rd); // ADR, ADRP
        return {};
    }
    if ((i & 0x0E000000u) == 0x0A000000u) {  // data processing, register: op0 x101
        const unsigned b28_21 = (i >> 21) & 0xFFu;
        if ((b28_21 & 0xF0u) == 0x50u)  // logical, add/sub (shifted or extended register)
            return with_shape(use(rd, rn, rm), a64_rm_shifted(i) ? reg_bit(rm) : 0u);
        if (b28_21 == 0xD6u) {
            if ((i >> 30) & 1u) return use(rd, rn);  // 1-source
            // 2-source: divides, CRC32, and the shifts by a register (LSLV, LSRV, ASRV, RORV: opcode 0010xx)
            const bool shift = ((i >> 12) & 0xFu) == 2u;
            return with_shape(use(rd, rn, rm), 0, shift ? shape_shift_register : 0, shift ? reg_bit(rm) : 0u);
        }
        if (b28_21 == 0xD4u) return use(rd, rn, rm);             // conditional select
        if ((b28_21 & 0xF8u) == 0xD8u) return use(rd, rn, rm, ra);  // 3-source: multiply(-add)
        if (b28_21 == 0xD0u) return use(rd, rn, rm);             // add/sub with carry
        return {};
    }
    if ((i & 0x7E000000u) == 0x34000000u) return use(no_reg, rd);  // CBZ, CBNZ
    if ((i & 0x7E000000u) == 0x36000000u) return use(no_reg, rd);  // TBZ, TBNZ
    if ((i & 0xFE000000u) == 0xD6000000u) {                        // BR, BLR, RET
        const unsigned opc = (i >> 21) & 0xFu;
        if (opc <= 2) return use(opc == 1 ? 30 : no_reg, rn);
    }
    return {};
}

RegUse rv_reg_use(uint32_t i, bool rv64) {
    if ((i & 3u) != 3u) {  // RVC: quadrant (bits 1:0) and funct3 (bits 15:13)
        const unsigned q = i & 3u, f3 = (i >> 13) & 7u;
        const auto rp = [&](unsigned lsb) { return static_cast<uint8_t>(8 + ((i >> lsb) & 7u)); };  // x8-x15
        const uint8_t r7 = reg(i, 7, true), r2 = reg(i, 2, true);
        if (q == 0) {
            if (f3 == 0) return use(rp(2), 2);                    // c.addi4spn
            if (f3 == 2 || (f3 == 3 && rv64)) return mem(reg_bit(rp(2)), 0, reg_bit(rp(7)));  // c.lw, c.ld (RV32 f3 = 3: c.flw)
            if (f3 == 6 || (f3 == 7 && rv64)) return mem(0, reg_bit(rp(2)), reg_bit(rp(7)));  // c.sw, c.sd (RV32: c.fsw)
            return {};
        }
        if (q == 1) {
            switch (f3) {
                case 0: return use(r7, r7);                       // c.addi / c.nop
                case 1: return rv64 ? use(r7, r7) : use(1);       // c.addiw / c.jal (writes ra)
                case 2: return use(r7);                           // c.li
                case 3: return r7 == 2 ? use(2, 2) : use(r7);     // c.addi16sp / c.lui
                case 4: {
                    const unsigned f2 = (i >> 10) & 3u;
                    if (f2 < 3) return use(rp(7), rp(7));         // c.srli, c.srai, c.andi
                    return use(rp(7), rp(7), rp(2));              // c.sub, c.xor, c.or, c.and (and the W forms)
                }
                case 5: return {};                                // c.j
                default: return use(no_reg, rp(7));               // c.beqz, c.bnez
            }
        }
        if (q == 2) {
            switch (f3) {
                case 0: return use(r7, r7);                       // c.slli
                case 2: return mem(reg_bit(r7), 0, reg_bit(2));   // c.lwsp
                case 3: return rv64 ? mem(reg_bit(r7), 0, reg_bit(2)) : RegUse{};  // c.ldsp (RV32: c.flwsp)
                case 4: {
                    const bool b12 = (i >> 12) & 1u;
                    if (!b12) return r2 == no_reg ? use(no_reg, r7) : use(r7, r2);  // c.jr / c.mv
                    if (r7 == no_reg) return {};                  // c.ebreak
                    return r2 == no_reg ? use(1, r7) : use(r7, r7, r2);  // c.jalr / c.add
                }
                case 6: return mem(0, reg_bit(r2), reg_bit(2));   // c.swsp
                case 7: return rv64 ? mem(0, reg_bit(r2), reg_bit(2)) : RegUse{};  // c.sdsp (RV32: c.fswsp)
                default: return {};
            }
        }
        return {};
    }
    const uint8_t rd = reg(i, 7, true), rs1 = reg(i, 15, true), rs2 = reg(i, 20, true);
    switch (i & 0x7Fu) {
        case 0x33: case 0x3B: return use(rd, rs1, rs2);                // OP, OP-32 (incl. M)
        case 0x2F: return mem(reg_bit(rd), reg_bit(rs2), reg_bit(rs1));  // AMO
        case 0x13: case 0x1B: case 0x67: return use(rd, rs1);        // OP-IMM(-32), JALR
        case 0x03: return mem(reg_bit(rd), 0, reg_bit(rs1));           // LOAD
        case 0x23: return mem(0, reg_bit(rs2), reg_bit(rs1));          // STORE
        case 0x63: return use(no_reg, rs1, rs2);                       // BRANCH
        case 0x37: case 0x17: case 0x6F: return use(rd);                  // LUI, AUIPC, JAL
        case 0x73: return ((i >> 12) & 7u) ? use(rd, ((i >> 12) & 4u) ? no_reg : rs1) : RegUse{};  // CSR
        default: return {};
    }
}

static RegUse a32_gprs(uint32_t i) {
    const uint32_t rn = r4(i, 16), rd = r4(i, 12), rs = r4(i, 8), rm = r4(i, 0);
    if ((i >> 28) == 0xFu) return (i & 0xFE000000u) == 0xFA000000u ? masks(lr_bit, 0) : RegUse{};  // BLX (immediate)
    switch ((i >> 25) & 7u) {
        case 0:
            if ((i & 0x0F0000F0u) == 0x00000090u) {  // multiplies (A5.2.5): Rd/RdHi 19:16, Ra/RdLo 15:12
                const unsigned op = (i >> 21) & 7u;
                if (op == 0) return with_mul_ops(masks(rn, rm | rs), rm | rs);                  // MUL
                if (op == 1 || op == 3) return with_mul_ops(masks(rn, rm | rs | rd), rm | rs);  // MLA, MLS
                const bool acc = op == 2 || (op & 1u);                                          // UMAAL, UMLAL, SMLAL
                return with_mul_ops(masks(rn | rd, rm | rs | (acc ? rn | rd : 0u)), rm | rs, rn);  // long: RdHi, RdLo
            }
            if ((i & 0x0E000090u) == 0x00000090u && ((i >> 5) & 3u) != 0) {  // extra loads and stores (A5.2.8)
                const bool load = (i >> 20) & 1u;
                const unsigned op2 = (i >> 5) & 3u, t = (i >> 12) & 15u;
                const uint32_t addr = rn | ((i >> 22) & 1u ? 0u : rm);
                if (!load && op2 >= 2) {  // LDRD, STRD: Rt and Rt+1
                    const uint32_t pair = rd | (t < 14 ? uint32_t{1} << (t + 1) : 0u);
                    return op2 == 2 ? mem(pair, 0, addr) : mem(0, pair, addr);
                }
                return load ? mem(rd, 0, addr) : mem(0, rd, addr);
            }
            if ((i & 0x01900000u) == 0x01000000u) {  // miscellaneous (A5.2.12) and halfword multiplies (A5.2.7)
                if ((i & 0x0FFFFFD0u) == 0x012FFF10u) return masks((i >> 5) & 1u ? lr_bit : 0u, rm);  // BX, BLX
                if ((i & 0x0FFF0FF0u) == 0x016F0F10u) return masks(rd, rm);               // CLZ
                if ((i & 0x0FBF0FFFu) == 0x010F0000u) return masks(rd, 0);                // MRS
                if ((i & 0x0FB0FFF0u) == 0x0120F000u) return masks(0, rm);                // MSR (register)
                if ((i & 0x000000F0u) == 0x00000050u) return masks(rd, rn | rm);          // QADD, QSUB, ...
                if ((i & 0x00000090u) == 0x00000080u) {                                   // SMLAxy, SMULWy, ...
                    const unsigned op = (i >> 21) & 3u;
                    if (op == 2) return with_mul_ops(masks(rn | rd, rm | rs | rn | rd), rm | rs, rn);  // SMLALxy
                    const bool acc = op == 0 || (op == 1 && !((i >> 5) & 1u));
                    return with_mul_ops(masks(rn, rm | rs | (acc ? rd : 0u)), rm | rs);  // SMLAxy, SMLAWy, SMULWy, SMULxy
                }
                return {};
            }
            [[fallthrough]];
        case 1: {  // data processing (A5.2.1-A5.2.3): opcode 24:21, Rn 19:16, Rd 15:12
            if ((i & 0x0FB00000u) == 0x03000000u) return (i >> 22) & 1u ? masks(rd, rd) : masks(rd, 0);  // MOVW, MOVT
            if ((i & 0x0FB00000u) == 0x03200000u) return {};                                  // MSR (immediate), hints
            const unsigned op = (i >> 21) & 15u;
            uint32_t src = (op == 13 || op == 15) ? 0u : rn;                      // MOV and MVN have no Rn
            if (!((i >> 25) & 1u)) src |= rm | ((i >> 4) & 1u ? rs : 0u);          // register, register-shifted
            const RegUse u = masks((op & 0xCu) == 0x8u ? 0u : rd, src);          // TST, TEQ, CMP, CMN: no Rd
            if ((i >> 25) & 1u) return u;
            // Register-shifted register: Rm and the amount in Rs; register: Rm shifted unless LSL #0 (imm5 11:7 and
            // type 6:5 all 0; LSR, ASR #0 mean 32, ROR #0 is RRX).
            if ((i >> 4) & 1u) return with_shape(u, rm | rs, shape_shift_register, rs);
            return with_shape(u, (i >> 5) & 0x7Fu ? rm : 0u);
        }
        case 2: return (i >> 20) & 1u ? mem(rd, 0, rn) : mem(0, rd, rn);  // LDR/STR (immediate)
        case 3:
            if (!((i >> 4) & 1u)) return (i >> 20) & 1u ? mem(rd, 0, rn | rm) : mem(0, rd, rn | rm);  // (register)
            // Media instructions (A5.4): divides and signed multiplies write 19:16; the rest write 15:12.
            if ((i & 0x0F800010u) == 0x07000010u) {
                if ((i & 0x0FD000F0u) == 0x07100010u) return masks(rn, rm | rs);  // SDIV, UDIV
                if (((i >> 20) & 0x1Fu) == 0x14u)  // SMLALD, SMLSLD: RdHi 19:16, RdLo 15:12
                    return with_mul_ops(masks(rn | rd, rm | rs | rn | rd), rm | rs, rn);
                // SMUAD, SMUSD, SMLAD, SMLSD (op1 000, op2 00x or 01x) multiply Rm and Rs; SMMUL, SMMLA, ... are not marked.
                const RegUse u = masks(rn, rm | rs | rd);
                return ((i >> 20) & 0x1Fu) == 0x10u && !((i >> 7) & 1u) ? with_mul_ops(u, rm | rs) : u;
            }
            if ((i & 0x0FF000F0u) == 0x07800010u) return masks(rn, rm | rs | rd);  // USAD8, USADA8
            if ((i & 0x0FA00070u) == 0x07A00050u) return masks(rd, rm);            // SBFX, UBFX
            if ((i & 0x0FE00070u) == 0x07C00010u) return masks(rd, rd | rm);       // BFI, BFC
            // Extends (A5.4.5: op2 011, op1 000, 010, 011, 100, 110, 111; Rn 1111 the forms without an accumulator).
            if ((i & 0x0F8000F0u) == 0x06800070u && ((i >> 20) & 3u) != 1u) return extend(rd, rn, rm);
            return masks(rd, rn | rm);  // parallel add/subtract, pack, saturate, reverse
        case 4: {  // LDM/STM: the list (the PC is not a dependency), the base forms the address
            const uint32_t list = i & 0x7FFFu;
            return (i >> 20) & 1u ? mem(list, 0, rn) : mem(0, list, rn);
        }
        case 5: return (i >> 24) & 1u ? masks(lr_bit, 0) : RegUse{};  // BL; B
        case 6:  // MCRR, MRRC; LDC/STC form an address
            if ((i & 0x0FE00000u) == 0x0C400000u) return (i >> 20) & 1u ? masks(rd | rn, 0) : masks(0, rd | rn);
            return mem(0, 0, rn);
        default:  // MRC (Rt 15 writes the flags), MCR; CDP and SVC use no core register
            if ((i & 0x0F000010u) == 0x0E000010u) return (i >> 20) & 1u ? masks(rd, 0) : masks(0, rd);
            return {};
    }
}

RegUse t32_reg_use(uint32_t i, bool is32) {
    if (!is32) {
        const uint32_t h = i & 0xFFFFu;
        const auto lo = [&](unsigned lsb) { return uint32_t{1} << ((h >> lsb) & 7u); };  // r0-r7
        switch (h >> 11) {
            case 0x00: case 0x01: case 0x02:  // LSL, LSR, ASR (immediate): Rm shifted (op:imm5 12:6; LSL #0 none)
                return with_shape(masks(lo(0), lo(3)), (h >> 6) & 0x7Fu ? lo(3) : 0u);
            case 0x03: return masks(lo(0), lo(3) | ((h >> 10) & 1u ? 0u : lo(6)));  // ADD, SUB (register, imm3)
            case 0x04: return masks(lo(8), 0);                                    // MOV (immediate)
            case 0x05: return masks(0, lo(8));                                    // CMP (immediate)
            case 0x06: case 0x07: return masks(lo(8), lo(8));                     // ADD, SUB (imm8)
            case 0x08:
                if (!((h >> 10) & 1u)) {  // data processing (A6.2.2): Rm 5:3, Rdn 2:0
                    const unsigned op = (h >> 6) & 15u;
                    if (op == 8 || op == 10 || op == 11) return masks(0, lo(0) | lo(3));  // TST, CMP, CMN
                    if (op == 9 || op == 15) return masks(lo(0), lo(3));                  // RSB, MVN
                    if (op == 13) return with_mul_ops(masks(lo(0), lo(0) | lo(3)), lo(0) | lo(3));  // MULS Rdm, Rn, Rdm
                    if (op == 2 || op == 3 || op == 4 || op == 7)                         // LSL, LSR, ASR, ROR (register)
                        return with_shape(masks(lo(0), lo(0) | lo(3)), lo(0) | lo(3), shape_shift_register, lo(3));
                    return masks(lo(0), lo(0) | lo(3));
                } else {  // special data and branch exchange (A6.2.3): all sixteen registers
                    const uint32_t dn = r4(((h >> 4) & 8u) | (h & 7u), 0), m = r4(h, 3);
                    switch ((h >> 8) & 3u) {
                        case 0: return masks(dn, dn | m);                        // ADD
                        case 1: return masks(0, dn | m);                         // CMP
                        case 2: return masks(dn, m);                             // MOV
                        default: return masks((h >> 7) & 1u ? lr_bit : 0u, m);  // BX, BLX
                    }
                }
            case 0x09: return mem(lo(8), 0, 0);  // LDR (literal)
            case 0x0A: case 0x0B:  // load/store (register offset): opB 11:9, 0-2 stores
                return ((h >> 9) & 7u) >= 3 ? mem(lo(0), 0, lo(3) | lo(6)) : mem(0, lo(0), lo(3) | lo(6));
            case 0x0C: case 0x0D: case 0x0E: case 0x0F: case 0x10: case 0x11:  // (immediate offset)
                return (h >> 11) & 1u ? mem(lo(0), 0, lo(3)) : mem(0, lo(0), lo(3));
            case 0x12: case 0x13: return (h >> 11) & 1u ? mem(lo(8), 0, sp_bit) : mem(0, lo(8), sp_bit);  // SP-relative
            case 0x14: return masks(lo(8), 0);       // ADR
            case 0x15: return masks(lo(8), sp_bit);  // ADD Rd, SP, #imm
            case 0x16: case 0x17:  // miscellaneous (A6.2.5)
                if ((h & 0xFF00u) == 0xB000u) return masks(sp_bit, sp_bit);                  // ADD/SUB SP
                if ((h & 0xF500u) == 0xB100u) return masks(0, lo(0));                        // CBZ, CBNZ
                if ((h & 0xFF00u) == 0xB200u) return extend(lo(0), 0, lo(3));                 // SXTH, SXTB, UXTH, UXTB
                if ((h & 0xFF00u) == 0xBA00u) return masks(lo(0), lo(3));                     // REV, REV16, REVSH
                if ((h & 0xFE00u) == 0xB400u) return mem(0, (h & 0xFFu) | ((h >> 8) & 1u ? lr_bit : 0u), sp_bit);  // PUSH
                if ((h & 0xFE00u) == 0xBC00u) return mem(h & 0xFFu, 0, sp_bit);             // POP (not the PC)
                return {};
            case 0x18: return mem(0, h & 0xFFu, lo(8));  // STM
            case 0x19: return mem(h & 0xFFu, 0, lo(8));  // LDM
            default: return {};                          // B, B<c>, SVC, UDF
        }
    }
    const uint32_t hw1 = i >> 16, hw2 = i & 0xFFFFu;
    const uint32_t rn = r4(hw1, 0), rt = r4(hw2, 12), rd = r4(hw2, 8), rm = r4(hw2, 0);
    if ((hw1 & 0xFE40u) == 0xE800u) {  // LDM/STM (A6.3.5)
        const uint32_t list = hw2 & 0x7FFFu;
        return (hw1 >> 4) & 1u ? mem(list, 0, rn) : mem(0, list, rn);
    }
    if ((hw1 & 0xFE40u) == 0xE840u) {  // load/store dual, exclusive, table branch (A6.3.6)
        if ((hw1 & 0xFFF0u) == 0xE8D0u && (hw2 & 0xFFE0u) == 0xF000u) return mem(0, 0, rn | rm);  // TBB, TBH
        const bool load = (hw1 >> 4) & 1u;
        if ((hw1 >> 8) & 1u || (hw1 >> 5) & 1u) return load ? mem(rt | rd, 0, rn) : mem(0, rt | rd, rn);  // LDRD, STRD
        if (load) return mem(rt, 0, rn);                                            // LDREX and kin
        RegUse u = mem(0, rt, rn);                                                   // STREX: status in Rd
        u.dst = (hw1 & 0xFFF0u) == 0xE840u ? rd : rm;
        return u;
    }
    if ((hw1 & 0xFE00u) == 0xEA00u)  // data processing (shifted register, A6.3.11): imm3 14:12, imm2 7:6, type 5:4
        return with_shape(masks(rd, rn | rm), ((hw2 >> 12) & 7u) || ((hw2 >> 4) & 0xFu) ? rm : 0u);
    if ((hw1 & 0xEC00u) == 0xEC00u) {  // coprocessor (A6.3.18): MCR/MRC, MCRR/MRRC, LDC/STC
        if ((hw1 & 0xEF00u) == 0xEE00u && (hw2 & 0x10u)) return (hw1 >> 4) & 1u ? masks(rt, 0) : masks(0, rt);
        if ((hw1 & 0xEFE0u) == 0xEC40u) return (hw1 >> 4) & 1u ? masks(rt | rn, 0) : masks(0, rt | rn);
        return mem(0, 0, rn);
    }
    if ((hw1 & 0xF800u) == 0xF000u) {
        if (hw2 & 0x8000u) {  // branches and miscellaneous control (A6.3.4)
            if ((hw2 & 0x4000u) == 0x4000u) return masks(lr_bit, 0);   // BL, BLX (immediate)
            if ((hw1 & 0xFFE0u) == 0xF3E0u) return masks(rd, 0);        // MRS
            if ((hw1 & 0xFFE0u) == 0xF380u) return masks(0, rn);        // MSR (register)
            return {};
        }
        if (!((hw1 >> 9) & 1u)) return masks(rd, rn);  // modified immediate (A6.3.1): MOV/MVN have Rn = PC
        switch ((hw1 >> 4) & 0x1Fu) {                   // plain binary immediate (A6.3.3)
            case 0x04: return masks(rd, 0);             // MOVW
            case 0x0C: return masks(rd, rd);            // MOVT
            case 0x16: return masks(rd, rd | rn);       // BFI, BFC
            default: return masks(rd, rn);              // ADDW, SUBW, ADR, SSAT, USAT, SBFX, UBFX
        }
    }
    if ((hw1 & 0xFE00u) == 0xF800u) {  // load/store single (A6.3.7-A6.3.10); Advanced SIMD element ones excluded
        if ((hw1 & 0xFF10u) == 0xF900u) return {};
        const bool reg_offset = !((hw1 >> 7) & 1u) && (hw2 & 0x0FC0u) == 0;
        const uint32_t addr = rn | (reg_offset ? rm : 0u);
        return (hw1 >> 4) & 1u ? mem(rt, 0, addr) : mem(0, rt, addr);
    }
    if ((hw1 & 0xFF80u) == 0xFA00u && (hw2 & 0xF0F0u) == 0xF000u)       // LSL, LSR, ASR, ROR (register, A6.3.12)
        return with_shape(masks(rd, rn | rm), rn | rm, shape_shift_register, rm);
    // Extends (A6.3.12, op1 000-101, hw2 1111 .... 1... rotate: SXTAH ... UXTB; Rn 1111 the forms without one).
    if ((hw1 & 0xFF80u) == 0xFA00u && ((hw1 >> 4) & 7u) <= 5u && (hw2 & 0xF080u) == 0xF080u) return extend(rd, rn, rm);
    if ((hw1 & 0xFF00u) == 0xFA00u) return masks(rd, rn | rm);          // data processing (register, A6.3.12)
    // Multiplies (DDI 0406C A8.8): Rn and Rm multiplied (RegUse::mul_ops), as A32's Rm and Rs; Ra (15:12, 1111 in
    // the forms without one) the accumulator. As A32's, SMMUL, SMMLA, SMMLS (op1 101, 110) and USAD8 (111) unmarked.
    if ((hw1 & 0xFF80u) == 0xFB00u) {  // multiply, multiply accumulate (A6.3.16): MUL, MLA, MLS, SMULxy, SMLAD, ...
        const unsigned op1 = (hw1 >> 4) & 7u;
        return with_mul_ops(masks(rd, rn | rm | rt), op1 <= 4 ? rn | rm : 0u);
    }
    if ((hw1 & 0xFF80u) == 0xFB80u) {  // long multiply, divide (A6.3.17): RdLo 15:12, RdHi 11:8
        const unsigned op1 = (hw1 >> 4) & 7u;
        if (op1 == 1 || op1 == 3) return masks(rd, rn | rm);            // SDIV, UDIV
        const uint32_t acc = op1 >= 4 ? rt | rd : 0u;                   // SMLAL and kin, UMLAL, UMAAL
        // SMULL, UMULL, SMLAL, SMLALxy, SMLALD, SMLSLD, UMLAL, UMAAL: RdHi the high half (RegUse::mul_hi).
        return with_mul_ops(masks(rt | rd, rn | rm | acc), rn | rm, rd);
    }
    return {};
}

// The condition flags (NZCV) as register bit 31 (flags_bit), so that an instruction that sets them and one that
// reads them are a dependency like any other (the timing model's flag_latency). A32 (DDI 0406C A5.2): every
// instruction whose condition is not AL reads them; data-processing and multiply instructions with S set write
// them (TST, TEQ, CMP, CMN always), ADC, SBC and RSC read the carry.
RegUse a32_reg_use(uint32_t i) {
    RegUse u = a32_gprs(i);
    if ((i >> 28) < 0xEu) u.src |= flags_bit;
    if (((i >> 26) & 3u) == 0u) {
        // Data processing (not the multiplies', extra loads' and stores' space of bits 7 and 4 set), or a multiply.
        const bool dp = ((i >> 25) & 1u) || (i & 0x90u) != 0x90u;
        const bool mul = (i & 0x0F0000F0u) == 0x00000090u;
        if ((i >> 20) & 1u && (dp || mul)) u.dst |= flags_bit;
        const unsigned op = (i >> 21) & 15u;
        if (dp && op >= 5 && op <= 7 && (i & 0x0F900000u) != 0x01000000u) u.src |= flags_bit;
    }
    return u;
}

// A64 (C4.1): B.cond, CSEL and kin, CCMP and CCMN, ADC and SBC read the flags; ADDS, SUBS, ANDS, BICS, ADCS,
// SBCS, CCMP and CCMN write them.
RegUse a64_reg_use(uint32_t i) {
    RegUse u = a64_gprs(i);
    const bool s = (i >> 29) & 1u;
    if ((i & 0xFF000010u) == 0x54000000u) u.src |= flags_bit;                        // B.cond
    if ((i & 0x1F000000u) == 0x11000000u && s) u.dst |= flags_bit;                   // ADDS, SUBS (immediate)
    if ((i & 0x1F800000u) == 0x12000000u && ((i >> 29) & 3u) == 3u) u.dst |= flags_bit;  // ANDS (immediate)
    if ((i & 0x1F000000u) == 0x0B000000u && s) u.dst |= flags_bit;                   // ADDS, SUBS (register)
    if ((i & 0x1F000000u) == 0x0A000000u && ((i >> 29) & 3u) == 3u) u.dst |= flags_bit;  // ANDS, BICS (register)
    if ((i & 0x1FE00000u) == 0x1A000000u) {                                           // ADC, SBC (and S forms)
        u.src |= flags_bit;
        if (s) u.dst |= flags_bit;
    }
    if ((i & 0x1FE00000u) == 0x1A400000u) {                                           // CCMP, CCMN
        u.src |= flags_bit;
        u.dst |= flags_bit;
    }
    if ((i & 0x1FE00000u) == 0x1A800000u) u.src |= flags_bit;                        // CSEL, CSINC, CSINV, CSNEG
    return u;
}

}  // namespace pmusim::isa
