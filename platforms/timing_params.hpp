// Timing-model parameters per named core: data with their source (docs/accuracy.md).
#pragma once
#include <optional>
#include <string_view>

#include "model/timing/timing_model.hpp"

namespace pmusim {

std::optional<timing::TimingParams> platform_timing(std::string_view name);

}  // namespace pmusim
