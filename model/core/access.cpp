#include "model/core/access.hpp"

#include <utility>

namespace pmusim {

std::string_view to_string(Severity s) {
    switch (s) {
        case Severity::info: return "info";
        case Severity::warning: return "warning";
        case Severity::error: return "error";
    }
    return "?";
}

bool AccessRecord::has(std::string_view code) const {
    for (const auto& d : diagnostics)
        if (d.code == code) return true;
    return false;
}

void AccessRecord::add(Severity s, std::string_view code, std::string message) {
    diagnostics.push_back(Diagnostic{s, std::string(code), std::move(message)});
}

void AccessRecord::set_effect(std::string_view field, std::string text) {
    for (auto& f : fields)
        if (f.name == field) f.effect = text;
}

void AccessRecord::refuse(std::string_view code, std::string message) {
    status = AccessStatus::trap;
    add(Severity::warning, code, std::move(message));
}

}  // namespace pmusim
