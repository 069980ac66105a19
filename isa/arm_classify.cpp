#include "isa/arm_classify.hpp"

namespace pmusim::isa::arm {

namespace {
RetiredInsn make(InsnClass c, uint8_t br = 0) {
    RetiredInsn r;
    r.cls = c;
    r.branch = br;
    return r;
}
}  // namespace

RetiredInsn classify_a64(uint32_t i) {
    // Branches, exception generation and system instructions (op0 = 101x).
    if ((i & 0x7C000000u) == 0x14000000u)  // B, BL
        return make(InsnClass::jump, static_cast<uint8_t>(br_immediate | ((i >> 31) ? br_call : 0)));
    if ((i & 0xFF000010u) == 0x54000000u) return make(InsnClass::branch, br_immediate | br_conditional);  // B.cond
    if ((i & 0x7E000000u) == 0x34000000u || (i & 0x7E000000u) == 0x36000000u)                          // CB(N)Z, TB(N)Z
        return make(InsnClass::branch, br_immediate | br_conditional);
    if ((i & 0xFE000000u) == 0xD6000000u) {  // unconditional branch (register)
        switch ((i >> 21) & 0xFu) {
            case 0: return make(InsnClass::jump, br_register);                      // BR
            case 1: return make(InsnClass::jump, br_register | br_call);            // BLR
            case 2: return make(InsnClass::jump, br_register | br_return);          // RET
            case 4: return make(InsnClass::jump, br_register | br_exc_return);      // ERET
            default: return make(InsnClass::jump, br_register);                     // BRAA and kin
        }
    }
    if ((i & 0xFF000000u) == 0xD4000000u) {  // SVC, HVC, SMC, BRK, HLT, DCPS
        const uint32_t opc = (i >> 21) & 7u;
        return make(opc == 1 ? InsnClass::ebreak : InsnClass::ecall);
    }
    if ((i & 0xFFC00000u) == 0xD5000000u) {  // system
        if ((i >> 19) & 2u) return make(InsnClass::sysreg);                     // MRS, MSR (register), op0 >= 2
        if ((i & 0xFFFFF01Fu) == 0xD503301Fu) return make(InsnClass::barrier);  // CLREX, DSB, DMB, ISB, SB
        return make(InsnClass::alu);                                            // hints, MSR (immediate), SYS
    }
    // Loads and stores (op0 = x1x0).
    if ((i & 0x0A000000u) == 0x08000000u) {
        RetiredInsn r;
        bool load = (i >> 22) & 1u;
        if ((i & 0x3B000000u) == 0x18000000u) load = true;  // load literal
        else if ((i & 0x3B000000u) == 0x38000000u || (i & 0x3B000000u) == 0x39000000u)
            // load/store register: opc 00 stores; of a SIMD&FP register (V, bit 26) opc bit 0 loads, so opc 10
            // (STR of a Q register) stores too
            load = (i >> 26) & 1u ? ((i >> 22) & 1u) != 0 : ((i >> 22) & 3u) != 0;
        r.multiple = (i & 0x3A000000u) == 0x28000000u || (i & 0xBF000000u) == 0x0C000000u;  // pairs, structures
        r.cls = load ? InsnClass::load : InsnClass::store;
        // Load/store register of the general-purpose registers (V = 0; not the atomics, bit 21 set with bits
        // 11:10 00) with opc 1x and size below 64 bits: LDRSB, LDRSH, LDRSW (Arm ARM C4.1.4, "Loads and Stores";
        // size 11 with opc 10 is PRFM); LDRSW (literal).
        const bool gp_register = (i & 0x3F000000u) == 0x39000000u ||
                                 ((i & 0x3F000000u) == 0x38000000u && (!((i >> 21) & 1u) || ((i >> 10) & 3u) == 2u));
        r.sign_extend = (gp_register && ((i >> 23) & 1u) && (i >> 30) != 3u) || (i & 0xFF000000u) == 0x98000000u;
        r.subword = gp_register && (i >> 30) < 2u;  // size 00 byte, 01 halfword
        r.bytes = static_cast<uint8_t>(a64_access_bytes(i));
        return r;
    }
    // Data processing (register): multiply (3 source) and divide (2 source, opcode 00001x).
    if ((i & 0x1F000000u) == 0x1B000000u) return make(InsnClass::mul);
    if ((i & 0x5FE00000u) == 0x1AC00000u && ((i >> 11) & 0x1Fu) == 1u) return make(InsnClass::div);
    return make(InsnClass::alu);  // data processing (immediate, register), SIMD and FP
}

// Arm ARM C4.1.66 (Loads and Stores) and its encoding tables: V (bit 26) says SIMD&FP registers.
unsigned a64_access_bytes(uint32_t i) {
    const unsigned v = (i >> 26) & 1u, top = i >> 30;
    if ((i & 0x3B000000u) == 0x18000000u) {  // load register (literal): opc in bits 31:30
        if (v) return top == 3u ? 0u : 4u << top;  // S, D, Q
        return top == 1u ? 8u : top == 3u ? 0u : 4u;  // LDR W, LDR X, LDRSW; PRFM
    }
    if ((i & 0x3A000000u) == 0x28000000u) {  // load/store pair (no-allocate, post-index, offset, pre-index)
        if (v) return top == 3u ? 0u : 2u * (4u << top);  // two S, D or Q registers
        return top == 2u ? 16u : 8u;  // two X registers; two W registers (LDPSW, STGP as W)
    }
    if ((i & 0x3A000000u) == 0x38000000u) {  // load/store register: size in bits 31:30, opc in 23:22
        const unsigned opc = (i >> 22) & 3u;
        if (v) return top == 0u && (opc & 2u) ? 16u : 1u << top;  // B, H, S, D; Q (size 00, opc 1x)
        if (top == 3u && opc == 2u) return 0u;                     // PRFM
        return 1u << top;
    }
    if ((i & 0xBF000000u) == 0x0C000000u) {  // SIMD load/store multiple structures: opcode (15:12) gives the registers
        static constexpr uint8_t regs[16] = {4, 0, 4, 0, 3, 0, 3, 1, 2, 0, 2, 0, 0, 0, 0, 0};
        return regs[(i >> 12) & 0xFu] * ((i >> 30) & 1u ? 16u : 8u);
    }
    return 0;
}

RetiredInsn classify_a32(uint32_t i) {
    const uint32_t cond = i >> 28;
    const uint8_t c = cond < 0xE ? br_conditional : 0;
    if (cond == 0xF) {
        if ((i & 0xFE000000u) == 0xFA000000u) return make(InsnClass::jump, br_immediate | br_call);  // BLX (immediate)
        if ((i & 0xFFFFFF00u) == 0xF57FF000u) return make(InsnClass::barrier);                       // DSB, DMB, ISB, CLREX
        if ((i & 0xFE500000u) == 0xF8100000u) return make(InsnClass::jump, br_register | br_exc_return);  // RFE
        return make(InsnClass::alu);
    }
    if ((i & 0x0E000000u) == 0x0A000000u)  // B, BL
        return make(InsnClass::jump, static_cast<uint8_t>(br_immediate | c | ((i >> 24) & 1u ? br_call : 0)));
    if ((i & 0x0FFFFFD0u) == 0x012FFF10u) {  // BX, BLX (register)
        const bool link = (i >> 5) & 1u, lr = (i & 0xFu) == 14u;
        return make(InsnClass::jump, static_cast<uint8_t>(br_register | c | (link ? br_call : 0) | (!link && lr ? br_return : 0)));
    }
    if ((i & 0x0F000000u) == 0x0F000000u) return make(InsnClass::ecall);  // SVC
    if ((i & 0x0FF000F0u) == 0x01200070u) return make(InsnClass::ebreak);  // BKPT
    if ((i & 0x0F000010u) == 0x0E000010u) return make(InsnClass::sysreg);  // MCR, MRC
    if ((i & 0x0F0000F0u) == 0x00000090u || (i & 0x0F8000F0u) == 0x00800090u) return make(InsnClass::mul);  // MUL..UMLAL
    if ((i & 0x0FF000F0u) == 0x07100010u || (i & 0x0FF000F0u) == 0x07300010u) return make(InsnClass::div);  // SDIV, UDIV
    const bool load = (i >> 20) & 1u;
    const unsigned rd = (i >> 12) & 0xFu;
    if ((i & 0x0C000000u) == 0x04000000u && !((i & 0x02000010u) == 0x02000010u)) {  // LDR/STR (word, byte)
        RetiredInsn r = make(load ? InsnClass::load : InsnClass::store);
        r.subword = (i >> 22) & 1u;  // LDRB, STRB
        // (register): imm5 11:7 and type 6:5, 0 unshifted and 0b0001000 LSL #2 (Arm ARM A8.8.65)
        r.offset_shift = (i >> 25) & 1u && ((i >> 5) & 0x7Fu) != 0 && ((i >> 5) & 0x7Fu) != 0x8u;
        r.writeback = !((i >> 24) & 1u) || ((i >> 21) & 1u);  // P 0 (post-indexed) or W 1 (A5.3)
        // A load of the PC from SP, any addressing mode, is a return (ARM1176 TRM 5.3, "LDR pc, [sp...]"; Cortex-A9 TRM
        // 7.3.2 and Cortex-A7 TRM 6.3.2, "LDR pc, [r13]" with r13 the base); from another base, an indirect branch.
        if (load && rd == 15) r.branch = static_cast<uint8_t>(br_register | c | (((i >> 16) & 0xFu) == 13u ? br_return : 0));
        return r;
    }
    if ((i & 0x0E000000u) == 0x08000000u) {  // LDM, STM
        RetiredInsn r = make(load ? InsnClass::load : InsnClass::store);
        r.multiple = true;
        r.writeback = (i >> 21) & 1u;  // W
        if (load && ((i >> 15) & 1u)) {  // PC in the list: a return (from SP), an exception return with ^
            r.branch = static_cast<uint8_t>(br_register | c | ((i >> 22) & 1u ? br_exc_return : 0) |
                                            (((i >> 16) & 0xFu) == 13u ? br_return : 0));
        }
        return r;
    }
    if ((i & 0x0E000090u) == 0x00000090u && ((i >> 5) & 3u) != 0) {  // LDRH, STRH, LDRSB, LDRD, ...
        RetiredInsn r = make((load || ((i >> 5) & 3u) == 2u) ? InsnClass::load : InsnClass::store);
        r.sign_extend = load && ((i >> 6) & 1u);  // LDRSB, LDRSH (op2 1x with L: Arm ARM A5.2.8)
        r.subword = load || ((i >> 5) & 3u) == 1u;  // not LDRD, STRD
        r.writeback = !((i >> 24) & 1u) || ((i >> 21) & 1u);  // P 0 or W 1 (A5.2.8)
        return r;
    }
    // Data processing with the PC as destination: a branch (MOV pc, lr returns; SUBS pc, lr returns from an exception).
    if ((i & 0x0C000000u) == 0 && rd == 15 && ((i >> 21) & 0xCu) != 0x8u) {
        const bool s = (i >> 20) & 1u, mov_lr = (i & 0x0FEFFFFFu) == 0x01A0F00Eu;
        return make(InsnClass::jump, static_cast<uint8_t>(br_register | c | (s ? br_exc_return : 0) | (mov_lr ? br_return : 0)));
    }
    RetiredInsn r = make(InsnClass::alu);
    // Data processing (register, register-shifted register; Arm ARM A5.2.1, A5.2.2; not the miscellaneous
    // instructions, A5.2.12): shifted by a register (bit 4) or by an immediate (imm5 11:7, type 6:5 not all 0), and
    // not MOV (opcode 1101) or MVN (1111).
    const unsigned op = (i >> 21) & 15u;
    r.shifter = (i & 0x0E000000u) == 0 && (i & 0x01900000u) != 0x01000000u && op != 13u && op != 15u &&
                (((i >> 4) & 1u) || ((i >> 5) & 0x7Fu) != 0);
    // Extends (A5.4.5, packing and unpacking: op2 011, op1 000 SXTAB16, 010 SXTAB, 011 SXTAH, 100 UXTAB16, 110
    // UXTAB, 111 UXTAH, Rn 1111 their SXTB.. forms; op1 001 and 101 unallocated): the shifter too (GCC's
    // cortex-a9.md: type "extend" is cortex_a9_dp_shift's).
    const unsigned ext_op1 = (i >> 20) & 7u;
    r.shifter |= (i & 0x0F8000F0u) == 0x06800070u && ext_op1 != 1u && ext_op1 != 5u;
    return r;
}

RetiredInsn classify_t32(uint32_t i, bool is32) {
    if (!is32) {
        RetiredInsn r;
        r.compressed = true;
        const uint32_t h = i & 0xFFFFu;
        if ((h & 0xF000u) == 0xD000u && (h & 0x0E00u) != 0x0E00u) r = make(InsnClass::branch, br_immediate | br_conditional);  // B<c>
        else if ((h & 0xFF00u) == 0xDF00u) r = make(InsnClass::ecall);                        // SVC
        else if ((h & 0xF800u) == 0xE000u) r = make(InsnClass::jump, br_immediate);           // B
        else if ((h & 0xFF00u) == 0x4700u) {                                                 // BX, BLX (register)
            const bool link = (h >> 7) & 1u, lr = ((h >> 3) & 0xFu) == 14u;
            r = make(InsnClass::jump, static_cast<uint8_t>(br_register | (link ? br_call : 0) | (!link && lr ? br_return : 0)));
        } else if ((h & 0xF500u) == 0xB100u) r = make(InsnClass::branch, br_immediate | br_conditional);  // CBZ, CBNZ
        else if ((h & 0xFE00u) == 0xB400u) {                                                  // PUSH
            r = make(InsnClass::store);
            r.multiple = true;
            r.writeback = true;
        } else if ((h & 0xFE00u) == 0xBC00u) {                                               // POP
            r = make(InsnClass::load);
            r.multiple = true;
            r.writeback = true;
            if ((h >> 8) & 1u) r.branch = br_register | br_return;
        } else if ((h & 0xFF00u) == 0xBE00u) r = make(InsnClass::ebreak);                     // BKPT
        else if ((h & 0xF800u) == 0x4800u) r = make(InsnClass::load);                         // LDR (literal)
        else if ((h & 0xF000u) == 0x5000u) {  // register offset: opB 011 LDRSB and 111 LDRSH (Arm ARM A6.2.4)
            r = make(((h >> 9) & 7u) >= 3 ? InsnClass::load : InsnClass::store);
            r.sign_extend = ((h >> 9) & 3u) == 3u;
            r.subword = ((h >> 9) & 3u) != 0;  // all but STR (000) and LDR (100)
        } else if ((h & 0xE000u) == 0x6000u || (h & 0xE000u) == 0x8000u) {  // immediate, SP-relative
            r = make((h >> 11) & 1u ? InsnClass::load : InsnClass::store);
            r.subword = (h & 0xF000u) == 0x7000u || (h & 0xF000u) == 0x8000u;  // LDRB/STRB, LDRH/STRH (immediate)
        }
        else if ((h & 0xF000u) == 0xC000u) {                                                  // LDM, STM
            r = make((h >> 11) & 1u ? InsnClass::load : InsnClass::store);
            r.multiple = true;
            r.writeback = !((h >> 11) & 1u) || !((h >> ((h >> 8) & 7u)) & 1u);  // LDM: unless Rn is in the list
        } else if ((h & 0xFFC0u) == 0x4340u) r = make(InsnClass::mul);                        // MULS
        else {
            r = make(InsnClass::alu);
            r.shifter = (h & 0xFF00u) == 0xB200u;  // SXTH, SXTB, UXTH, UXTB (A6.2.5): extends, as in A32
        }
        r.compressed = true;
        return r;
    }
    const uint32_t hw1 = i >> 16, hw2 = i & 0xFFFFu;
    if ((hw1 & 0xF800u) == 0xF000u && (hw2 & 0x8000u)) {  // branches and miscellaneous control
        if ((hw2 & 0x5000u) == 0x0000u && (hw1 & 0x0380u) != 0x0380u) return make(InsnClass::branch, br_immediate | br_conditional);
        if ((hw2 & 0x5000u) == 0x1000u) return make(InsnClass::jump, br_immediate);                // B.W
        if ((hw2 & 0x4000u) == 0x4000u) return make(InsnClass::jump, br_immediate | br_call);      // BL, BLX
        if ((hw1 & 0xFFF0u) == 0xF3B0u) return make(InsnClass::barrier);                           // DSB, DMB, ISB
        if ((hw1 & 0xFFF0u) == 0xF3D0u) return make(InsnClass::jump, br_register | br_exc_return);  // SUBS pc, lr
        return make(InsnClass::alu);                                                               // MSR/MRS (banked), hints
    }
    if ((hw1 & 0xEF00u) == 0xEE00u && (hw2 & 0x0010u)) return make(InsnClass::sysreg);  // MCR, MRC (T1, T2)
    if ((hw1 & 0xFE40u) == 0xE800u) {  // LDM/STM, IA and DB (and RFE/SRS): 1110 100x x0WL
        RetiredInsn r = make((hw1 >> 4) & 1u ? InsnClass::load : InsnClass::store);
        r.multiple = true;
        r.writeback = (hw1 >> 5) & 1u;  // W
        if (((hw1 >> 4) & 1u) && ((hw2 >> 15) & 1u))
            r.branch = static_cast<uint8_t>(br_register | ((hw1 & 0xFu) == 13u ? br_return : 0));
        return r;
    }
    if ((hw1 & 0xFE40u) == 0xE840u) {  // load/store exclusive, dual, table branch
        if ((hw1 & 0xFFF0u) == 0xE8D0u && (hw2 & 0xFFE0u) == 0xF000u) return make(InsnClass::jump, br_register);  // TBB, TBH
        RetiredInsn r = make((hw1 >> 4) & 1u ? InsnClass::load : InsnClass::store);
        r.multiple = (hw1 & 0xFE40u) == 0xE840u && ((hw1 >> 8) & 1u);
        r.writeback = (hw1 >> 5) & 1u;  // LDRD, STRD: W (the exclusives have it 0)
        return r;
    }
    if ((hw1 & 0xFE00u) == 0xF800u) {  // load/store single
        RetiredInsn r = make((hw1 >> 4) & 1u ? InsnClass::load : InsnClass::store);
        if (((hw1 >> 4) & 1u) && ((hw2 >> 12) & 0xFu) == 15u) r.branch = br_register;  // LDR pc
        r.sign_extend = ((hw1 >> 4) & 1u) && ((hw1 >> 8) & 1u);  // 1111 1001: LDRSB, LDRSH (Arm ARM A6.3.7)
        r.subword = ((hw1 >> 5) & 3u) < 2u;  // size 00 byte, 01 halfword
        // (register), A8.8.65 T2: op2 11:6 000000 with bit 23 (U of the immediate forms) clear and Rn not the PC
        // (a literal); imm2 5:4 the LSL
        r.offset_shift = !((hw1 >> 7) & 1u) && (hw1 & 0xFu) != 15u && (hw2 & 0x0FC0u) == 0 &&
                         ((hw2 >> 4) & 3u) % 2u == 1u;
        // The 8-bit immediate forms (A6.3.7: op2 1xx1xx, bit 11 and W, bit 8, set), Rn not the PC
        r.writeback = !((hw1 >> 7) & 1u) && (hw1 & 0xFu) != 15u && (hw2 & 0x0900u) == 0x0900u;
        return r;
    }
    if ((hw1 & 0xFF80u) == 0xFB00u) return make(InsnClass::mul);                        // MUL, MLA, ...
    if ((hw1 & 0xFFD0u) == 0xFB90u && (hw2 & 0x00F0u) == 0x00F0u) return make(InsnClass::div);  // SDIV, UDIV
    if ((hw1 & 0xFF80u) == 0xFB80u) return make(InsnClass::mul);                        // long multiplies
    RetiredInsn r = make(InsnClass::alu);
    // Data processing (shifted register, A6.3.11): a shift (imm3 14:12, imm2 7:6, type 5:4 not all 0), not MOV
    // (op 0010) or MVN (0011) with Rn 1111.
    const unsigned op = (hw1 >> 5) & 15u;
    r.shifter = (hw1 & 0xFE00u) == 0xEA00u && !((op == 2u || op == 3u) && (hw1 & 0xFu) == 15u) &&
                (((hw2 >> 12) & 7u) || ((hw2 >> 4) & 0xFu));
    // Extends (data processing (register), A6.3.12: hw1 1111 1010 0 op1, op1 000-101 SXTAH, UXTAH, SXTAB16, UXTAB16,
    // SXTAB, UXTAB and their Rn 1111 forms; hw2 1111 with op2 1xxx), as in A32.
    r.shifter |= (hw1 & 0xFF80u) == 0xFA00u && ((hw1 >> 4) & 7u) <= 5u && (hw2 & 0xF080u) == 0xF080u;
    return r;
}

}  // namespace pmusim::isa::arm
