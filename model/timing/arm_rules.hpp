// The ARM cores' issue and result rules as a set (ArmRules): the per-instruction step's kernel is compiled with one
// (step.cpp, step_issue.hpp: the template parameter kArm) and leaves out every rule not in it. Each rule with the
// parameters that turn it on (visit_arm_rules): the model takes the smallest kernel whose set holds every rule its
// parameters turn on, once when it is built (TimingModel::arm_kernel), never per instruction.
#pragma once
#include <cstdint>

#include "model/timing/timing_params.hpp"

namespace pmusim::timing {

using ArmRules = uint32_t;  // a set of ArmRule bits

enum ArmRule : ArmRules {
    rule_dual_issue = 1u << 0,       // pairing (dual_issue, its refinements single_shift_register, extract_second_slot)
    rule_early_address = 1u << 1,    // address registers needed early (early_address, address_latency)
    rule_shifted_early = 1u << 2,    // shifted operands needed early (shifted_operand_early, extend_in_shifter)
    rule_mul_early = 1u << 3,        // a multiply's operands needed early (mul_operand_early)
    rule_multiple_cycles = 1u << 4,  // a multiple's memory cycles (load/store_multiple_bytes, multiple_last_slot)
    rule_shift_register = 1u << 5,   // a shift by a register over two cycles (shift_register_extra)
    rule_mul_cycles = 1u << 6,       // multiplies' cycles (short_mul_latency, long_mul_extra, mul_hi_latency, ...)
    rule_offset_shift = 1u << 7,     // a load's shifted register offset (offset_shift_extra)
    rule_late_store = 1u << 8,       // a store's data needed late (late_store_data)
    rule_write_lock = 1u << 9,       // a store multiple's registers locked (multiple_write_lock)
    rule_holds_lsu = 1u << 10,       // a multiple holds the load/store unit (multiple_holds_lsu)
    rule_load_pc = 1u << 11,         // a load multiple of the PC (load_pc_latency_extra)
    rule_flag_window = 1u << 12,     // a mispredicted branch near its flags (mispredict_flag_window)
    rule_taken_bubble = 1u << 13,    // a taken branch's fetch bubble (taken_extra)
};

// Whether the set holds the rule (a constant in a kernel, whose set is its template parameter).
constexpr bool has_rule(ArmRules set, ArmRule r) { return (set & r) != 0; }

// The kernels' sets. None: VeeR EL2 (no ARM rule). Cortex-A53 and Cortex-A7 (platforms/timing_params.cpp): dual
// issue, early addresses and shifted operands, multiples over their memory cycles and the taken-branch bubble. All:
// ARM11, Cortex-A8 and any core that turns on a rule the Cortex set lacks.
constexpr ArmRules arm_rules_none = 0;
constexpr ArmRules arm_rules_cortex =
    rule_dual_issue | rule_early_address | rule_shifted_early | rule_multiple_cycles | rule_taken_bubble;
constexpr ArmRules arm_rules_all = (rule_taken_bubble << 1) - 1;

// Every ArmRuleParams member with the rule it turns on: `v(rule, member)`. A member left out turns no rule on, and
// a kernel might lack its rule: tests/unit/test_timing.cpp (ArmRules.EachParameterTurnsItsRuleOn) sets each
// member alone and asks for its rule.
template <class V>
void visit_arm_rules(V&& v) {
    using A = ArmRuleParams;
    v(rule_early_address, &A::address_latency);
    v(rule_early_address, &A::early_address);
    v(rule_late_store, &A::late_store_data);
    v(rule_dual_issue, &A::dual_issue);
    v(rule_shifted_early, &A::shifted_operand_early);
    v(rule_shifted_early, &A::extend_in_shifter);
    v(rule_dual_issue, &A::single_shift_register);
    v(rule_shift_register, &A::shift_register_extra);
    v(rule_dual_issue, &A::extract_second_slot);
    v(rule_mul_early, &A::mul_operand_early);
    v(rule_mul_cycles, &A::short_mul_latency);
    v(rule_mul_cycles, &A::long_mul_extra);
    v(rule_mul_cycles, &A::mul_hi_latency);
    v(rule_mul_cycles, &A::mul_flags_extra);
    v(rule_offset_shift, &A::offset_shift_extra);
    v(rule_multiple_cycles, &A::load_multiple_bytes);
    v(rule_multiple_cycles, &A::store_multiple_bytes);
    v(rule_multiple_cycles, &A::multiple_last_slot);
    v(rule_holds_lsu, &A::multiple_holds_lsu);
    v(rule_write_lock, &A::multiple_write_lock);
    v(rule_load_pc, &A::load_pc_latency_extra);
    v(rule_flag_window, &A::mispredict_flag_window);
    v(rule_taken_bubble, &A::taken_extra);
}

// The rules p turns on: those of every member off its default.
inline ArmRules arm_rules_used(const ArmRuleParams& p) {
    const ArmRuleParams off{};
    ArmRules used = 0;
    visit_arm_rules([&](ArmRule r, auto m) {
        if (p.*m != off.*m) used |= r;
    });
    return used;
}

}  // namespace pmusim::timing
