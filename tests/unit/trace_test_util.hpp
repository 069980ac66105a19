// Helpers shared by the trace and replay tests: a temporary file, every record of a trace, a replay's result.
#pragma once
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "replay/replay.hpp"
#include "traces/native.hpp"
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

// A native version-2 file past the reader's first buffer (128 KiB), for the errors met there: 5000 times a run of
// three `addi x5, x0, 0` at 0x100 (shape 0: a register write each, so an execution is the u32 tag, the u32 line and
// three u32 values, 20 bytes; the values k + i where `values_vary`, else 0), then a run of one `lw x6, 0(x7)` at
// 0x200 loading 0x1000 + 4 k (shape 1: tag, line, address; 12 bytes). The shapes are defined before their first
// executions (12 + 3 x (32 + 16) and 12 + 32 + 24 bytes), so the file is 16 + 156 + 68 + 5000 x 32 bytes and the
// tag of pair k's load (k >= 1) is at runs_load_tag(k). Returns the file's bytes.
inline size_t runs_load_tag(size_t k) { return 16 + 156 + 20 + 68 + 12 + 32 * (k - 1) + 20; }

inline std::string write_runs_past_first_buffer(const std::string& path, bool values_vary) {
    {
        auto w = trace::make_native_writer(path, false);
        uint64_t line = 1;
        for (uint32_t k = 0; k < 5000; ++k) {
            for (uint32_t i = 0; i < 3; ++i) {
                trace::TraceRecord r;
                r.pc = 0x100 + 4 * i;
                r.encoding = 0x00000293;  // addi x5, x0, 0
                r.isa = trace::IsaState::rv32;
                r.line = line++;
                r.add_reg(trace::RegKind::gpr, 5, values_vary ? k + i : 0);
                w->write(r);
            }
            trace::TraceRecord r;
            r.pc = 0x200;
            r.encoding = 0x0003A303;  // lw x6, 0(x7)
            r.isa = trace::IsaState::rv32;
            r.line = line++;
            r.n_mem = 1;
            r.mem[0] = trace::MemAccess{0x1000 + 4 * uint64_t{k}, 0, 4, false, false};
            w->write(r);
        }
        w->finish();
    }
    std::ifstream in(path, std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(all.size(), 16u + 156u + 68u + 5000u * 32u);
    EXPECT_EQ(all.substr(runs_load_tag(4000), 4), std::string("\x01\0\0\0", 4));
    return all;
}

}  // namespace pmusim::testutil
