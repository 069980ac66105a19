// The report of a replay: table, CSV or JSON (docs/cli.md). Printing is kept apart from the engine.
#pragma once
#include <iosfwd>

#include "replay/replay.hpp"

namespace pmusim::replay {

void print(const Options& o, const Platform& p, const Result& r, std::ostream& out);

}  // namespace pmusim::replay
