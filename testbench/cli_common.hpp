// What the `pmusim` subcommands share: option parsing (Boost.ProgramOptions); the rest is in platform_args.hpp.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "testbench/platform_args.hpp"

namespace pmusim::cli {

namespace po = boost::program_options;

struct Parsed {
    po::variables_map vm;
    bool help = false;
};

// Parses a subcommand's options; prints help or the error. Returns false when the caller should exit.
// An option whose value is one of a few words: the one list its check, its --help ("values:") and the bash
// completion (scripts/pmusim-completion.bash) read.
struct Choice {
    std::string option;  // without the dashes
    std::vector<std::string> values;
};
// Whether `value` is one of `c`'s words; else false with "pmusim: --OPTION expects a, b or c, got 'value'".
bool check_choice(const Choice& c, const std::string& value, std::ostream& err);

bool parse(const std::vector<std::string>& args, po::options_description& desc, po::positional_options_description* pos,
           Parsed& p, std::ostream& out, std::ostream& err, const std::string& usage, int& status,
           const std::vector<Choice>* choices = nullptr);
// --platform NAME and, beside it, --platform-file FILE (a platform in JSON: docs/platform-files.md).
void add_platform_options(po::options_description& desc, std::string& name, std::string& file);

// The process's command line as main() received it (null-terminated): what systemc_exec.cpp passes on.
void set_command_line(char** argv);
char** command_line();

// --vcd-period CYCLES, bound to `period` (default wave::default_sample_period), for the commands that write a VCD.
void add_vcd_period_option(po::options_description& desc, uint64_t& period);
// False with a message when the period is 0.
bool check_vcd_period(uint64_t period, std::ostream& err);

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

// Out of memory is reported, never an abort: keeps a reserve that the first failed allocation frees before it throws
// std::bad_alloc, so that the destructors that run while it unwinds (which allocate too) can. Once, in main().
void keep_memory_reserve();

}  // namespace pmusim::cli
