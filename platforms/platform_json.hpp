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
// A platform from a file. Throws PlatformFileError (a file that cannot be read included).
Platform load_platform_file(const std::string& path);

}  // namespace pmusim
