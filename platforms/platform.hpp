// Named cores: the data that builds a PMU (counter count, IDs, reset values, event table, options for
// IMPLEMENTATION DEFINED choices). Platforms are data; the models hold the behaviour.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/insn_class.hpp"
#include "model/core/pmu.hpp"
#include "model/pmu/arm11_pmu.hpp"
#include "model/pmu/arm_pmu.hpp"
#include "model/pmu/veer_pmu.hpp"
#include "model/timing/timing_model.hpp"
#include "platforms/event_tables.hpp"

namespace pmusim {

enum class IsaKind { a64, a32, rv32 };

// key=value options that select IMPLEMENTATION DEFINED or CONSTRAINED UNPREDICTABLE behaviours.
using PlatformOptions = std::map<std::string, std::string, std::less<>>;

struct OptionInfo {
    std::string key;
    std::string values;       // e.g. "undefined|raz-wi"
    std::string default_value;
    std::string description;
};

struct Platform {
    std::string name;
    std::string family;       // PMU family: armv8-pmuv3, armv7-cp15, arm11-pmnc, veer-el2
    std::string pmu;          // PMU version, e.g. PMUv3
    unsigned counters = 0;    // event counters (the cycle counter is extra)
    std::string description;
    std::string source;       // where the platform's figures come from
    IsaKind isa = IsaKind::a64;
    std::vector<OptionInfo> options;
    bool riscv = false;               // privilege is `priv M|U`, not `el N`
    uint32_t cycle_event = 0;         // the event that counts every cycle (CPU_CYCLES, 0xFF, VeeR 1)
    bool events_before_write = false;  // an instruction's own events are counted before its write (VeeR EL2)
    // Programs counters to count `events` (pmusim run --events): counter i gets events[i], for as many as the core
    // has counters; returns how many it programmed (the rest are the caller's to report).
    std::function<size_t(Pmu&, const std::vector<uint32_t>&)> program_counters;
    // Adds the events `count` retired instructions of one class signal.
    std::function<void(const isa::RetiredInsn&, uint64_t count, EventBatch&)> retire;
    // Adds the events an interrupt taken signals (`cause`: its exception code; trace::TraceRecord::unknown_cause
    // where the trace does not tell). Empty: the platform counts none.
    std::function<void(unsigned cause, EventBatch&)> interrupt;
    // Adds the events a halt the program requests signals (VeeR EL2: an mpmc write entering pmu/fw-halt).
    std::function<void(EventBatch&)> fw_halt;
    // Builds a PMU; throws std::invalid_argument naming a bad option or value.
    std::function<std::unique_ptr<Pmu>(const PlatformOptions&)> make;
    // Every event number the architecture names (for `event NAME`), and which the platform implements.
    std::function<const std::vector<EventInfo>&()> event_names;
    std::function<bool(const Pmu&, uint32_t)> implements;
    // The figures the PMU is built from, by family: what `pmusim platforms --dump` prints and a platform file
    // sets (platform_json.hpp). Options given to make() apply on top of them.
    ArmPmuConfig arm;    // armv8-pmuv3, armv7-cp15
    Arm11Config arm11;   // arm11-pmnc
    VeerConfig veer;     // veer-el2
    std::optional<timing::TimingParams> timing;  // the timing model's parameters; none: one cycle per instruction
};

const std::vector<Platform>& all_platforms();
// A platform by name: those added with add_platform first (the newest first), then the built-in ones.
const Platform* find_platform(std::string_view name);
// Adds a platform (one read from a file, say) for find_platform; the reference stays valid.
const Platform& add_platform(Platform p);

// Builders from figures, shared by the built-in list and platform files. The event table is the family's
// architecture table until the caller replaces event_names.
struct PlatformText {
    std::string name, description, source;
};
Platform make_arm_platform(PlatformText text, const ArmPmuConfig& cfg, bool v8);
Platform make_arm11_platform(PlatformText text, const Arm11Config& cfg);
Platform make_veer_platform(PlatformText text, const VeerConfig& cfg);
// The family's -o options applied to figures; throw std::invalid_argument naming a bad option or value.
ArmPmuConfig apply_arm_options(ArmPmuConfig cfg, const PlatformOptions& opts, bool v8);
Arm11Config apply_arm11_options(Arm11Config cfg, const PlatformOptions& opts);
VeerConfig apply_veer_options(VeerConfig cfg, const PlatformOptions& opts);
// The values of a platform's behavioural options (unpredictable, user-access, ...), as -o would set them.
PlatformOptions option_values(const Platform& p);
// The timing model's parameters for a replay on `p` with the -o options `opts` (none without a timing model): the
// platform's, with the start state the options choose (ARM11: start-state, the predictor on or off).
std::optional<timing::TimingParams> replay_timing(const Platform& p, const PlatformOptions& opts);
// Event by number or name (case-insensitive) among the platform's architecture events.
std::optional<EventInfo> find_event(const Platform& p, std::string_view text);
// The event a perf user means on this platform (pmusim run -e; docs/cli.md "Choosing events"): an event name
// (case-insensitive, also in the Linux kernel's sysfs form PMU/name/ or PMU/event=0xNN/), `rNN` (raw, hex),
// `0xNN` or a decimal number, or a generic alias (cycles, instructions, branches, branch-misses,
// cache-references, cache-misses) mapped per PMU family. Throws std::invalid_argument naming the text.
EventInfo parse_event_spec(const Platform& p, std::string_view text);
// perf's generic event names parse_event_spec accepts, in perf list's order (cpu-cycles and
// branch-instructions are perf's other names of cycles and branches).
const std::vector<std::string>& generic_event_aliases();
// The event a generic alias stands for on this platform, or nullopt with the reason in `why` (empty when the
// text is not an alias).
std::optional<EventInfo> generic_event_info(const Platform& p, const std::string& alias, std::string& why);

}  // namespace pmusim
