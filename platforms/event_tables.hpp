// Event tables: number, name and description of every event an architecture defines.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace pmusim {

struct EventInfo {
    uint32_t number = 0;
    std::string name;
    std::string description;
};

const std::vector<EventInfo>& armv8_common_events();
const std::vector<EventInfo>& armv7_events();

// ARM11 events with the cores that implement each (AN195 Table 2: all, 1176 only, 1156 only, unused on 1156).
struct Arm11Event {
    enum Core : unsigned { arm1136 = 1, arm1156 = 2, arm1176 = 4 };
    EventInfo info;
    unsigned cores = 0;
};
const std::vector<Arm11Event>& arm11_events();
const std::vector<EventInfo>& arm11_event_names();
const std::vector<EventInfo>& veer_events();
const std::vector<uint32_t>& cortex_a7_impdef_events();

}  // namespace pmusim
