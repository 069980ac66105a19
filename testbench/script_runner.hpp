// The sequence runner: `pmusim script FILE`. Its grammar is a public interface (docs/script.md).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/core/pmu.hpp"
#include "platforms/platform.hpp"
#include "testbench/explain.hpp"
#include "testbench/script_isa.hpp"

namespace pmusim {

struct ScriptConfig {
    std::string default_platform;  // --platform
    PlatformOptions options;       // --option key=value
    bool quiet = false;            // hide info-level diagnostics
    bool json = false;             // --json: reads, diagnostics, failures and explanations as one JSON document
};

// Exit codes (a contract): 0 every expectation held, 1 an expectation failed, 2 the script is malformed.
enum ScriptExit : int { script_ok = 0, script_failed = 1, script_malformed = 2 };

// Bounds on what a script can ask for (docs/script.md, "Limits").
inline constexpr uint64_t max_repeat_count = 1'000'000;    // one repeat's N
inline constexpr unsigned max_repeat_depth = 16;           // repeats inside repeats
inline constexpr uint64_t max_script_steps = 10'000'000;   // statements executed in all, repeats included

// The platform a host that builds the PMU before the script runs must build (the SystemC host, a recorded run):
// the script's first `platform` line with its options, else cfg's platform; `opts` takes the options. nullptr
// after "NAME: error: ..." when there is none or it is unknown; `host` says which host ("with --vcd").
const Platform* platform_before_run(const ScriptConfig& cfg, const std::string& text, const std::string& name,
                                    const std::string& host, PlatformOptions& opts, std::ostream& err);

// Reads a whole script: a file (not a folder), or standard input for "-". False with the reason on failure.
bool read_script_file(const std::string& path, std::string& text, std::string& why);
// The script's name in messages: its path, or "<stdin>" for "-" (docs/script.md).
inline std::string script_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

class ScriptRunner {
public:
    ScriptRunner(ScriptConfig cfg, std::ostream& out, std::ostream& err);
    ~ScriptRunner();

    int run_file(const std::string& path);
    int run_text(std::string_view text, const std::string& name);

    unsigned expectations() const { return expectations_; }
    unsigned failures() const { return failures_; }
    Pmu* pmu() { return pmu_; }
    const Platform* platform() const { return platform_; }
    unsigned privilege() const { return privilege_; }

    // For `pmusim explain`: the privilege of the next access (the platform's level, see parse_privilege), a core
    // register's value, and one access explained: "read REG", "write REG VALUE" or an instruction. The access
    // is made (it changes the PMU's state); nullopt with `error` set when it is malformed.
    void set_privilege(unsigned level);
    void set_core_register(unsigned index, uint64_t value);
    std::optional<Explanation> explain(std::string_view access, std::string& error);

    // Runs on a PMU owned elsewhere (a SystemC module): the platform is fixed, and a `platform` line must name it.
    void attach(const Platform& platform, Pmu& pmu);
    // Replaces the direct pmu.advance() of `tick`, `event` and instructions (a SystemC host advances time too).
    void set_advance_hook(std::function<AdvanceResult(const EventBatch&)> hook) { advance_hook_ = std::move(hook); }

private:
    struct Malformed {
        std::string message;
    };
    struct Operand;  // a resolved register operand

    void exec(std::string_view line);
    void select_platform(std::string_view name, const PlatformOptions& opts);
    Pmu& need_pmu(std::string_view what);
    Operand resolve(std::string_view text);
    Operand resolve_cp15(const ScriptInsn& i);
    AccessRecord do_read(const Operand& op);
    AccessRecord do_write(const Operand& op, uint64_t value);
    void exec_expect(std::string_view rest);
    void exec_expect_trap(std::string_view rest);
    Explanation explain_access(std::string_view access);
    void log(nlohmann::json entry);
    int finish(int status);
    enum class InsnOutcome { not_instruction, retired, trapped };
    InsnOutcome exec_instruction(std::string_view text, bool expect_trap);
    InsnOutcome exec_csr(const ScriptInsn& i, bool expect_trap);
    Operand resolve_csr(const std::string& text);
    void advance(EventBatch& batch);
    void retire(const ScriptInsn& i);
    AccessContext context() const;
    void report(const AccessRecord& rec, bool trap_expected);
    void fail(const std::string& message);
    std::string where() const;
    std::string snapshot() const;
    uint64_t parse_value(std::string_view text, std::string_view what) const;

    ScriptConfig cfg_;
    std::ostream& out_;
    std::ostream& err_;
    std::string file_;
    uint64_t steps_ = 0;         // statements executed, repeats included
    unsigned repeat_depth_ = 0;  // repeats being run
    unsigned line_ = 0;
    const Platform* platform_ = nullptr;
    std::unique_ptr<Pmu> owned_;
    Pmu* pmu_ = nullptr;
    bool attached_ = false;
    std::function<AdvanceResult(const EventBatch&)> advance_hook_;
    bool accessed_ = false;
    unsigned privilege_ = 1;
    bool secure_ = false;
    uint64_t now_ = 0;  // cycles since the script started
    std::array<uint64_t, 32> core_{};
    unsigned expectations_ = 0;
    unsigned failures_ = 0;
    EventBatch batch_;
    std::vector<AccessRecord>* capture_ = nullptr;  // `explain`: the access records go here, not to stderr
    // --json: the document is streamed (docs/cli.md): its head and each log entry are written as they come, the
    // totals at the end; nothing is kept per entry.
    void json_begin();
    bool json_open_ = false;
    uint64_t json_entries_ = 0;
};

}  // namespace pmusim
