// A64/A32/T32 classification on hand-assembled encodings (Arm ARM encoding tables).
#include <gtest/gtest.h>

#include "isa/arm_classify.hpp"

namespace pmusim {
namespace {

using isa::InsnClass;
using namespace isa::arm;

struct Case {
    uint32_t enc;
    InsnClass cls;
    uint8_t branch;  // expected BranchFlags (without br_taken)
    const char* what;
};

TEST(ArmClassify, A64) {
    const Case cases[] = {
        {0x14000010, InsnClass::jump, isa::br_immediate, "b"},
        {0x94000010, InsnClass::jump, isa::br_immediate | isa::br_call, "bl"},
        {0x5400004B, InsnClass::branch, isa::br_immediate | isa::br_conditional, "b.lt"},
        {0xB4000040, InsnClass::branch, isa::br_immediate | isa::br_conditional, "cbz x0"},
        {0x36000040, InsnClass::branch, isa::br_immediate | isa::br_conditional, "tbz w0, #0"},
        {0xD65F03C0, InsnClass::jump, isa::br_register | isa::br_return, "ret"},
        {0xD69F03E0, InsnClass::jump, isa::br_register | isa::br_exc_return, "eret"},
        {0xD61F0020, InsnClass::jump, isa::br_register, "br x1"},
        {0xD63F0020, InsnClass::jump, isa::br_register | isa::br_call, "blr x1"},
        {0xD4000001, InsnClass::ecall, 0, "svc #0"},
        {0xD4200000, InsnClass::ebreak, 0, "brk #0"},
        {0xD53B9C00, InsnClass::sysreg, 0, "mrs x0, pmcr_el0"},
        {0xD5033FDF, InsnClass::barrier, 0, "isb"},
        {0xD5033B9F, InsnClass::barrier, 0, "dsb ish"},
        {0xD503201F, InsnClass::alu, 0, "nop"},
        {0xF9400020, InsnClass::load, 0, "ldr x0, [x1]"},
        {0xF9000020, InsnClass::store, 0, "str x0, [x1]"},
        {0xB9400020, InsnClass::load, 0, "ldr w0, [x1]"},
        {0x38400420, InsnClass::load, 0, "ldrb w0, [x1], #0"},
        {0x58000340, InsnClass::load, 0, "ldr x0, literal"},
        {0xA9BF7BFD, InsnClass::store, 0, "stp x29, x30, [sp, #-16]!"},
        {0xA8C17BFD, InsnClass::load, 0, "ldp x29, x30, [sp], #16"},
        {0x9B017C00, InsnClass::mul, 0, "mul x0, x0, x1"},
        {0x9AC10C00, InsnClass::div, 0, "sdiv x0, x0, x1"},
        {0x8B020020, InsnClass::alu, 0, "add x0, x1, x2"},
        {0xD2800220, InsnClass::alu, 0, "movz x0, #0x11"},
    };
    for (const auto& c : cases) {
        const auto r = classify_a64(c.enc);
        EXPECT_EQ(r.cls, c.cls) << c.what;
        EXPECT_EQ(r.branch, c.branch) << c.what;
    }
    EXPECT_TRUE(classify_a64(0xA9BF7BFD).multiple);
}

TEST(ArmClassify, A32) {
    const Case cases[] = {
        {0xEA000010, InsnClass::jump, isa::br_immediate, "b"},
        {0xEB000010, InsnClass::jump, isa::br_immediate | isa::br_call, "bl"},
        {0xBAFFFFF8, InsnClass::jump, isa::br_immediate | isa::br_conditional, "blt"},
        {0xFA000002, InsnClass::jump, isa::br_immediate | isa::br_call, "blx #imm"},
        {0xE12FFF1E, InsnClass::jump, isa::br_register | isa::br_return, "bx lr"},
        {0xE12FFF33, InsnClass::jump, isa::br_register | isa::br_call, "blx r3"},
        {0xE1A0F00E, InsnClass::jump, isa::br_register | isa::br_return, "mov pc, lr"},
        {0xE25EF004, InsnClass::jump, isa::br_register | isa::br_exc_return, "subs pc, lr, #4"},
        {0xE5910000, InsnClass::load, 0, "ldr r0, [r1]"},
        {0xE5810000, InsnClass::store, 0, "str r0, [r1]"},
        {0xE1D100B0, InsnClass::load, 0, "ldrh r0, [r1]"},
        {0xE1C100B0, InsnClass::store, 0, "strh r0, [r1]"},
        {0xE92D4010, InsnClass::store, 0, "push {r4, lr}"},
        {0xE8BD8010, InsnClass::load, isa::br_register | isa::br_return, "pop {r4, pc}"},
        {0xE49DF004, InsnClass::load, isa::br_register | isa::br_return, "pop {pc} (ldr pc, [sp], #4)"},
        // Any LDR of the PC from SP is a return, whatever its addressing mode (ARM1176 TRM 5.3: "LDR pc, [sp...]";
        // Cortex-A9 TRM 7.3.2 and Cortex-A7 TRM 6.3.2: "LDR pc, [r13]", any addressing mode with r13 the base);
        // from another base it is an indirect branch.
        {0xE59DF008, InsnClass::load, isa::br_register | isa::br_return, "ldr pc, [sp, #8]"},
        {0xE5BDF008, InsnClass::load, isa::br_register | isa::br_return, "ldr pc, [sp, #8]!"},
        {0xE593F004, InsnClass::load, isa::br_register, "ldr pc, [r3, #4]"},
        {0x979FF103, InsnClass::load, isa::br_register | isa::br_conditional, "ldrls pc, [pc, r3, lsl #2]"},
        {0xE0000291, InsnClass::mul, 0, "mul r0, r1, r2"},
        {0xE710F110, InsnClass::div, 0, "sdiv r0, r0, r1"},
        {0xEE090F1C, InsnClass::sysreg, 0, "mcr p15, 0, r0, c9, c12, 0"},
        {0xEF123456, InsnClass::ecall, 0, "svc"},
        {0xF57FF04F, InsnClass::barrier, 0, "dsb sy"},
        {0xE0844001, InsnClass::alu, 0, "add r4, r4, r1"},
        {0x12855001, InsnClass::alu, 0, "addne r5, r5, #1"},
    };
    for (const auto& c : cases) {
        const auto r = classify_a32(c.enc);
        EXPECT_EQ(r.cls, c.cls) << c.what;
        EXPECT_EQ(r.branch, c.branch) << c.what;
    }
}

TEST(ArmClassify, T32) {
    const Case t16[] = {
        {0xE7FE, InsnClass::jump, isa::br_immediate, "b ."},
        {0xD0FE, InsnClass::branch, isa::br_immediate | isa::br_conditional, "beq"},
        {0xB108, InsnClass::branch, isa::br_immediate | isa::br_conditional, "cbz r0"},
        {0x4770, InsnClass::jump, isa::br_register | isa::br_return, "bx lr"},
        {0x4798, InsnClass::jump, isa::br_register | isa::br_call, "blx r3"},
        {0xB510, InsnClass::store, 0, "push {r4, lr}"},
        {0xBD10, InsnClass::load, isa::br_register | isa::br_return, "pop {r4, pc}"},
        {0x6808, InsnClass::load, 0, "ldr r0, [r1]"},
        {0x6008, InsnClass::store, 0, "str r0, [r1]"},
        {0x4A01, InsnClass::load, 0, "ldr r2, [pc, #4]"},
        {0x2001, InsnClass::alu, 0, "movs r0, #1"},
        {0xDF00, InsnClass::ecall, 0, "svc #0"},
    };
    for (const auto& c : t16) {
        const auto r = classify_t32(c.enc, false);
        EXPECT_EQ(r.cls, c.cls) << c.what;
        EXPECT_EQ(r.branch, c.branch) << c.what;
        EXPECT_TRUE(r.compressed) << c.what;
    }
    const Case t32[] = {
        {0xF000F800, InsnClass::jump, isa::br_immediate | isa::br_call, "bl"},
        {0xF000B800, InsnClass::jump, isa::br_immediate, "b.w"},
        {0xF0008000, InsnClass::branch, isa::br_immediate | isa::br_conditional, "beq.w"},
        {0xF8D21000, InsnClass::load, 0, "ldr.w r1, [r2]"},
        {0xF8C21000, InsnClass::store, 0, "str.w r1, [r2]"},
        {0xE8BD8010, InsnClass::load, isa::br_register | isa::br_return, "pop.w {r4, pc}"},
        {0xEE190F1C, InsnClass::sysreg, 0, "mrc p15, 0, r0, c9, c12, 0"},
        {0xFB00F001, InsnClass::mul, 0, "mul.w r0, r0, r1"},
        {0xFB90F0F1, InsnClass::div, 0, "sdiv r0, r0, r1"},
        {0xF3BF8F6F, InsnClass::barrier, 0, "isb"},
    };
    for (const auto& c : t32) {
        const auto r = classify_t32(c.enc, true);
        EXPECT_EQ(r.cls, c.cls) << c.what;
        EXPECT_EQ(r.branch, c.branch) << c.what;
    }
    EXPECT_TRUE(t32_is_32bit(0xF8D2));
    EXPECT_TRUE(t32_is_32bit(0xE8BD));
    EXPECT_FALSE(t32_is_32bit(0xE7FE));
}

// The loads that sign-extend what they read (the Cortex-A9's load-to-use fast path leaves them out: its TRM, B.3),
// each encoding from GNU as; the unsigned and wider forms beside them do not.
TEST(ArmClassify, SignExtendingLoads) {
    struct Form {
        uint32_t enc;
        bool sign;
        const char* what;
    };
    const Form a32[] = {{0xE1D100D0, true, "ldrsb r0, [r1]"}, {0xE1D100F0, true, "ldrsh r0, [r1]"},
                        {0xE1D100B0, false, "ldrh r0, [r1]"}, {0xE1C200D0, false, "ldrd r0, r1, [r2]"},
                        {0xE5D10000, false, "ldrb r0, [r1]"}, {0xE1C100F0, false, "strd r0, r1, [r1]"}};
    for (const auto& f : a32) EXPECT_EQ(classify_a32(f.enc).sign_extend, f.sign) << f.what;
    const Form t16[] = {{0x5688, true, "ldrsb r0, [r1, r2]"}, {0x5E88, true, "ldrsh r0, [r1, r2]"},
                        {0x5C88, false, "ldrb r0, [r1, r2]"}, {0x6808, false, "ldr r0, [r1]"}};
    for (const auto& f : t16) EXPECT_EQ(classify_t32(f.enc, false).sign_extend, f.sign) << f.what;
    const Form t32[] = {{0xF9910004, true, "ldrsb.w r0, [r1, #4]"}, {0xF9310002, true, "ldrsh.w r0, [r1, r2]"},
                        {0xF8910004, false, "ldrb.w r0, [r1, #4]"}, {0xF8D21000, false, "ldr.w r1, [r2]"}};
    for (const auto& f : t32) EXPECT_EQ(classify_t32(f.enc, true).sign_extend, f.sign) << f.what;
    const Form a64[] = {{0x39C00020, true, "ldrsb w0, [x1]"},       {0xB9800020, true, "ldrsw x0, [x1]"},
                        {0x79800020, true, "ldrsh x0, [x1]"},       {0x38E26820, true, "ldrsb w0, [x1, x2]"},
                        {0x38C00020, true, "ldursb w0, [x1]"},      {0x98000000, true, "ldrsw x0, <literal>"},
                        {0x39400020, false, "ldrb w0, [x1]"},       {0xF9800020, false, "prfm pldl1keep, [x1]"},
                        {0xB8A00041, false, "ldadda w0, w1, [x2]"}, {0x58000000, false, "ldr x0, <literal>"},
                        {0x3DC00020, false, "ldr q0, [x1]"}};
    for (const auto& f : a64) EXPECT_EQ(classify_a64(f.enc).sign_extend, f.sign) << f.what;
}

// The bytes an A64 load or store moves, from its size, opc and V fields (Arm ARM C4.1.66 and its encoding tables),
// each encoding from GNU as: 1 << size for a register, 16 for a Q register (size 00, opc 1x), twice that for a pair,
// the registers times 8 or 16 (Q) for LD1/ST1 of multiple structures; 0 for PRFM and for what is no load or store.
TEST(ArmClassify, A64AccessBytes) {
    const struct {
        uint32_t enc;
        unsigned bytes;
        const char* what;
    } forms[] = {{0xB9400020, 4, "ldr w0, [x1]"},         {0x39400020, 1, "ldrb w0, [x1]"},
                 {0xF9400041, 8, "ldr x1, [x2]"},         {0x3DC00000, 16, "ldr q0, [x0]"},
                 {0xFD400020, 8, "ldr d0, [x1]"},         {0x3CC0F2A0, 16, "ldur q0, [x21, #15]"},
                 {0x3D800000, 16, "str q0, [x0]"},        {0x29400801, 8, "ldp w1, w2, [x0]"},
                 {0xA9400801, 16, "ldp x1, x2, [x0]"},    {0xAD400400, 32, "ldp q0, q1, [x0]"},
                 {0xAD000400, 32, "stp q0, q1, [x0]"},    {0xA9BD7BFD, 16, "stp x29, x30, [sp, #-48]!"},
                 {0x4C407000, 16, "ld1 {v0.16b}, [x0]"},  {0x4C40A000, 32, "ld1 {v0.16b, v1.16b}, [x0]"},
                 {0x0C9F7020, 8, "st1 {v0.8b}, [x1], #8"}, {0x9C000121, 16, "ldr q1, <literal>"},
                 {0x58000080, 8, "ldr x0, <literal>"},    {0x98000000, 4, "ldrsw x0, <literal>"},
                 {0xF9800020, 0, "prfm pldl1keep, [x1]"}, {0x8B0600A4, 0, "add x4, x5, x6"}};
    // STR of a Q register (V 1, size 00, opc 10) is a store: of a SIMD&FP register opc bit 0 loads.
    EXPECT_EQ(classify_a64(0x3D800000).cls, InsnClass::store) << "str q0, [x0]";
    EXPECT_EQ(classify_a64(0x3C80F2A0).cls, InsnClass::store) << "stur q0, [x21, #15]";
    EXPECT_EQ(classify_a64(0xFD000020).cls, InsnClass::store) << "str d0, [x1]";
    EXPECT_EQ(classify_a64(0x3DC00000).cls, InsnClass::load) << "ldr q0, [x0]";
    for (const auto& f : forms) {
        EXPECT_EQ(a64_access_bytes(f.enc), f.bytes) << f.what;
        EXPECT_EQ(classify_a64(f.enc).bytes, f.enc == 0x8B0600A4 ? 0u : f.bytes) << f.what;
    }
}

// Register offsets shifted by anything but LSL #2 (the Cortex-A9 TRM, Table B-2: their result a cycle later) and
// data-processing instructions through the shifter, not moves (GCC's cortex-a9.md, cortex_a9_dp_shift), each
// encoding from GNU as (-march=armv7-a).
TEST(ArmClassify, ShiftedOffsetsAndShifterOperands) {
    struct Form {
        uint32_t enc;
        bool offset_shift, shifter;
        const char* what;
    };
    const Form a32[] = {{0xE7921103, false, false, "ldr r1, [r2, r3, lsl #2]"},
                        {0xE7921183, true, false, "ldr r1, [r2, r3, lsl #3]"},
                        {0xE7921123, true, false, "ldr r1, [r2, r3, lsr #2]"},
                        {0xE7921063, true, false, "ldr r1, [r2, r3, rrx]"},
                        {0xE7921003, false, false, "ldr r1, [r2, r3]"},
                        {0xE7D21083, true, false, "ldrb r1, [r2, r3, lsl #1]"},
                        {0xE78210C3, true, false, "str r1, [r2, r3, asr #1]"},
                        {0xE5921008, false, false, "ldr r1, [r2, #8]"},
                        {0xE0821103, false, true, "add r1, r2, r3, lsl #2"},
                        {0xE0821613, false, true, "add r1, r2, r3, lsl r6"},
                        {0xE15200A3, false, true, "cmp r2, r3, lsr #1"},
                        {0xE1A01103, false, false, "lsl r1, r3, #2 (mov)"},
                        {0xE1E01103, false, false, "mvn r1, r3, lsl #2"},
                        {0xE0821003, false, false, "add r1, r2, r3"},
                        {0xE16F1F12, false, false, "clz r1, r2"}};
    auto check = [](const isa::RetiredInsn& r, const Form& f) {
        EXPECT_EQ(r.offset_shift, f.offset_shift) << f.what;
        EXPECT_EQ(r.shifter, f.shifter) << f.what;
    };
    for (const auto& f : a32) check(classify_a32(f.enc), f);
    const Form t32[] = {{0xF8521013, true, false, "ldr.w r1, [r2, r3, lsl #1]"},
                        {0xF8521023, false, false, "ldr.w r1, [r2, r3, lsl #2]"},
                        {0xF8521003, false, false, "ldr.w r1, [r2, r3]"},
                        {0xF8121033, true, false, "ldrb.w r1, [r2, r3, lsl #3]"},
                        {0xF8D21000, false, false, "ldr.w r1, [r2]"},
                        {0xF85F1013, false, false, "ldr.w r1, [pc, #-19]"},
                        {0xEB020183, false, true, "add.w r1, r2, r3, lsl #2"},
                        {0xEA620143, false, true, "orn r1, r2, r3, lsl #1"},
                        {0xEA4F0183, false, false, "mov.w r1, r3, lsl #2"},
                        {0xEA6F0183, false, false, "mvn.w r1, r3, lsl #2"},
                        {0xEB020103, false, false, "add.w r1, r2, r3"}};
    for (const auto& f : t32) check(classify_t32(f.enc, true), f);
}

// Extends go through the shifter as shifted operands do (GCC's cortex-a9.md: type "extend" is cortex_a9_dp_shift's);
// the other packing, reversal and parallel instructions beside them do not. Each encoding from GNU as
// (-march=armv7-a).
TEST(ArmClassify, ExtendsGoThroughTheShifter) {
    struct Form {
        uint32_t enc;
        bool shifter;
        const char* what;
    };
    const Form a32[] = {{0xE6EF1073, true, "uxtb r1, r3"},        {0xE6BF1073, true, "sxth r1, r3"},
                        {0xE6E21073, true, "uxtab r1, r2, r3"},   {0xE68F1073, true, "sxtb16 r1, r3"},
                        {0xE6FF1473, true, "uxth r1, r3, ror #8"}, {0xE6BF1F33, false, "rev r1, r3"},
                        {0xE6821FB3, false, "sel r1, r2, r3"},    {0xE6A71013, false, "ssat r1, #8, r3"},
                        {0xE6821013, false, "pkhbt r1, r2, r3"}};
    for (const auto& f : a32) EXPECT_EQ(classify_a32(f.enc).shifter, f.shifter) << f.what;
    const Form t16[] = {{0xB2D9, true, "uxtb r1, r3"}, {0xB219, true, "sxth r1, r3"}, {0xBA19, false, "rev r1, r3"}};
    for (const auto& f : t16) EXPECT_EQ(classify_t32(f.enc, false).shifter, f.shifter) << f.what;
    const Form t32[] = {{0xFA5FF183, true, "uxtb.w r1, r3"},     {0xFA02F183, true, "sxtah r1, r2, r3"},
                        {0xFA3FF183, true, "uxtb16 r1, r3"},     {0xFA82F54C, false, "uadd8 r5, r2, ip"},
                        {0xFA02F103, false, "lsl.w r1, r2, r3"}, {0xF3C201C3, false, "ubfx r1, r2, #3, #4"}};
    for (const auto& f : t32) EXPECT_EQ(classify_t32(f.enc, true).shifter, f.shifter) << f.what;
}

// The single loads and stores of a byte or a halfword (the Cortex-A9 TRM, Table B-2: LDRB and LDRH take a second
// AGU cycle), each encoding from GNU as; words, doublewords and multiples are not.
TEST(ArmClassify, ByteAndHalfwordAccesses) {
    struct Form {
        uint32_t enc;
        bool subword;
        const char* what;
    };
    const Form a32[] = {{0xE5D10000, true, "ldrb r0, [r1]"},   {0xE5C10000, true, "strb r0, [r1]"},
                        {0xE1D100B0, true, "ldrh r0, [r1]"},   {0xE1C100B0, true, "strh r0, [r1]"},
                        {0xE1D100D0, true, "ldrsb r0, [r1]"},  {0xE1D100F0, true, "ldrsh r0, [r1]"},
                        {0xE5910000, false, "ldr r0, [r1]"},   {0xE1C200D0, false, "ldrd r0, r1, [r2]"},
                        {0xE1C200F0, false, "strd r0, r1, [r2]"}, {0xE8BD8010, false, "pop {r4, pc}"}};
    for (const auto& f : a32) EXPECT_EQ(classify_a32(f.enc).subword, f.subword) << f.what;
    const Form t16[] = {{0x5C88, true, "ldrb r0, [r1, r2]"},  {0x5688, true, "ldrsb r0, [r1, r2]"},
                        {0x5A88, true, "ldrh r0, [r1, r2]"},  {0x5288, true, "strh r0, [r1, r2]"},
                        {0x5488, true, "strb r0, [r1, r2]"},  {0x5888, false, "ldr r0, [r1, r2]"},
                        {0x5088, false, "str r0, [r1, r2]"},  {0x7908, true, "ldrb r0, [r1, #4]"},
                        {0x8888, true, "ldrh r0, [r1, #4]"},  {0x7108, true, "strb r0, [r1, #4]"},
                        {0x6808, false, "ldr r0, [r1]"},      {0x9801, false, "ldr r0, [sp, #4]"},
                        {0x4A01, false, "ldr r2, [pc, #4]"}};
    for (const auto& f : t16) EXPECT_EQ(classify_t32(f.enc, false).subword, f.subword) << f.what;
    const Form t32[] = {{0xF8910004, true, "ldrb.w r0, [r1, #4]"}, {0xF9310002, true, "ldrsh.w r0, [r1, r2]"},
                        {0xF8B10004, true, "ldrh.w r0, [r1, #4]"}, {0xF8D21000, false, "ldr.w r1, [r2]"},
                        {0xF8C21000, false, "str.w r1, [r2]"}};
    for (const auto& f : t32) EXPECT_EQ(classify_t32(f.enc, true).subword, f.subword) << f.what;
    const Form a64[] = {{0x39400020, true, "ldrb w0, [x1]"},   {0x79800020, true, "ldrsh x0, [x1]"},
                        {0x38226820, true, "strb w0, [x1, x2]"}, {0xB9400020, false, "ldr w0, [x1]"},
                        {0xB9800020, false, "ldrsw x0, [x1]"},   {0x3DC00020, false, "ldr q0, [x1]"},
                        {0x3D400020, false, "ldr b0, [x1]"}};
    for (const auto& f : a64) EXPECT_EQ(classify_a64(f.enc).subword, f.subword) << f.what;
}

}  // namespace
}  // namespace pmusim
