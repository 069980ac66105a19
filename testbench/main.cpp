// pmusim: a cycle-approximate simulator and register model of hardware performance monitor units.
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <iostream>
#include <string>
#include <vector>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "testbench/cli_common.hpp"
#include "testbench/commands.hpp"
#include "traces/message.hpp"

// A sanitizer brings its own allocator (gcc says so with __SANITIZE_ADDRESS__, clang with __has_feature).
#if defined(__SANITIZE_ADDRESS__)
#define PMUSIM_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define PMUSIM_SANITIZED 1
#endif
#endif
#ifndef PMUSIM_SANITIZED
#define PMUSIM_SANITIZED 0
#endif

namespace {

constexpr const char* usage = R"(usage: pmusim [-v|--verbose] [--quiet] [--version] COMMAND [ARGS] [--help]

options:
  -v, --verbose                   debug logging on standard error
  -q, --quiet                     hide info-level diagnostics
  --version                       print the version and exit
  -h, --help                      show this help

commands:
  platforms                       list every platform with its PMU and counter count
  regs --platform P [REG]         the register map, or one register's fields
  events --platform P             every event of the platform: number, name, implemented, modelled
  script FILE|- [--platform P]    run a register sequence script (docs/script.md); - reads standard input
  explain --platform P "ACCESS"   the field-by-field effect of one access, e.g. "write PMCR_EL0 0x17"
  run -p P FILE [-e EVENTS]       replay an instruction trace and report what every counter would show
  run --manifest FILE             replay every trace a manifest lists, one JSON object a line
  convert IN OUT [--platform P]   convert a trace of any format to pmusim's native format (binary, or text with .txt)
  vp --platform P [--setup FILE]  run the SystemC virtual platform: core model, PMU, interrupt controller

`pmusim COMMAND --help` describes each command. Documentation: docs/.
)";

}  // namespace

#ifdef PMUSIM_SYSTEMC_HOST
// libsystemc's own main() calls sc_main; pmusim-systemc has its main() and starts the SystemC kernel itself where
// a command needs it, so sc_main is never called.
extern "C" int sc_main(int, char*[]) { return 2; }
#endif

namespace {

int dispatch(const std::vector<std::string>& args) {
    bool quiet = false;
    size_t i = 0;
    for (; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-v" || a == "--verbose") spdlog::set_level(spdlog::level::debug);
        else if (a == "-q" || a == "--quiet") {
            quiet = true;
            spdlog::set_level(spdlog::level::err);
        } else if (a == "-h" || a == "--help") {
            std::cout << usage;
            return 0;
        } else if (a == "--version") {
            std::cout << "pmusim 0.1.0\n";
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "pmusim: unknown option '" << pmusim::printable(a) << "'\n" << usage;
            return 2;
        } else break;
    }
    if (i == args.size()) {
        std::cerr << usage;
        return 2;
    }
    const std::string cmd = args[i];
    const std::vector<std::string> rest(args.begin() + static_cast<long>(i) + 1, args.end());
    spdlog::debug("command {}", cmd);
    if (cmd == "platforms") return pmusim::cli::cmd_platforms(rest, std::cout, std::cerr);
    if (cmd == "regs") return pmusim::cli::cmd_regs(rest, std::cout, std::cerr);
    if (cmd == "events") return pmusim::cli::cmd_events(rest, std::cout, std::cerr);
    if (cmd == "script") return pmusim::cli::cmd_script(rest, quiet, std::cout, std::cerr);
    if (cmd == "explain") return pmusim::cli::cmd_explain(rest, std::cout, std::cerr);
    if (cmd == "vp") return pmusim::cli::cmd_vp(rest, quiet, std::cout, std::cerr);
    if (cmd == "run") return pmusim::cli::cmd_run(rest, std::cout, std::cerr);
    if (cmd == "convert") return pmusim::cli::cmd_convert(rest, std::cout, std::cerr);
    std::cerr << "pmusim: unknown command '" << pmusim::printable(cmd) << "'\n" << usage;
    return 2;
}

// The heap in transparent huge pages. Every 4 KiB page a process touches first is a page fault, about 11 us on the
// virtual machines pmusim is measured on: a replay that builds 8 MiB of plans and recordings spent 20 ms in them,
// as long as its replay. Linux maps a region advised MADV_HUGEPAGE (where transparent huge pages are "madvise",
// Debian's default) 2 MiB at a fault: 16 MiB touched in 1 ms instead of 47 (docs/performance.md, "Process
// start-up"). So the heap grows in one 64 MiB step at start, advised, and blocks up to 32 MiB come from it rather
// than from mmap of their own. Nothing changes but where memory comes from; where the heap is not glibc's brk heap
// (a sanitizer's or valgrind's allocator) or the advice is refused, nothing is done.
void heap_in_huge_pages() {
#if !PMUSIM_SANITIZED
    constexpr size_t huge = size_t{2} << 20;
    if (mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1 || mallopt(M_TOP_PAD, 64 << 20) != 1 ||
        mallopt(M_TRIM_THRESHOLD, 128 << 20) != 1)
        return;
    void* grow = std::malloc(size_t{1} << 20);  // larger than the top of the heap: brk moves by it and the pad
    if (!grow) return;
    const auto from = (reinterpret_cast<uintptr_t>(grow) + huge - 1) & ~(huge - 1);
    const auto to = reinterpret_cast<uintptr_t>(::sbrk(0)) & ~(huge - 1);
    if (reinterpret_cast<uintptr_t>(grow) < to && from < to)
        ::madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
    std::free(grow);
#endif
}

}  // namespace

int main(int argc, char** argv) {
    heap_in_huge_pages();
    pmusim::cli::keep_memory_reserve();
    pmusim::cli::set_command_line(argv);
    std::vector<std::string> args(argv + 1, argv + argc);
    spdlog::set_default_logger(spdlog::stderr_color_mt("pmusim"));  // logs on stderr: stdout is the results
    spdlog::set_level(spdlog::level::warn);
    spdlog::set_pattern("pmusim: %l: %v");
    int status = 2;
    // One catch-all: whatever a command lets escape becomes a message and exit 2, never an abort.
    try {
        status = dispatch(args);
    } catch (const std::bad_alloc&) {
        std::cerr << "pmusim: error: out of memory\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "pmusim: error: " << pmusim::printable(e.what(), 2 * pmusim::message_limit) << "\n";
        return 2;
    } catch (...) {
        std::cerr << "pmusim: error: an unexpected internal error (please report it)\n";
        return 2;
    }
    // Results that did not reach standard output are a failure (a full disk, a closed pipe, /dev/full).
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::cerr << "pmusim: error: cannot write the results to standard output"
                  << (errno ? std::string(": ") + std::strerror(errno) : std::string()) << "\n";
        return 2;
    }
    return status;
}
