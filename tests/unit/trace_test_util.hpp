// Helpers shared by the trace and replay tests: a temporary file, every record of a trace, a replay's result.
#pragma once
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "replay/replay.hpp"
#include "traces/reader.hpp"

namespace pmusim::testutil {

inline std::string temp_file(const std::string& name, const std::string& content) {
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
}

inline std::vector<trace::TraceRecord> read_all(const std::string& path, const std::string& format = "auto",
                                                trace::ReaderOptions o = {}) {
    auto r = trace::open_reader(path, format, o);
    std::vector<trace::TraceRecord> v;
    trace::TraceRecord rec;
    while (r->next(rec)) v.push_back(rec);
    return v;
}

inline replay::Result replay_of(const std::string& path, const std::string& platform = "veer-el2",
                                replay::Timing timing = replay::Timing::model, const PlatformOptions& options = {}) {
    replay::Options o;
    o.platform = platform;
    o.platform_options = options;
    o.trace = path;
    o.timing = timing;
    return replay::run(o);
}

inline uint64_t event_count(const replay::Result& r, uint32_t n) {
    for (const auto& [e, c] : r.event_totals)
        if (e == n) return c;
    ADD_FAILURE() << "event " << n << " not in the result";
    return 0;
}

}  // namespace pmusim::testutil
