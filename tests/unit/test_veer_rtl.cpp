// The VeeR EL2 timing model against the RTL probes of tests/veer-rtl (docs/accuracy.md, "RTL probes"). Each
// probe's console log holds the RTL's counts, one line per event set:
//     R <set> <ev3> <ev4> <ev5> <ev6> <mcycle> <minstret> <mhpmcounter3> <4> <5> <6>
// The replay of its exec.log follows the program's own counter programming; the model's values are those the
// program's reads of mcycle, minstret and mhpmcounter3-6 return in the replay. Architectural events must be
// exact; every other modelled event, and the cycles, within 5% of the RTL's (or 1 count, for counts below 20).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "replay/replay.hpp"

using namespace pmusim;

namespace {

const std::string probe_dir = std::string(PMUSIM_SOURCE_DIR) + "/tests/veer-rtl/";

struct Window {
    unsigned set = 0;
    uint32_t ev[4] = {};
    uint64_t rtl[6] = {};    // mcycle, minstret, mhpmcounter3-6
    uint64_t model[6] = {};
};

std::vector<Window> console_windows(const std::string& path) {
    std::ifstream f(path);
    std::vector<Window> v;
    std::string line;
    while (std::getline(f, line)) {
        const auto at = line.find("] R ");
        if (at == std::string::npos) continue;
        std::istringstream in(line.substr(at + 4));
        Window w;
        in >> w.set >> w.ev[0] >> w.ev[1] >> w.ev[2] >> w.ev[3];
        for (auto& x : w.rtl) in >> x;
        if (in) v.push_back(w);
    }
    return v;
}

// Events counted from the committed instructions alone (veer-el2-mhpm.md §3): the model must match exactly.
// Event 27 too: a JAL or JALR the decoder does not predict follows from the encoding (el2_dec_decode_ctl.sv,
// i0_br_unpred), although the timing model counts it.
const std::set<uint32_t> architectural = {4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 27, 37, 38, 39, 54, 55, 56};

struct Comparison {
    std::string what;
    uint64_t rtl, model;
    bool exact;
    uint32_t event = 0;  // 0: cycles or minstret
};

// The comparisons of one probe: cycles per window and every modelled event (not modelled ones are skipped).
std::vector<Comparison> compare(const std::string& probe, std::vector<uint32_t>* not_modelled = nullptr) {
    const std::string base = probe_dir + probe + "/rtl/" + probe;
    auto windows = console_windows(base + ".console.log");
    EXPECT_EQ(windows.size(), 13u) << probe << ": console log";
    replay::Options o;
    o.platform = "veer-el2";
    o.trace = base + ".exec.log.xz";
    o.keep_readbacks = true;
    const auto r = replay::run(o, nullptr);
    // The reads of one window, in the harness's order (common/probe.h).
    const std::vector<std::string> order = {"mcycle", "minstret", "mhpmcounter3", "mhpmcounter4", "mhpmcounter5", "mhpmcounter6"};
    size_t w = 0, k = 0;
    for (const auto& rb : r.readbacks) {
        if (w >= windows.size() || rb.reg != order[k]) continue;
        EXPECT_EQ(rb.traced & 0xFFFFFFFFu, windows[w].rtl[k]) << probe << ": exec.log read-back vs console, window " << w;
        windows[w].model[k] = rb.predicted & 0xFFFFFFFFu;
        if (++k == order.size()) k = 0, ++w;
    }
    EXPECT_EQ(w, windows.size()) << probe << ": read-backs found in the exec.log";
    const std::set<uint32_t> nm(r.not_modelled.begin(), r.not_modelled.end());
    if (not_modelled) *not_modelled = r.not_modelled;
    std::vector<Comparison> v;
    for (const auto& win : windows) {
        v.push_back({fmt::format("set {} cycles", win.set), win.rtl[0], win.model[0], false});
        v.push_back({fmt::format("set {} minstret", win.set), win.rtl[1], win.model[1], true});
        for (int c = 0; c < 4; ++c) {
            const uint32_t e = win.ev[c];
            if (nm.count(e)) continue;
            v.push_back({fmt::format("set {} event {}", win.set, e), win.rtl[2 + c], win.model[2 + c], architectural.count(e) > 0, e});
        }
    }
    return v;
}

bool within(const Comparison& c) {
    if (c.exact) return c.rtl == c.model;
    const double diff = std::abs(static_cast<double>(c.model) - static_cast<double>(c.rtl));
    return diff <= std::max(0.05 * static_cast<double>(c.rtl), 1.0);
}

void print_table(const std::string& probe, const std::vector<Comparison>& cmp) {
    if (!std::getenv("PMUSIM_VEER_TABLE")) return;
    for (const auto& c : cmp) {
        const double err = c.rtl ? 100.0 * (static_cast<double>(c.model) - static_cast<double>(c.rtl)) / static_cast<double>(c.rtl) : 0.0;
        fmt::print("| {} | {} | {} | {} | {:+.1f}% |{}\n", probe, c.what, c.rtl, c.model, err, within(c) ? "" : " FAIL");
    }
}

// minstret and the events counted from the committed instructions alone: exact.
void expect_exact(const std::string& probe) {
    const auto cmp = compare(probe);
    ASSERT_FALSE(cmp.empty());
    print_table(probe, cmp);
    size_t exact = 0;
    for (const auto& c : cmp)
        if (c.exact) {
            EXPECT_EQ(c.model, c.rtl) << probe << " " << c.what;
            ++exact;
        }
    EXPECT_GT(exact, 0u) << probe;
}

// The cycles of every window within 5% of the RTL's mcycle.
void expect_cycles(const std::string& probe) {
    const auto cmp = compare(probe);
    ASSERT_FALSE(cmp.empty());
    for (const auto& c : cmp)
        if (c.what.find("cycles") != std::string::npos) {
            EXPECT_TRUE(within(c)) << probe << " " << c.what << ": RTL " << c.rtl << ", model " << c.model;
        }
}

class VeerRtlProbe : public ::testing::TestWithParam<const char*> {};

TEST_P(VeerRtlProbe, ArchitecturalEventsExact) { expect_exact(GetParam()); }

TEST_P(VeerRtlProbe, CyclesWithinFivePercentOfTheRtl) { expect_cycles(GetParam()); }

// Every other modelled event within 5% of the RTL's count (or 1, below 20), on every probe. Mispredictions (25)
// and fetch stalls (28) have their own test.
void expect_modelled(const std::string& probe) {
    const auto cmp = compare(probe);
    ASSERT_FALSE(cmp.empty());
    for (const auto& c : cmp) {
        if (c.exact || c.event == 0 || c.event == 25 || c.event == 28) continue;
        EXPECT_TRUE(within(c)) << probe << " " << c.what << ": RTL " << c.rtl << ", model " << c.model;
    }
}

TEST_P(VeerRtlProbe, ModelledEventsWithinFivePercentOfTheRtl) { expect_modelled(GetParam()); }

// One event within 5% of the RTL's count (or 1, below 20) in every window that counts it; returns how many.
size_t expect_event_within(const std::string& probe, uint32_t event) {
    const auto cmp = compare(probe);
    EXPECT_FALSE(cmp.empty());
    size_t n = 0;
    for (const auto& c : cmp)
        if (c.event == event) {
            EXPECT_TRUE(within(c)) << probe << " " << c.what << ": RTL " << c.rtl << ", model " << c.model;
            ++n;
        }
    return n;
}

// Event 25 (branches mispredicted, the VeeR EL2 predictor of branch_predictor.cpp).
void expect_mispredictions(const std::string& probe) {
    EXPECT_GT(expect_event_within(probe, 25), 0u) << probe << ": no window counts event 25";
}

TEST_P(VeerRtlProbe, MispredictionsWithinFivePercentOfTheRtl) { expect_mispredictions(GetParam()); }

// Event 28 (cycles the fetch waits: for room in the fetch buffer, for a refill); it allowed 3 counts until irq's
// side-effect stores and redirects into a line being refilled were modelled (4 against 1).
void expect_fetch_stalls(const std::string& probe) { expect_event_within(probe, 28); }

TEST_P(VeerRtlProbe, FetchStallsWithinFivePercentOfTheRtl) { expect_fetch_stalls(GetParam()); }

// Probes written to check the calibration on programs it was not made on (sorthash: a sort, a hash table, binary
// searches; vm: a bytecode interpreter and a recursive quicksort), held to the same tests. They found two gaps, now
// closed (docs/accuracy.md, "Checks on new programs"): mispredictions (event 25 -11.5% and -16%, until the
// fetch-side history of branch_predictor.cpp) and vm's fetch and decode stalls behind a store of a division's
// result (events 28 and 30 13 and 14 against 18 and 20, until late_store_data_div).
class VeerRtlCheck : public ::testing::TestWithParam<const char*> {};

TEST_P(VeerRtlCheck, ArchitecturalEventsExact) { expect_exact(GetParam()); }

TEST_P(VeerRtlCheck, CyclesWithinFivePercentOfTheRtl) { expect_cycles(GetParam()); }

TEST_P(VeerRtlCheck, MispredictionsWithinFivePercentOfTheRtl) { expect_mispredictions(GetParam()); }

TEST_P(VeerRtlCheck, FetchStallsWithinFivePercentOfTheRtl) { expect_fetch_stalls(GetParam()); }

TEST_P(VeerRtlCheck, ModelledEventsWithinFivePercentOfTheRtl) { expect_modelled(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Checks, VeerRtlCheck, ::testing::Values("sorthash", "vm"));

INSTANTIATE_TEST_SUITE_P(Probes, VeerRtlProbe,
                         ::testing::Values("recursion", "axi_stride", "icache_big", "muldiv", "csr", "branchy", "straight",
                                           "misaligned", "stores", "irqoff", "bitmanip", "traps", "coremark_like",
                                           "dhrystone_like", "irq", "ev_sync", "ev_sync32", "ev_sync_rd", "ic_trap_a", "ic_trap_u", "ui",
                                           "unpred", "uj", "busmix", "busgap", "bytecopy", "splitma"));

// Probes whose gaps are known and listed in docs/accuracy.md ("Split stores' writes, interrupt entries at decode"):
// every other comparison is held to the probes' tests. (splitma's, events 34 and 43, are closed: "The D-bus
// buffer's writes in order"; it is one of the probes above.)
// Every comparison that is not exact (the cycles, the modelled events) within 5% or 1 count, but the events in
// `gaps`.
void expect_within_but(const std::string& probe, const std::set<uint32_t>& gaps) {
    for (const auto& c : compare(probe)) {
        if (c.exact || gaps.count(c.event)) continue;
        EXPECT_TRUE(within(c)) << probe << " " << c.what << ": RTL " << c.rtl << ", model " << c.model;
    }
}

// irqpair's minstret is exact in every window through the reader's interrupt entries (traces/veer_reader.cpp).
TEST(VeerRtlGaps, ArchitecturalEventsExact) { expect_exact("irqpair"); }

TEST(VeerRtlGaps, WithinFivePercentButTheListedGaps) { expect_within_but("irqpair", {}); }

}  // namespace
