// The SystemC commands in the `pmusim` command, which does not link libsystemc (systemc_host.hpp): each
// replaces the process with `pmusim-systemc` and the same command line, so the one that runs is the SystemC
// host's (virtual_platform.cpp). Nothing has been written by then but what the options' checks print, and the
// host repeats those checks.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>

#include "testbench/cli_common.hpp"
#include "testbench/systemc_host.hpp"

#ifndef PMUSIM_SYSTEMC_HOST_DIR
#define PMUSIM_SYSTEMC_HOST_DIR "../libexec/pmusim"  // the installed layout, relative to the command's folder
#endif

namespace pmusim::vp {
namespace {

constexpr const char* host_name = "pmusim-systemc";

// The folder this program was started from (/proc/self/exe), or "" when it cannot be read.
std::string own_folder() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    std::string path(buf, static_cast<size_t>(n));
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// Runs pmusim-systemc in this process's place: beside this program (the build tree), else where it is installed.
// Returns only when neither can be started, with the reason.
std::string exec_host() {
    char** argv = cli::command_line();
    if (!argv || !argv[0]) return "the command line is not known";
    const std::string dir = own_folder();
    if (dir.empty()) return "cannot read /proc/self/exe";
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const std::string candidates[] = {dir + "/" + host_name, dir + "/" PMUSIM_SYSTEMC_HOST_DIR "/" + host_name};
    std::string why;
    for (const std::string& path : candidates) {
        ::execv(path.c_str(), argv);
        why += (why.empty() ? "" : "; ") + path + ": " + std::strerror(errno);
    }
    return "cannot start the SystemC host " + std::string(host_name) + " (" + why + ")";
}

// The host is started before anything is written: a prefix written first would go out (standard error is
// unbuffered) ahead of whatever the host prints, and a successful run would leave it behind.
int host_failed(std::ostream& err) {
    const std::string why = exec_host();  // returns only when the host cannot be started
    err << "pmusim: error: " << why << "\n";
    return 2;
}

}  // namespace

int run_vp(const VpOptions&, std::ostream&, std::ostream& err) { return host_failed(err); }

replay::Result run_replay_systemc(replay::Options, const std::string&, uint64_t, std::ostream&) {
    throw std::runtime_error(exec_host());
}

int run_script_systemc(const ScriptConfig&, const std::string&, const std::string&, uint64_t, const std::string&,
                       std::ostream&, std::ostream& err) {
    return host_failed(err);
}

}  // namespace pmusim::vp
