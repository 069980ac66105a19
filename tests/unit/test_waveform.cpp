// Waveforms, time series and plots (docs/waveforms.md): the VCD is read back and checked against values worked
// out by hand (a cycle counter preloaded short of its overflow holds start + t at time t); the JSON and CSV
// series parse; the SVG renders. The command-line cases run the pmusim binary built beside this test.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "replay/replay.hpp"
#include "testbench/plot.hpp"
#include "testbench/report.hpp"
#include "testbench/waveform.hpp"

namespace pmusim {
namespace {

// A VCD read back: each signal by its full dotted name, with its changes in file order.
struct Vcd {
    struct Change {
        uint64_t time;
        uint64_t value;
    };
    std::map<std::string, std::vector<Change>> signals;
    std::string timescale;
    uint64_t end = 0;
    bool ok = false;  // header, definitions and initial values present

    // The value at `t` (the last change at or before it).
    uint64_t at(const std::string& name, uint64_t t) const {
        uint64_t v = 0;
        for (const auto& c : signals.at(name))
            if (c.time <= t) v = c.value;
        return v;
    }
    // The first time the signal satisfies `pred`, or ~0.
    template <class P>
    uint64_t first(const std::string& name, P pred) const {
        for (const auto& c : signals.at(name))
            if (pred(c.value)) return c.time;
        return ~uint64_t{0};
    }
};

Vcd read_vcd(const std::string& path) {
    std::ifstream in(path);
    Vcd v;
    std::map<std::string, std::string> names;  // id -> full name
    std::vector<std::string> scope;
    std::string tok;
    uint64_t time = 0;
    bool defs = false, dumpvars = false;
    while (in >> tok) {
        if (tok == "$timescale") {
            std::string a, b;
            in >> a >> b;
            v.timescale = a + " " + b;
        } else if (tok == "$scope") {
            std::string kind, name, end;
            in >> kind >> name >> end;
            scope.push_back(name);
        } else if (tok == "$upscope") {
            in >> tok;
            scope.pop_back();
        } else if (tok == "$var") {
            std::string kind, width, id, name, end;
            in >> kind >> width >> id >> name >> end;
            std::string full;
            for (const auto& s : scope) full += s + ".";
            EXPECT_EQ(names.count(id), 0u) << "identifier " << id << " used twice";
            names[id] = full + name;
            EXPECT_EQ(v.signals.count(full + name), 0u) << full + name << " declared twice";
            v.signals[full + name];
        } else if (tok == "$enddefinitions") {
            in >> tok;
            defs = true;
        } else if (tok == "$dumpvars") {
            dumpvars = true;
        } else if (tok[0] == '#') {
            const uint64_t t = std::stoull(tok.substr(1));
            EXPECT_GE(t, time) << "time goes backwards";
            time = t;
            v.end = t;
        } else if (tok[0] == 'b') {
            std::string id;
            in >> id;
            v.signals[names.at(id)].push_back({time, std::stoull(tok.substr(1), nullptr, 2)});
        } else if (tok[0] == '0' || tok[0] == '1') {
            v.signals[names.at(tok.substr(1))].push_back({time, static_cast<uint64_t>(tok[0] - '0')});
        } else if (tok == "$comment") {
            while (in >> tok && tok != "$end") {
            }
        }
    }
    v.ok = defs && dumpvars && !v.signals.empty();
    return v;
}

std::string tmp_path(const std::string& name) {
    // One name per process: ctest runs the tests of this file in parallel processes.
    return (testing::TempDir().empty() ? std::string("/tmp/") : testing::TempDir()) + "pmusim_wave_" +
           std::to_string(getpid()) + "_" + name;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Runs the pmusim command; returns its exit status, its standard output in `out`.
int pmusim(const std::string& args, std::string* out = nullptr) {
    const std::string o = tmp_path("stdout.txt");
    const int rc = std::system((std::string(PMUSIM_BINARY) + " " + args + " > " + o + " 2>&1").c_str());
    if (out) *out = slurp(o);
    std::remove(o.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// A Cortex-A53 PMU with the cycle counter preloaded `short_by` cycles before its overflow out of bit 31 (PMCR.LC
// = 0: ARMv8 PMCCNTR_EL0 overflows when bits [31:0] wrap, at 2^32), counting, with its overflow interrupt enabled.
std::unique_ptr<Pmu> preloaded_a53(uint64_t short_by) {
    auto pmu = find_platform("cortex-a53")->make({});
    AccessContext el1;
    auto w = [&](const char* reg, uint64_t v) { pmu->write(*pmu->bank().find(reg), v, el1); };
    w("PMCCNTR_EL0", 0x100000000u - short_by);
    w("PMINTENSET_EL1", 0x80000000u);
    w("PMCNTENSET_EL0", 0x80000000u);
    w("PMCR_EL0", 0x1);
    return pmu;
}

TEST(Waveform, CyclesSplitAtSamplePointsAndOverflowAtItsCycle) {
    // PMCCNTR = 0xFFFFFFF0 at time 0: it holds 0xFFFFFFF0 + t at every t, overflows (2^32) at t = 16, where
    // PMOVSSET bit 31 and the request rise too. Samples every 10 cycles; one batch of 25 cycles.
    auto pmu = preloaded_a53(16);
    const std::string path = tmp_path("split.vcd");
    {
        wave::Recorder rec(path, 10);
        rec.add(*pmu, "pmu");
        rec.start();
        EventBatch b;
        b.cycles = 25;
        const AdvanceResult r = rec.advance(*pmu, b, 0);
        EXPECT_TRUE(r.irq_rose);
        EXPECT_EQ(r.irq_cycle, 16u);
        rec.finish(25);
    }
    const Vcd v = read_vcd(path);
    ASSERT_TRUE(v.ok);
    EXPECT_EQ(v.timescale, "1 ns");
    // Every written value of the cycle counter is its value at that time: never ahead.
    for (const auto& c : v.signals.at("pmu.PMCCNTR_EL0")) EXPECT_EQ(c.value, 0xFFFFFFF0u + c.time) << "at " << c.time;
    std::vector<uint64_t> times;
    for (const auto& c : v.signals.at("pmu.PMCCNTR_EL0")) times.push_back(c.time);
    EXPECT_EQ(times, (std::vector<uint64_t>{0, 10, 16, 20, 25}));  // samples, the overflow and the end
    const uint64_t wrapped = v.first("pmu.PMCCNTR_EL0", [](uint64_t x) { return x >= 0x100000000u; });
    const uint64_t flag = v.first("pmu.PMOVSCLR_EL0", [](uint64_t x) { return (x >> 31) & 1; });
    const uint64_t irq = v.first("pmu.irq_request", [](uint64_t x) { return x == 1; });
    EXPECT_EQ(wrapped, 16u);
    EXPECT_EQ(flag, 16u);
    EXPECT_EQ(irq, 16u);
    EXPECT_EQ(v.end, 25u);
    std::remove(path.c_str());
}

TEST(Waveform, EventsAreNeverShownEarly) {
    // Counter 0 counts INST_RETIRED. A batch of 30 cycles with 30 instructions from t = 5 crosses the sample
    // point at 10: the count is exact only at the batch's end (35), where it is written; at 10..34 the file
    // still shows 0.
    auto pmu = find_platform("cortex-a53")->make({});
    AccessContext el1;
    pmu->write(*pmu->bank().find("PMEVTYPER0_EL0"), 0x08, el1);
    pmu->write(*pmu->bank().find("PMCNTENSET_EL0"), 0x1, el1);
    pmu->write(*pmu->bank().find("PMCR_EL0"), 0x1, el1);
    const std::string path = tmp_path("events.vcd");
    {
        wave::Recorder rec(path, 10);
        rec.add(*pmu, "pmu");
        rec.start();
        EventBatch idle;
        idle.cycles = 5;
        rec.advance(*pmu, idle, 0);
        EventBatch b;
        b.cycles = 30;
        b.add(0x08, 30);
        rec.advance(*pmu, b, 5);
        rec.finish(40);
    }
    const Vcd v = read_vcd(path);
    ASSERT_TRUE(v.ok);
    EXPECT_EQ(v.at("pmu.PMEVCNTR0_EL0", 34), 0u);
    EXPECT_EQ(v.at("pmu.PMEVCNTR0_EL0", 35), 30u);
    std::remove(path.c_str());
}

TEST(Waveform, TwoPmusInScopesDoNotCollide) {
    auto a = preloaded_a53(5), b = preloaded_a53(8);
    const std::string path = tmp_path("two.vcd");
    {
        wave::Recorder rec(path, 100);
        rec.add(*a, "top.cpu0.pmu");
        rec.add(*b, "top.cpu1.pmu");
        rec.start();
        EventBatch x;
        x.cycles = 10;
        rec.advance(*a, x, 0);
        rec.advance(*b, x, 0);
        rec.finish(10);
    }
    const Vcd v = read_vcd(path);
    ASSERT_TRUE(v.ok);
    EXPECT_EQ(v.first("top.cpu0.pmu.irq_request", [](uint64_t x) { return x == 1; }), 5u);
    EXPECT_EQ(v.first("top.cpu1.pmu.irq_request", [](uint64_t x) { return x == 1; }), 8u);
    EXPECT_EQ(v.at("top.cpu0.pmu.PMCCNTR_EL0", 10), 0x100000005u);
    EXPECT_EQ(v.at("top.cpu1.pmu.PMCCNTR_EL0", 10), 0x100000002u);
    std::remove(path.c_str());
}

TEST(Waveform, UnfinishedLeavesTheExistingFileAlone) {
    const std::string path = tmp_path("keep.vcd");
    std::ofstream(path) << "not mine";
    {
        auto pmu = preloaded_a53(5);
        wave::Recorder rec(path, 10);
        rec.add(*pmu, "pmu");
        rec.start();
    }  // destroyed without finish(): a failed run
    EXPECT_EQ(slurp(path), "not mine");
    std::remove(path.c_str());
    EXPECT_THROW(wave::Recorder("/nonexistent-dir/x.vcd", 10), std::runtime_error);
}

TEST(Waveform, ReplayBatchesEndAtSamplePoints) {
    // With one cycle per instruction every cycle is an instruction boundary, so a batch ends on every multiple
    // of the sample period.
    replay::Options o;
    o.platform = "cortex-a53";
    o.trace = std::string(PMUSIM_SOURCE_DIR) + "/traces/samples/pmu_loop.a64.pmt";
    o.timing = replay::Timing::cpi1;
    o.sample_period = 100;
    auto pmu = find_platform("cortex-a53")->make({});
    o.pmu = pmu.get();
    std::vector<uint64_t> ends;
    uint64_t now = 0;
    o.advance_hook = [&](const EventBatch& b) {
        now += b.cycles;
        ends.push_back(now);
        return pmu->advance(b);
    };
    const replay::Result r = replay::run(o);
    EXPECT_EQ(r.cycles, 3023u);  // cpi1: the trace's 3023 instructions
    for (uint64_t t = 100; t <= r.cycles; t += 100)
        EXPECT_NE(std::find(ends.begin(), ends.end(), t), ends.end()) << "no batch ends at " << t;
}

TEST(Waveform, ScriptVcdOverflowFlagAndLineAtOneTime) {
    // tests/e2e/vcd_overflow.pmus: PMCCNTR = 0xFFFFFF00 at t = 0 with LC = 0, so it holds 0xFFFFFF00 + t and
    // overflows (0xFFFFFF00 + 256 = 2^32) at t = 256; the handler's write at
    // t = 1000 clears the flag and the request; the script ends at 1100.
    const std::string path = tmp_path("script.vcd");
    std::string out;
    ASSERT_EQ(pmusim("script --vcd " + path + " --vcd-period 100 " + PMUSIM_SOURCE_DIR + "/tests/e2e/vcd_overflow.pmus", &out), 0)
        << out;
    EXPECT_EQ(out.find("Warning"), std::string::npos) << "SystemC's own messages leaked: " << out;
    const Vcd v = read_vcd(path);
    ASSERT_TRUE(v.ok);
    for (const auto& c : v.signals.at("pmu.PMCCNTR_EL0")) {
        if (c.value) {
            EXPECT_EQ(c.value, 0xFFFFFF00u + c.time) << "at " << c.time;
        }
    }
    EXPECT_EQ(v.first("pmu.PMCCNTR_EL0", [](uint64_t x) { return x >= 0x100000000u; }), 256u);
    EXPECT_EQ(v.first("pmu.PMOVSCLR_EL0", [](uint64_t x) { return (x >> 31) & 1; }), 256u);
    EXPECT_EQ(v.first("pmu.irq_request", [](uint64_t x) { return x == 1; }), 256u);
    EXPECT_EQ(v.at("pmu.irq_request", 999), 1u);
    EXPECT_EQ(v.at("pmu.irq_request", 1000), 0u);
    EXPECT_EQ(v.at("pmu.PMOVSCLR_EL0", 1000), 0u);
    EXPECT_EQ(v.at("pmu.PMCCNTR_EL0", 1100), 0x10000034Cu);  // 0xFFFFFF00 + 1100
    EXPECT_EQ(v.end, 1100u);
    // Samples every 100 cycles bound the size: 11 sample points, the overflow and the accesses.
    EXPECT_LE(v.signals.at("pmu.PMCCNTR_EL0").size(), 15u);
    std::remove(path.c_str());
}

TEST(Waveform, ScriptWithoutTickWritesAValidFile) {
    const std::string script = tmp_path("notick.pmus"), path = tmp_path("notick.vcd");
    std::ofstream(script) << "platform cortex-a53\nel 1\nwrite PMCR_EL0 0x1\n";
    ASSERT_EQ(pmusim("script --vcd " + path + " " + script), 0);
    const Vcd v = read_vcd(path);
    EXPECT_TRUE(v.ok);
    EXPECT_EQ(v.at("pmu.PMCR_EL0", 0) & 1, 1u);
    std::remove(script.c_str());
    std::remove(path.c_str());
}

TEST(Waveform, RunVcdCycleCounterIsExactAtItsSamples) {
    // pmu_loop.a64: `msr pmcr_el0` (E, P, C, LC) resets and starts the cycle counter; under --timing cpi1 it then
    // counts one a cycle, so at every later time t it holds t - t_enable.
    const std::string path = tmp_path("run.vcd");
    ASSERT_EQ(pmusim("run -p cortex-a53 --timing cpi1 --vcd " + path + " --vcd-period 250 -t " +
                     PMUSIM_SOURCE_DIR + "/traces/samples/pmu_loop.a64.pmt"),
              0);
    const Vcd v = read_vcd(path);
    ASSERT_TRUE(v.ok);
    const uint64_t enable = v.first("pmu.PMCR_EL0", [](uint64_t x) { return x & 1; });
    ASSERT_NE(enable, ~uint64_t{0});
    unsigned samples = 0;
    for (const auto& c : v.signals.at("pmu.PMCCNTR_EL0")) {
        if (c.time <= enable) continue;
        EXPECT_EQ(c.value, c.time - enable) << "at " << c.time;
        ++samples;
    }
    EXPECT_GE(samples, 3023u / 250 - 1);
    EXPECT_LE(samples, 3023u / 250 + 2);  // the period, not the trace, sets the size
    std::remove(path.c_str());
}

TEST(Waveform, RunVcdDefaultPeriodShowsTheCounterMove) {
    // Without --vcd-period the counters are sampled every 200 cycles (docs/waveforms.md): under --timing cpi1 the
    // cycle counter of the bundled sample runs from its enable to the end (3023 cycles), so from there on the
    // file has a change of it at least every 200 cycles.
    const std::string path = tmp_path("default-period.vcd");
    ASSERT_EQ(pmusim("run -p cortex-a53 --timing cpi1 --vcd " + path + " -t " + PMUSIM_SOURCE_DIR + "/traces/samples/pmu_loop.a64.pmt"), 0);
    const Vcd v = read_vcd(path);
    ASSERT_TRUE(v.ok);
    const uint64_t enable = v.first("pmu.PMCR_EL0", [](uint64_t x) { return x & 1; });
    ASSERT_LT(enable, v.end);
    uint64_t last = enable;
    for (const auto& c : v.signals.at("pmu.PMCCNTR_EL0")) {
        if (c.time <= enable) continue;
        EXPECT_LE(c.time - last, 200u) << "no change of PMCCNTR_EL0 between " << last << " and " << c.time;
        last = c.time;
    }
    EXPECT_EQ(last, v.end);
    std::remove(path.c_str());
}

TEST(Waveform, VpOverflowLoop) {
    // testbench/samples/overflow-loop.pmus: the cycle counter 3000 cycles short of 2^32, counter 0 counting
    // INST_RETIRED; 4000 instructions at 2 cycles each. The overflow, its flag and the request at cycle 3000; the
    // counter holds 0xFFFFF448 + t wherever it is written; instructions are t / 2 at every sample.
    const std::string path = tmp_path("vp.vcd"), svg = tmp_path("vp.svg");
    ASSERT_EQ(pmusim("vp -p cortex-a53 --instructions 4000 --cpi 2 --vcd-period 250 --vcd " + path + " --plot " + svg +
                     " --setup " + PMUSIM_SOURCE_DIR + "/testbench/samples/overflow-loop.pmus"),
              0);
    const Vcd v = read_vcd(path);
    ASSERT_TRUE(v.ok);
    for (const auto& c : v.signals.at("pmu.PMCCNTR_EL0")) {
        if (c.value) {
            EXPECT_EQ(c.value, 0xFFFFF448u + c.time) << "at " << c.time;
        }
    }
    for (const auto& c : v.signals.at("pmu.PMEVCNTR0_EL0")) EXPECT_EQ(c.value, c.time / 2) << "at " << c.time;
    EXPECT_EQ(v.first("pmu.PMCCNTR_EL0", [](uint64_t x) { return x >= 0x100000000u; }), 3000u);
    EXPECT_EQ(v.first("pmu.PMOVSCLR_EL0", [](uint64_t x) { return (x >> 31) & 1; }), 3000u);
    EXPECT_EQ(v.first("pmu.irq_request", [](uint64_t x) { return x == 1; }), 3000u);
    EXPECT_EQ(v.end, 8000u);
    EXPECT_NE(slurp(svg).find("irq_request"), std::string::npos);
    std::remove(path.c_str());
    std::remove(svg.c_str());
}

// Runs the pmusim command with `input` as its standard input (or none); returns its exit status, and its
// standard output and standard error apart.
int pmusim_streams(const std::string& args, std::string& out, std::string& err, const std::string& input = "/dev/null") {
    const std::string o = tmp_path("out.txt"), e = tmp_path("err.txt");
    const int rc = std::system((std::string(PMUSIM_BINARY) + " " + args + " < " + input + " > " + o + " 2> " + e).c_str());
    out = slurp(o);
    err = slurp(e);
    std::remove(o.c_str());
    std::remove(e.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// How often `needle` occurs in `text`.
size_t occurrences(const std::string& text, const std::string& needle) {
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

TEST(SystemcMessages, SuccessWritesNothingToStandardError) {
    // The SystemC commands start pmusim-systemc in pmusim's place: nothing may be written before (issue 41).
    const std::string vcd = tmp_path("quiet.vcd"), svg = tmp_path("quiet.svg");
    std::string out, err;
    EXPECT_EQ(pmusim_streams("vp -p cortex-a53 --instructions 1000", out, err), 0);
    EXPECT_EQ(err, "");
    EXPECT_NE(out.find("cortex-a53: 1000 instructions"), std::string::npos) << out;
    // The script's own info line (the request it raises, line 9) is all standard error holds; with --quiet, nothing.
    const std::string script = std::string(PMUSIM_SOURCE_DIR) + "/tests/e2e/vcd_overflow.pmus";
    EXPECT_EQ(pmusim_streams("script --vcd " + vcd + " --plot " + svg + " " + script, out, err), 0);
    EXPECT_EQ(err, script + ":9: info [irq] interrupt request asserted at cycle 256\n");
    EXPECT_EQ(pmusim_streams("--quiet script --vcd " + vcd + " --plot " + svg + " " + script, out, err), 0);
    EXPECT_EQ(err, "");
    std::remove(vcd.c_str());
    std::remove(svg.c_str());
}

TEST(SystemcMessages, OnePrefixTheRightSeverity) {
    const std::string vcd = tmp_path("msg.vcd");
    std::string out, err;
    // A real error: one "pmusim:" prefix.
    EXPECT_EQ(pmusim_streams("vp -p z80", out, err), 2);
    EXPECT_EQ(occurrences(err, "pmusim:"), 1u) << err;
    EXPECT_NE(err.find("unknown platform 'z80'"), std::string::npos) << err;
    // A failed expectation is the script's finding, not an error of pmusim's: named by file and line.
    EXPECT_EQ(pmusim_streams("script --vcd " + vcd + " " + PMUSIM_SOURCE_DIR + "/tests/e2e/failing.pmus", out, err), 1);
    EXPECT_EQ((out + err).find("pmusim: error"), std::string::npos) << out << err;
    EXPECT_NE((out + err).find("failing.pmus:5: FAIL: expected PMCR_EL0 == 0x41033001"), std::string::npos) << out << err;
    // Info lines likewise (tests/e2e/swinc_irq.pmus line 10 raises the request).
    EXPECT_EQ(pmusim_streams("script --vcd " + vcd + " " + PMUSIM_SOURCE_DIR + "/tests/e2e/swinc_irq.pmus", out, err), 0);
    EXPECT_EQ(err.find("pmusim: error"), std::string::npos) << err;
    EXPECT_NE(err.find("swinc_irq.pmus:10: info [irq]"), std::string::npos) << err;
    // A script read from standard input is named <stdin> (docs/script.md).
    EXPECT_EQ(pmusim_streams("script --vcd " + vcd + " -", out, err, std::string(PMUSIM_SOURCE_DIR) + "/tests/e2e/malformed.pmus"), 2);
    EXPECT_EQ(err.rfind("<stdin>:4: error: unknown register 'PMCRR_EL0'", 0), 0u) << err;
    std::remove(vcd.c_str());
}

TEST(Waveform, OnlyTheRegistersTheCoreImplements) {
    // A Cortex-A53 has N = 6 event counters (Cortex-A53 TRM, PMCR_EL0.N): counters 6-30 and their type registers
    // are not implemented, and an AArch32 register is a view of its AArch64 one's state, shown once.
    const std::string vcd = tmp_path("regs.vcd");
    std::string out, err;
    ASSERT_EQ(pmusim_streams("vp -p cortex-a53 --instructions 100 --vcd " + vcd, out, err), 0) << err;
    const std::string dump = out.substr(out.find("registers:\n"));
    for (const char* shown : {"  PMCR_EL0 ", "  PMCCNTR_EL0 ", "  PMEVCNTR5_EL0 ", "  PMEVTYPER5_EL0 "})
        EXPECT_NE(dump.find(shown), std::string::npos) << shown << " missing from\n" << dump;
    for (const char* hidden : {"PMEVCNTR6_EL0", "PMEVTYPER6_EL0", "PMEVTYPER30_EL0", "  PMCR ", "  PMEVTYPER0 ", "  PMCCNTR "})
        EXPECT_EQ(dump.find(hidden), std::string::npos) << hidden << " in\n" << dump;
    const Vcd v = read_vcd(vcd);
    ASSERT_TRUE(v.ok);
    EXPECT_EQ(v.signals.count("pmu.PMEVTYPER5_EL0"), 1u);
    EXPECT_EQ(v.signals.count("pmu.PMEVTYPER6_EL0"), 0u);
    EXPECT_EQ(v.signals.count("pmu.PMEVCNTR6_EL0"), 0u);
    std::remove(vcd.c_str());
}

TEST(Waveform, RunFailureKeepsTheExistingFile) {
    const std::string path = tmp_path("existing.vcd");
    std::ofstream(path) << "keep me";
    EXPECT_EQ(pmusim("run -p cortex-a53 -t /nonexistent.pmt --vcd " + path), 2);
    EXPECT_EQ(pmusim("run -p cortex-a53 -t /nonexistent.pmt --plot " + path), 2);
    EXPECT_EQ(slurp(path), "keep me");
    std::remove(path.c_str());
}

TEST(Series, JsonIntervalsParse) {
    // --timing cpi1: one cycle per instruction, so every point has cycles == instructions; points every 1000
    // instructions and the totals (3023) at the end.
    std::string out;
    ASSERT_EQ(pmusim(std::string("run -p cortex-a53 --timing cpi1 --interval 1000 --output json -t ") + PMUSIM_SOURCE_DIR +
                         "/traces/samples/pmu_loop.a64.pmt",
                     &out),
              0);
    const auto j = nlohmann::json::parse(out);
    ASSERT_TRUE(j.contains("intervals"));
    std::vector<uint64_t> at;
    for (const auto& p : j["intervals"]) {
        at.push_back(p["instructions"].get<uint64_t>());
        EXPECT_EQ(p["cycles"], p["instructions"]);
        EXPECT_EQ(p["events"]["INST_RETIRED"], p["instructions"]);
        EXPECT_TRUE(p["counters"].contains("PMCCNTR_EL0"));
    }
    EXPECT_EQ(at, (std::vector<uint64_t>{1000, 2000, 3000, 3023}));
    EXPECT_EQ(j["intervals"].back()["counters"], j["counters"]);
}

TEST(Series, CsvHasAHeaderAndOneRowAPoint) {
    std::string out;  // the CSV alone on standard output (the progress line goes to a terminal only)
    ASSERT_EQ(pmusim(std::string("run -p cortex-a53 --timing cpi1 --interval 500 --output csv -t ") + PMUSIM_SOURCE_DIR +
                         "/traces/samples/pmu_loop.a64.pmt",
                     &out),
              0);
    std::istringstream in(out);
    std::string header, line;
    std::getline(in, header);
    EXPECT_EQ(header.rfind("at_instructions,instructions,cycles,PMCCNTR_EL0,PMEVCNTR0_EL0,", 0), 0u) << header;
    const auto columns = std::count(header.begin(), header.end(), ',');
    unsigned rows = 0;
    std::string last;
    while (std::getline(in, line)) {
        EXPECT_EQ(std::count(line.begin(), line.end(), ','), columns) << line;
        if (rows < 6) {
            EXPECT_EQ(line.rfind(std::to_string(500 * (rows + 1)) + ",500,500,", 0), 0u) << line;
        }
        ++rows;
        last = line;
    }
    EXPECT_EQ(rows, 7u);  // 500 .. 3000, and 3023: each row what its interval added
    EXPECT_EQ(last.rfind("3023,23,23,", 0), 0u) << last;
}

// pmu_loop.a64.S: 16 set-up instructions with 3 loads (two ldr =literal, ldr x2, =buf), then 500 iterations of 6
// whose first, at instruction 17 + 6i, is a load, then 7 with one load (ldr x1, =exit_block) at instruction 3021.
// Per 1000 instructions: 3 + 164 (i = 0..163), 167 (i = 164..330), 167 (i = 331..497), then 2 + 1 in the last 23.
TEST(Series, IntervalRowsAreDeltasOfTheEventsAsked) {
    const std::string run = std::string("run -p cortex-a53 --timing cpi1 --output csv -e LD_RETIRED -t ") + PMUSIM_SOURCE_DIR +
                            "/traces/samples/pmu_loop.a64.pmt";
    std::string out;
    ASSERT_EQ(pmusim(run + " -I 1000", &out), 0) << out;
    EXPECT_EQ(out, "at_instructions,instructions,cycles,LD_RETIRED\n1000,1000,1000,167\n2000,1000,1000,167\n"
                   "3000,1000,1000,167\n3023,23,23,3\n");
    // Under cpi1 a cycle is an instruction: the same rows in cycles.
    ASSERT_EQ(pmusim(run + " --interval 1000 --interval-unit cycles", &out), 0) << out;
    EXPECT_EQ(out, "at_cycles,instructions,cycles,LD_RETIRED\n1000,1000,1000,167\n2000,1000,1000,167\n"
                   "3000,1000,1000,167\n3023,23,23,3\n");
    ASSERT_EQ(pmusim(run + " -I 1000 --interval-cumulative", &out), 0) << out;
    EXPECT_EQ(out, "instructions,cycles,LD_RETIRED\n1000,1000,167\n2000,2000,334\n3000,3000,501\n3023,3023,504\n");
    EXPECT_EQ(pmusim(run + " -I 1000 --interval-unit seconds", &out), 2);
    // JSON: each interval's counts from the start, and what it added (perf stat -I's per-interval counts).
    const std::string json = std::string("run -p cortex-a53 --timing cpi1 --output json -e LD_RETIRED -I 1000 -t ") +
                             PMUSIM_SOURCE_DIR + "/traces/samples/pmu_loop.a64.pmt";
    ASSERT_EQ(pmusim(json, &out), 0) << out;
    const auto j = nlohmann::json::parse(out);
    ASSERT_EQ(j["intervals"].size(), 4u);
    EXPECT_EQ(j["intervals"][1]["events"]["LD_RETIRED"], 334);
    EXPECT_EQ(j["intervals"][1]["added"]["events"]["LD_RETIRED"], 167);
    EXPECT_EQ(j["intervals"][1]["added"]["instructions"], 1000);
    EXPECT_EQ(j["intervals"][3]["added"]["instructions"], 23);
    EXPECT_EQ(j["intervals"][3]["added"]["events"]["LD_RETIRED"], 3);
}

TEST(PerfHabits, CsvSeparatorAndOutputFile) {
    const std::string sample = std::string(PMUSIM_SOURCE_DIR) + "/traces/samples/pmu_loop.a64.pmt";
    std::string out;
    // perf stat -x: value, unit (none), event, run time (the run's cycles: 3023 under cpi1), percentage.
    ASSERT_EQ(pmusim("run -p cortex-a53 --timing cpi1 -x ';' -e r6 -t " + sample, &out), 0);
    EXPECT_EQ(out.rfind("504;;r6;3023;100.00\n", 0), 0u) << out;
    // -o FILE: the report goes there, nothing to standard output; never over the trace.
    const std::string file = tmp_path("report.txt");
    ASSERT_EQ(pmusim("run -p cortex-a53 --timing cpi1 -o " + file + " -t " + sample, &out), 0);
    EXPECT_EQ(out, "");
    EXPECT_NE(slurp(file).find("3,023      instructions"), std::string::npos) << slurp(file);
    const std::string copy = tmp_path("trace.pmt");
    std::ofstream(copy) << slurp(sample);
    const std::string before = slurp(copy);
    EXPECT_EQ(pmusim("run -p cortex-a53 -o " + copy + " -t " + copy, &out), 2);
    EXPECT_NE(out.find("that is the trace"), std::string::npos) << out;
    EXPECT_EQ(slurp(copy), before);
    std::remove(file.c_str());
    std::remove(copy.c_str());
}

TEST(PerfHabits, EventsPatternAndGenericNames) {
    std::string out;
    ASSERT_EQ(pmusim("events -p cortex-a53 inst_", &out), 0);
    // Cortex-A53: INST_RETIRED 0x08 and INST_SPEC 0x1B match; CPU_CYCLES does not. perf's generic
    // "instructions" stands for INST_RETIRED (drivers/perf/arm_pmuv3.c).
    EXPECT_NE(out.find("0x8      INST_RETIRED"), std::string::npos) << out;
    EXPECT_NE(out.find("0x1b     INST_SPEC"), std::string::npos) << out;
    EXPECT_EQ(out.find("CPU_CYCLES"), std::string::npos) << out;
    EXPECT_NE(out.find("  instructions           INST_RETIRED"), std::string::npos) << out;
    ASSERT_EQ(pmusim("events -p cortex-a53", &out), 0);
    for (const char* alias : {"cycles", "instructions", "branches", "branch-misses", "cache-references", "cache-misses"})
        EXPECT_NE(out.find(std::string("\n  ") + alias + " "), std::string::npos) << alias;
    // A glob, case-insensitive.
    ASSERT_EQ(pmusim("events -p cortex-a53 'l1d_cache*'", &out), 0);
    EXPECT_NE(out.find("L1D_CACHE_REFILL"), std::string::npos) << out;
    EXPECT_EQ(out.find("L1I_CACHE"), std::string::npos) << out;
    // An operand a command does not take is an error.
    EXPECT_EQ(pmusim("events -p cortex-a53 a b", &out), 2);
    EXPECT_EQ(pmusim("platforms extra", &out), 2);
    EXPECT_EQ(pmusim("vp -p cortex-a53 extra", &out), 2);
}

TEST(Series, ThinningKeepsEveryPointWhole) {
    // A plot's series (cap 1000) of a 100,000-instruction trace sampled every 16 instructions: 6250 calls, thinned
    // by halving. Call n is the point at 16 (n + 1) instructions whose counters hold 16 (n + 1) and n + 1: every
    // kept point must still carry both (the first one too: it used to be moved onto itself and emptied).
    replay::Series s(1000);
    for (uint64_t n = 0; n < 6250; ++n) {
        replay::IntervalPoint p;
        p.instructions = p.cycles = 16 * (n + 1);
        p.counters = {{"PMCCNTR_EL0", 16 * (n + 1)}, {"PMEVCNTR0_EL0", n + 1}};
        s.add(p);
    }
    const auto& pts = s.points();
    ASSERT_LE(pts.size(), 1000u);
    ASSERT_GE(pts.size(), 250u);
    EXPECT_EQ(pts.front().instructions, 16u);
    EXPECT_EQ(pts.back().instructions, 100000u);  // the totals are always kept
    for (const auto& p : pts) {
        ASSERT_EQ(p.counters.size(), 2u) << "at " << p.instructions;
        EXPECT_EQ(p.counters[0].second, p.instructions);
        EXPECT_EQ(p.counters[1].second, p.instructions / 16);
    }
    const plot::Figure f = replay::figure(*find_platform("cortex-a53"), "t", s, false, {});
    ASSERT_EQ(f.panels.size(), 3u);  // the two counters and the interrupt request
    EXPECT_EQ(f.panels[0].name, "PMCCNTR_EL0");
    EXPECT_EQ(f.panels[1].name, "PMEVCNTR0_EL0");
    EXPECT_EQ(f.panels[2].name, "interrupt request");
}

// A native-text trace of `n` RV32 `addi x0, x0, 0` (0x00000013) in machine mode, one after another.
std::string rv32_nops(const std::string& name, unsigned n) {
    const std::string path = tmp_path(name);
    std::ofstream t(path);
    t << "# pmusim trace 1\n";
    for (unsigned i = 0; i < n; ++i) t << "pc=0x" << std::hex << 0x80000000u + 4 * i << std::dec << " enc=0x00000013 size=4 isa=rv32 priv=3\n";
    return path;
}

TEST(Plot, LongVeerTraceHasItsCounterPanelsAndTheRequestLine) {
    // 100,000 instructions on VeeR EL2 under --timing cpi1: mcycle and minstret count from reset (mcountinhibit
    // resets to 0, veer §7) and reach 100,000; the plot has both panels, and the request line, low (VeeR EL2's
    // counters raise no overflow interrupt, veer §1), named as such.
    const std::string trace = rv32_nops("long.pmt.txt", 100000), svg = tmp_path("long.svg");
    ASSERT_EQ(pmusim("run -p veer-el2 --timing cpi1 --plot " + svg + " -t " + trace), 0);
    const std::string text = slurp(svg);
    EXPECT_NE(text.find(">100000 instructions, 100000 cycles"), std::string::npos);
    EXPECT_NE(text.find(">mcycle</text>"), std::string::npos);
    EXPECT_NE(text.find(">minstret</text>"), std::string::npos);
    EXPECT_NE(text.find(">interrupt request (VeeR EL2 has no counter-overflow interrupt)</text>"), std::string::npos);
    std::remove(trace.c_str());
    std::remove(svg.c_str());
}

TEST(Waveform, FirstStepsSampleShowsTheRequestHighForAWhile) {
    // testbench/samples/first-steps.pmus: ticks of 1024 and 6400 cycles (instructions take none), then the cycle
    // counter preloaded 1000 short of 2^32 (PMCR.LC = 0): it overflows at 1024 + 6400 + 1000 = 8424, where the
    // request rises; the handler's write 100 cycles later (8524) lowers it.
    const std::string path = tmp_path("first-steps.vcd");
    ASSERT_EQ(pmusim("script --vcd " + path + " " + PMUSIM_SOURCE_DIR + "/testbench/samples/first-steps.pmus"), 0);
    const Vcd v = read_vcd(path);
    ASSERT_TRUE(v.ok);
    EXPECT_EQ(v.first("pmu.irq_request", [](uint64_t x) { return x == 1; }), 8424u);
    EXPECT_EQ(v.at("pmu.irq_request", 8523), 1u);
    EXPECT_EQ(v.at("pmu.irq_request", 8524), 0u);
    std::remove(path.c_str());
}

TEST(Plot, SvgRenders) {
    const std::string svg = tmp_path("loop.svg"), png = tmp_path("loop.png");
    ASSERT_EQ(pmusim(std::string("run -p cortex-a53 --plot ") + svg + " --plot-events INST_RETIRED -t " + PMUSIM_SOURCE_DIR +
                     "/traces/samples/pmu_loop.a64.pmt"),
              0);
    const std::string text = slurp(svg);
    EXPECT_EQ(text.rfind("<?xml", 0), 0u);
    EXPECT_NE(text.find("PMCCNTR_EL0"), std::string::npos);
    EXPECT_NE(text.find("INST_RETIRED"), std::string::npos);
    EXPECT_NE(text.find("</svg>"), std::string::npos);
    if (std::system("command -v rsvg-convert > /dev/null 2>&1") != 0) GTEST_SKIP() << "rsvg-convert not installed";
    ASSERT_EQ(std::system(("rsvg-convert " + svg + " -o " + png).c_str()), 0);
    struct stat st {};
    ASSERT_EQ(stat(png.c_str(), &st), 0);
    EXPECT_GT(st.st_size, 1000);
    std::remove(svg.c_str());
    std::remove(png.c_str());
}

TEST(Plot, UnknownEventIsAUsageError) {
    EXPECT_EQ(pmusim(std::string("run -p cortex-a53 --plot /tmp/x.svg --plot-events NOPE -t ") + PMUSIM_SOURCE_DIR +
                     "/traces/samples/pmu_loop.a64.pmt"),
              2);
}

}  // namespace
}  // namespace pmusim
