// libFuzzer target: the script runner (docs/script.md) on arbitrary text, on a platform picked by the first byte.
// A script may be malformed (exit 2) or fail an expectation (exit 1); a crash, a sanitizer report, an exception
// escaping run_text, a hang (libFuzzer's -timeout) or unbounded memory (-rss_limit_mb) is a bug.
#include <cstdint>
#include <sstream>
#include <string_view>

#include "platforms/platform.hpp"
#include "testbench/script_runner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    static const auto& platforms = pmusim::all_platforms();
    pmusim::ScriptConfig cfg;
    cfg.default_platform = platforms[data[0] % platforms.size()].name;
    cfg.quiet = true;
    std::ostringstream out, err;
    pmusim::ScriptRunner runner(cfg, out, err);
    runner.run_text(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1), "fuzz.pmus");
    return 0;
}
