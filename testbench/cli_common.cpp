#include "testbench/cli_common.hpp"

#include <cmath>
#include <cstdlib>
#include <new>
#include <ostream>

#include <fmt/format.h>

#include "isa/number.hpp"
#include "testbench/waveform.hpp"
#include "traces/message.hpp"

namespace pmusim::cli {

bool parse(const std::vector<std::string>& args, po::options_description& desc, po::positional_options_description* pos,
           Parsed& p, std::ostream& out, std::ostream& err, const std::string& usage, int& status,
           const std::vector<Choice>* choices) {
    desc.add_options()("help,h", "show this help");
    try {
        po::command_line_parser parser(args);
        parser.options(desc);
        // A command without operands still parses against an empty list of them: an operand it does not take is
        // an error ("too many positional options"), never ignored.
        const po::positional_options_description none;
        parser.positional(pos ? *pos : none);
        po::store(parser.run(), p.vm);
        if (p.vm.count("help")) {
            out << usage << "\n\n" << desc << "\n";
            if (choices && !choices->empty()) {  // read by the bash completion: one option a line, its words
                out << "values:\n";
                for (const Choice& c : *choices) {
                    out << "  --" << c.option << ":";
                    for (const auto& v : c.values) out << " " << v;
                    out << "\n";
                }
                out << "\n";
            }
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

bool check_choice(const Choice& c, const std::string& value, std::ostream& err) {
    for (const auto& v : c.values)
        if (v == value) return true;
    std::string words;
    for (size_t i = 0; i < c.values.size(); ++i)
        words += (i == 0 ? "" : i + 1 == c.values.size() ? " or " : ", ") + c.values[i];
    err << fmt::format("pmusim: --{} expects {}, got '{}'\n", c.option, words, printable(value));
    return false;
}

void add_platform_options(po::options_description& desc, std::string& name, std::string& file) {
    desc.add_options()("platform,p", po::value<std::string>(&name), "platform name (see `pmusim platforms`)")(
        "platform-file", po::value<std::string>(&file),
        "platform description in JSON (`pmusim platforms --dump NAME` writes one); instead of --platform");
}

void add_vcd_period_option(po::options_description& desc, uint64_t& period) {
    desc.add_options()("vcd-period", po::value<uint64_t>(&period)->default_value(wave::default_sample_period),
                       "cycles between counter samples in the VCD: a running counter changes at least this often");
}

bool check_vcd_period(uint64_t period, std::ostream& err) {
    if (period != 0) return true;
    err << "pmusim: --vcd-period must be at least 1 cycle\n";
    return false;
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

// Out of memory, reported and never an abort: destructors that run while a std::bad_alloc unwinds allocate too
// (nlohmann::json frees a nested value through a std::vector it allocates, in a noexcept destructor, so a second
// failure there would end the process by std::terminate). The first failed allocation frees this reserve and
// throws std::bad_alloc, so the unwinding has the reserve's memory to run in; main() reports "out of memory".
constexpr size_t emergency_reserve_bytes = size_t{8} << 20;  // address space (RLIMIT_AS): not touched
char* emergency_reserve = nullptr;

void out_of_memory() {
    if (!emergency_reserve) throw std::bad_alloc();
    std::free(emergency_reserve);
    emergency_reserve = nullptr;
    throw std::bad_alloc();
}

}  // namespace

void keep_memory_reserve() {
    emergency_reserve = static_cast<char*>(std::malloc(emergency_reserve_bytes));
    std::set_new_handler(out_of_memory);
}

namespace {
char** saved_command_line = nullptr;
}  // namespace

void set_command_line(char** argv) { saved_command_line = argv; }
char** command_line() { return saved_command_line; }

}  // namespace pmusim::cli
