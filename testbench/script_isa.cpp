#include "testbench/script_isa.hpp"

#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "isa/a32_coproc.hpp"
#include "isa/a64_sysreg.hpp"
#include "isa/number.hpp"
#include "isa/rv32.hpp"
#include "model/core/register.hpp"

namespace pmusim {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// "mnemonic op1, op2, ..." -> {mnemonic, operands}
std::pair<std::string, std::vector<std::string>> split_insn(std::string_view text) {
    text = trim(text);
    size_t sp = 0;
    while (sp < text.size() && !std::isspace(static_cast<unsigned char>(text[sp]))) ++sp;
    std::string mnem = to_lower(text.substr(0, sp));
    std::vector<std::string> ops;
    std::string_view rest = trim(text.substr(sp));
    while (!rest.empty()) {
        const size_t comma = rest.find(',');
        ops.emplace_back(trim(rest.substr(0, comma)));
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
        if (trim(rest).empty()) ops.emplace_back();
    }
    return {mnem, ops};
}

ParseOutcome parse_a64(std::string_view text) {
    ParseOutcome out;
    auto [m, ops] = split_insn(text);
    auto xreg = [](const std::string& s) { return core_register(IsaKind::a64, s); };
    if (m == "nop" || m == "isb" || m == "dsb" || m == "dmb") {
        out.is_instruction = true;
        if (m != "nop" && m != "isb" && ops.size() > 1) {
            out.error = fmt::format("'{}' takes at most one option operand", m);
            return out;
        }
        ScriptInsn i;
        i.kind = ScriptInsn::Kind::nop;
        out.insn = i;
        return out;
    }
    if (m == "mov") {
        out.is_instruction = true;
        if (ops.size() != 2 || !xreg(ops[0])) {
            out.error = "expected 'mov xN, #imm'";
            return out;
        }
        std::string_view imm = ops[1];
        if (!imm.empty() && imm.front() == '#') imm.remove_prefix(1);
        const auto v = isa::parse_number(imm);
        if (!v) {
            out.error = fmt::format("expected an immediate (decimal, 0x hex or 0b binary) in 'mov', got '{}'", ops[1]);
            return out;
        }
        ScriptInsn i;
        i.kind = ScriptInsn::Kind::set_imm;
        i.reg = *xreg(ops[0]);
        i.imm = *v;
        out.insn = i;
        return out;
    }
    if (m == "mrs" || m == "msr") {
        out.is_instruction = true;
        const bool read = m == "mrs";
        if (ops.size() != 2) {
            out.error = read ? "expected 'mrs xN, <system register>'" : "expected 'msr <system register>, xN'";
            return out;
        }
        const std::string& r = read ? ops[0] : ops[1];
        const std::string& s = read ? ops[1] : ops[0];
        if (!xreg(r)) {
            out.error = fmt::format("expected a 64-bit register x0-x30 or xzr, got '{}'", r);
            return out;
        }
        ScriptInsn i;
        i.kind = read ? ScriptInsn::Kind::sys_read : ScriptInsn::Kind::sys_write;
        i.cls.cls = isa::InsnClass::sysreg;
        i.reg = *xreg(r);
        i.sysreg = s;
        out.insn = i;
        return out;
    }
    return out;
}

// "c9" -> 9; "p15" -> 15 (prefix letter, then 0-15).
std::optional<unsigned> prefixed(const std::string& s, char prefix) {
    if (s.size() < 2 || std::tolower(static_cast<unsigned char>(s[0])) != prefix) return std::nullopt;
    const auto v = isa::parse_number(std::string_view(s).substr(1));
    if (!v || *v > 15 || !std::isdigit(static_cast<unsigned char>(s[1]))) return std::nullopt;
    return static_cast<unsigned>(*v);
}

ParseOutcome parse_a32(std::string_view text) {
    ParseOutcome out;
    auto [m, ops] = split_insn(text);
    auto rreg = [](const std::string& s) { return core_register(IsaKind::a32, s); };
    if (m == "nop" || m == "isb" || m == "dsb" || m == "dmb") {
        out.is_instruction = true;
        if (ops.size() > 1) {
            out.error = fmt::format("'{}' takes at most one option operand", m);
            return out;
        }
        out.insn = ScriptInsn{};
        return out;
    }
    if (m == "mov" || m == "ldr") {
        out.is_instruction = true;
        const bool ldr = m == "ldr";
        const char* usage = ldr ? "expected 'ldr rN, =imm'" : "expected 'mov rN, #imm'";
        if (ops.size() != 2 || !rreg(ops[0])) {
            out.error = usage;
            return out;
        }
        std::string_view imm = ops[1];
        if (imm.empty() || imm.front() != (ldr ? '=' : '#')) {
            out.error = usage;
            return out;
        }
        imm.remove_prefix(1);
        const auto v = isa::parse_number(imm);
        if (!v || (*v > 0xFFFFFFFFu && *v < 0xFFFFFFFF80000000u)) {
            out.error = fmt::format("expected a 32-bit immediate, got '{}'", ops[1]);
            return out;
        }
        ScriptInsn i;
        i.kind = ScriptInsn::Kind::set_imm;
        i.reg = *rreg(ops[0]);
        i.imm = *v & 0xFFFFFFFFu;
        if (ldr) i.cls.cls = isa::InsnClass::load;
        out.insn = i;
        return out;
    }
    if (m == "mrc" || m == "mcr") {
        out.is_instruction = true;
        const bool read = m == "mrc";
        const std::string usage = fmt::format("expected '{} p15, opc1, rN, cN, cM[, opc2]'", m);
        if (ops.size() != 5 && ops.size() != 6) {
            out.error = usage;
            return out;
        }
        const auto cp = prefixed(ops[0], 'p');
        const auto opc1 = isa::parse_number(ops[1]);
        const auto rt = rreg(ops[2]);
        const auto crn = prefixed(ops[3], 'c');
        const auto crm = prefixed(ops[4], 'c');
        const auto opc2 = ops.size() == 6 ? isa::parse_number(ops[5]) : std::optional<uint64_t>(0);
        if (!cp || !opc1 || *opc1 > 7 || !rt || !crn || !crm || !opc2 || *opc2 > 7) {
            out.error = usage;
            return out;
        }
        if (*cp != 15) {
            out.error = fmt::format("pmusim models the PMU registers of coprocessor p15 only, not p{}", *cp);
            return out;
        }
        isa::a32::CoprocMove mv;
        mv.is_read = read;
        mv.opc1 = static_cast<unsigned>(*opc1);
        mv.crn = *crn;
        mv.crm = *crm;
        mv.opc2 = static_cast<unsigned>(*opc2);
        mv.rt = *rt;
        ScriptInsn i;
        i.kind = read ? ScriptInsn::Kind::sys_read : ScriptInsn::Kind::sys_write;
        i.cls.cls = isa::InsnClass::sysreg;
        i.reg = *rt;
        i.has_cp15 = true;
        i.cp15 = isa::a32::cp15_key(mv);
        i.encoding = isa::a32::encode_a32(mv);
        i.sysreg = fmt::format("p15, {}, c{}, c{}, {}", mv.opc1, mv.crn, mv.crm, mv.opc2);
        out.insn = i;
        return out;
    }
    return out;
}

ParseOutcome parse_rv32(std::string_view text) {
    ParseOutcome out;
    auto [m, ops] = split_insn(text);
    auto xreg = [](const std::string& s) { return core_register(IsaKind::rv32, s); };
    if (m == "nop") {  // addi x0, x0, 0: an ALU operation (VeeR EL2 PRM footnote 2)
        out.is_instruction = true;
        if (!ops.empty()) out.error = "'nop' takes no operands";
        else out.insn = ScriptInsn{};
        return out;
    }
    if (m == "li") {
        out.is_instruction = true;
        const auto v = ops.size() == 2 ? isa::parse_number(ops[1]) : std::nullopt;
        if (ops.size() != 2 || !xreg(ops[0]) || !v || (*v > 0xFFFFFFFFu && *v < 0xFFFFFFFF80000000u)) {
            out.error = "expected 'li rd, imm' with a 32-bit immediate";
            return out;
        }
        ScriptInsn i;
        i.kind = ScriptInsn::Kind::set_imm;
        i.reg = *xreg(ops[0]);
        i.imm = *v & 0xFFFFFFFFu;
        // As the assembler expands it: addi when the value is a sign-extended 12-bit immediate; otherwise lui,
        // plus addi when the low 12 bits are not zero. Each is a 32-bit ALU instruction.
        const int64_t sv = static_cast<int32_t>(static_cast<uint32_t>(i.imm));
        i.retired = (sv >= -2048 && sv <= 2047) ? 1 : ((i.imm & 0xFFFu) ? 2 : 1);
        out.insn = i;
        return out;
    }
    // CSR instructions and their pseudo-instructions (Zicsr).
    struct Form {
        const char* name;
        unsigned op;  // 0 rw, 1 rs, 2 rc
        bool imm;
        bool has_rd;   // rd operand present (else x0)
        bool has_src;  // rs1/uimm operand present (else x0)
    };
    static const Form forms[] = {
        {"csrrw", 0, false, true, true},  {"csrrs", 1, false, true, true},  {"csrrc", 2, false, true, true},
        {"csrrwi", 0, true, true, true},  {"csrrsi", 1, true, true, true},  {"csrrci", 2, true, true, true},
        {"csrr", 1, false, true, false},  {"csrw", 0, false, false, true},  {"csrs", 1, false, false, true},
        {"csrc", 2, false, false, true},  {"csrwi", 0, true, false, true},  {"csrsi", 1, true, false, true},
        {"csrci", 2, true, false, true},
    };
    for (const Form& f : forms) {
        if (m != f.name) continue;
        out.is_instruction = true;
        const size_t want = (f.has_rd ? 1 : 0) + 1 + (f.has_src ? 1 : 0);
        const std::string usage = fmt::format("expected '{}{}csr{}'", m, f.has_rd ? " rd, " : " ",
                                              f.has_src ? (f.imm ? ", uimm" : ", rs1") : "");
        if (ops.size() != want) {
            out.error = usage;
            return out;
        }
        ScriptInsn i;
        i.kind = ScriptInsn::Kind::csr;
        i.csr_op = f.op;
        i.csr_imm = f.imm;
        size_t k = 0;
        if (f.has_rd) {
            const auto rd = xreg(ops[k++]);
            if (!rd) {
                out.error = usage + fmt::format(": '{}' is not a register", ops[0]);
                return out;
            }
            i.reg = *rd;
        }
        i.sysreg = ops[k++];
        if (f.has_src) {
            if (f.imm) {
                const auto u = isa::parse_number(ops[k]);
                if (!u || *u > 31) {
                    out.error = fmt::format("expected a 5-bit immediate 0-31, got '{}'", ops[k]);
                    return out;
                }
                i.csr_src = static_cast<unsigned>(*u);
            } else {
                const auto rs = xreg(ops[k]);
                if (!rs) {
                    out.error = usage + fmt::format(": '{}' is not a register", ops[k]);
                    return out;
                }
                i.csr_src = *rs;
            }
        }
        isa::rv32::CsrInsn ci{static_cast<isa::rv32::CsrOp>(i.csr_op), i.csr_imm, i.reg, i.csr_src, 0};
        const auto c = isa::rv32::csr_class(ci);
        i.cls.cls = c == isa::rv32::CsrClass::read    ? isa::InsnClass::csr_read
                    : c == isa::rv32::CsrClass::write ? isa::InsnClass::csr_write
                                                      : isa::InsnClass::csr_read_write;
        out.insn = i;
        return out;
    }
    return out;
}

}  // namespace

ParseOutcome parse_instruction(IsaKind isa, std::string_view text) {
    switch (isa) {
        case IsaKind::a64: return parse_a64(text);
        case IsaKind::a32: return parse_a32(text);
        case IsaKind::rv32: return parse_rv32(text);
        default: return ParseOutcome{};
    }
}

std::optional<unsigned> core_register(IsaKind isa, std::string_view name) {
    const std::string n = to_lower(name);
    if (isa == IsaKind::rv32) return isa::rv32::gpr_by_name(n);  // x0-x31 and the ABI names
    if (isa == IsaKind::a32) {
        // r0-r12, sp (r13), lr (r14); the PC is not a destination here.
        if (n == "sp") return 13u;
        if (n == "lr") return 14u;
        if (n.size() >= 2 && n[0] == 'r' && std::isdigit(static_cast<unsigned char>(n[1]))) {
            const auto v = isa::parse_number(std::string_view(n).substr(1));
            if (v && *v <= 14) return static_cast<unsigned>(*v);
        }
        return std::nullopt;
    }
    if (isa == IsaKind::a64) {
        if (n == "xzr") return 31u;
        if (n.size() >= 2 && n[0] == 'x') {
            const auto v = isa::parse_number(std::string_view(n).substr(1));
            if (v && *v <= 30 && std::isdigit(static_cast<unsigned char>(n[1]))) return static_cast<unsigned>(*v);
        }
    }
    return std::nullopt;
}

std::string core_register_name(IsaKind isa, unsigned index) {
    if (isa == IsaKind::a64) return index == 31 ? "xzr" : fmt::format("x{}", index);
    if (isa == IsaKind::rv32) {
        // The ABI names (RISC-V ELF psABI, "Integer register convention"), as programs spell them.
        static const char* const abi[32] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
                                            "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                                            "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
        return index < 32 ? abi[index] : fmt::format("x{}", index);
    }
    return fmt::format("r{}", index);
}

unsigned core_register_count(IsaKind isa) { return isa == IsaKind::a32 ? 15 : 32; }

unsigned zero_register(IsaKind isa) {
    if (isa == IsaKind::a64) return 31;
    if (isa == IsaKind::rv32) return 0;
    return core_register_count(isa);
}

}  // namespace pmusim
