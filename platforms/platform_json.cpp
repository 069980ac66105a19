#include "platforms/platform_json.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <fstream>
#include <map>
#include <vector>
#include <memory>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isa/number.hpp"
#include "traces/message.hpp"

namespace pmusim {

namespace {

using json = nlohmann::ordered_json;
using timing::TimingParams;

constexpr int format_version = 1;

// The names of the instruction classes, in isa::InsnClass order (the timing section's per-class tables).
constexpr std::array<const char*, timing::class_count> class_names = {
    "alu",      "load",           "store",     "branch", "jump",  "mul",    "div",  "barrier", "bitmanip", "sysreg",
    "csr_read", "csr_read_write", "csr_write", "ecall",  "ebreak", "mret", "fence", "fence_i"};
static_assert(class_names.back() != nullptr, "a name for every isa::InsnClass");

[[noreturn]] void bad(const std::string& origin, const std::string& key, const std::string& what) {
    throw PlatformFileError(fmt::format("{}: key '{}': {}", origin, printable(key, 120), what));
}

// A value as a message shows it: a string printable and cut, an array or object by its kind alone (a file's
// 4 MiB array is not echoed, nor dumped through nlohmann's recursive writer), a number or literal as written.
std::string shown(const json& v) {
    if (v.is_string()) return "\"" + printable(v.get_ref<const std::string&>(), 120) + "\"";
    if (v.is_array()) return fmt::format("an array of {}", v.size());
    if (v.is_object()) return fmt::format("an object of {} keys", v.size());
    return v.dump();
}

std::string hex(uint64_t v) { return fmt::format("{:#x}", v); }

// Reads one JSON object: every key it is asked for is noted, and finish() refuses the others.
class ObjectReader {
public:
    ObjectReader(const json& j, std::string origin, std::string path)
        : j_(j), origin_(std::move(origin)), path_(std::move(path)) {
        if (!j_.is_object()) bad(origin_, path_.empty() ? "(top level)" : path_, "expected an object");
    }
    std::string key(const std::string& k) const { return path_.empty() ? k : path_ + "." + k; }
    const std::string& origin() const { return origin_; }

    const json* find(const std::string& k) {
        seen_.insert(k);
        const auto it = j_.find(k);
        return it == j_.end() ? nullptr : &*it;
    }
    const json& need(const std::string& k) {
        const json* v = find(k);
        if (!v) bad(origin_, key(k), "missing");
        return *v;
    }
    // A number: a JSON unsigned integer, or a string in C syntax ("0x41").
    uint64_t number_of(const json& v, const std::string& k, uint64_t max) const {
        std::optional<uint64_t> n;
        if (v.is_number_unsigned()) n = v.get<uint64_t>();
        else if (v.is_string()) n = isa::parse_number(v.get<std::string>());
        if (!n || *n > max)
            bad(origin_, key(k), fmt::format("expected a number from 0 to {:#x} (or a string such as \"0x1f\"), got {}",
                                             max, shown(v)));
        return *n;
    }
    uint64_t number(const std::string& k, uint64_t max) { return number_of(need(k), k, max); }
    std::string string(const std::string& k) {
        const json& v = need(k);
        if (!v.is_string()) bad(origin_, key(k), fmt::format("expected a string, got {}", shown(v)));
        return v.get<std::string>();
    }
    bool boolean(const std::string& k) {
        const json& v = need(k);
        if (!v.is_boolean()) bad(origin_, key(k), fmt::format("expected true or false, got {}", shown(v)));
        return v.get<bool>();
    }
    void finish() const {
        for (const auto& [k, v] : j_.items())
            if (!seen_.count(k)) {
                std::string known;
                for (const auto& s : seen_) known += (known.empty() ? "" : ", ") + s;
                bad(origin_, key(k), fmt::format("unknown key (expected: {})", known));
            }
    }

private:
    const json& j_;
    std::string origin_, path_;
    std::set<std::string> seen_;
};

// ---------------------------------------------------------------------------------------------------------
// The timing section: one list of TimingParams' fields (visit_timing), used both to write and to read, so a field
// is either in both or in neither. The static_assert below catches a field added to TimingParams but not here.

template <class V>
void visit_cache(V& v, timing::CacheConfig& c) {
    v("size", c.size, 0xFFFFFFFFu);  // the relations between these: check_cache
    v("ways", c.ways, 64);           // Cache::max_ways: same_since() compares sets of up to 64 ways
    v("line", c.line, 4096);
    v("write_back", c.write_back);
    v("write_allocate", c.write_allocate);
    v("dirty_parts", c.dirty_parts, 8);  // a byte of dirty bits per line (cache.hpp, Way::dirty)
}

template <class V>
void visit_predictor(V& v, timing::PredictorConfig& c) {
    v.direction("direction", c.direction);
    // Tables of 2^bits entries: at most 2^24 counters and 2^20 targets (16 MiB each); shifts below 64 bits.
    v("table_bits", c.table_bits, 24);
    v("history_bits", c.history_bits, 32);
    v("btb_bits", c.btb_bits, 20);
    v("btb_tag_bits", c.btb_tag_bits, 32);  // BranchPredictor::VeerSlot::tag is 32 bits
    v("btb_ways", c.btb_ways, 2);
    v("ras_depth", c.ras_depth, 256);
    v("wrong_path_fetch", c.wrong_path_fetch, 64);
    v("wrong_path_windows", c.wrong_path_windows, 16);
    v("refill_windows", c.refill_windows, 16);
    v("enabled", c.enabled);
    v("btac_reach", c.btac_reach, 64);
}

// An out-of-order core (timing::OooConfig; its kinds of pipeline by number: 0 alu, 1 multi, 2 branch, 3 load,
// 4 store).
template <class V>
void visit_ooo(V& v, timing::OooConfig& c) {
    v("dispatch_width", c.dispatch_width, 16);
    v("retire_width", c.retire_width, 16);
    v("window", c.window, timing::OooConfig::max_window);
    v("refill", c.refill);
    v("mem_bytes", c.mem_bytes, 64);
    v("fetch_bytes", c.fetch_bytes, 64);
    v("alu_pipes", c.pipes[0], timing::OooConfig::max_pipes);
    v("multi_pipes", c.pipes[1], timing::OooConfig::max_pipes);
    v("branch_pipes", c.pipes[2], timing::OooConfig::max_pipes);
    v("load_pipes", c.pipes[3], timing::OooConfig::max_pipes);
    v("store_pipes", c.pipes[4], timing::OooConfig::max_pipes);
    v.per_class("pipe", c.pipe);
    v.per_class("latency", c.latency);
    v.per_class("busy", c.busy);
    v("rename_regs", c.rename_regs, timing::OooConfig::max_rename);
    v("rename_flags", c.rename_flags, timing::OooConfig::max_rename);
    v("mem_align", c.mem_align);
    v("writeback_alu", c.writeback_alu);
    v("call_alone", c.call_alone);
    v("multiple_uops", c.multiple_uops);
    v("fetch_spans", c.fetch_spans);
    v("mul_alu", c.mul_alu);
    v("issue_width", c.issue_width, timing::OooConfig::max_pipes);
    v("subword_load_busy", c.subword_load_busy, 63);
    v("load_forward", c.load_forward, 63);
    v("offset_shift_latency", c.offset_shift_latency, 63);
    v("shifter_latency", c.shifter_latency, 63);
    v("load_address_latency", c.load_address_latency, 63);
    v("taken_bubble", c.taken_bubble, 63);
    v("fetch_queue", c.fetch_queue, timing::OooConfig::max_fetch_queue);
    v("short_mul_latency", c.short_mul_latency, 63);
    v("long_mul_extra", c.long_mul_extra, 63);
    v("mul_hi_latency", c.mul_hi_latency, 63);
    v("mac_alus", c.mac_alus);
}

template <class V>
void visit_timing(V& v, TimingParams& t) {
    v.per_class("class_extra", t.class_extra);
    v.per_class("result_latency", t.result_latency);
    timing::ArmRuleParams::visit(t, v);  // the ARM rules' parameters, with their keys
    timing::FullStepParams::visit(t, v);  // VeeR EL2's mechanisms' parameters, with their keys
    v("late_store_data_div", t.late_store_data_div);
    v("flag_latency", t.flag_latency);
    v("pair_table", t.pair_table);
    v.per_class("pair_with", t.pair_with);
    v.per_class("pair_max_src", t.pair_max_src);
    v("multiple_max_cycles", t.multiple_max_cycles);
    v("multiple_holds_issue", t.multiple_holds_issue);
    v("mispredict_penalty", t.mispredict_penalty);
    v("return_hit_extra", t.return_hit_extra);
    v("return_miss_extra", t.return_miss_extra);
    v("load_return_miss_extra", t.load_return_miss_extra, 64);
    v("load_pc_other_extra", t.load_pc_other_extra, 64);
    v("static_taken_extra", t.static_taken_extra);
    v("fold_predicted_taken", t.fold_predicted_taken);
    v("btic_taken_extra", t.btic_taken_extra);
    v("btic_bytes", t.btic_bytes);
    v.object("predictor", t.predictor, [](V& w, timing::PredictorConfig& c) { visit_predictor(w, c); });
    v.optional("l1d", t.l1d, [](V& w, timing::CacheConfig& c) { visit_cache(w, c); });
    v.optional("l1i", t.l1i, [](V& w, timing::CacheConfig& c) { visit_cache(w, c); });
    v("l1d_refill_penalty", t.l1d_refill_penalty);
    v("l1i_refill_penalty", t.l1i_refill_penalty);
    v.optional("l2", t.l2, [](V& w, timing::CacheConfig& c) { visit_cache(w, c); });
    v("l2_refill_penalty", t.l2_refill_penalty);
    v("itlb_entries", t.itlb_entries, 64);  // fully associative: one set of `entries` ways (Cache::max_ways)
    v("dtlb_entries", t.dtlb_entries, 64);
    v("page_size", t.page_size, 65536);     // the relations of these: check_timing
    v("tlb_refill_penalty", t.tlb_refill_penalty);
    v("main_tlb_entries", t.main_tlb_entries, 4096);
    v("main_tlb_ways", t.main_tlb_ways, 64);
    v("walk_penalty", t.walk_penalty);
    v.event("ev_main_tlb_refill", t.ev_main_tlb_refill);
    v.event("ev_mispredict", t.ev_mispredict);
    v.event("ev_predictable", t.ev_predictable);
    v.event("ev_l1d_access", t.ev_l1d_access);
    v.event("ev_l1d_refill", t.ev_l1d_refill);
    v.event("ev_l1d_writeback", t.ev_l1d_writeback);
    v.event("ev_l1d_access_cacheable", t.ev_l1d_access_cacheable);
    v.event("ev_l1d_external", t.ev_l1d_external);
    v("count_line_once", t.count_line_once);
    v.event("ev_l1i_access", t.ev_l1i_access);
    v.event("ev_l1i_refill", t.ev_l1i_refill);
    v.event("ev_l2_access", t.ev_l2_access);
    v.event("ev_l2_refill", t.ev_l2_refill);
    v.event("ev_l2_writeback", t.ev_l2_writeback);
    v.event("ev_itlb_refill", t.ev_itlb_refill);
    v.event("ev_dtlb_refill", t.ev_dtlb_refill);
    v.event("ev_stall_frontend", t.ev_stall_frontend);
    v.event("ev_stall_backend", t.ev_stall_backend);
    v.event("ev_fetch_stall", t.ev_fetch_stall);
    v.event("ev_dep_stall", t.ev_dep_stall);
    v("flush_fetch_stall", t.flush_fetch_stall);
    v.event("ev_ras_push", t.ev_ras_push);
    v.event("ev_ras_pop", t.ev_ras_pop);
    v.event("ev_ras_hit", t.ev_ras_hit);
    v.event("ev_ras_miss", t.ev_ras_miss);
    v.event("ev_bus_access", t.ev_bus_access);
    v.event("ev_bus_load", t.ev_bus_load);
    v.event("ev_bus_store", t.ev_bus_store);
    v("bus_load_penalty", t.bus_load_penalty);
    v("bus_store_penalty", t.bus_store_penalty);
    v("bus_load_latency", t.bus_load_latency);
    v("uncached_fetch_penalty", t.uncached_fetch_penalty);
    v("wrong_path", t.wrong_path);
    v.event("ev_spec0", t.ev_spec[0]);
    v.event("ev_spec1", t.ev_spec[1]);
    v("flush_fetch_hits", t.flush_fetch_hits);
    v("trap_flush_fetch_hits", t.trap_flush_fetch_hits);
    v.event("ev_l1i_hit", t.ev_l1i_hit);
    v("ibus_beat", t.ibus_beat, 4096);
    v.event("ev_ibus_access", t.ev_ibus_access);
    v.event("ev_bus_misaligned", t.ev_bus_misaligned);
    v("follows_sctlr_z", t.follows_sctlr_z);
    v("store_penalty_side_effect_only", t.store_penalty_side_effect_only);
    v("divider_busy", t.divider_busy);
    v("l1i_sequential_refill_penalty", t.l1i_sequential_refill_penalty);
    v("bus_misaligned_load_penalty", t.bus_misaligned_load_penalty);
    v("bus_misaligned_store_penalty", t.bus_misaligned_store_penalty);
    v("dbus_beat", t.dbus_beat, 4096);
    v("dbus_read_cmd", t.dbus_read_cmd);
    v("split_bytes", t.split_bytes);
    v("ibus_read_gap", t.ibus_read_gap);
    v("dbus_cmd_gap", t.dbus_cmd_gap, 2);  // dbus_canonical's rule holds for gaps of at most 2
    v.event("ev_ibus_busy", t.ev_ibus_busy);
    v.event("ev_dbus_busy", t.ev_dbus_busy);
    v("ibuf_merge_window", t.ibuf_merge_window);
    v("ibuf_timeout", t.ibuf_timeout);
    v("bus_buffer", t.bus_buffer, 8);
    v.event("ev_store_buffer_full", t.ev_store_buffer_full);
    v("fill_buffer_cycles", t.fill_buffer_cycles);
    v("predict_exc_return", t.predict_exc_return);
    v.event("ev_irq_disabled", t.ev_irq_disabled);
    v("mstatus_write_extra", t.mstatus_write_extra);
    v("interrupt_entry", t.interrupt_entry);
    v("fw_halt_wake", t.fw_halt_wake);
    v("interrupt_after_enable", t.interrupt_after_enable);
    v("ext_interrupt_freeze", t.ext_interrupt_freeze);
    v("trap_redirect", t.trap_redirect);
    v("csr_read_lead", t.csr_read_lead);
    v.csr_list("presync_csrs", t.presync_csrs);
    v.csr_list("postsync_csrs", t.postsync_csrs);
    v.event("ev_presync", t.ev_presync);
    v.event("ev_postsync", t.ev_postsync);
    v.optional("ooo", t.ooo, [](V& w, timing::OooConfig& c) { visit_ooo(w, c); });
    v.string("source", t.source);
}
// Every field of TimingParams is in visit_timing (ArmRuleParams' and FullStepParams' in their visit()): a new field
// changes the size and stops the build here. Add it to visit_timing (and docs/platform-files.md), then update the
// size. The size is a 64-bit host's: the native build checks it; a 32-bit target (the web page's WebAssembly) lays
// the struct out smaller.
#if UINTPTR_MAX == UINT64_MAX
static_assert(sizeof(TimingParams) == 1080,
              "TimingParams changed: add the new field to visit_timing in platforms/platform_json.cpp");
#endif

constexpr std::pair<timing::PredictorConfig::Direction, const char*> directions[] = {
    {timing::PredictorConfig::Direction::not_taken, "not_taken"},
    {timing::PredictorConfig::Direction::btfn, "btfn"},
    {timing::PredictorConfig::Direction::bimodal, "bimodal"},
    {timing::PredictorConfig::Direction::gshare, "gshare"},
    {timing::PredictorConfig::Direction::veer_el2, "veer_el2"},
    {timing::PredictorConfig::Direction::btac, "btac"},
};

// Writes fields into a JSON object.
struct TimingWriter {
    json j = json::object();
    void operator()(const char* k, unsigned& v, unsigned = 0) { j[k] = v; }
    void operator()(const char* k, bool& v) { j[k] = v; }
    void address(const char* k, uint64_t& v) { j[k] = hex(v); }
    void event(const char* k, uint32_t& v) { j[k] = v == timing::no_event ? json(nullptr) : json(hex(v)); }
    void string(const char* k, std::string& v) { j[k] = v; }
    void csr_list(const char* k, std::vector<uint16_t>& v) {
        json a = json::array();
        for (uint16_t c : v) a.push_back(hex(c));
        j[k] = a;
    }
    void direction(const char* k, timing::PredictorConfig::Direction& d) {
        for (const auto& [dir, name] : directions)
            if (dir == d) j[k] = name;
    }
    template <class T>
    void per_class(const char* k, std::array<T, timing::class_count>& a) {
        json o = json::object();
        for (size_t i = 0; i < a.size(); ++i) o[class_names[i]] = a[i];
        j[k] = o;
    }
    template <class T, class F>
    void object(const char* k, T& v, F visit) {
        TimingWriter w;
        visit(w, v);
        j[k] = std::move(w.j);
    }
    template <class T, class F>
    void optional(const char* k, std::optional<T>& v, F visit) {
        if (v) object(k, *v, visit);
        else j[k] = nullptr;
    }
};

// The largest value of a timing parameter that visit_timing gives no limit of its own: cycles, instructions and
// counts of fetches. 65535 is far above any core's figure and keeps every sum of them far from overflowing.
constexpr unsigned max_count = 0xFFFF;
// Event numbers are 16 bits: ARMv8 PMEVTYPER<n>_EL0.evtCount (PMUv3p1 and later, armv8-pmuv3.md), ARMv7 and ARM11
// 8 bits, VeeR mhpmevent 10 bits (veer-el2-events.csv); replay::producible_events keeps a table of 2^16.
constexpr uint32_t max_event = 0xFFFF;
// A cache holds at most 2^20 lines (24 MiB of the model's state at most).
constexpr uint64_t max_cache_lines = uint64_t{1} << 20;

// Reads fields from a JSON object; a missing key keeps the field's default, an unknown one is an error.
struct TimingReader {
    ObjectReader r;
    const std::set<uint32_t>* events;  // the platform's event numbers: an event the model produces must be one
    TimingReader(const json& j, const std::string& origin, const std::string& path, const std::set<uint32_t>* ev)
        : r(j, origin, path), events(ev) {}
    void operator()(const char* k, unsigned& v, unsigned max = max_count) {
        if (const json* x = r.find(k)) v = static_cast<unsigned>(r.number_of(*x, k, max));
    }
    void operator()(const char* k, bool& v) {
        if (r.find(k)) v = r.boolean(k);
    }
    void address(const char* k, uint64_t& v) {
        if (const json* x = r.find(k)) v = r.number_of(*x, k, ~uint64_t{0});
    }
    void event(const char* k, uint32_t& v) {
        const json* x = r.find(k);
        if (!x) return;
        v = x->is_null() ? timing::no_event : static_cast<uint32_t>(r.number_of(*x, k, max_event));
        if (v != timing::no_event && events && !events->count(v))
            bad(r.origin(), r.key(k), fmt::format("event {:#x} is not in the platform's 'events' table (give one of its "
                                                  "numbers, or null for an event the core does not have)", v));
    }
    void string(const char* k, std::string& v) {
        if (r.find(k)) v = r.string(k);
    }
    // A list of CSR numbers (12 bits each).
    void csr_list(const char* k, std::vector<uint16_t>& v) {
        const json* x = r.find(k);
        if (!x) return;
        if (!x->is_array()) bad(r.origin(), r.key(k), fmt::format("expected an array of CSR numbers, got {}", shown(*x)));
        v.clear();
        for (size_t i = 0; i < x->size(); ++i)
            v.push_back(static_cast<uint16_t>(r.number_of((*x)[i], fmt::format("{}[{}]", k, i), 0xFFF)));
    }
    void direction(const char* k, timing::PredictorConfig::Direction& d) {
        if (!r.find(k)) return;
        const std::string s = r.string(k);
        for (const auto& [dir, name] : directions)
            if (s == name) {
                d = dir;
                return;
            }
        bad(r.origin(), r.key(k), fmt::format("expected not_taken, btfn, bimodal, gshare, veer_el2 or btac, got \"{}\"", printable(s, 120)));
    }
    template <class T>
    void per_class(const char* k, std::array<T, timing::class_count>& a) {
        const json* x = r.find(k);
        if (!x) return;
        ObjectReader o(*x, r.origin(), r.key(k));
        for (size_t i = 0; i < a.size(); ++i)
            if (const json* y = o.find(class_names[i]))
                a[i] = static_cast<T>(o.number_of(*y, class_names[i], std::numeric_limits<T>::max()));
        o.finish();
    }
    template <class T, class F>
    void object(const char* k, T& v, F visit) {
        const json* x = r.find(k);
        if (!x) return;
        TimingReader sub(*x, r.origin(), r.key(k), events);
        visit(sub, v);
        sub.r.finish();
    }
    template <class T, class F>
    void optional(const char* k, std::optional<T>& v, F visit) {
        const json* x = r.find(k);
        if (!x) return;
        if (x->is_null()) {
            v.reset();
            return;
        }
        T value = v.value_or(T{});
        TimingReader sub(*x, r.origin(), r.key(k), events);
        visit(sub, value);
        sub.r.finish();
        v = value;
    }
};

bool power_of_two(uint64_t v) { return v && (v & (v - 1)) == 0; }

// A cache's geometry (docs/platform-files.md, "Valid ranges"): what timing::Cache needs (cache.cpp: a line of a
// power of two, whole sets, dirty parts that split the line evenly) and a bound on its memory.
void check_cache(const timing::CacheConfig& c, const std::string& origin, const std::string& key) {
    if (!power_of_two(c.line) || c.line < 4)
        bad(origin, key + ".line", fmt::format("{} is not a power of two from 4 to 4096 bytes", c.line));
    if (c.ways == 0) bad(origin, key + ".ways", "a cache has 1 to 64 ways, got 0");
    const uint64_t way_bytes = uint64_t{c.ways} * c.line;
    if (c.size == 0 || c.size % way_bytes != 0)
        bad(origin, key + ".size",
            fmt::format("{} is not sets x ways x line: a non-zero multiple of ways x line = {} x {} = {} bytes", c.size,
                        c.ways, c.line, way_bytes));
    if (c.size / c.line > max_cache_lines)
        bad(origin, key + ".size", fmt::format("{} bytes of {}-byte lines is more than {} lines", c.size, c.line, max_cache_lines));
    if (!power_of_two(c.dirty_parts) || c.dirty_parts > c.line)
        bad(origin, key + ".dirty_parts",
            fmt::format("{} is not 1, 2, 4 or 8 dirty bits per line (and at most the line's {} bytes)", c.dirty_parts, c.line));
}

}  // namespace

void check_timing(const TimingParams& t, const std::string& origin) {
    if (t.ooo)
        if (const std::string e = timing::OooCore::invalid(*t.ooo); !e.empty()) bad(origin, "timing.ooo", e);
    for (const auto& [c, key] : {std::pair{&t.l1d, "timing.l1d"}, {&t.l1i, "timing.l1i"}, {&t.l2, "timing.l2"}})
        if (*c) check_cache(**c, origin, key);
    // The TLBs are caches of page-sized lines (TimingModel's constructor): 1 KiB (ARMv6/v7 tiny pages) to 64 KiB
    // (ARMv8 64 KiB granule), so that 4096 entries of them stay within the 32-bit size a Cache holds.
    if (!power_of_two(t.page_size) || t.page_size < 1024)
        bad(origin, "timing.page_size", fmt::format("{} is not a power of two from 1024 to 65536 bytes", t.page_size));
    if (t.main_tlb_ways == 0) bad(origin, "timing.main_tlb_ways", "a TLB has 1 to 64 ways, got 0");
    if (t.main_tlb_entries % t.main_tlb_ways != 0)
        bad(origin, "timing.main_tlb_entries",
            fmt::format("{} is not sets x ways: a multiple of main_tlb_ways ({}), or 0 for no main TLB", t.main_tlb_entries,
                        t.main_tlb_ways));
    // An I-cache refill is line / ibus_beat bus transactions (TimingModel::fetch, ev_ibus_access).
    if (!power_of_two(t.ibus_beat))
        bad(origin, "timing.ibus_beat", fmt::format("{} is not a power of two from 1 to 4096 bytes", t.ibus_beat));
    if (t.l1i && t.ibus_beat > t.l1i->line)
        bad(origin, "timing.ibus_beat", fmt::format("{} bytes is more than the I-cache's line ({} bytes)", t.ibus_beat, t.l1i->line));
    if (t.dbus_beat && !power_of_two(t.dbus_beat))
        bad(origin, "timing.dbus_beat", fmt::format("{} is not 0 (never split) or a power of two up to 4096 bytes", t.dbus_beat));
    if (t.fetch_bytes && !power_of_two(t.fetch_bytes))
        bad(origin, "timing.fetch_bytes", fmt::format("{} is not 0 (no hit event) or a power of two up to 64 bytes", t.fetch_bytes));
    if (!timing::TimingModel::branch_cycles_fit(t))
        bad(origin, "timing.mispredict_penalty",
            fmt::format("{} with mispredict_flag_window {}, return_hit_extra {}, return_miss_extra {}, static_taken_extra {} "
                        "and taken_extra {} (btic_taken_extra {}) is more than a branch's 16382 cycles",
                        t.mispredict_penalty, t.mispredict_flag_window, t.return_hit_extra, t.return_miss_extra,
                        t.static_taken_extra, t.taken_extra, t.btic_taken_extra));
    // veer_el2: a BHT of two banks and a BTB of two ways (BranchPredictor's constructor).
    if (t.predictor.direction == timing::PredictorConfig::Direction::veer_el2 && t.predictor.table_bits == 0)
        bad(origin, "timing.predictor.table_bits", "veer_el2 keeps its counters in two banks: 1 to 24 bits, got 0");
    if (t.predictor.btb_ways == 0)
        bad(origin, "timing.predictor.btb_ways", "the target table has 1 (direct-mapped) or 2 ways, got 0");
    for (const auto& [r, key] : {std::pair{&t.local_data, "timing.local_data"}, {&t.local_code, "timing.local_code"}})
        if (*r && (*r)->size > ~uint64_t{0} - (*r)->base)
            bad(origin, key + std::string(".size"),
                fmt::format("base {:#x} + size {:#x} goes past the end of the 64-bit address space", (*r)->base, (*r)->size));
}

namespace {

// ---------------------------------------------------------------------------------------------------------
// The platform

const char* version_name(ArmPmuVersion v) {
    switch (v) {
        case ArmPmuVersion::v1: return "v1";
        case ArmPmuVersion::v2: return "v2";
        case ArmPmuVersion::v3: return "v3";
        case ArmPmuVersion::v3p1: return "v3p1";
        case ArmPmuVersion::v3p4: return "v3p4";
        case ArmPmuVersion::v3p5: return "v3p5";
    }
    return "?";
}

const char* core_name(Arm11Core c) {
    switch (c) {
        case Arm11Core::arm1136: return "arm1136";
        case Arm11Core::arm1156: return "arm1156";
        case Arm11Core::arm1176: return "arm1176";
    }
    return "?";
}

json number_list(const std::vector<uint32_t>& v) {
    json a = json::array();
    for (uint32_t e : v) a.push_back(hex(e));
    return a;
}

std::vector<uint32_t> read_number_list(ObjectReader& r, const std::string& k) {
    const json& v = r.need(k);
    if (!v.is_array()) bad(r.origin(), r.key(k), fmt::format("expected an array of event numbers, got {}", shown(v)));
    std::vector<uint32_t> out;
    for (size_t i = 0; i < v.size(); ++i)
        out.push_back(static_cast<uint32_t>(r.number_of(v[i], fmt::format("{}[{}]", k, i), 0xFFFFFFFFu)));
    return out;
}

json platform_json(const Platform& p) {
    json j;
    j["pmusim_platform"] = format_version;
    j["name"] = p.name;
    j["family"] = p.family;
    j["description"] = p.description;
    j["source"] = p.source;
    j["counters"] = p.counters;
    json pmu = json::object();
    if (p.family == "armv8-pmuv3" || p.family == "armv7-cp15") {
        const ArmPmuConfig& c = p.arm;
        j["ids"] = {{"implementer", hex(c.implementer)}, {"idcode", hex(c.idcode)}, {"pmceid0", hex(c.pmceid0)},
                    {"pmceid1", hex(c.pmceid1)}};
        pmu["version"] = version_name(c.version);
        pmu["el2"] = c.has_el2;
        pmu["el3"] = c.has_el3;
        pmu["pmovsset"] = c.has_pmovsset;
        pmu["impdef_events"] = number_list(c.impdef_events);
    } else if (p.family == "arm11-pmnc") {
        pmu["core"] = core_name(p.arm11.core);
        pmu["implemented_events"] = number_list(p.arm11.events);
    }
    j["pmu"] = pmu;
    json opts = json::object();
    for (const auto& [k, v] : option_values(p)) opts[k] = v;
    j["options"] = opts;
    json events = json::array();
    for (const auto& e : p.event_names()) {
        json ev = {{"number", hex(e.number)}, {"name", e.name}};
        if (!e.description.empty()) ev["description"] = e.description;
        events.push_back(ev);
    }
    j["events"] = events;
    if (p.timing) {
        TimingParams t = *p.timing;
        TimingWriter w;
        visit_timing(w, t);
        j["timing"] = std::move(w.j);
    } else {
        j["timing"] = nullptr;
    }
    return j;
}

std::vector<EventInfo> read_events(ObjectReader& top) {
    const json& v = top.need("events");
    if (!v.is_array()) bad(top.origin(), "events", "expected an array of {number, name, description}");
    std::vector<EventInfo> out;
    std::set<uint32_t> numbers;
    for (size_t i = 0; i < v.size(); ++i) {
        ObjectReader e(v[i], top.origin(), fmt::format("events[{}]", i));
        EventInfo info;
        info.number = static_cast<uint32_t>(e.number("number", 0xFFFFFFFFu));
        info.name = to_upper(e.string("name"));
        if (info.name.empty()) bad(top.origin(), e.key("name"), "an event needs a name");
        if (e.find("description")) info.description = e.string("description");
        e.finish();
        if (!numbers.insert(info.number).second)
            bad(top.origin(), e.key("number"), fmt::format("event {:#x} is listed twice", info.number));
        out.push_back(std::move(info));
    }
    return out;
}

ArmPmuVersion read_version(ObjectReader& r, bool v8) {
    const std::string s = r.string("version");
    const std::pair<const char*, ArmPmuVersion> all[] = {{"v1", ArmPmuVersion::v1},     {"v2", ArmPmuVersion::v2},
                                                         {"v3", ArmPmuVersion::v3},     {"v3p1", ArmPmuVersion::v3p1},
                                                         {"v3p4", ArmPmuVersion::v3p4}, {"v3p5", ArmPmuVersion::v3p5}};
    for (const auto& [name, v] : all)
        if (s == name && (v >= ArmPmuVersion::v3) == v8) return v;
    bad(r.origin(), r.key("version"),
        fmt::format("expected {}, got \"{}\"", v8 ? "v3, v3p1, v3p4 or v3p5" : "v1 or v2", printable(s, 120)));
}

PlatformOptions read_options(ObjectReader& top) {
    PlatformOptions o;
    const json* v = top.find("options");
    if (!v) return o;
    if (!v->is_object()) bad(top.origin(), "options", "expected an object of option values");
    for (const auto& [k, x] : v->items()) {
        if (x.is_string()) o[k] = x.get<std::string>();
        else if (x.is_boolean()) o[k] = x.get<bool>() ? "1" : "0";
        else if (x.is_number_unsigned()) o[k] = std::to_string(x.get<uint64_t>());
        else bad(top.origin(), "options." + k, fmt::format("expected a string, got {}", shown(x)));
    }
    return o;
}

Platform platform_from_json(const json& j, const std::string& origin) {
    ObjectReader top(j, origin, "");
    const uint64_t fv = top.number("pmusim_platform", 0xFFFF);
    if (fv != format_version)
        bad(origin, "pmusim_platform", fmt::format("format {} is not known (this pmusim reads format {})", fv, format_version));
    PlatformText text;
    text.name = to_lower(top.string("name"));
    if (text.name.empty() || text.name.find_first_of(" \t\n") != std::string::npos)
        bad(origin, "name", "expected a name without spaces");
    const std::string family = top.string("family");
    if (top.find("description")) text.description = top.string("description");
    if (top.find("source")) text.source = top.string("source");
    const unsigned counters = static_cast<unsigned>(top.number("counters", 31));
    const PlatformOptions options = read_options(top);
    auto with_options = [&](auto apply) {
        try {
            return apply();
        } catch (const std::invalid_argument& e) {
            bad(origin, "options", printable(e.what(), 2 * message_limit));
        }
    };
    Platform p;
    if (family == "armv8-pmuv3" || family == "armv7-cp15") {
        const bool v8 = family == "armv8-pmuv3";
        ArmPmuConfig c;
        c.num_counters = counters;
        ObjectReader ids(top.need("ids"), origin, "ids");
        c.implementer = static_cast<uint8_t>(ids.number("implementer", 0xFF));
        c.idcode = static_cast<uint8_t>(ids.number("idcode", 0xFF));
        c.pmceid0 = ids.number("pmceid0", ~uint64_t{0});
        c.pmceid1 = ids.number("pmceid1", ~uint64_t{0});
        ids.finish();
        ObjectReader pmu(top.need("pmu"), origin, "pmu");
        c.version = read_version(pmu, v8);
        c.has_el2 = pmu.boolean("el2");
        c.has_el3 = pmu.boolean("el3");
        c.has_pmovsset = pmu.boolean("pmovsset");
        if (pmu.find("impdef_events")) c.impdef_events = read_number_list(pmu, "impdef_events");
        pmu.finish();
        // PMCEID are 64-bit from PMUv3p1 only (armv8-pmuv3.md §3.8).
        if (c.version < ArmPmuVersion::v3p1) {
            if (c.pmceid0 >> 32) bad(origin, "ids.pmceid0", "bits above 31 set, but PMCEID0 is 32-bit before PMUv3p1");
            if (c.pmceid1 >> 32) bad(origin, "ids.pmceid1", "bits above 31 set, but PMCEID1 is 32-bit before PMUv3p1");
        }
        c = with_options([&] { return apply_arm_options(c, options, v8); });
        p = make_arm_platform(std::move(text), c, v8);
    } else if (family == "arm11-pmnc") {
        if (counters != 2) bad(origin, "counters", "the ARM11 PMNC has 2 event counters (AN195)");
        Arm11Config c;
        ObjectReader pmu(top.need("pmu"), origin, "pmu");
        const std::string core = pmu.string("core");
        if (core == "arm1136") c.core = Arm11Core::arm1136;
        else if (core == "arm1156") c.core = Arm11Core::arm1156;
        else if (core == "arm1176") c.core = Arm11Core::arm1176;
        else bad(origin, "pmu.core", fmt::format("expected arm1136, arm1156 or arm1176, got \"{}\"", printable(core, 120)));
        c.events = read_number_list(pmu, "implemented_events");
        pmu.finish();
        c = with_options([&] { return apply_arm11_options(c, options); });
        p = make_arm11_platform(std::move(text), c);
    } else if (family == "veer-el2") {
        if (counters != 4) bad(origin, "counters", "VeeR EL2 has 4 event counters, fixed by the RTL");
        if (const json* pmu = top.find("pmu")) ObjectReader(*pmu, origin, "pmu").finish();
        const VeerConfig c = with_options([&] { return apply_veer_options(VeerConfig{}, options); });
        p = make_veer_platform(std::move(text), c);
    } else {
        bad(origin, "family", fmt::format("expected armv8-pmuv3, armv7-cp15, arm11-pmnc or veer-el2, got \"{}\"", printable(family, 120)));
    }
    auto events = std::make_shared<const std::vector<EventInfo>>(read_events(top));
    p.event_names = [events]() -> const std::vector<EventInfo>& { return *events; };
    const json& t = top.need("timing");
    if (!t.is_null()) {
        std::set<uint32_t> numbers;
        for (const auto& e : *events) numbers.insert(e.number);
        TimingParams params;
        TimingReader r(t, origin, "timing", &numbers);
        visit_timing(r, params);
        r.r.finish();
        check_timing(params, origin);
        p.timing = params;
    }
    top.finish();
    return p;
}

}  // namespace

std::string dump_platform(const Platform& p) { return platform_json(p).dump(2) + "\n"; }

namespace {

// The line of byte `at` of `text` (1-based).
size_t line_of(const std::string& text, size_t at) {
    at = std::min(at, text.size());
    return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

// The structure of the text, in one pass that reads strings whole: nesting deeper than max_depth is refused (a
// platform file nests 4 deep; nlohmann's writer recurses), and, with `keys` (`text` then valid JSON, parsed before:
// strings hold no raw newline), a key given twice in one object (RFC 8259 §4: names SHOULD be unique; nlohmann
// keeps the last silently) is an error naming both lines.
constexpr size_t max_depth = 32;
void scan_structure(const std::string& text, const std::string& origin, bool keys) {
    struct Frame {
        bool object;
        bool expect_key;
        std::map<std::string, size_t> keys;  // key -> line
    };
    std::vector<Frame> stack;
    size_t line = 1;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') ++line;
        else if ((c == '{' || c == '[') && stack.size() == max_depth)
            throw PlatformFileError(fmt::format("{}:{}: nested more than {} deep: not a platform file", origin, line, max_depth));
        else if (c == '{') stack.push_back({true, true, {}});
        else if (c == '[') stack.push_back({false, false, {}});
        else if ((c == '}' || c == ']') && !stack.empty()) stack.pop_back();
        else if (c == ',' && !stack.empty() && stack.back().object) stack.back().expect_key = true;
        else if (c == '"') {
            const size_t start = i;
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
            if (!keys || stack.empty() || !stack.back().object || !stack.back().expect_key) continue;
            stack.back().expect_key = false;
            std::string key = text.substr(start, i + 1 - start);
            if (key.find('\\') != std::string::npos) {  // escapes decoded (the text parsed as JSON before)
                try {
                    key = json::parse(key).get<std::string>();
                } catch (const json::exception& e) {
                    throw PlatformFileError(fmt::format("{}:{}: not valid JSON: {}", origin, line, e.what()));
                }
            }
            else key = key.substr(1, key.size() - 2);
            const auto [it, added] = stack.back().keys.emplace(key, line);
            if (!added)
                throw PlatformFileError(fmt::format("{}:{}: key '{}' is given twice in one object (lines {} and {})",
                                                    origin, line, key.size() > 80 ? key.substr(0, 80) + "..." : key,
                                                    it->second, line));
        }
    }
}

}  // namespace

Platform parse_platform(const std::string& text, const std::string& origin) {
    // nlohmann's reader takes a NUL byte for the end of its input (and accepts "1\0garbage" as 1): a platform file
    // is text (RFC 8259 §8.1: UTF-8), so a NUL anywhere is refused before parsing.
    if (const size_t nul = text.find('\0'); nul != std::string::npos)
        throw PlatformFileError(fmt::format("{}:{}: a NUL byte: not a platform file (expected JSON text)", origin,
                                            line_of(text, nul)));
    scan_structure(text, origin, false);
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {  // the line of the byte where parsing stopped
        throw PlatformFileError(fmt::format("{}:{}: not valid JSON: {}", origin, line_of(text, e.byte), e.what()));
    } catch (const json::exception& e) {  // a number too large for a double (1e999) and the like
        throw PlatformFileError(fmt::format("{}: not valid JSON: {}", origin, e.what()));
    }
    scan_structure(text, origin, true);
    return platform_from_json(j, origin);
}

Platform load_platform_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        throw PlatformFileError(fmt::format("{}: is a folder, expected a platform file", path));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw PlatformFileError(fmt::format("{}: cannot open the platform file", path));
    // At most max_platform_file bytes (a device such as /dev/zero never ends): read one byte more to tell.
    std::string text(max_platform_file + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) throw PlatformFileError(fmt::format("{}: cannot read the platform file", path));
    text.resize(static_cast<size_t>(in.gcount()));
    if (text.size() > max_platform_file)
        throw PlatformFileError(fmt::format("{}: longer than {} MiB: not a platform file (a dump is about 20 KiB)", path,
                                            max_platform_file >> 20));
    return parse_platform(text, path);
}

}  // namespace pmusim
