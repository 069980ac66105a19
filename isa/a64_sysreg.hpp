// A64 system-register moves (MRS/MSR register form): encode, decode, and the generic S<op0>_<op1>_C<n>_C<m>_<op2>
// register names. Arm ARM C5.2 (system instruction class): bits[31:22] = 0b1101010100, L = bit 21
// (1 = MRS), op0 = 2 + bit 19, op1 [18:16], CRn [15:12], CRm [11:8], op2 [7:5], Rt [4:0].
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pmusim::isa::a64 {

struct SysRegMove {
    bool is_read = true;  // MRS (read) or MSR (write)
    unsigned op0 = 3, op1 = 0, crn = 0, crm = 0, op2 = 0;
    unsigned rt = 0;  // 31 = XZR
};

uint32_t encode(const SysRegMove& m);
std::optional<SysRegMove> decode(uint32_t insn);

// The model's encoding key (see model/core/register.hpp a64_key).
uint32_t key(const SysRegMove& m);
// "S3_3_C9_C12_0" (case-insensitive) -> key; nullopt when the text is not of that form or out of range.
std::optional<uint32_t> parse_generic_name(std::string_view name);
std::string generic_name(uint32_t key);

}  // namespace pmusim::isa::a64
