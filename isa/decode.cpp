#include "isa/decode.hpp"

#include <optional>

#include "isa/a32_coproc.hpp"
#include "isa/a64_sysreg.hpp"
#include "isa/arm_classify.hpp"
#include "isa/reg_use.hpp"

namespace pmusim::isa {

namespace {

InsnClass rv_class(rv32::Klass k, const rv32::CsrInsn* csr) {
    using K = rv32::Klass;
    using C = InsnClass;
    switch (k) {
        case K::load: return C::load;
        case K::store: return C::store;
        case K::branch: return C::branch;
        case K::jal:
        case K::jalr: return C::jump;
        case K::mul: return C::mul;
        case K::bitmanip: return C::bitmanip;
        case K::div: return C::div;
        case K::ecall: return C::ecall;
        case K::ebreak: return C::ebreak;
        case K::mret: return C::mret;
        case K::fence: return C::fence;
        case K::fence_i: return C::fence_i;
        case K::csr: {
            const auto c = rv32::csr_class(*csr);
            return c == rv32::CsrClass::read ? C::csr_read : c == rv32::CsrClass::write ? C::csr_write : C::csr_read_write;
        }
        default: return C::alu;  // ALU operations, and WFI (implemented as a NOP on VeeR EL2)
    }
}

}  // namespace

Decoded decode_rv(uint32_t enc, bool rv64) {
    Decoded d;
    const auto info = rv32::classify(enc, rv64);
    d.insn.compressed = info.compressed;
    // Branch detail: JAL has its target in the encoding, JALR in a register; a JALR with rd x0 and rs1 ra or t0
    // returns (the unprivileged spec's return-address stack hints, 2.5: pop).
    d.insn.regs = rv_reg_use(enc, rv64);
    const uint32_t link = reg_bit(1) | reg_bit(5);
    using K = rv32::Klass;
    if (info.klass == K::branch) d.insn.branch = br_immediate | br_conditional;
    if (info.klass == K::jal) {
        // Beyond a B-type branch's 13-bit offset (VeeR EL2's BTB holds no more: such a JAL is not predicted, event 27).
        const int32_t off = rv32::transfer(enc, rv64).offset;
        d.insn.branch = static_cast<uint8_t>(br_immediate | (off < -4096 || off > 4094 ? br_far : 0));
    }
    if (info.klass == K::jalr) {
        const bool ret = d.insn.regs.dst == 0 && (d.insn.regs.src & link);
        d.insn.branch = static_cast<uint8_t>(br_register | (ret ? br_return : 0));
    }
    if (info.klass == K::mret) d.insn.branch = br_register | br_exc_return;
    // A jump that links in ra or t0 is a call (the RISC-V return-address hint convention).
    if ((info.klass == K::jal || info.klass == K::jalr) && (d.insn.regs.dst & link))
        d.insn.branch = static_cast<uint8_t>(d.insn.branch | br_call);
    if (const auto c = rv32::decode_csr(enc)) {
        d.is_csr = true;
        d.csr = *c;
    }
    d.insn.cls = rv_class(info.klass, d.is_csr ? &d.csr : nullptr);
    d.retires = info.klass != rv32::Klass::ecall && info.klass != rv32::Klass::ebreak;
    return d;
}

Decoded decode_arm(uint32_t enc, DecodeMode mode, uint8_t size) {
    Decoded d;
    if (mode == DecodeMode::a64) {
        d.insn = arm::classify_a64(enc);
        d.insn.regs = a64_reg_use(enc);
        if (const auto m = a64::decode(enc)) {
            d.is_sysreg = true;
            d.key = a64::key(*m);
            d.sys_read = m->is_read;
            d.rt = m->rt;
        }
        return d;
    }
    const bool t32 = mode == DecodeMode::t32;
    d.insn = t32 ? arm::classify_t32(enc, size == 4) : arm::classify_a32(enc);
    d.insn.regs = t32 ? t32_reg_use(enc, size == 4) : a32_reg_use(enc);
    const auto m = t32 ? (size == 4 ? a32::decode_t32(enc) : std::nullopt) : a32::decode_a32(enc);
    if (m && m->coproc == 15) {
        d.is_sysreg = true;
        d.cp15 = true;
        d.key = a32::cp15_key(*m);
        d.sys_read = m->is_read;
        d.rt = m->rt;
    }
    return d;
}

}  // namespace pmusim::isa
