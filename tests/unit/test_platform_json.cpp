// Platforms as data (issue 18): every built-in platform dumped to JSON and read back behaves identically, and a
// bad platform file is refused with the key that is wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include <fmt/format.h>
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

// nlohmann's reader stops at a NUL byte, so "1" then a NUL then a platform file's text parsed as the number 1 and
// the key scan then read the bytes after it (found by the platform fuzzer): a NUL anywhere is refused, with its line.
TEST(PlatformFile, NulByteIsRefused) {
    EXPECT_EQ(error_of(std::string("1\0{\"a\\u0041\0\": 1}", 17)),
              "my.json:1: a NUL byte: not a platform file (expected JSON text)");
    EXPECT_EQ(error_of(std::string("{\n\"name\": \"x\0\"}", 15)),
              "my.json:2: a NUL byte: not a platform file (expected JSON text)");
}

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

// The timing section as a whole (issue 42; docs/platform-files.md "Valid ranges"): every value that crashed the
// timing model (a division by zero, an assertion, a write out of bounds, a shift by 64, an allocation of 2^63) is
// refused as the file is read, with the key and the rule.
std::string timing_error(const std::string& key, const nlohmann::ordered_json& value) {
    auto j = a53();
    nlohmann::ordered_json* t = &j["timing"];
    std::string rest = key;
    for (size_t dot; (dot = rest.find('.')) != std::string::npos; rest = rest.substr(dot + 1)) t = &(*t)[rest.substr(0, dot)];
    (*t)[rest] = value;
    return error_of(j.dump(1));
}

TEST(PlatformFile, TimingSectionCheckedAsAWhole) {
    // Cortex-A53's L1D: 32 KiB, 4 ways of 64-byte lines; L2 512 KiB, 16 ways (timing_params.cpp).
    EXPECT_EQ(timing_error("l2.size", 0),
              "my.json: key 'timing.l2.size': 0 is not sets x ways x line: a non-zero multiple of ways x line = 16 x 64 = 1024 bytes");
    EXPECT_EQ(timing_error("l1d.size", 1000),
              "my.json: key 'timing.l1d.size': 1000 is not sets x ways x line: a non-zero multiple of ways x line = 4 x 64 = 256 bytes");
    EXPECT_EQ(timing_error("l1d.ways", 0), "my.json: key 'timing.l1d.ways': a cache has 1 to 64 ways, got 0");
    EXPECT_NE(timing_error("l1d.ways", 65).find("key 'timing.l1d.ways': expected a number from 0 to 0x40"), std::string::npos);
    EXPECT_EQ(timing_error("l1d.line", 3), "my.json: key 'timing.l1d.line': 3 is not a power of two from 4 to 4096 bytes");
    EXPECT_EQ(timing_error("l1d.dirty_parts", 0),
              "my.json: key 'timing.l1d.dirty_parts': 0 is not 1, 2, 4 or 8 dirty bits per line (and at most the line's 64 bytes)");
    EXPECT_EQ(timing_error("l1d.dirty_parts", 3),
              "my.json: key 'timing.l1d.dirty_parts': 3 is not 1, 2, 4 or 8 dirty bits per line (and at most the line's 64 bytes)");
    // 2^21 lines of 4 bytes: more than the 2^20 lines a cache may hold.
    EXPECT_NE(timing_error("l2", nlohmann::ordered_json{{"size", 8u << 20}, {"ways", 1}, {"line", 4}})
                  .find("key 'timing.l2.size': 8388608 bytes of 4-byte lines is more than 1048576 lines"),
              std::string::npos);
    EXPECT_EQ(timing_error("page_size", 0), "my.json: key 'timing.page_size': 0 is not a power of two from 1024 to 65536 bytes");
    EXPECT_EQ(timing_error("page_size", 3000), "my.json: key 'timing.page_size': 3000 is not a power of two from 1024 to 65536 bytes");
    // Cortex-A53's main TLB: 512 entries, 4 ways.
    EXPECT_EQ(timing_error("main_tlb_entries", 7),
              "my.json: key 'timing.main_tlb_entries': 7 is not sets x ways: a multiple of main_tlb_ways (4), or 0 for no main TLB");
    EXPECT_EQ(timing_error("main_tlb_ways", 0), "my.json: key 'timing.main_tlb_ways': a TLB has 1 to 64 ways, got 0");
    EXPECT_NE(timing_error("itlb_entries", 65).find("key 'timing.itlb_entries': expected a number from 0 to 0x40"), std::string::npos);
    // Events: 16 bits, and one of the platform's.
    EXPECT_NE(timing_error("ev_l1d_access", "0x7fffffff").find("key 'timing.ev_l1d_access': expected a number from 0 to 0xffff"),
              std::string::npos);
    EXPECT_NE(timing_error("ev_l1d_access", "0x10000").find("key 'timing.ev_l1d_access': expected a number from 0 to 0xffff"),
              std::string::npos);
    EXPECT_EQ(timing_error("ev_l1d_access", "0x9999"),
              "my.json: key 'timing.ev_l1d_access': event 0x9999 is not in the platform's 'events' table (give one of its "
              "numbers, or null for an event the core does not have)");
    // Shift widths and table sizes.
    EXPECT_NE(timing_error("predictor.btb_bits", 64).find("key 'timing.predictor.btb_bits': expected a number from 0 to 0x14"),
              std::string::npos);
    EXPECT_NE(timing_error("predictor.history_bits", 64).find("key 'timing.predictor.history_bits': expected a number from 0 to 0x20"),
              std::string::npos);
    EXPECT_NE(timing_error("predictor.btb_tag_bits", 64).find("key 'timing.predictor.btb_tag_bits': expected a number from 0 to 0x20"),
              std::string::npos);
    for (unsigned bits : {40u, 63u})
        EXPECT_NE(timing_error("predictor.table_bits", bits).find("key 'timing.predictor.table_bits': expected a number from 0 to 0x18"),
                  std::string::npos);
    EXPECT_EQ(timing_error("ibus_beat", 0), "my.json: key 'timing.ibus_beat': 0 is not a power of two from 1 to 4096 bytes");
    EXPECT_EQ(timing_error("ibus_beat", 128), "my.json: key 'timing.ibus_beat': 128 bytes is more than the I-cache's line (64 bytes)");
    EXPECT_EQ(timing_error("dbus_beat", 12), "my.json: key 'timing.dbus_beat': 12 is not 0 (never split) or a power of two up to 4096 bytes");
    EXPECT_NE(timing_error("mispredict_penalty", 70000).find("key 'timing.mispredict_penalty': expected a number from 0 to 0xffff"),
              std::string::npos);
    EXPECT_NE(timing_error("local_data", nlohmann::ordered_json{{"base", "0xffffffffffff0000"}, {"size", "0x20000"}})
                  .find("key 'timing.local_data.size': base 0xffffffffffff0000 + size 0x20000 goes past the end"),
              std::string::npos);
    // The limits themselves are valid: a cache of 64 ways, a 3-way cache of 48 KiB (sets need not be a power of
    // two), a TLB of 64 KiB pages.
    EXPECT_EQ(timing_error("l1d", nlohmann::ordered_json{{"size", 4096 * 64}, {"ways", 64}, {"line", 64}}), "(accepted)");
    EXPECT_EQ(timing_error("l1i", nlohmann::ordered_json{{"size", 48 * 1024}, {"ways", 3}, {"line", 64}}), "(accepted)");
    EXPECT_EQ(timing_error("page_size", 65536), "(accepted)");
}

// A veer_el2 predictor keeps two banks of counters: at least one bit of index.
TEST(PlatformFile, VeerPredictorNeedsTwoBanks) {
    auto j = nlohmann::ordered_json::parse(dump_platform(*find_platform("veer-el2")));
    j["timing"]["predictor"]["table_bits"] = 0;
    EXPECT_EQ(error_of(j.dump()), "my.json: key 'timing.predictor.table_bits': veer_el2 keeps its counters in two banks: 1 to 24 bits, got 0");
}

TEST(PlatformFile, JsonLevelErrorsNameTheFile) {
    std::string text = a53().dump(2);
    const size_t at = text.find("\"counters\": 6");
    ASSERT_NE(at, std::string::npos);
    const std::string big = text.substr(0, at) + "\"counters\": 1e999" + text.substr(at + 13);
    EXPECT_NE(error_of(big).find("my.json: not valid JSON"), std::string::npos) << error_of(big);
    // A key given twice: both lines named (the second value is not silently taken).
    const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    const std::string dup = text.substr(0, at) + "\"counters\": 4,\n  " + text.substr(at);
    EXPECT_EQ(error_of(dup), fmt::format("my.json:{}: key 'counters' is given twice in one object (lines {} and {})", line + 1,
                                         line, line + 1));
    // The same name written with an escape is the same key.
    EXPECT_NE(error_of("{\"name\": \"a\",\n\"n\\u0061me\": \"b\"}").find("my.json:2: key 'name' is given twice"), std::string::npos);
    // Equal keys in different objects are no duplicates.
    EXPECT_EQ(error_of(dup).find("l1d"), std::string::npos);
    // Nesting deeper than a platform file's (it crashed the message's recursive dump), and a long value, are not
    // echoed whole.
    const std::string deep = text.substr(0, at) + "\"counters\": " + std::string(100000, '[') + std::string(100000, ']') +
                             text.substr(at + 13);
    EXPECT_EQ(error_of(deep), fmt::format("my.json:{}: nested more than 32 deep: not a platform file", line));
    auto j = a53();
    j["counters"] = std::string(100000, 'x');
    EXPECT_EQ(error_of(j.dump()), "my.json: key 'counters': expected a number from 0 to 0x1f (or a string such as \"0x1f\"), got \"" +
                                      std::string(120, 'x') + "... (99880 more bytes)\"");
    j["counters"] = nlohmann::ordered_json::array({1, 2, 3});
    EXPECT_EQ(error_of(j.dump()), "my.json: key 'counters': expected a number from 0 to 0x1f (or a string such as \"0x1f\"), got an array of 3");
}

TEST(PlatformFile, FoldersAndEndlessFilesAreRefused) {
    const std::string folder = ::testing::TempDir() + "/pmusim-platform-folder.json";
    std::filesystem::create_directories(folder);
    try {
        load_platform_file(folder);
        ADD_FAILURE() << "a folder was read";
    } catch (const PlatformFileError& e) {
        EXPECT_EQ(std::string(e.what()), folder + ": is a folder, expected a platform file");
    }
    std::filesystem::remove(folder);
    if (!std::filesystem::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero";
    try {
        load_platform_file("/dev/zero");
        ADD_FAILURE() << "/dev/zero was read";
    } catch (const PlatformFileError& e) {
        EXPECT_EQ(std::string(e.what()), "/dev/zero: longer than 4 MiB: not a platform file (a dump is about 20 KiB)");
    }
}

// Every built-in platform's timing parameters keep the rules a platform file is held to.
TEST(PlatformFile, BuiltinTimingKeepsTheRules) {
    for (const auto& p : all_platforms()) {
        if (p.timing) {
            EXPECT_NO_THROW(check_timing(*p.timing, p.name)) << p.name;
        }
    }
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
