// The report of a replay: table, CSV or JSON (docs/cli.md). Printing is kept apart from the engine.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <vector>

#include <nlohmann/json.hpp>

#include "replay/replay.hpp"
#include "testbench/plot.hpp"

namespace pmusim::replay {

// The time series of a replay (--interval, --plot), collected from Options::on_interval. With a cap, at most
// `cap` points are kept: when full, every other point goes and only every second later point is taken (a plot
// of a long trace); the last point, the trace's totals, is always kept.
class Series {
public:
    explicit Series(size_t cap = 0) : cap_(cap) {}
    void add(const IntervalPoint& p);
    const std::vector<IntervalPoint>& points() const { return points_; }

private:
    size_t cap_;
    uint64_t stride_ = 1, calls_ = 0;
    std::vector<IntervalPoint> points_;
    bool last_taken_ = true;
};

// The report; with a series, the time series too (CSV: the series alone, one row a point).
void print(const Options& o, const Platform& p, const Result& r, std::ostream& out, const Series* series = nullptr);

// The plot of a series: one panel per counter, one per event in `events` (its count so far) and the interrupt
// request, over instructions or cycles.
plot::Figure figure(const Platform& p, const std::string& trace, const Series& series, bool over_cycles,
                    const std::vector<uint32_t>& events);
// The JSON object of --output json (and of each line of --manifest).
nlohmann::json report_json(const Options& o, const Platform& p, const Result& r);

}  // namespace pmusim::replay
