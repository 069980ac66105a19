#include "isa/reg_use.hpp"

namespace pmusim::isa {

namespace {

uint8_t reg(uint32_t insn, unsigned lsb, bool zero_is_none = false) {
    const auto r = static_cast<uint8_t>((insn >> lsb) & 31u);
    return (zero_is_none && r == 0) ? no_reg : r;
}

RegUse use(uint8_t dst, uint8_t s0 = no_reg, uint8_t s1 = no_reg, uint8_t s2 = no_reg) {
    RegUse u;
    u.dst = dst;
    u.src[0] = s0;
    u.src[1] = s1;
    u.src[2] = s2;
    return u;
}

// A64 register 31 is SP or ZR: neither is tracked.
uint8_t x(uint32_t insn, unsigned lsb) {
    const auto r = static_cast<uint8_t>((insn >> lsb) & 31u);
    return r == 31 ? no_reg : r;
}

}  // namespace

RegUse a64_reg_use(uint32_t i) {
    const uint8_t rd = x(i, 0), rn = x(i, 5), rm = x(i, 16), ra = x(i, 10);
    // Loads and stores (C4.1.66): op0 x1x0.
    if ((i & 0x0A000000u) == 0x08000000u) {
        if (i & (1u << 26)) return {};  // SIMD&FP registers
        const bool pair = ((i >> 27) & 7u) == 5u;  // LDP/STP and kin: bits 29:27 = 101
        if (pair) {
            const bool load = (i >> 22) & 1u;
            return load ? use(rd, rn) : use(no_reg, rd, x(i, 10), rn);
        }
        if (((i >> 27) & 7u) == 7u) {
            // Load/store register: unsigned offset (bit 24 = 1), or immediate/register forms (bit 24 = 0).
            const unsigned opc = (i >> 22) & 3u;
            const bool reg_offset = !((i >> 24) & 1u) && ((i >> 21) & 1u) && ((i >> 10) & 3u) == 2u;
            const uint8_t index = reg_offset ? rm : no_reg;
            if (opc == 0) return use(no_reg, rd, rn, index);          // store
            if (((i >> 30) & 3u) == 3u && opc == 2) return {};        // PRFM
            return use(rd, rn, index);                                // load (sign-extending ones too)
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
        if (op == 0x27) return use(rd, rn, rm);   // extract
        if ((op & 0x3Eu) == 0x20) return use(rd); // ADR, ADRP
        return {};
    }
    if ((i & 0x0E000000u) == 0x0A000000u) {  // data processing, register: op0 x101
        const unsigned b28_21 = (i >> 21) & 0xFFu;
        if ((b28_21 & 0xF0u) == 0x50u) return use(rd, rn, rm);  // logical, add/sub (shifted or extended register)
        if (b28_21 == 0xD6u) return (i >> 30) & 1u ? use(rd, rn) : use(rd, rn, rm);  // 1-source; 2-source (divide)
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
            if (f3 == 2 || (f3 == 3 && rv64)) return use(rp(2), rp(7));     // c.lw, c.ld (RV32 f3 = 3: c.flw)
            if (f3 == 6 || (f3 == 7 && rv64)) return use(no_reg, rp(7), rp(2));  // c.sw, c.sd (RV32: c.fsw)
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
                case 2: return use(r7, 2);                        // c.lwsp
                case 3: return rv64 ? use(r7, 2) : RegUse{};      // c.ldsp (RV32: c.flwsp)
                case 4: {
                    const bool b12 = (i >> 12) & 1u;
                    if (!b12) return r2 == no_reg ? use(no_reg, r7) : use(r7, r2);  // c.jr / c.mv
                    if (r7 == no_reg) return {};                  // c.ebreak
                    return r2 == no_reg ? use(1, r7) : use(r7, r7, r2);  // c.jalr / c.add
                }
                case 6: return use(no_reg, 2, r2);                // c.swsp
                case 7: return rv64 ? use(no_reg, 2, r2) : RegUse{};  // c.sdsp (RV32: c.fswsp)
                default: return {};
            }
        }
        return {};
    }
    const uint8_t rd = reg(i, 7, true), rs1 = reg(i, 15, true), rs2 = reg(i, 20, true);
    switch (i & 0x7Fu) {
        case 0x33: case 0x3B: case 0x2F: return use(rd, rs1, rs2);     // OP, OP-32 (incl. M), AMO
        case 0x13: case 0x1B: case 0x03: case 0x67: return use(rd, rs1);  // OP-IMM(-32), LOAD, JALR
        case 0x23: case 0x63: return use(no_reg, rs1, rs2);              // STORE, BRANCH
        case 0x37: case 0x17: case 0x6F: return use(rd);                  // LUI, AUIPC, JAL
        case 0x73: return ((i >> 12) & 7u) ? use(rd, ((i >> 12) & 4u) ? no_reg : rs1) : RegUse{};  // CSR
        default: return {};
    }
}

}  // namespace pmusim::isa
