// Platforms as data (issue 18): every built-in platform dumped to JSON and read back behaves identically, and a
// bad platform file is refused with the key that is wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "platforms/platform_json.hpp"
#include "replay/replay.hpp"

namespace pmusim {
namespace {

std::string shared(const std::string& rel) { return std::string(PMUSIM_SHARED_DIR) + "/traces/" + rel; }

// The register map as text: names, widths, encodings, offsets, fields with their kinds and resets.
std::string register_map(const Pmu& pmu) {
    std::string s;
    for (const auto& r : pmu.bank().all()) {
        s += r->name + " w" + std::to_string(r->width) + " reset " + std::to_string(r->reset_value()) +
             (r->readable ? " R" : "") + (r->writable ? " W" : "");
        for (const auto& [space, key] : r->encodings) s += " e" + std::to_string(static_cast<int>(space)) + ":" + std::to_string(key);
        for (const auto& [off, shift] : r->offsets) s += " o" + std::to_string(off) + ":" + std::to_string(shift);
        for (const auto& f : r->fields)
            s += " " + f.name + "[" + std::to_string(f.lsb) + "+" + std::to_string(f.width) + "]k" +
                 std::to_string(static_cast<int>(f.kind)) + "r" + std::to_string(f.reset);
        s += "\n";
    }
    return s;
}

// A trace of the platform's instruction set: the sample beside the sources for ARMv8, the shared ones otherwise.
std::string trace_for(const Platform& p) {
    if (p.family == "armv8-pmuv3") return std::string(PMUSIM_SOURCE_DIR) + "/traces/samples/pmu_loop.a64.pmt";
    if (p.family == "armv7-cp15") return shared("qemu/a32_bm.execlog");
    if (p.family == "arm11-pmnc") return shared("qemu/arm11_versatilepb.log");
    return shared("veer-el2/hello_world.exec.log");
}

replay::Result replay_on(const std::string& platform, const std::string& trace, const std::vector<std::string>& events) {
    replay::Options o;
    o.platform = platform;
    o.trace = trace;
    o.events = events;
    return replay::run(o, nullptr);
}

class DumpReload : public ::testing::TestWithParam<std::string> {};

TEST_P(DumpReload, BehavesIdentically) {
    const Platform& p = *find_platform(GetParam());
    const std::string text = dump_platform(p);
    Platform q = parse_platform(text, "dump of " + p.name);
    EXPECT_EQ(dump_platform(q), text);  // the same data, field for field (timing included)
    EXPECT_EQ(q.name, p.name);
    EXPECT_EQ(q.family, p.family);
    EXPECT_EQ(q.pmu, p.pmu);
    EXPECT_EQ(q.counters, p.counters);
    EXPECT_EQ(q.isa, p.isa);
    EXPECT_EQ(q.cycle_event, p.cycle_event);
    EXPECT_EQ(q.timing.has_value(), p.timing.has_value());
    const auto pmu_p = p.make({}), pmu_q = q.make({});
    EXPECT_EQ(register_map(*pmu_q), register_map(*pmu_p));
    // Events: the same table, and the same ones implemented.
    ASSERT_EQ(q.event_names().size(), p.event_names().size());
    for (size_t i = 0; i < p.event_names().size(); ++i) {
        EXPECT_EQ(q.event_names()[i].number, p.event_names()[i].number);
        EXPECT_EQ(q.event_names()[i].name, p.event_names()[i].name);
        EXPECT_EQ(q.event_names()[i].description, p.event_names()[i].description);
    }
    std::vector<std::string> events;
    for (uint32_t e = 0; e < 0x10000; ++e) {
        ASSERT_EQ(q.implements(*pmu_q, e), p.implements(*pmu_p, e)) << std::hex << e;
        if (p.implements(*pmu_p, e) && e != p.cycle_event && events.size() < 2) events.push_back(std::to_string(e));
    }
    events.push_back(std::to_string(p.cycle_event));
    // A replay, with counters programmed: the same result.
    const std::string trace = trace_for(p);
    if (!std::filesystem::exists(trace)) GTEST_SKIP() << trace << " absent";
    q.name = "reloaded-" + p.name;
    const std::string reloaded = add_platform(std::move(q)).name;
    const auto a = replay_on(p.name, trace, events), b = replay_on(reloaded, trace, events);
    EXPECT_GT(a.instructions, 0u);
    EXPECT_EQ(b.instructions, a.instructions);
    EXPECT_EQ(b.cycles, a.cycles);
    EXPECT_EQ(b.event_totals, a.event_totals);
    EXPECT_EQ(b.counters, a.counters);
    EXPECT_EQ(b.readbacks_checked, a.readbacks_checked);
    EXPECT_EQ(b.readbacks_matched, a.readbacks_matched);
}

std::vector<std::string> builtin_names() {
    std::vector<std::string> v;
    for (const auto& p : all_platforms()) v.push_back(p.name);
    return v;
}

INSTANTIATE_TEST_SUITE_P(Builtin, DumpReload, ::testing::ValuesIn(builtin_names()),
                         [](const auto& param_info) {
                             std::string n = param_info.param;
                             for (auto& c : n)
                                 if (c == '-') c = '_';
                             return n;
                         });

// A bad file: the message names the origin and the key.
std::string error_of(const std::string& text) {
    try {
        parse_platform(text, "my.json");
    } catch (const PlatformFileError& e) {
        return e.what();
    }
    return "(accepted)";
}

nlohmann::ordered_json a53() { return nlohmann::ordered_json::parse(dump_platform(*find_platform("cortex-a53"))); }

TEST(PlatformFile, BadKeysAreNamed) {
    auto j = a53();
    j["ids"]["pmceid0"] = "0x1ffffffff";
    EXPECT_EQ(error_of(j.dump()), "my.json: key 'ids.pmceid0': bits above 31 set, but PMCEID0 is 32-bit before PMUv3p1");
    j = a53();
    j["counters"] = 32;
    EXPECT_NE(error_of(j.dump()).find("my.json: key 'counters': expected a number from 0 to 0x1f"), std::string::npos);
    j = a53();
    j["pmu"]["colour"] = "red";
    EXPECT_NE(error_of(j.dump()).find("my.json: key 'pmu.colour': unknown key"), std::string::npos);
    j = a53();
    j["family"] = "z80";
    EXPECT_NE(error_of(j.dump()).find("my.json: key 'family': expected armv8-pmuv3"), std::string::npos);
    j = a53();
    j["events"][3]["number"] = "0x2";
    EXPECT_EQ(error_of(j.dump()), "my.json: key 'events[3].number': event 0x2 is listed twice");
    j = a53();
    j["timing"]["l1d"]["ways"] = "four";
    EXPECT_NE(error_of(j.dump()).find("my.json: key 'timing.l1d.ways': expected a number"), std::string::npos);
    j = a53();
    j["timing"]["presync_csrs"] = "mstatus";
    EXPECT_EQ(error_of(j.dump()), "my.json: key 'timing.presync_csrs': expected an array of CSR numbers, got \"mstatus\"");
    j = a53();
    j["timing"]["postsync_csrs"] = {"0x300", "0x1000"};
    EXPECT_NE(error_of(j.dump()).find("my.json: key 'timing.postsync_csrs[1]': expected a number from 0 to 0xfff"), std::string::npos);
    j = a53();
    j["timing"]["store_buffer"] = 9;  // the LSU buffers hold at most 8 entries each
    EXPECT_NE(error_of(j.dump()).find("my.json: key 'timing.store_buffer': expected a number from 0 to 0x8"), std::string::npos);
    j = a53();
    j["timing"]["bus_buffer"] = 16;
    EXPECT_NE(error_of(j.dump()).find("my.json: key 'timing.bus_buffer': expected a number from 0 to 0x8"), std::string::npos);
    j = a53();
    j["options"]["unpredictable"] = "sometimes";
    EXPECT_NE(error_of(j.dump()).find("my.json: key 'options': option unpredictable"), std::string::npos);
    j = a53();
    j.erase("ids");
    EXPECT_EQ(error_of(j.dump()), "my.json: key 'ids': missing");
    EXPECT_NE(error_of("{\n  \"name\": \"x\",\n  oops\n}").find("my.json:3: not valid JSON"), std::string::npos);
}

TEST(PlatformFile, OwnCoreFromFigures) {
    // A core not in the list: 4 counters, IMP 0x51, IDCODE 0x7, PMUv3p1 with QEMU's PMCEID (v8 §3.1, §3.8).
    auto j = a53();
    j["name"] = "my-core";
    j["counters"] = 4;
    j["ids"] = {{"implementer", "0x51"}, {"idcode", "0x7"}, {"pmceid0", "0x20101"}, {"pmceid1", "0x18"}};
    j["pmu"]["version"] = "v3p1";
    const Platform p = parse_platform(j.dump(), "my-core.json");
    EXPECT_EQ(p.name, "my-core");
    EXPECT_EQ(p.pmu, "PMUv3p1");
    auto pmu = p.make({});
    AccessContext el1;
    EXPECT_EQ(pmu->read(*pmu->bank().find("PMCR_EL0"), el1).value_read, 0x51072000u);
    EXPECT_EQ(pmu->read(*pmu->bank().find("PMCEID1_EL0"), el1).value_read, 0x18u);
    EXPECT_TRUE(p.implements(*pmu, 0x23));   // STALL_FRONTEND: PMCEID1 bit 3
    EXPECT_FALSE(p.implements(*pmu, 0x03));  // L1D_CACHE_REFILL: PMCEID0 bit 3 clear
    // Options still apply on top of the file's figures.
    auto pmu2 = p.make({{"counters", "2"}});
    EXPECT_EQ(pmu2->read(*pmu2->bank().find("PMCR_EL0"), el1).value_read, 0x51071000u);
}

}  // namespace
}  // namespace pmusim
