// The sequence runner's grammar and exit codes (docs/script.md), on scripts given as text.
#include <gtest/gtest.h>

#include <sstream>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <new>

#include <nlohmann/json.hpp>

#include "testbench/cli_common.hpp"

#include "testbench/script_runner.hpp"

namespace pmusim {
namespace {

struct ScriptRun {
    int code;
    std::string out;
    std::string err;
};

ScriptRun run(const std::string& text, ScriptConfig cfg = {}) {
    std::ostringstream out, err;
    ScriptRunner r(cfg, out, err);
    const int code = r.run_text(text, "t.pmus");
    return {code, out.str(), err.str()};
}

TEST(Script, ReadPrintsAtRegisterWidth) {
    const ScriptRun r = run("platform cortex-a53\nread PMCR_EL0\nread pmccntr_el0\nread @0xE04\n");
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "PMCR_EL0 = 0x41033000\nPMCCNTR_EL0 = 0x0000000000000000\n@0xE04 = 0x41033000\n");
}

TEST(Script, CommentsBlankLinesAndCaseInsensitiveKeywords) {
    const ScriptRun r = run("# a comment\n\n  PLATFORM Cortex-A53   # trailing comment\nWRITE pmcr_el0 0b1\nExpect PMCR_EL0 & 0x1 == 1\n");
    EXPECT_EQ(r.code, 0) << r.err;
}

TEST(Script, DefaultPlatformFromTheCommandLine) {
    ScriptConfig cfg;
    cfg.default_platform = "cortex-a53";
    EXPECT_EQ(run("expect PMCR_EL0 == 0x41033000\n", cfg).code, 0);
}

TEST(Script, FailedExpectationExitsOneWithLineAndValues) {
    const ScriptRun r = run("platform cortex-a53\n\nexpect PMCR_EL0 == 0x41033001\nexpect PMCR_EL0 == 0x41033000\n");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("t.pmus:3: FAIL: expected PMCR_EL0 == 0x41033001, got 0x41033000"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("1 of 2 expectations failed"), std::string::npos);
}

struct Malformed {
    const char* text;
    const char* message;  // part of the error, after "t.pmus:LINE: error: "
    unsigned line;
};

TEST(Script, MalformedLinesExitTwoNamingFileLineAndToken) {
    const Malformed cases[] = {
        {"frobnicate 3\n", "unknown keyword 'frobnicate'", 1},
        {"platform cortex-a53\nfrobnicate 3\n", "unknown keyword or instruction 'frobnicate'", 2},
        {"platform pentium\n", "unknown platform 'pentium'", 1},
        {"platform cortex-a53 colour=red\n", "unknown platform option 'colour'", 1},
        {"platform cortex-a53 nokey\n", "expected a platform option KEY=VALUE, got 'nokey'", 1},
        {"platform cortex-a53\nread PMFOO_EL0\n", "unknown register 'PMFOO_EL0'", 2},
        {"platform cortex-a53\nwrite PMCR_EL0\n", "expected 'write REG VALUE'", 2},
        {"platform cortex-a53\nwrite PMCR_EL0 0xZZ\n", "expected a value", 2},
        {"platform cortex-a53\nwrite PMCR_EL0 0x1FFFFFFFFFFFFFFFF\n", "up to 64 bits", 2},
        {"platform cortex-a53\nevent NOT_AN_EVENT\n", "unknown event 'NOT_AN_EVENT'", 2},
        {"platform cortex-a53\nevent L1D_CACHE_ALLOCATE\n", "unknown event 'L1D_CACHE_ALLOCATE'", 2},
        {"platform cortex-a53\nmrs x40, PMCR_EL0\n", "malformed instruction", 2},
        {"platform cortex-a53\nmov x1, #banana\n", "expected an immediate", 2},
        {"platform cortex-a53\nmrs x1, PMBOGUS_EL0\n", "unknown register 'PMBOGUS_EL0'", 2},
        {"platform cortex-a53\nel 4\n", "expected an exception level 0-3", 2},
        {"platform cortex-a53\npriv S\n", "expected M or U", 2},
        {"platform cortex-a53\nstate asleep\n", "expected run, debug", 2},
        {"platform cortex-a53\nstate fw-halt\n", "has no 'fw-halt' state", 2},
        {"platform cortex-a53\ntick\n", "expected 'tick N'", 2},
        {"platform cortex-a53\ntick -\n", "expected a cycle count", 2},
        {"platform cortex-a53\nexpect PMCR_EL0 = 1\n", "expected 'expect REG", 2},
        {"platform cortex-a53\nexpect PMCR_EL0 | 1 == 1\n", "expected 'expect REG", 2},
        {"platform cortex-a53\nexpect fiq == 0\n", "has no FIQ request", 2},
        {"platform cortex-a53\nexpect-trap\n", "expected 'expect-trap read REG'", 2},
        {"platform cortex-a53\nexpect-trap frob x\n", "unknown instruction 'frob'", 2},
        {"platform cortex-a53\nrepeat 3\n", "expected 'repeat N LINE'", 2},
        {"platform cortex-a53\nrepeat x tick 1\n", "expected a repeat count", 2},
        {"platform cortex-a53\nread @0xZZ\n", "expected a byte offset after '@'", 2},
        {"read PMCR_EL0\n", "needs a platform", 1},
        {"platform cortex-a7\nmcr p15, 0, r2, c9\n", "expected 'mcr p15, opc1, rN, cN, cM[, opc2]'", 2},
        {"platform cortex-a7\nmrc p14, 0, r2, c9, c12, 0\n", "coprocessor p15 only, not p14", 2},
        {"platform cortex-a7\nmrc p15, 0, r2, c0, c0, 0\n", "'p15, 0, c0, c0, 0' is not a PMU register", 2},
        {"platform cortex-a7\nmrc p15, 0, r15, c9, c12, 0\n", "malformed instruction", 2},
        {"platform cortex-a7\nmov r1, #0x100000000\n", "expected a 32-bit immediate", 2},
        {"platform cortex-a7\nldr r1, #5\n", "expected 'ldr rN, =imm'", 2},
        {"platform cortex-a7\nmrs x0, PMCR_EL0\n", "unknown keyword or instruction 'mrs'", 2},
        {"platform cortex-a7\nread sw@zz\n", "expected a byte offset", 2},
        {"platform veer-el2\ncsrr a0, mbogus\n", "unknown CSR 'mbogus'", 2},
        {"platform veer-el2\ncsrr a0, 0x300\n", "CSR 0x300 is not a performance-monitoring CSR", 2},
        {"platform veer-el2\ncsrr a0, 0x1000\n", "expected a CSR number 0-0xfff", 2},
        {"platform veer-el2\ncsrwi mcycle, 32\n", "expected a 5-bit immediate", 2},
        {"platform veer-el2\ncsrw mcycle\n", "expected 'csrw csr, rs1'", 2},
        {"platform veer-el2\ncsrr q9, mcycle\n", "'q9' is not a register", 2},
        {"platform veer-el2\nli a0, 0x100000000\n", "expected 'li rd, imm' with a 32-bit immediate", 2},
        {"platform veer-el2\nel 1\n", "is RISC-V: use 'priv M|U'", 2},
        {"platform veer-el2\npriv U\n", "has no U-mode (platform option user_mode=1 adds it)", 2},
        {"platform veer-el2\nstate debug\n", "has no 'debug' state", 2},
        {"platform veer-el2 user_mode=2\n", "option user_mode: expected 0 or 1", 1},
        {"platform cortex-a53\npriv M\n", "is not RISC-V: use 'el N'", 2},
        {"platform cortex-a53\nread PMCR_EL0\nplatform cortex-a57\n", "'platform' must come before the first access", 3},
    };
    for (const auto& c : cases) {
        const ScriptRun r = run(c.text);
        EXPECT_EQ(r.code, 2) << c.text;
        const std::string prefix = "t.pmus:" + std::to_string(c.line) + ": error: ";
        EXPECT_NE(r.err.find(prefix), std::string::npos) << c.text << " -> " << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.text << " -> " << r.err;
    }
}

TEST(Script, NothingRunsPastAMalformedLine) {
    const ScriptRun r = run("platform cortex-a53\nread PMCR_EL0\nbogus\nread PMCEID0_EL0\n");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "PMCR_EL0 = 0x41033000\n");
}

TEST(Script, MissingFileIsAnError) {
    std::ostringstream out, err;
    ScriptRunner r({}, out, err);
    EXPECT_EQ(r.run_file("/nonexistent/x.pmus"), 2);
    EXPECT_NE(err.str().find("/nonexistent/x.pmus: error: cannot open"), std::string::npos);
}

TEST(Script, TickEventRepeatAndIrq) {
    const ScriptRun r = run(
        "platform cortex-a53\n"
        "write PMEVTYPER0_EL0 0x8\n"          // INST_RETIRED
        "write PMEVCNTR0_EL0 0xFFFFFFFE\n"
        "write PMINTENSET_EL1 0x1\n"
        "write PMCNTENSET_EL0 0x80000001\n"
        "write PMCR_EL0 0x1\n"
        "repeat 3 event INST_RETIRED\n"
        "expect PMEVCNTR0_EL0 == 1\n"
        "expect irq == 1\n"
        "tick 10\n"
        "expect PMCCNTR_EL0 == 10\n");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("t.pmus:7: info [irq] interrupt request asserted"), std::string::npos) << r.err;
}

TEST(Script, InstructionsRetireAndTrap) {
    const ScriptRun r = run(
        "platform cortex-a53\n"
        "write PMEVTYPER0_EL0 0x8\n"
        "write PMCNTENSET_EL0 0x1\n"
        "mov x0, #1\n"            // retires (counter not yet enabled: E = 0)
        "msr PMCR_EL0, x0\n"      // E = 1; the msr itself then retires and counts
        "mrs x1, PMEVCNTR0_EL0\n" // reads 1, then retires
        "expect x1 == 1\n"
        "expect PMEVCNTR0_EL0 == 2\n"
        "el 0\n"
        "expect-trap mrs x2, PMEVCNTR0_EL0\n"  // traps: retires nothing
        "expect-trap read PMEVCNTR0_EL0\n"     // named accesses are checked at the current EL too
        "expect-trap write PMUSERENR_EL0 1\n"
        "expect-trap read S3_3_C14_C11_7\n"    // unallocated encoding: UNDEFINED
        "el 1\n"
        "expect PMEVCNTR0_EL0 == 0x2\n"
        "mrs x3, S3_3_C9_C12_0\n"
        "expect x3 == 0x41033001\n"
        "isb\n"
        "expect PMEVCNTR0_EL0 == 4\n");
    EXPECT_EQ(r.code, 0) << r.err;
}

TEST(Script, A32InstructionsAndLoads) {
    const ScriptRun r = run(
        "platform cortex-a7\n"
        "mov r0, #0x06\n"
        "mcr p15, 0, r0, c9, c13, 1\n"   // PMSELR = 0 out of reset: counter 0 counts LD_RETIRED
        "ldr r1, =0x80000001\n"
        "mcr p15, 0, r1, c9, c12, 1\n"   // PMCNTENSET
        "mov r2, #1\n"
        "mcr p15, 0, r2, c9, c12, 0\n"   // PMCR.E
        "ldr r3, =-1\n"
        "ldr r4, =0xFFFFFFFF\n"
        "expect r3 == 0xFFFFFFFF\n"
        "expect r4 == 0xFFFFFFFF\n"
        "mrc p15, 0, r5, c9, c13, 2\n"
        "expect r5 == 2\n"
        "mrc p15, 0, lr, c9, c12, 0\n"
        "expect r14 == 0x41072001\n"
        "expect-trap mrc p15, 0, r6, c9, c14, 7\n");  // unallocated in the PMU space: UNDEFINED
    EXPECT_EQ(r.code, 0) << r.err;
}

TEST(Script, RiscvAbiNamesAndCsrNumbers) {
    const ScriptRun r = run(
        "platform veer-el2\n"
        "li x5, 0x7D\n"
        "csrw 0x320, t0\n"                 // mcountinhibit by number, t0 = x5
        "csrr fp, mcountinhibit\n"         // fp = s0 = x8
        "expect x8 == 0x7D\n"
        "expect s0 == 0x7D\n"
        "csrrwi zero, mcountinhibit, 0\n"
        "expect mcountinhibit == 0\n"
        "csrw zero, zero\n");               // 'zero' is not a CSR
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("t.pmus:9: error: unknown CSR 'zero'"), std::string::npos) << r.err;
}

TEST(Script, EventNamesWhereverEventNumbersGo) {
    const ScriptRun r = run(
        "platform cortex-a53\n"
        "write PMEVTYPER0_EL0 inst_retired\n"
        "expect PMEVTYPER0_EL0 == 0x08\n"
        "write PMCNTENSET_EL0 1\n"
        "write PMCR_EL0 1\n"
        "event 0x08 2\n"
        "event INST_RETIRED\n"
        "expect PMEVCNTR0_EL0 == 3\n");
    EXPECT_EQ(r.code, 0) << r.err;
}

TEST(Script, ExpectTrapFailsWhenTheAccessIsAllowed) {
    const ScriptRun r = run("platform cortex-a53\nexpect-trap read PMCR_EL0\n");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("t.pmus:2: FAIL: expected 'read PMCR_EL0' to trap"), std::string::npos) << r.err;
}

TEST(Script, QuietHidesInfoDiagnostics) {
    ScriptConfig cfg;
    cfg.quiet = true;
    const ScriptRun r = run("platform cortex-a53\nwrite PMCNTENSET_EL0 0xFFFFFFFF\nwrite PMEVTYPER0_EL0 0x1F\n", cfg);
    EXPECT_EQ(r.err.find("no-effect"), std::string::npos);
    EXPECT_NE(r.err.find("warning [reserved-event]"), std::string::npos);
}

}  // namespace
// Out of memory while a std::bad_alloc unwinds through nlohmann::json (whose destructor allocates, in a noexcept
// destructor): reported, not an abort (issue 42, script --json). The child process runs under an address-space limit
// with the reserve main() keeps (cli::keep_memory_reserve) and fills the memory with small JSON values.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define PMUSIM_TEST_NO_RLIMIT 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PMUSIM_TEST_NO_RLIMIT 1
#endif

void fill_memory_with_json() {
    // The address space in use now (/proc/self/statm: pages), and 256 MiB more at most.
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0;
    statm >> pages;
    const rlim_t limit = static_cast<rlim_t>(pages * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)) + (uint64_t{256} << 20));
    const struct rlimit rl = {limit, limit};
    if (pages == 0 || ::setrlimit(RLIMIT_AS, &rl) != 0) std::_Exit(5);
    cli::keep_memory_reserve();
    try {
        std::vector<nlohmann::json> keep;
        keep.reserve(size_t{1} << 20);  // no large reallocation: every allocation is small
        for (;;) {
            nlohmann::json a = nlohmann::json::array();
            for (int i = 0; i < 1000; ++i) a.push_back(nlohmann::json::array({i, "x"}));
            keep.push_back(std::move(a));
        }
    } catch (const std::bad_alloc&) {
        std::_Exit(3);
    }
}

TEST(OutOfMemory, BadAllocUnwindsThroughJson) {
#ifdef PMUSIM_TEST_NO_RLIMIT
    GTEST_SKIP() << "sanitizers reserve more address space than the limit";
#else
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(fill_memory_with_json(), ::testing::ExitedWithCode(3), "");
#endif
}

}  // namespace pmusim
