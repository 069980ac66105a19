// The C API (capi/pmusim_c.h): a thin layer over Pmu that turns exceptions and records into status codes.
#include "capi/pmusim_c.h"

#include <exception>
#include <memory>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "model/core/pmu.hpp"
#include "platforms/platform.hpp"
#include "traces/message.hpp"

struct pmusim_pmu {
    const pmusim::Platform* platform = nullptr;
    std::unique_ptr<pmusim::Pmu> pmu;
    bool secure = false;
    pmusim::AccessRecord last;  // the last access's record
    std::string message;        // its diagnostics, or the last error
    pmusim::EventBatch batch;   // reused by advance
};

namespace {

thread_local std::string create_error;

// Runs `f`, turning a model exception (a bug: models assert, they do not throw on guest input) into a status.
// pmusim_last_message() says what the last call did: each call starts with no message.
template <typename F>
int guarded(pmusim_pmu* h, F&& f) {
    if (!h) return PMUSIM_E_HANDLE;
    h->message.clear();
    try {
        return f();
    } catch (const std::exception& e) {
        h->message = pmusim::printable(e.what(), 2 * pmusim::message_limit);
        return PMUSIM_E_INTERNAL;
    }
}

int fail(pmusim_pmu* h, int status, std::string message) {
    h->message = std::move(message);
    h->last = {};
    return status;
}

// The context of an instruction access at `privilege`; false when the core has no such privilege.
bool instruction_context(pmusim_pmu* h, int privilege, pmusim::AccessContext& ctx) {
    if (privilege < 0 || !h->pmu->supports_privilege(static_cast<unsigned>(privilege))) return false;
    ctx.privilege = static_cast<unsigned>(privilege);
    ctx.secure = h->secure;
    return true;
}

// A register name as a message shows it: at most message_limit characters, unprintable bytes as \xNN.
std::string named(const char* reg) { return fmt::format("named '{}'", pmusim::printable(reg)); }

// Keeps the record and says what it did: PMUSIM_TRAPPED when refused.
int finish(pmusim_pmu* h, pmusim::AccessRecord rec) {
    h->message.clear();
    for (const auto& d : rec.diagnostics)
        h->message += fmt::format("{}{} [{}] {}", h->message.empty() ? "" : "\n", to_string(d.severity), d.code, d.message);
    h->last = std::move(rec);
    return h->last.trapped() ? PMUSIM_TRAPPED : PMUSIM_OK;
}

int access(pmusim_pmu* h, pmusim::Register* r, std::string_view what, bool is_write, int privilege, uint64_t in,
           uint64_t* out) {
    if (!is_write && !out) return PMUSIM_E_HANDLE;
    if (!r) return fail(h, PMUSIM_E_NOT_FOUND, fmt::format("no register {} on {}", what, h->platform->name));
    pmusim::AccessContext ctx;
    if (!instruction_context(h, privilege, ctx))
        return fail(h, PMUSIM_E_ARGUMENT, fmt::format("privilege {} is not implemented on {}", privilege, h->platform->name));
    const int status = finish(h, is_write ? h->pmu->write(*r, in, ctx) : h->pmu->read(*r, ctx));
    if (!is_write) *out = h->last.value_read;
    return status;
}

bool space_of(int space, pmusim::EncodingSpace& s) {
    switch (space) {
        case PMUSIM_SPACE_A64: s = pmusim::EncodingSpace::a64_sysreg; return true;
        case PMUSIM_SPACE_CP15: s = pmusim::EncodingSpace::cp15; return true;
        case PMUSIM_SPACE_CSR: s = pmusim::EncodingSpace::csr; return true;
        default: return false;
    }
}

int encoded_access(pmusim_pmu* h, int space, uint32_t key, bool is_write, int privilege, uint64_t in, uint64_t* out) {
    pmusim::EncodingSpace s{};
    if (!space_of(space, s)) return fail(h, PMUSIM_E_ARGUMENT, fmt::format("encoding space {} is not 0, 1 or 2", space));
    return access(h, h->pmu->bank().find(s, key), fmt::format("at encoding {:#x}", key), is_write, privilege, in, out);
}

int offset_access(pmusim_pmu* h, uint64_t offset, int origin, bool is_write, uint32_t in, uint32_t* out) {
    if (!is_write && !out) return PMUSIM_E_HANDLE;
    if (origin != PMUSIM_ORIGIN_DEBUG && origin != PMUSIM_ORIGIN_SOFTWARE)
        return fail(h, PMUSIM_E_ARGUMENT, fmt::format("origin {} is not 0 (debug) or 1 (software)", origin));
    if (!h->pmu->bank().find_offset(offset).reg)
        return fail(h, PMUSIM_E_NOT_FOUND, fmt::format("no register at offset {:#x} on {}", offset, h->platform->name));
    pmusim::AccessContext ctx;
    ctx.origin = origin == PMUSIM_ORIGIN_DEBUG ? pmusim::AccessOrigin::external_debug : pmusim::AccessOrigin::memory_mapped;
    const int status = finish(h, is_write ? h->pmu->write_offset(offset, in, ctx) : h->pmu->read_offset(offset, ctx));
    if (!is_write) *out = static_cast<uint32_t>(h->last.value_read);
    return status;
}

}  // namespace

extern "C" {

int pmusim_c_api_version(void) { return PMUSIM_C_API_VERSION; }

int pmusim_platform_count(void) { return static_cast<int>(pmusim::all_platforms().size()); }

const char* pmusim_platform_name(int index) {
    const auto& all = pmusim::all_platforms();
    return index >= 0 && static_cast<size_t>(index) < all.size() ? all[static_cast<size_t>(index)].name.c_str() : nullptr;
}

pmusim_pmu* pmusim_create(const char* platform, const char* options) {
    create_error.clear();
    try {
        const pmusim::Platform* p = platform ? pmusim::find_platform(platform) : nullptr;
        if (!p) {
            create_error = fmt::format("unknown platform '{}'", platform ? pmusim::printable(platform) : std::string("(null)"));
            return nullptr;
        }
        pmusim::PlatformOptions opts;
        std::string_view rest = options ? options : "";
        while (!rest.empty()) {
            const size_t comma = rest.find(',');
            const std::string_view kv = rest.substr(0, comma);
            rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
            const size_t eq = kv.find('=');
            if (eq == std::string_view::npos || eq == 0) {
                create_error = fmt::format("options: expected key=value, got '{}'", pmusim::printable(kv));
                return nullptr;
            }
            opts[std::string(kv.substr(0, eq))] = std::string(kv.substr(eq + 1));
        }
        auto h = std::make_unique<pmusim_pmu>();
        h->platform = p;
        h->pmu = p->make(opts);  // throws std::invalid_argument naming a bad option
        return h.release();
    } catch (const std::exception& e) {
        create_error = fmt::format("platform {}: {}", pmusim::printable(platform), pmusim::printable(e.what(), 2 * pmusim::message_limit));
        return nullptr;
    }
}

const char* pmusim_create_error(void) { return create_error.c_str(); }

void pmusim_destroy(pmusim_pmu* pmu) { delete pmu; }

void pmusim_reset(pmusim_pmu* pmu) {
    guarded(pmu, [&]() -> int {
        pmu->pmu->reset();
        pmu->last = {};
        pmu->message.clear();
        return PMUSIM_OK;
    });
}

const char* pmusim_family(const pmusim_pmu* pmu) { return pmu ? pmu->platform->family.c_str() : nullptr; }

int pmusim_read(pmusim_pmu* pmu, const char* reg, int privilege, uint64_t* value) {
    return guarded(pmu, [&]() -> int {
        if (!reg) return fail(pmu, PMUSIM_E_ARGUMENT, "the register name is NULL");
        return access(pmu, pmu->pmu->bank().find(reg), named(reg), false, privilege, 0, value);
    });
}

int pmusim_write(pmusim_pmu* pmu, const char* reg, int privilege, uint64_t value) {
    return guarded(pmu, [&]() -> int {
        if (!reg) return fail(pmu, PMUSIM_E_ARGUMENT, "the register name is NULL");
        return access(pmu, pmu->pmu->bank().find(reg), named(reg), true, privilege, value, nullptr);
    });
}

int pmusim_read_encoding(pmusim_pmu* pmu, int space, uint32_t key, int privilege, uint64_t* value) {
    return guarded(pmu, [&] { return encoded_access(pmu, space, key, false, privilege, 0, value); });
}

int pmusim_write_encoding(pmusim_pmu* pmu, int space, uint32_t key, int privilege, uint64_t value) {
    return guarded(pmu, [&] { return encoded_access(pmu, space, key, true, privilege, value, nullptr); });
}

int pmusim_read_offset(pmusim_pmu* pmu, uint64_t offset, int origin, uint32_t* value) {
    return guarded(pmu, [&] { return offset_access(pmu, offset, origin, false, 0, value); });
}

int pmusim_write_offset(pmusim_pmu* pmu, uint64_t offset, int origin, uint32_t value) {
    return guarded(pmu, [&] { return offset_access(pmu, offset, origin, true, value, nullptr); });
}

uint32_t pmusim_a64_key(uint32_t op0, uint32_t op1, uint32_t crn, uint32_t crm, uint32_t op2) {
    return pmusim::a64_key(op0, op1, crn, crm, op2);
}

uint32_t pmusim_cp15_key(uint32_t opc1, uint32_t crn, uint32_t crm, uint32_t opc2) {
    return pmusim::cp15_key(opc1, crn, crm, opc2);
}

int pmusim_set_secure(pmusim_pmu* pmu, int secure) {
    return guarded(pmu, [&]() -> int {
        pmu->secure = secure != 0;
        return PMUSIM_OK;
    });
}

int pmusim_set_exec_context(pmusim_pmu* pmu, int privilege, int secure) {
    return guarded(pmu, [&]() -> int {
        if (privilege < 0 || !pmu->pmu->supports_privilege(static_cast<unsigned>(privilege)))
            return fail(pmu, PMUSIM_E_ARGUMENT, fmt::format("privilege {} is not implemented", privilege));
        pmu->pmu->set_exec_context(pmusim::ExecContext{static_cast<unsigned>(privilege), secure != 0});
        return PMUSIM_OK;
    });
}

int pmusim_set_state(pmusim_pmu* pmu, int state) {
    return guarded(pmu, [&]() -> int {
        static constexpr pmusim::CoreState states[] = {pmusim::CoreState::run, pmusim::CoreState::debug,
                                                        pmusim::CoreState::fw_halt, pmusim::CoreState::db_halt,
                                                        pmusim::CoreState::sleep};
        if (state < 0 || state > PMUSIM_STATE_SLEEP || !pmu->pmu->supports_state(states[state]))
            return fail(pmu, PMUSIM_E_ARGUMENT, fmt::format("core state {} is not one {} has", state, pmu->platform->name));
        pmu->pmu->set_state(states[state]);
        return PMUSIM_OK;
    });
}

int pmusim_advance(pmusim_pmu* pmu, uint64_t cycles, const uint32_t* events, const uint64_t* counts, size_t n) {
    return guarded(pmu, [&]() -> int {
        if (n && (!events || !counts)) return PMUSIM_E_HANDLE;
        pmu->batch.clear();
        pmu->batch.cycles = cycles;
        for (size_t i = 0; i < n; ++i) pmu->batch.add(events[i], counts[i]);
        pmu->pmu->advance(pmu->batch);
        return PMUSIM_OK;
    });
}

int pmusim_advance_event(pmusim_pmu* pmu, uint64_t cycles, uint32_t event, uint64_t count) {
    return pmusim_advance(pmu, cycles, &event, &count, count ? 1 : 0);
}

int pmusim_irq(const pmusim_pmu* pmu) { return pmu ? static_cast<int>(pmu->pmu->irq()) : PMUSIM_E_HANDLE; }

int pmusim_fiq(const pmusim_pmu* pmu) { return pmu ? static_cast<int>(pmu->pmu->fiq()) : PMUSIM_E_HANDLE; }

const char* pmusim_last_message(const pmusim_pmu* pmu) { return pmu ? pmu->message.c_str() : ""; }

int pmusim_last_has(const pmusim_pmu* pmu, const char* code) {
    if (!pmu) return PMUSIM_E_HANDLE;
    return code && pmu->last.has(code) ? 1 : 0;
}

}  // extern "C"
