#include "testbench/cli_common.hpp"

#include <cmath>
#include <cstdlib>
#include <new>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isa/a64_sysreg.hpp"
#include "isa/number.hpp"
#include "platforms/platform_json.hpp"
#include "testbench/waveform.hpp"
#include "traces/message.hpp"

namespace pmusim::cli {

bool parse(const std::vector<std::string>& args, po::options_description& desc, po::positional_options_description* pos,
           Parsed& p, std::ostream& out, std::ostream& err, const std::string& usage, int& status) {
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

bool parse_options(const std::vector<std::string>& kvs, PlatformOptions& opts, std::ostream& err) {
    for (const auto& kv : kvs) {
        const size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) {
            err << fmt::format("pmusim: --option expects KEY=VALUE, got '{}'\n", kv);
            return false;
        }
        opts[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return true;
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

bool resolve_platform(std::string& name, const std::string& file, bool required, std::ostream& err) {
    if (!file.empty()) {
        if (!name.empty()) {
            err << "pmusim: give --platform or --platform-file, not both\n";
            return false;
        }
        try {
            name = add_platform(load_platform_file(file)).name;
        } catch (const PlatformFileError& e) {
            err << "pmusim: " << e.what() << "\n";
            return false;
        }
        return true;
    }
    if (required && name.empty()) {
        err << "pmusim: the option '--platform' is required (or --platform-file FILE)\n";
        return false;
    }
    return true;
}

const Platform* need_platform(const std::string& name, std::ostream& err) {
    const Platform* p = find_platform(name);
    if (!p) {
        std::string known;
        for (const auto& q : all_platforms()) known += (known.empty() ? "" : ", ") + q.name;
        err << fmt::format("pmusim: unknown platform '{}' (expected one of: {})\n", name, known);
    }
    return p;
}

const Platform* platform_from_args(std::string& name, const std::string& file, const std::vector<std::string>& kvs,
                                   PlatformOptions& opts, std::ostream& err) {
    if (!parse_options(kvs, opts, err)) return nullptr;
    if (!resolve_platform(name, file, true, err)) return nullptr;
    return need_platform(name, err);
}

std::unique_ptr<Pmu> make_pmu(const Platform& p, const PlatformOptions& opts, std::ostream& err) {
    try {
        return p.make(opts);
    } catch (const std::invalid_argument& e) {
        err << fmt::format("pmusim: platform {}: {}\n", p.name, e.what());
        return nullptr;
    }
}

std::string encoding_text(const Register& r) {
    std::string s;
    for (const auto& [space, key] : r.encodings) {
        if (!s.empty()) s += "; ";
        if (space == EncodingSpace::a64_sysreg) s += isa::a64::generic_name(key);
        else if (space == EncodingSpace::cp15)
            s += fmt::format("p15, {}, c{}, c{}, {}", key >> 11, (key >> 7) & 15u, (key >> 3) & 15u, key & 7u);
        else s += fmt::format("CSR {:#05x}", key);
    }
    return s.empty() ? "-" : s;
}

std::string offsets_text(const Register& r) {
    std::string s;
    for (const auto& [off, shift] : r.offsets) s += fmt::format("{}{:#05x}", s.empty() ? "" : ",", off);
    return s.empty() ? "-" : s;
}

std::string bits_text(const Field& f) {
    return f.width == 1 ? fmt::format("[{}]", f.lsb) : fmt::format("[{}:{}]", f.msb(), f.lsb);
}

std::string hexw(uint64_t v, unsigned width) { return fmt::format("{:#0{}x}", v, width / 4 + 2); }

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

std::string json_text(const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::vector<std::string> split_list(const std::string& s) {
    std::vector<std::string> v;
    for (size_t start = 0; !s.empty() && start <= s.size();) {
        const size_t comma = s.find(',', start);
        v.push_back(s.substr(start, comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return v;
}

namespace {
char** saved_command_line = nullptr;
}  // namespace

void set_command_line(char** argv) { saved_command_line = argv; }
char** command_line() { return saved_command_line; }

}  // namespace pmusim::cli
