#include "testbench/cli_common.hpp"

#include <cmath>
#include <cstdlib>
#include <ostream>

#include <fmt/format.h>

#include "isa/number.hpp"
#include "traces/message.hpp"

namespace pmusim::cli {

bool parse(const std::vector<std::string>& args, po::options_description& desc, po::positional_options_description* pos,
           Parsed& p, std::ostream& out, std::ostream& err, const std::string& usage, int& status) {
    desc.add_options()("help,h", "show this help");
    try {
        po::command_line_parser parser(args);
        parser.options(desc);
        if (pos) parser.positional(*pos);
        po::store(parser.run(), p.vm);
        if (p.vm.count("help")) {
            out << usage << "\n\n" << desc << "\n";
            status = 0;
            return false;
        }
        po::notify(p.vm);
    } catch (const po::error& e) {
        err << "pmusim: " << printable(e.what()) << "\n" << usage << "\n";
        status = usage_error;
        return false;
    }
    return true;
}

void add_platform_options(po::options_description& desc, std::string& name, std::string& file) {
    desc.add_options()("platform,p", po::value<std::string>(&name), "platform name (see `pmusim platforms`)")(
        "platform-file", po::value<std::string>(&file),
        "platform description in JSON (`pmusim platforms --dump NAME` writes one); instead of --platform");
}

void validate(boost::any& v, const std::vector<std::string>& values, Count*, int) {
    const std::string& s = po::validators::get_single_string(values);
    const auto n = s.empty() || s[0] == '-' ? std::nullopt : isa::parse_number(s);
    if (!n) throw po::invalid_option_value(s);  // names the option and the value
    v = Count{*n};
}

void validate(boost::any& v, const std::vector<std::string>& values, Positive*, int) {
    const std::string& s = po::validators::get_single_string(values);
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(d) || d <= 0) throw po::invalid_option_value(s);
    v = Positive{d};
}

std::ostream& operator<<(std::ostream& o, const Count& c) { return o << c.value; }
std::ostream& operator<<(std::ostream& o, const Positive& p) { return o << p.value; }

namespace {
char** saved_command_line = nullptr;
}  // namespace

void set_command_line(char** argv) { saved_command_line = argv; }
char** command_line() { return saved_command_line; }

}  // namespace pmusim::cli
