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
const std::vector<uint32_t>& cortex_a7_impdef_events();

}  // namespace pmusim
