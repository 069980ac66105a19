// What the `pmusim` subcommands share that needs no option parser: platform look-up, platform options and the
// text of registers. The web page (web/, issue 43) builds these without Boost.ProgramOptions.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/core/pmu.hpp"
#include "platforms/platform.hpp"

namespace pmusim::cli {

// Exit status for command-line misuse (bad option, unknown platform or register).
constexpr int usage_error = 2;

// KEY=VALUE platform options (-o); false (with a message) for a malformed one.
bool parse_options(const std::vector<std::string>& kvs, PlatformOptions& opts, std::ostream& err);
// Loads --platform-file, whose platform find_platform then finds by its name (`name` takes it), or checks that
// --platform was given when `required`. False with a message naming the file and the key that is wrong.
bool resolve_platform(std::string& name, const std::string& file, bool required, std::ostream& err);
// The platform by name, or nullptr with a message listing the known ones.
const Platform* need_platform(const std::string& name, std::ostream& err);
// The platform a command names (--platform or --platform-file, required) with its -o options parsed into
// `opts`; nullptr after a message when any of it is wrong.
const Platform* platform_from_args(std::string& name, const std::string& file, const std::vector<std::string>& kvs,
                                   PlatformOptions& opts, std::ostream& err);
// The platform's PMU built with its options, or nullptr with a message.
std::unique_ptr<Pmu> make_pmu(const Platform& p, const PlatformOptions& opts, std::ostream& err);

// "a,b,c" -> {"a", "b", "c"}; empty -> {}.
std::vector<std::string> split_list(const std::string& s);

std::string encoding_text(const Register& r);
std::string offsets_text(const Register& r);
std::string bits_text(const Field& f);
std::string hexw(uint64_t v, unsigned width);
// "read/write", "read-only", "write-only" or "UNDEFINED".
std::string register_access_text(const Register& r);
// A field's value in the register's reset state, shifted down to bit 0.
uint64_t field_reset(const Register& r, const Field& f);

// JSON text for every command's --json/--output json: indented, and bytes that are not UTF-8 (a path, a skipped
// trace line) replaced by U+FFFD instead of aborting the dump (nlohmann type_error 316).
std::string json_text(const nlohmann::json& j);

}  // namespace pmusim::cli
