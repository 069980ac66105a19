// Which of a platform's events a replay can produce (`pmusim events`' MODELLED column, the report's "not modelled"):
// from the platform's data alone, so that the command and the web page answer alike.
#pragma once
#include <vector>

#include "platforms/platform.hpp"

namespace pmusim {

// Event numbers (indexed 0-65535) a replay on platform p can produce: what its instructions' retirement signals,
// the cycle event and its timing model's events; the cache and bus events only `with_addresses` (the trace
// carries data addresses).
// `with_model`: false when the timing model does not run (replay::Options::timing_events off).
// `with_interrupts`: the trace shows the interrupts taken (trace::TraceReader::shows_interrupts).
std::vector<bool> producible_events(const Platform& p, bool with_addresses, bool with_model = true, bool with_interrupts = false);

}  // namespace pmusim
