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
    // Builds a PMU; throws std::invalid_argument naming a bad option or value.
    std::function<std::unique_ptr<Pmu>(const PlatformOptions&)> make;
    // Every event number the architecture names (for `event NAME`), and which the platform implements.
    std::function<const std::vector<EventInfo>&()> event_names;
    std::function<bool(const Pmu&, uint32_t)> implements;
};

const std::vector<Platform>& all_platforms();
const Platform* find_platform(std::string_view name);
// Event by number or name (case-insensitive) among the platform's architecture events.
std::optional<EventInfo> find_event(const Platform& p, std::string_view text);
// The event a perf user means on this platform (pmusim run -e; docs/cli.md "Choosing events"): an event name
// (case-insensitive, also in the Linux kernel's sysfs form PMU/name/ or PMU/event=0xNN/), `rNN` (raw, hex),
// `0xNN` or a decimal number, or a generic alias (cycles, instructions, branches, branch-misses,
// cache-references, cache-misses) mapped per PMU family. Throws std::invalid_argument naming the text.
EventInfo parse_event_spec(const Platform& p, std::string_view text);

}  // namespace pmusim
