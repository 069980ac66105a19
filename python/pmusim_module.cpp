// The Python module `pmusim`: platforms, a PMU with its registers, read/write/advance returning access records,
// and explain, script and replay through the same C++ entry points as the `pmusim` command.
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "model/core/pmu.hpp"
#include "platforms/platform.hpp"
#include "replay/replay.hpp"
#include "testbench/commands.hpp"
#include "testbench/script_runner.hpp"
#include "traces/input.hpp"

namespace py = pybind11;
using namespace pmusim;

namespace {

const Platform& need_platform(const std::string& name) {
    const Platform* p = find_platform(name);
    if (!p) throw py::value_error("unknown platform '" + name + "'");
    return *p;
}

EncodingSpace space_of(const std::string& s) {
    if (s == "a64") return EncodingSpace::a64_sysreg;
    if (s == "cp15") return EncodingSpace::cp15;
    if (s == "csr") return EncodingSpace::csr;
    throw py::value_error("encoding space '" + s + "': expected a64, cp15 or csr");
}

const char* space_name(EncodingSpace s) {
    switch (s) {
        case EncodingSpace::a64_sysreg: return "a64";
        case EncodingSpace::cp15: return "cp15";
        case EncodingSpace::csr: return "csr";
    }
    return "?";
}

// A PMU built from a platform; accesses are an instruction's at a privilege, or the memory-mapped view's.
class PyPmu {
public:
    PyPmu(const std::string& platform, const PlatformOptions& options) : platform_(&need_platform(platform)) {
        try {
            pmu_ = platform_->make(options);
        } catch (const std::invalid_argument& e) {
            throw py::value_error("platform " + platform_->name + ": " + e.what());
        }
    }

    const Platform& platform() const { return *platform_; }
    Pmu& pmu() { return *pmu_; }

    Register& reg(const std::string& name) {
        Register* r = pmu_->bank().find(name);
        if (!r) throw py::key_error("no register '" + name + "' on " + platform_->name);
        return *r;
    }
    Register& reg(EncodingSpace s, uint32_t key) {
        Register* r = pmu_->bank().find(s, key);
        if (!r) throw py::key_error("no register at encoding " + std::to_string(key) + " on " + platform_->name);
        return *r;
    }
    // Without a privilege: the family's most privileged one software runs the PMU from, EL1 (PL1) on ARM and
    // machine mode on RISC-V (the only mode every VeeR EL2 CSR is accessible in: veer §1).
    unsigned default_privilege() const { return platform_->riscv ? 3u : 1u; }
    AccessContext context(std::optional<unsigned> given, bool secure) const {
        const unsigned privilege = given.value_or(default_privilege());
        if (!pmu_->supports_privilege(privilege))
            throw py::value_error("privilege " + std::to_string(privilege) + " is not implemented on " + platform_->name);
        AccessContext ctx;
        ctx.privilege = privilege;
        ctx.secure = secure;
        return ctx;
    }
    AccessContext view(bool debugger) const {
        AccessContext ctx;
        ctx.origin = debugger ? AccessOrigin::external_debug : AccessOrigin::memory_mapped;
        return ctx;
    }
    AccessRecord offset_access(uint64_t offset, bool is_write, uint64_t value, bool debugger) {
        if (!pmu_->bank().find_offset(offset).reg)
            throw py::key_error("no register at offset " + std::to_string(offset) + " on " + platform_->name);
        return is_write ? pmu_->write_offset(offset, value, view(debugger)) : pmu_->read_offset(offset, view(debugger));
    }

private:
    const Platform* platform_;
    std::unique_ptr<Pmu> pmu_;
};

struct ScriptResult {
    int status = 0;  // 0 every expectation held, 1 one failed, 2 the script is malformed (docs/script.md)
    std::string output, errors;
    unsigned expectations = 0, failures = 0;
};

ScriptResult run_script(const std::string* path, const std::string* text, const std::string& platform,
                        const PlatformOptions& options, bool quiet) {
    ScriptConfig cfg;
    cfg.default_platform = platform;
    cfg.options = options;
    cfg.quiet = quiet;
    std::ostringstream out, err;
    ScriptRunner runner(cfg, out, err);
    ScriptResult r;
    r.status = path ? runner.run_file(*path) : runner.run_text(*text, "<text>");
    r.output = out.str();
    r.errors = err.str();
    r.expectations = runner.expectations();
    r.failures = runner.failures();
    return r;
}

replay::Timing timing_of(const std::string& t) {
    if (t == "model") return replay::Timing::model;
    if (t == "trace") return replay::Timing::trace;
    if (t == "cpi1") return replay::Timing::cpi1;
    throw py::value_error("timing '" + t + "': expected model, trace or cpi1");
}

}  // namespace

PYBIND11_MODULE(pmusim, m) {
    m.doc() = "pmusim: PMU register models (ARMv8 PMUv3, ARMv7 CP15, ARM11 PMNC, VeeR EL2 mhpm) - docs/library.md";

    py::class_<OptionInfo>(m, "OptionInfo")
        .def_readonly("key", &OptionInfo::key)
        .def_readonly("values", &OptionInfo::values)
        .def_readonly("default", &OptionInfo::default_value)
        .def_readonly("description", &OptionInfo::description);

    py::class_<Platform>(m, "Platform")
        .def_readonly("name", &Platform::name)
        .def_readonly("family", &Platform::family)
        .def_readonly("pmu", &Platform::pmu)
        .def_readonly("counters", &Platform::counters)
        .def_readonly("description", &Platform::description)
        .def_readonly("source", &Platform::source)
        .def_readonly("options", &Platform::options)
        .def("__repr__", [](const Platform& p) { return "<pmusim.Platform " + p.name + " (" + p.family + ")>"; });

    m.attr("__version__") = PMUSIM_VERSION;  // the project's version (CMakeLists.txt)

    m.def("platforms", [] {
        std::vector<const Platform*> v;
        for (const auto& p : all_platforms()) v.push_back(&p);
        return v;
    }, py::return_value_policy::reference, "every built-in platform");
    m.def("platform", &need_platform, py::return_value_policy::reference, py::arg("name"), "a platform by name");

    py::class_<FieldEffect>(m, "FieldEffect")
        .def_readonly("name", &FieldEffect::name)
        .def_readonly("lsb", &FieldEffect::lsb)
        .def_readonly("width", &FieldEffect::width)
        .def_property_readonly("kind", [](const FieldEffect& f) { return std::string(to_string(f.kind)); })
        .def_readonly("written", &FieldEffect::written)
        .def_readonly("old_value", &FieldEffect::old_value)
        .def_readonly("new_value", &FieldEffect::new_value)
        .def_readonly("effect", &FieldEffect::effect)
        .def("__repr__", [](const FieldEffect& f) {
            std::ostringstream s;
            s << "<pmusim.FieldEffect " << f.name << " 0x" << std::hex << f.old_value << " -> 0x" << f.new_value
              << (f.effect.empty() ? "" : ": " + f.effect) << ">";
            return s.str();
        });

    py::class_<Diagnostic>(m, "Diagnostic")
        .def_property_readonly("severity", [](const Diagnostic& d) { return std::string(to_string(d.severity)); })
        .def_readonly("code", &Diagnostic::code)
        .def_readonly("message", &Diagnostic::message)
        .def("__repr__", [](const Diagnostic& d) {
            return std::string(to_string(d.severity)) + " [" + d.code + "] " + d.message;
        });

    py::class_<AccessRecord>(m, "AccessRecord")
        .def_readonly("reg", &AccessRecord::reg)
        .def_readonly("target", &AccessRecord::target)
        .def_readonly("is_write", &AccessRecord::is_write)
        .def_property_readonly("trapped", &AccessRecord::trapped)
        .def_readonly("value_written", &AccessRecord::value_written)
        .def_readonly("value_read", &AccessRecord::value_read)
        .def_readonly("old_value", &AccessRecord::old_value)
        .def_readonly("new_value", &AccessRecord::new_value)
        .def_readonly("fields", &AccessRecord::fields)
        .def_readonly("diagnostics", &AccessRecord::diagnostics)
        .def("has", [](const AccessRecord& r, const std::string& code) { return r.has(code); }, py::arg("code"))
        .def("__repr__", [](const AccessRecord& r) {
            std::ostringstream s;
            s << "<pmusim.AccessRecord " << (r.is_write ? "write " : "read ") << r.reg
              << (r.trapped() ? " trapped" : "") << " value_read=0x" << std::hex << r.value_read << ">";
            return s.str();
        });

    py::class_<AdvanceResult>(m, "AdvanceResult")
        .def_readonly("irq_rose", &AdvanceResult::irq_rose)
        .def_readonly("irq_cycle", &AdvanceResult::irq_cycle)
        .def_readonly("fiq_rose", &AdvanceResult::fiq_rose)
        .def_readonly("fiq_cycle", &AdvanceResult::fiq_cycle)
        .def_readonly("overflows", &AdvanceResult::overflows)
        .def("__repr__", [](const AdvanceResult& r) {
            std::string s = "<pmusim.AdvanceResult overflows=" + std::to_string(r.overflows);
            if (r.irq_rose) s += " irq_rose at cycle " + std::to_string(r.irq_cycle);
            if (r.fiq_rose) s += " fiq_rose at cycle " + std::to_string(r.fiq_cycle);
            return s + ">";
        });

    py::class_<Register>(m, "Register")
        .def_readonly("name", &Register::name)
        .def_readonly("width", &Register::width)
        .def_readonly("description", &Register::description)
        .def_readonly("source", &Register::source)
        .def_readonly("aliases", &Register::aliases)
        .def_readonly("offsets", &Register::offsets)
        .def_property_readonly("encodings", [](const Register& r) {
            std::vector<std::pair<std::string, uint32_t>> v;
            for (const auto& [s, k] : r.encodings) v.emplace_back(space_name(s), k);
            return v;
        })
        .def_property_readonly("implemented", &Register::implemented)
        .def_property_readonly("reset_value", &Register::reset_value)
        .def_property_readonly("fields", [](const Register& r) {
            std::vector<py::dict> v;
            for (const auto& f : r.fields) {
                py::dict d;
                d["name"] = f.name;
                d["lsb"] = f.lsb;
                d["width"] = f.width;
                d["kind"] = std::string(to_string(f.kind));
                v.push_back(d);
            }
            return v;
        })
        .def("__repr__", [](const Register& r) { return "<pmusim.Register " + r.name + ">"; });

    py::class_<PyPmu>(m, "Pmu")
        .def(py::init<const std::string&, const PlatformOptions&>(), py::arg("platform"),
             py::arg("options") = PlatformOptions{})
        .def_property_readonly("platform", &PyPmu::platform, py::return_value_policy::reference)
        .def_property_readonly("family", [](PyPmu& p) { return std::string(p.pmu().family()); })
        .def("registers", [](PyPmu& p) {
            std::vector<const Register*> v;
            for (const auto& r : p.pmu().bank().all()) v.push_back(r.get());
            return v;
        }, py::return_value_policy::reference_internal)
        .def("register", [](PyPmu& p, const std::string& name) -> const Register& { return p.reg(name); },
             py::return_value_policy::reference_internal, py::arg("name"))
        .def("read", [](PyPmu& p, const std::string& name, std::optional<unsigned> privilege, bool secure) {
            return p.pmu().read(p.reg(name), p.context(privilege, secure));
        }, py::arg("name"), py::arg("privilege") = py::none(), py::arg("secure") = false)
        .def("write", [](PyPmu& p, const std::string& name, uint64_t value, std::optional<unsigned> privilege, bool secure) {
            return p.pmu().write(p.reg(name), value, p.context(privilege, secure));
        }, py::arg("name"), py::arg("value"), py::arg("privilege") = py::none(), py::arg("secure") = false)
        .def("read_encoding", [](PyPmu& p, const std::string& space, uint32_t key, std::optional<unsigned> privilege, bool secure) {
            return p.pmu().read(p.reg(space_of(space), key), p.context(privilege, secure));
        }, py::arg("space"), py::arg("key"), py::arg("privilege") = py::none(), py::arg("secure") = false)
        .def("write_encoding", [](PyPmu& p, const std::string& space, uint32_t key, uint64_t value, std::optional<unsigned> privilege,
                                  bool secure) {
            return p.pmu().write(p.reg(space_of(space), key), value, p.context(privilege, secure));
        }, py::arg("space"), py::arg("key"), py::arg("value"), py::arg("privilege") = py::none(), py::arg("secure") = false)
        .def("read_offset", [](PyPmu& p, uint64_t offset, bool debugger) {
            return p.offset_access(offset, false, 0, debugger);
        }, py::arg("offset"), py::arg("debugger") = true)
        .def("write_offset", [](PyPmu& p, uint64_t offset, uint32_t value, bool debugger) {
            return p.offset_access(offset, true, value, debugger);
        }, py::arg("offset"), py::arg("value"), py::arg("debugger") = true)
        .def("advance", [](PyPmu& p, uint64_t cycles, const std::map<uint32_t, uint64_t>& events) {
            EventBatch b;
            b.cycles = cycles;
            for (const auto& [e, n] : events) b.add(e, n);
            return p.pmu().advance(b);
        }, py::arg("cycles"), py::arg("events") = std::map<uint32_t, uint64_t>{})
        .def("set_state", [](PyPmu& p, const std::string& s) {
            const auto st = parse_core_state(s);
            if (!st || !p.pmu().supports_state(*st))
                throw py::value_error("core state '" + s + "' is not one " + p.platform().name + " has");
            p.pmu().set_state(*st);
        }, py::arg("state"))
        .def_property_readonly("state", [](PyPmu& p) { return std::string(to_string(p.pmu().state())); })
        .def("set_exec_context", [](PyPmu& p, unsigned privilege, bool secure) {
            p.context(privilege, secure);  // checks the privilege
            p.pmu().set_exec_context(ExecContext{privilege, secure});
        }, py::arg("privilege"), py::arg("secure") = false)
        .def_property_readonly("irq", [](PyPmu& p) { return p.pmu().irq(); })
        .def_property_readonly("fiq", [](PyPmu& p) { return p.pmu().fiq(); })
        .def("counters", [](PyPmu& p) {
            py::dict d;
            for (const auto& [name, v] : p.pmu().counter_values()) d[py::str(name)] = v;
            return d;
        })
        .def("reset", [](PyPmu& p) { p.pmu().reset(); })
        .def("__repr__", [](PyPmu& p) { return "<pmusim.Pmu " + p.platform().name + ">"; });

    m.def("explain", [](const std::string& platform, const std::string& access, std::vector<std::string> args) {
        // The `pmusim explain` command itself: same options, same text.
        std::vector<std::string> argv{"--platform", platform};
        argv.insert(argv.end(), args.begin(), args.end());
        argv.push_back(access);
        std::ostringstream out, err;
        if (cli::cmd_explain(argv, out, err) != 0) throw py::value_error(err.str());
        return out.str();
    }, py::arg("platform"), py::arg("access"), py::arg("args") = std::vector<std::string>{},
          "the `pmusim explain` text of one access; args are further command options, e.g. ['--el', '0']");

    py::class_<ScriptResult>(m, "ScriptResult")
        .def_readonly("status", &ScriptResult::status)
        .def_readonly("output", &ScriptResult::output)
        .def_readonly("errors", &ScriptResult::errors)
        .def_readonly("expectations", &ScriptResult::expectations)
        .def_readonly("failures", &ScriptResult::failures)
        .def("__repr__", [](const ScriptResult& r) {
            return "<pmusim.ScriptResult status=" + std::to_string(r.status) + ", " + std::to_string(r.expectations) +
                   " expectations, " + std::to_string(r.failures) + " failed>";
        });
    m.def("run_script", [](const std::string& path, const std::string& platform, const PlatformOptions& options, bool quiet) {
        return run_script(&path, nullptr, platform, options, quiet);
    }, py::arg("path"), py::arg("platform") = "", py::arg("options") = PlatformOptions{}, py::arg("quiet") = false);
    m.def("run_script_text", [](const std::string& text, const std::string& platform, const PlatformOptions& options,
                                bool quiet) { return run_script(nullptr, &text, platform, options, quiet); },
          py::arg("text"), py::arg("platform") = "", py::arg("options") = PlatformOptions{}, py::arg("quiet") = false);

    py::class_<replay::Result>(m, "ReplayResult")
        .def_readonly("format", &replay::Result::format)
        .def_readonly("records", &replay::Result::records)
        .def_readonly("instructions", &replay::Result::instructions)
        .def_readonly("cycles", &replay::Result::cycles)
        .def_property_readonly("event_totals", [](const replay::Result& r) {
            return std::map<uint32_t, uint64_t>(r.event_totals.begin(), r.event_totals.end());
        })
        .def_property_readonly("counters", [](const replay::Result& r) {
            return std::map<std::string, uint64_t>(r.counters.begin(), r.counters.end());
        })
        .def_readonly("readbacks_checked", &replay::Result::readbacks_checked)
        .def_readonly("readbacks_matched", &replay::Result::readbacks_matched)
        .def_readonly("clock_readbacks", &replay::Result::clock_readbacks)
        .def_readonly("clock_matched", &replay::Result::clock_matched)
        .def_readonly("notes", &replay::Result::notes)
        .def("__repr__", [](const replay::Result& r) {
            return "<pmusim.ReplayResult " + r.format + ": " + std::to_string(r.instructions) + " instructions, " +
                   std::to_string(r.cycles) + " cycles, read-backs " + std::to_string(r.readbacks_matched) + "/" +
                   std::to_string(r.readbacks_checked) + " matched>";
        });
    m.def("replay", [](const std::string& platform, const std::string& trace, const std::string& format,
                       const std::string& timing, const std::vector<std::string>& events, const PlatformOptions& options) {
        replay::Options o;
        o.platform = platform;
        o.platform_options = options;
        o.trace = trace;
        o.format = format;
        o.timing = timing_of(timing);
        o.events = events;
        try {
            py::gil_scoped_release unlocked;  // a long replay need not hold up other Python threads
            return replay::run(o, nullptr);
        } catch (const trace::TraceError& e) {
            throw py::value_error(e.what());
        } catch (const std::invalid_argument& e) {
            throw py::value_error(e.what());
        }
    }, py::arg("platform"), py::arg("trace"), py::arg("format") = "auto", py::arg("timing") = "model",
          py::arg("events") = std::vector<std::string>{}, py::arg("options") = PlatformOptions{},
          "replays a trace file through the platform's timing model and PMU (`pmusim run`)");
}
