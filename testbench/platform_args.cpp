#include "testbench/platform_args.hpp"

#include <ostream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isa/a64_sysreg.hpp"
#include "platforms/platform_json.hpp"

namespace pmusim::cli {

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

std::string hexw(uint64_t v, unsigned width) { return fmt::format("{:#0{}x}", v, width / 4 + 2); }

std::string register_access_text(const Register& r) {
    if (r.undefined) return "UNDEFINED";
    return r.readable && r.writable ? "read/write" : (r.readable ? "read-only" : "write-only");
}

uint64_t field_reset(const Register& r, const Field& f) { return (f.read(r.word()) >> f.lsb) & (f.mask() >> f.lsb); }

}  // namespace pmusim::cli
