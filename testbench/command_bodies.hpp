// The work of `pmusim explain`, `regs`, `events` and `script` once their options are parsed. The command
// (cmd_*.cpp, Boost.ProgramOptions) and the web page (web/pmusim_web.cpp, issue 43) both call these, so the page
// shows the command's own words and tables. No option parser and no SystemC here.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "model/core/pmu.hpp"
#include "platforms/platform.hpp"
#include "testbench/explain.hpp"
#include "testbench/plot.hpp"
#include "testbench/script_runner.hpp"

namespace pmusim::cli {

// A table as a command prints it: the column headings and the cells, before they are laid out.
struct Table {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
};

// `pmusim regs --platform P`: REGISTER ENCODING OFFSET WIDTH RESET DESCRIPTION, one row a register.
Table register_table(Pmu& pmu);
// `pmusim regs --platform P REG`: BITS FIELD ACCESS RESET DESCRIPTION, one row a field.
Table field_table(const Register& r);
// `pmusim events --platform P`: NUMBER NAME IMPLEMENTED MODELLED DESCRIPTION, one row an event. `modelled`:
// per event number, whether `pmusim run` produces it (replay::producible_events); empty leaves the column out
// (the web page, which replays no traces).
Table event_table(const Platform& p, const Pmu& pmu, const std::vector<bool>& modelled);

// What `pmusim explain` is given.
struct ExplainArgs {
    std::string platform, platform_file;   // --platform, --platform-file
    std::vector<std::string> options;      // -o KEY=VALUE
    std::vector<std::string> sets;         // --set CORE_REG=VALUE
    std::string after;                     // --after SCRIPT (a file)
    std::optional<std::string> el, priv;   // --el, --priv
    std::string access;
};

// An access explained, with the runner whose PMU the explanation reads (explanation_text, explanation_json).
struct Explained {
    std::ostringstream script_out;  // the --after script's own reads: not the command's output
    std::unique_ptr<ScriptRunner> runner;
    const Platform* platform = nullptr;
    Explanation explanation;
};

// Makes the access as `pmusim explain` does: 0, or the command's exit status after a message on `err`.
int explain(const ExplainArgs& a, Explained& x, std::ostream& err);

// `pmusim script --plot` without SystemC: runs the script on a PMU built before it starts (its first `platform`
// line, or cfg.default_platform) and records the counters that move and the interrupt request lines, sampled
// every `sample_period` cycles (testbench/waveform.hpp). The script's status; `figure` is filled when the
// script is not malformed.
int run_script_recorded(const ScriptConfig& cfg, const std::string& text, const std::string& name,
                        uint64_t sample_period, std::ostream& out, std::ostream& err, plot::Figure& figure);

}  // namespace pmusim::cli
