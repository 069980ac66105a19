// What the `pmusim` subcommands share: option parsing, platform look-up, register text.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json_fwd.hpp>

#include "model/core/pmu.hpp"
#include "platforms/platform.hpp"

namespace pmusim::cli {

namespace po = boost::program_options;

// Exit status for command-line misuse (bad option, unknown platform or register).
constexpr int usage_error = 2;

struct Parsed {
    po::variables_map vm;
    bool help = false;
};

// Parses a subcommand's options; prints help or the error. Returns false when the caller should exit.
bool parse(const std::vector<std::string>& args, po::options_description& desc, po::positional_options_description* pos,
           Parsed& p, std::ostream& out, std::ostream& err, const std::string& usage, int& status);
// KEY=VALUE platform options (-o); false (with a message) for a malformed one.
bool parse_options(const std::vector<std::string>& kvs, PlatformOptions& opts, std::ostream& err);
// --platform NAME and, beside it, --platform-file FILE (a platform in JSON: docs/platform-files.md).
void add_platform_options(po::options_description& desc, std::string& name, std::string& file);
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

// The process's command line as main() received it (null-terminated): what systemc_exec.cpp passes on.
void set_command_line(char** argv);
char** command_line();

// --vcd-period CYCLES, bound to `period` (default wave::default_sample_period), for the commands that write a VCD.
void add_vcd_period_option(po::options_description& desc, uint64_t& period);
// False with a message when the period is 0.
bool check_vcd_period(uint64_t period, std::ostream& err);

// "a,b,c" -> {"a", "b", "c"}; empty -> {}.
std::vector<std::string> split_list(const std::string& s);

std::string encoding_text(const Register& r);
std::string offsets_text(const Register& r);
std::string bits_text(const Field& f);
std::string hexw(uint64_t v, unsigned width);

// Option values that must be checked, not wrapped: boost's plain uint64_t reads "-1" as 2^64-1 and a double
// takes "nan". Use po::value<Count>/<Positive> for counts, periods and rates (ADL finds the validators).
struct Count {  // a whole number 0..2^64-1 (decimal, 0x hex, 0b binary); never negative
    uint64_t value = 0;
};
struct Positive {  // a finite number > 0
    double value = 1;
};
void validate(boost::any& v, const std::vector<std::string>& values, Count*, int);
void validate(boost::any& v, const std::vector<std::string>& values, Positive*, int);
std::ostream& operator<<(std::ostream& o, const Count& c);
std::ostream& operator<<(std::ostream& o, const Positive& p);

// JSON text for every command's --json/--output json: indented, and bytes that are not UTF-8 (a path, a skipped
// trace line) replaced by U+FFFD instead of aborting the dump (nlohmann type_error 316).
std::string json_text(const nlohmann::json& j);

// Out of memory is reported, never an abort: keeps a reserve that the first failed allocation frees before it throws
// std::bad_alloc, so that the destructors that run while it unwinds (which allocate too) can. Once, in main().
void keep_memory_reserve();

}  // namespace pmusim::cli
