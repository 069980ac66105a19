// libFuzzer target: platform files (docs/platform-files.md), JSON with a timing section. A file that reads is
// checked as a whole (platform_json.cpp): its PMU is built, its timing model made and its producible events listed
// (where a bad cache geometry, TLB, predictor size or event number would crash), and it is dumped and read back.
// A PlatformFileError is the expected answer to bad input; a crash, a sanitizer report or another exception is a bug.
#include <cstdint>
#include <string>

#include "platforms/platform_json.hpp"
#include "replay/replay.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    pmusim::Platform p;
    try {
        p = pmusim::parse_platform(text, "fuzz.json");
    } catch (const pmusim::PlatformFileError&) {
        return 0;
    }
    (void)p.make({});
    if (p.timing) (void)pmusim::timing::TimingModel(*p.timing);
    (void)pmusim::replay::producible_events(p, true);
    (void)pmusim::parse_platform(pmusim::dump_platform(p), "dump of fuzz.json");  // must read back
    return 0;
}
