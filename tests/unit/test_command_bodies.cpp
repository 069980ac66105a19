// The commands' work without an option parser (testbench/command_bodies.hpp), which the web page runs: the
// words of an explanation before they are laid out, and a script recorded for a plot without SystemC.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "testbench/command_bodies.hpp"
#include "testbench/explain.hpp"
#include "testbench/platform_args.hpp"

namespace pmusim::cli {
namespace {

// `pmusim explain --platform cortex-a7 --set SET "mcr p15, 0, r2, c9, c12, 0"` (a PMCR write): its status.
int explain_pmcr_write(const std::string& set, Explained& x, std::ostream& err) {
    ExplainArgs a;
    a.platform = "cortex-a7";
    a.sets = {set};
    a.access = "mcr p15, 0, r2, c9, c12, 0";
    return explain(a, x, err);
}

TEST(ExplanationText, PmcrWriteOnCortexA7MarksTheFieldsThatChanged) {
    // ARMv7 ARM C12.8.2 PMCR: E [0], P [1], C [2], D [3], X [4]; 0x17 writes E, P, C, X = 1. P and C are actions
    // that read as zero, E keeps its 1 (reset 0): E changes, P and C do not.
    Explained x;
    std::ostringstream err;
    ASSERT_EQ(explain_pmcr_write("r2=0x17", x, err), 0) << err.str();
    const auto texts = explanation_text(*x.platform, *x.runner->pmu(), x.explanation);
    ASSERT_EQ(texts.size(), 1u);
    const RecordText& t = texts[0];
    EXPECT_EQ(t.columns, (std::vector<std::string>{"BITS", "FIELD", "ACCESS", "WRITTEN", "BEFORE", "AFTER", "MEANING",
                                                   "EFFECT"}));
    auto row = [&](const std::string& name) {
        const auto it = std::find_if(t.rows.begin(), t.rows.end(), [&](const auto& r) { return r.cells[1] == name; });
        EXPECT_NE(it, t.rows.end()) << name;
        return it == t.rows.end() ? RecordText::Row{} : *it;
    };
    EXPECT_EQ(row("E").cells[0], "[0]");
    EXPECT_EQ(row("E").cells[3], "0x1");
    EXPECT_EQ(row("E").cells[5], "0x1");
    EXPECT_TRUE(row("E").changed);
    EXPECT_EQ(row("P").cells[3], "0x1");
    EXPECT_EQ(row("P").cells[5], "0x0");
    EXPECT_FALSE(row("P").changed);
    EXPECT_FALSE(row("C").changed);
    EXPECT_EQ(row("D").cells[3], "0x0");
    EXPECT_FALSE(row("D").changed);
    // The text command lays out the same words.
    std::ostringstream text;
    print_explanation(text, *x.platform, *x.runner->pmu(), x.explanation);
    EXPECT_NE(text.str().find(t.heading + "\n"), std::string::npos) << text.str();
    for (const auto& r : t.rows) EXPECT_NE(text.str().find(r.cells[7]), std::string::npos) << r.cells[7];
}

TEST(ExplainBody, ASetTheAccessDoesNotReadIsRefused) {
    Explained x;
    std::ostringstream err;
    EXPECT_EQ(explain_pmcr_write("r3=1", x, err), usage_error);
    EXPECT_NE(err.str().find("the access does not read r3"), std::string::npos) << err.str();
}

TEST(RecordedScript, CycleCounterOverflowRaisesTheInterruptAtItsCycle) {
    // The cycle counter 1000 cycles short of its 32-bit overflow (0x100000000 - 0xFFFFFC18 = 1000), its interrupt
    // enabled (ARMv7 ARM C12.8: bit 31 of PMCNTENSET and PMINTENSET is the cycle counter): the request line
    // rises at cycle 1000 and the counter wraps to 1000 by cycle 2000.
    ScriptConfig cfg;
    std::ostringstream out, err;
    plot::Figure fig;
    const int st = run_script_recorded(cfg,
                                       "platform cortex-a7\nwrite PMCNTENSET 0x80000000\nwrite PMINTENSET 0x80000000\n"
                                       "write PMCCNTR 0xFFFFFC18\nwrite PMCR 0x1\ntick 2000\nexpect irq == 1\n",
                                       "t.pmus", 100, out, err, fig);
    EXPECT_EQ(st, script_ok) << err.str();
    EXPECT_NE(err.str().find("t.pmus:6: info [irq] interrupt request asserted at cycle 1000"), std::string::npos)
        << err.str();
    EXPECT_EQ(fig.title, "t.pmus on cortex-a7");
    EXPECT_EQ(fig.x_end, 2000);
    const auto panel = [&](const std::string& part) -> const plot::Panel* {
        for (const auto& p : fig.panels)
            if (p.name.find(part) != std::string::npos) return &p;
        return nullptr;
    };
    const plot::Panel* irq = panel("irq");
    ASSERT_NE(irq, nullptr);
    ASSERT_FALSE(irq->y.empty());
    EXPECT_EQ(irq->y.front(), 0);
    EXPECT_EQ(irq->y.back(), 1);
    const auto rise = std::find(irq->y.begin(), irq->y.end(), 1.0) - irq->y.begin();
    EXPECT_EQ(irq->x[static_cast<size_t>(rise)], 1000);
    const plot::Panel* ccnt = panel("PMCCNTR");
    ASSERT_NE(ccnt, nullptr);
    EXPECT_EQ(ccnt->y.back(), 1000);
}

TEST(RecordedScript, MalformedScriptIsAnErrorAtItsLine) {
    ScriptConfig cfg;
    std::ostringstream out, err;
    plot::Figure fig;
    EXPECT_EQ(run_script_recorded(cfg, "platform cortex-a7\nread PMCR\nfrobnicate 3\n", "t.pmus", 100, out, err, fig),
              script_malformed);
    EXPECT_EQ(err.str().rfind("t.pmus:3: error:", 0), 0u) << err.str();
}

TEST(RecordedScript, NoPlatformIsAnError) {
    ScriptConfig cfg;
    std::ostringstream out, err;
    plot::Figure fig;
    EXPECT_EQ(run_script_recorded(cfg, "tick 10\n", "t.pmus", 100, out, err, fig), script_malformed);
    EXPECT_NE(err.str().find("no platform"), std::string::npos) << err.str();
}

TEST(CommandTables, EventsWithoutModelledLeaveTheColumnOut) {
    const Platform& p = *find_platform("cortex-a7");
    auto pmu = p.make({});
    const Table without = event_table(p, *pmu, {});
    EXPECT_EQ(without.columns, (std::vector<std::string>{"NUMBER", "NAME", "IMPLEMENTED", "DESCRIPTION"}));
    // ARMv7 ARM C12.8.9 Table C12-2: 0x11 CPU_CYCLES, which the Cortex-A7 implements.
    const auto it = std::find_if(without.rows.begin(), without.rows.end(), [](const auto& r) { return r[0] == "0x11"; });
    ASSERT_NE(it, without.rows.end());
    EXPECT_EQ((*it)[1], "CPU_CYCLES");
    EXPECT_EQ((*it)[2], "yes");
    const Table with = event_table(p, *pmu, std::vector<bool>(65536, true));
    EXPECT_EQ(with.columns.size(), 5u);
    EXPECT_EQ(with.rows.front().size(), 5u);
}

}  // namespace
}  // namespace pmusim::cli
