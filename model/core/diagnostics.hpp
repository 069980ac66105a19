// Diagnostics attached to access records: a severity, a stable code and a message.
#pragma once
#include <string>
#include <string_view>

namespace pmusim {

enum class Severity { info, warning, error };

std::string_view to_string(Severity s);

// Stable codes: scripts, the driver checker and users' tools match on these strings.
namespace diag {
inline constexpr std::string_view undefined = "undefined";          // access is UNDEFINED / illegal instruction
inline constexpr std::string_view trap = "trap";                    // access refused by an enable bit (trapped)
inline constexpr std::string_view unpredictable = "unpredictable";  // (CONSTRAINED) UNPREDICTABLE; pmusim's choice applied
inline constexpr std::string_view sbz_violation = "sbz-violation";  // non-zero write to an SBZ/SBZP field
inline constexpr std::string_view res_violation = "res-violation";  // RES0 written as 1 or RES1 written as 0
inline constexpr std::string_view warl_legalized = "warl-legalized";  // WARL field stored a legal value, not the one written
inline constexpr std::string_view reserved_event = "reserved-event";  // event number not implemented: counts nothing
inline constexpr std::string_view no_effect = "no-effect";          // write to read-only or RAZ/WI bits ignored
inline constexpr std::string_view w1c_side_effect = "w1c-side-effect";  // read-modify-write cleared a set W1C flag
inline constexpr std::string_view impl_defined = "implementation-defined";  // IMPLEMENTATION DEFINED choice applied
inline constexpr std::string_view irq = "irq";  // the access raised the interrupt request (a PMSWINC overflow, say)
inline constexpr std::string_view fiq = "fiq";  // the access raised the FIQ request (ARM1156)
}  // namespace diag

struct Diagnostic {
    Severity severity = Severity::info;
    std::string code;
    std::string message;
};

}  // namespace pmusim
