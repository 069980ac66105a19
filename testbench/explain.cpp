#include "testbench/explain.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include "isa/number.hpp"
#include "model/core/register.hpp"

namespace pmusim {

namespace {

enum class Arch { armv8, armv7, arm11, riscv };

Arch arch_of(const Platform& p) {
    if (p.riscv) return Arch::riscv;
    if (p.family == "arm11-pmnc") return Arch::arm11;
    if (p.family == "armv7-cp15") return Arch::armv7;
    return Arch::armv8;
}

// The register an access record names, for its width and field meanings (nullptr: unallocated).
const Register* record_register(Pmu& pmu, const AccessRecord& rec) {
    return pmu.bank().find(rec.target.empty() ? rec.reg : rec.target);
}

unsigned record_width(const Platform& p, Pmu& pmu, const AccessRecord& rec) {
    if (const Register* r = record_register(pmu, rec)) return r->width;
    return p.isa == IsaKind::a64 ? 64 : 32;
}

std::string bits_of(const FieldEffect& f) {
    return f.width == 1 ? fmt::format("[{}]", f.lsb) : fmt::format("[{}:{}]", f.lsb + f.width - 1, f.lsb);
}

// What an event number means on this platform: its name and description from the architecture's table, and
// whether this core implements it.
struct EventMeaning {
    bool known = false;
    std::string name, description;
    bool implemented = false;
};

EventMeaning event_meaning(const Platform& p, const Pmu& pmu, uint64_t number) {
    EventMeaning m;
    if (number > 0xFFFFFFFFu) return m;
    for (const auto& e : p.event_names())
        if (e.number == number) {
            m.known = true;
            m.name = e.name;
            m.description = e.description;
        }
    m.implemented = p.implements(pmu, static_cast<uint32_t>(number));
    return m;
}

std::string event_text(const Platform& p, const Pmu& pmu, uint64_t number) {
    const EventMeaning m = event_meaning(p, pmu, number);
    // RISC-V manuals number events in decimal, ARM manuals in hexadecimal.
    const std::string num = p.riscv ? fmt::format("{}", number) : fmt::format("{:#x}", number);
    if (!m.known) {
        if (p.riscv && number == 0) return "0: no event (the counter does not count)";
        return fmt::format("{}: reserved or not an architected event; {}", num,
                           m.implemented ? fmt::format("implemented on {} (IMPLEMENTATION DEFINED)", p.name)
                                         : fmt::format("not implemented on {}: the counter counts nothing", p.name));
    }
    return fmt::format("{} {}: {} ({})", num, m.name, m.description,
                       m.implemented ? fmt::format("implemented on {}", p.name)
                                     : fmt::format("not implemented on {}: the counter counts nothing", p.name));
}

nlohmann::json event_json(const Platform& p, const Pmu& pmu, uint64_t number) {
    const EventMeaning m = event_meaning(p, pmu, number);
    nlohmann::json j = {{"number", number}, {"implemented", m.implemented}};
    j["name"] = m.known ? nlohmann::json(m.name) : nlohmann::json(nullptr);
    j["description"] = m.known ? nlohmann::json(m.description) : nlohmann::json(nullptr);
    return j;
}

std::string heading(const Platform& p, Pmu& pmu, const AccessRecord& rec, unsigned privilege) {
    const std::string where = fmt::format("on {} {}{}", p.name, p.riscv ? "in " : "at ", privilege_label(p, privilege));
    if (rec.is_write)
        return fmt::format("write {} = {} {}", rec.reg, hex_width(rec.value_written, record_width(p, pmu, rec)), where);
    return fmt::format("read {} {}", rec.reg, where);
}

}  // namespace

std::string hex_width(uint64_t v, unsigned width) { return fmt::format("{:#0{}x}", v, width / 4 + 2); }

unsigned default_privilege(const Platform& p) { return p.riscv ? 3 : 1; }

std::string privilege_label(const Platform& p, unsigned privilege) {
    switch (arch_of(p)) {
        case Arch::riscv: return privilege == 3 ? "M-mode" : privilege == 1 ? "S-mode" : "U-mode";
        case Arch::armv8: return fmt::format("EL{}", privilege);
        case Arch::armv7:
        case Arch::arm11:
            // ARMv7 ARM B1.3 "Processor modes": User is PL0; Supervisor, System, IRQ, FIQ, Abort, Undefined and
            // Monitor are PL1 (Monitor always Secure); Hyp is PL2. ARMv6 (ARM11) names only User and privileged modes.
            switch (privilege) {
                case 0: return "PL0 (User mode)";
                case 1: return "PL1 (a privileged mode: Supervisor, System, IRQ, FIQ, Abort, Undefined)";
                case 2: return "PL2 (Hyp mode)";
                default: return "Monitor mode (Secure PL1)";
            }
    }
    return fmt::format("level {}", privilege);
}

std::optional<unsigned> parse_privilege(const Platform& p, const Pmu& pmu, std::string_view text, std::string& error) {
    const std::string t = to_lower(text);
    std::optional<unsigned> level;
    const Arch a = arch_of(p);
    switch (a) {
        case Arch::riscv:
            // RISC-V privileged spec 1.3 "Privilege levels": U = 0, M = 3 (VeeR EL2 has no S-mode).
            if (t == "m" || t == "m-mode" || t == "machine" || t == "3") level = 3;
            else if (t == "u" || t == "u-mode" || t == "user" || t == "0") level = 0;
            if (!level) {
                error = fmt::format("platform {} is RISC-V: expected M or U, got '{}'", p.name, text);
                return std::nullopt;
            }
            if (!pmu.supports_privilege(*level)) {
                error = fmt::format("platform {} has no U-mode (platform option user_mode=1 adds it)", p.name);
                return std::nullopt;
            }
            return level;
        case Arch::armv8: {
            std::string_view n = t;
            if (n.size() == 3 && n.substr(0, 2) == "el") n.remove_prefix(2);
            const auto v = n.size() == 1 ? isa::parse_number(n) : std::nullopt;
            if (!v || *v > 3) {
                error = fmt::format("platform {} is ARMv8: expected an exception level EL0-EL3, got '{}'", p.name, text);
                return std::nullopt;
            }
            return static_cast<unsigned>(*v);
        }
        case Arch::armv7:
        case Arch::arm11: {
            if (t == "pl0" || t == "usr" || t == "user" || t == "0") level = 0;
            else if (t == "pl1" || t == "svc" || t == "supervisor" || t == "sys" || t == "system" || t == "irq" ||
                     t == "fiq" || t == "abt" || t == "abort" || t == "und" || t == "undefined" || t == "1")
                level = 1;
            else if (a == Arch::armv7 && (t == "pl2" || t == "hyp" || t == "2")) level = 2;
            else if (a == Arch::armv7 && (t == "mon" || t == "monitor" || t == "3")) level = 3;
            if (!level) {
                error = fmt::format("platform {} is {}: expected {}, got '{}'", p.name, a == Arch::armv7 ? "ARMv7" : "ARM11",
                                    a == Arch::armv7 ? "PL0 (User), PL1 (Supervisor, System, ...), PL2 (Hyp) or Monitor"
                                                     : "PL0 (User) or PL1 (Supervisor, System, ...)",
                                    text);
                return std::nullopt;
            }
            return level;
        }
    }
    return std::nullopt;
}

std::vector<RecordText> explanation_text(const Platform& p, Pmu& pmu, const Explanation& e) {
    std::vector<RecordText> texts;
    for (const AccessRecord& rec : e.records) {
        RecordText t;
        t.heading = heading(p, pmu, rec, e.privilege);
        const unsigned width = record_width(p, pmu, rec);
        if (rec.trapped()) {
            t.notes.push_back("the access is refused and changes nothing:");
        } else {
            if (!rec.target.empty() && rec.target != rec.reg) t.notes.push_back(fmt::format("accesses {}", rec.target));
            if (rec.target.empty()) t.notes.push_back("accesses no register");
            if (rec.is_write)
                t.notes.push_back(fmt::format("{}: {} -> {}", rec.target, hex_width(rec.old_value, width),
                                              hex_width(rec.new_value, width)));
            else if (!rec.target.empty())
                t.notes.push_back(fmt::format("{} reads {}", rec.target, hex_width(rec.value_read, width)));
            if (!rec.fields.empty())
                t.columns = {"BITS", "FIELD", "ACCESS", rec.is_write ? "WRITTEN" : "", "BEFORE", "AFTER", "MEANING", "EFFECT"};
            for (auto it = rec.fields.rbegin(); it != rec.fields.rend(); ++it)
                t.rows.push_back({{bits_of(*it), it->name, std::string(to_string(it->kind)),
                                   rec.is_write ? fmt::format("{:#x}", it->written) : "", fmt::format("{:#x}", it->old_value),
                                   fmt::format("{:#x}", it->new_value), it->meaning, it->effect},
                                  it->old_value != it->new_value});
            // Every event field, named: what was written and, where the core stored something else, what it holds.
            for (auto it = rec.fields.rbegin(); it != rec.fields.rend(); ++it) {
                if (!it->event_selector) continue;
                if (rec.is_write && it->written != it->new_value)
                    t.events.push_back(fmt::format("{} written: event {}", it->name, event_text(p, pmu, it->written)));
                t.events.push_back(fmt::format("{} {}: event {}", it->name, rec.is_write ? "now selects" : "selects",
                                               event_text(p, pmu, it->new_value)));
            }
        }
        for (const auto& d : rec.diagnostics)
            t.diagnostics.push_back(fmt::format("{} [{}] {}", to_string(d.severity), d.code, d.message));
        texts.push_back(std::move(t));
    }
    return texts;
}

void print_explanation(std::ostream& out, const Platform& p, Pmu& pmu, const Explanation& e) {
    if (!e.summary.empty()) out << e.summary << "\n";
    for (const RecordText& t : explanation_text(p, pmu, e)) {
        out << t.heading << "\n";
        for (const auto& n : t.notes) out << "  " << n << "\n";
        size_t meaning_w = 7;
        for (const auto& r : t.rows) meaning_w = std::max(meaning_w, r.cells[6].size());
        const auto row = [&](const std::vector<std::string>& c) {
            out << fmt::format("  {:<9} {:<10} {:<7} {:>10} {:>10} {:>10}  {:<{}}  {}\n", c[0], c[1], c[2], c[3], c[4],
                               c[5], c[6], meaning_w, c[7]);
        };
        if (!t.columns.empty()) row(t.columns);
        for (const auto& r : t.rows) row(r.cells);
        for (const auto& ev : t.events) out << "  " << ev << "\n";
        for (const auto& d : t.diagnostics) out << "  " << d << "\n";
    }
}

nlohmann::json explanation_json(const Platform& p, Pmu& pmu, const Explanation& e) {
    nlohmann::json accesses = nlohmann::json::array();
    for (const AccessRecord& rec : e.records) {
        nlohmann::json fields = nlohmann::json::array();
        for (auto it = rec.fields.rbegin(); it != rec.fields.rend(); ++it) {
            nlohmann::json f = {{"name", it->name},      {"bits", bits_of(*it)},         {"lsb", it->lsb},
                                {"width", it->width},    {"access", to_string(it->kind)}, {"before", it->old_value},
                                {"after", it->new_value}, {"effect", it->effect},         {"meaning", it->meaning}};
            if (rec.is_write) f["written"] = it->written;
            if (it->event_selector) {
                f["event"] = event_json(p, pmu, it->new_value);
                if (rec.is_write) f["event_written"] = event_json(p, pmu, it->written);
            }
            fields.push_back(std::move(f));
        }
        nlohmann::json diags = nlohmann::json::array();
        for (const auto& d : rec.diagnostics)
            diags.push_back({{"severity", to_string(d.severity)}, {"code", d.code}, {"message", d.message}});
        nlohmann::json a = {{"kind", rec.is_write ? "write" : "read"},
                            {"register", rec.reg},
                            {"target", rec.target.empty() ? nlohmann::json(nullptr) : nlohmann::json(rec.target)},
                            {"status", rec.trapped() ? "refused" : "ok"},
                            {"before", rec.old_value},
                            {"after", rec.new_value},
                            {"fields", std::move(fields)},
                            {"diagnostics", std::move(diags)}};
        if (rec.is_write) a["written"] = rec.value_written;
        else a["value"] = rec.value_read;
        accesses.push_back(std::move(a));
    }
    nlohmann::json j = {{"platform", p.name},
                        {"access", e.access},
                        {"privilege", privilege_label(p, e.privilege)},
                        {"accesses", std::move(accesses)}};
    if (!e.summary.empty()) j["instruction"] = e.summary;
    return j;
}

}  // namespace pmusim
