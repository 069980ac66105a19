// Platforms as data: a platform in JSON (docs/platform-files.md). `pmusim platforms --dump NAME` prints one,
// `--platform-file FILE` reads one; the built-in platforms are the same data. Plain C++ for the library, the C API
// and the Python module.
#pragma once
#include <stdexcept>
#include <string>

#include "platforms/platform.hpp"

namespace pmusim {

// A bad platform file or text: what() names the file (and line, for malformed JSON) and the key that is wrong.
class PlatformFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The platform as JSON text (2-space indented, keys in a fixed order, a final newline).
std::string dump_platform(const Platform& p);
// A platform from JSON text; `origin` names it in messages (a file name). Throws PlatformFileError.
Platform parse_platform(const std::string& text, const std::string& origin);
// The longest platform file read (a dump is about 20 KiB): a longer file, or a device that never ends, is refused.
constexpr size_t max_platform_file = size_t{4} << 20;
// A platform from a file. Throws PlatformFileError (a file that cannot be read included).
Platform load_platform_file(const std::string& path);
// Checks timing parameters as a whole: every relation docs/platform-files.md ("Valid ranges") states (powers of
// two, size = sets x ways x line, TLB sets, bus beats). The ranges of single values and the events are checked as
// a platform file is read. Throws PlatformFileError naming `origin`, the key and the rule.
void check_timing(const timing::TimingParams& t, const std::string& origin);

}  // namespace pmusim
