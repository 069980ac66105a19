// What `pmusim explain` and the script statement `explain` print: the access records of one access, field by
// field, with each field's meaning, the event an event field selects and the privilege in the architecture's
// own words. Text and JSON read the same records (model/core/access.hpp).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/core/pmu.hpp"
#include "platforms/platform.hpp"

namespace pmusim {

// "0x0000002a" at the register's width.
std::string hex_width(uint64_t v, unsigned width);

// The privilege as the architecture names it: ARMv8 "EL1"; ARMv7 and ARM11 "PL0 (User mode)", "PL1 (a privileged
// mode: Supervisor, System, ...)", ARMv7 "PL2 (Hyp mode)" and "Monitor mode (Secure PL1)"; RISC-V "M-mode".
std::string privilege_label(const Platform& p, unsigned privilege);
// A privilege as the architecture names it (EL0-EL3, PL0-PL2/User/Supervisor/..., M/U; a bare number is the
// model's level). Nullopt with `error` set when the text names no level of this platform.
std::optional<unsigned> parse_privilege(const Platform& p, const Pmu& pmu, std::string_view text, std::string& error);
// The level a platform's privileged software runs at: EL1 / PL1, M-mode on RISC-V.
unsigned default_privilege(const Platform& p);

struct Explanation {
    std::string access;     // the access as written
    std::string summary;    // what an instruction is ("... is a write of PMCR (encoding 0xee092f1c), r2 = 0x17")
    unsigned privilege = 1;
    std::vector<AccessRecord> records;  // in order: an instruction that reads and writes has two
};

// The words `pmusim explain` prints for one access record, before they are laid out: the command lays them out
// in columns (print_explanation), the web page (web/) in an HTML table. One source for both.
struct RecordText {
    std::string heading;                // "write PMCR = 0x00000017 on cortex-a7 at PL1 (...)"
    std::vector<std::string> notes;     // "accesses PMCR", "PMCR: 0x41072000 -> 0x41072011", a refusal
    std::vector<std::string> columns;   // BITS FIELD ACCESS WRITTEN BEFORE AFTER MEANING EFFECT (WRITTEN "" on a read)
    struct Row {
        std::vector<std::string> cells;  // one a column
        bool changed = false;            // the field's value before and after differ
    };
    std::vector<Row> rows;              // most significant field first
    std::vector<std::string> events;    // "evtCount now selects: event 0x11 CPU_CYCLES: ..."
    std::vector<std::string> diagnostics;  // "warning [code] message"
};
std::vector<RecordText> explanation_text(const Platform& p, Pmu& pmu, const Explanation& e);

void print_explanation(std::ostream& out, const Platform& p, Pmu& pmu, const Explanation& e);
nlohmann::json explanation_json(const Platform& p, Pmu& pmu, const Explanation& e);

}  // namespace pmusim
