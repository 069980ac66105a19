// The commands that run under SystemC: `pmusim vp`, `pmusim run --vcd` and `pmusim script --vcd/--plot`.
//
// libsystemc costs about 15 ms at every process start (its static constructors fill megabytes of pools), as long
// as replaying about three million instructions. So the `pmusim` command does not link it: these entry points
// are defined twice, by the SystemC host (virtual_platform.cpp, linked into `pmusim-systemc`) and by
// systemc_exec.cpp (linked into `pmusim`), which replaces the process with `pmusim-systemc` and the same command
// line. Both programs are built from main.cpp and run the same commands (docs/systemc.md).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>

#include "platforms/platform.hpp"
#include "replay/replay.hpp"
#include "testbench/script_runner.hpp"
#include "testbench/waveform.hpp"

namespace pmusim::vp {

struct VpOptions {
    std::string platform;
    PlatformOptions options;
    std::string setup;        // a script run on the PMU at time 0
    uint64_t instructions = 1000000;
    uint64_t cpi = 1;
    double quantum_ns = 1000;
    double period_ns = 1;
    std::string vcd;          // file name, or empty
    uint64_t vcd_period = wave::default_sample_period;  // cycles between counter samples in the waveform
    std::string plot;            // an SVG plot of the waveform, or empty
    bool quiet = false;
};

// `pmusim vp`: builds the platform, runs it, prints the interrupt log and the counters. Returns the exit status.
int run_vp(const VpOptions& o, std::ostream& out, std::ostream& err);

// `pmusim run --vcd FILE`: the replay in a SystemC thread on the platform's module, advancing SystemC time with
// the replay's cycles, and a VCD waveform of the PMU (testbench/waveform.hpp) with counters sampled every
// `vcd_period` cycles. Throws as replay::run does (std::runtime_error for the file or the simulation); the file
// is written only when the run succeeds.
replay::Result run_replay_systemc(replay::Options o, const std::string& vcd, uint64_t vcd_period, std::ostream& err);

// `pmusim script --vcd FILE` / `--plot FILE.svg`: the script runs in a SystemC thread; `tick` advances SystemC
// time, and the PMU is recorded as above (`vcd` or `plot_file` may be empty). Returns the script's exit status;
// a malformed script writes no file.
int run_script_systemc(const ScriptConfig& cfg, const std::string& path, const std::string& vcd, uint64_t vcd_period,
                       const std::string& plot_file, std::ostream& out, std::ostream& err);

}  // namespace pmusim::vp
