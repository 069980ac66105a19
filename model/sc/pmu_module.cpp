#include "model/sc/pmu_module.hpp"

#include "model/pmu/arm11_pmu.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

namespace pmusim::sc {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

PmuModule::PmuModule(sc_core::sc_module_name name, std::unique_ptr<Pmu> pmu, const ModuleConfig& cfg)
    : sc_module(name), sysreg_export("sysreg_export"), event_export("event_export"), irq_out("irq_out"),
      debug_in("debug_in"), halt_in("halt_in"), sleep_in("sleep_in"), pmu_(std::move(pmu)), cfg_(cfg) {
    sysreg_export.bind(*this);
    event_export.bind(*this);
    irq_level_ = sched_irq_ = pmu_->irq();
    fiq_level_ = sched_fiq_ = pmu_->fiq();
    SC_HAS_PROCESS(PmuModule);
    SC_METHOD(update_lines);
    sensitive << line_event_;
    SC_METHOD(update_state);
    sensitive << debug_in << halt_in << sleep_in;
}

void PmuModule::drive_lines() { irq_out.write(cfg_.irq_active_low ? !irq_level_ : irq_level_); }

void PmuModule::update_lines() {
    // Apply every change due by now, then wake up for the next one.
    const sc_time now = sc_time_stamp();
    while (!changes_.empty() && changes_.front().at <= now) {
        irq_level_ = changes_.front().irq;
        fiq_level_ = changes_.front().fiq;
        changes_.pop_front();
    }
    drive_lines();
    if (!changes_.empty()) line_event_.notify(changes_.front().at - now);
}

void PmuModule::update_state() {
    // The core-state inputs, by priority: debug, then halt, then sleep. ARM cores have run and debug only.
    CoreState s = CoreState::run;
    if (debug_in.read()) s = pmu_->supports_state(CoreState::db_halt) ? CoreState::db_halt : CoreState::debug;
    else if (halt_in.read() && pmu_->supports_state(CoreState::fw_halt)) s = CoreState::fw_halt;
    else if (sleep_in.read() && pmu_->supports_state(CoreState::sleep)) s = CoreState::sleep;
    pmu_->set_state(s);
}

void PmuModule::schedule_levels(const AdvanceResult* r, const sc_time& start, const sc_time& at) {
    auto push = [&](sc_time t, bool irq, bool fiq) {
        // Changes arrive in time order from one initiator; keep the queue sorted anyway.
        auto it = changes_.end();
        while (it != changes_.begin() && std::prev(it)->at > t) --it;
        changes_.insert(it, Change{t, irq, fiq});
        sched_irq_ = irq;
        sched_fiq_ = fiq;
        line_event_.notify(t > sc_time_stamp() ? t - sc_time_stamp() : sc_core::SC_ZERO_TIME);
    };
    // Rising edges inside a batch fall at their own cycles, in time order; any other change at `at`.
    if (r && (r->irq_rose || r->fiq_rose)) {
        struct Edge {
            sc_time t;
            bool fiq;
        };
        std::vector<Edge> edges;
        if (r->irq_rose) edges.push_back({start + cfg_.clock_period * static_cast<double>(r->irq_cycle), false});
        if (r->fiq_rose) edges.push_back({start + cfg_.clock_period * static_cast<double>(r->fiq_cycle), true});
        std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.t < y.t; });
        for (const Edge& e : edges) push(e.t, e.fiq ? sched_irq_ : true, e.fiq ? true : sched_fiq_);
    }
    const bool irq = pmu_->irq(), fiq = pmu_->fiq();
    if (irq != sched_irq_ || fiq != sched_fiq_) push(at, irq, fiq);
}

AccessRecord PmuModule::sysreg_access(const SysRegRequest& req, const sc_time& local_offset) {
    Register* r = pmu_->bank().find(req.space, req.key);
    AccessRecord rec;
    if (!r) {
        rec = pmu_->unallocated(fmt::format("encoding {:#x}", req.key), req.is_write, req.value);
    } else {
        rec = req.is_write ? pmu_->write(*r, req.value, req.ctx) : pmu_->read(*r, req.ctx);
    }
    const sc_time at = sc_time_stamp() + local_offset;
    schedule_levels(nullptr, at, at);
    return rec;
}

AdvanceResult PmuModule::advance(const EventBatch& batch, const sc_time& local_offset) {
    const sc_time start = sc_time_stamp() + local_offset;
    const AdvanceResult r = pmu_->advance(batch);
    schedule_levels(&r, start, start + cfg_.clock_period * static_cast<double>(batch.cycles));
    return r;
}

void PmuModule::trace(sc_core::sc_trace_file* tf) {
    // One trace per distinct state word; registers that view part of a word (RV32 halves) share it.
    // Traced under the name of the first register that views it, as wide as the widest view.
    std::vector<std::pair<const Register*, unsigned>> words;
    for (const auto& reg : pmu_->bank().all()) {
        if (!reg->state || !reg->implemented()) continue;
        auto it = std::find_if(words.begin(), words.end(), [&](const auto& w) { return w.first->state == reg->state; });
        const unsigned bits = reg->state_shift + reg->width;
        if (it == words.end()) words.emplace_back(reg.get(), bits);
        else it->second = std::max(it->second, bits);
    }
    static_assert(std::is_same_v<uint64_t, unsigned long>, "sc_trace overload for 64-bit words");
    for (const auto& [reg, bits] : words) sc_core::sc_trace(tf, *reg->state, trace_name(reg->name), static_cast<int>(bits));
    sc_core::sc_trace(tf, irq_level_, trace_name("irq_request"));
}

ArmPmuModule::ArmPmuModule(sc_core::sc_module_name name, std::unique_ptr<Pmu> pmu, const ModuleConfig& cfg)
    : PmuModule(name, std::move(pmu), cfg), socket("socket") {
    socket.register_b_transport(this, &ArmPmuModule::b_transport);
    socket.register_transport_dbg(this, &ArmPmuModule::transport_dbg);
}

tlm::tlm_response_status ArmPmuModule::access(tlm::tlm_generic_payload& trans, AccessOrigin origin, const sc_time& at,
                                              bool debug) {
    // The memory-mapped view is made of aligned 32-bit registers, accessed one at a time (little-endian).
    // Debug transport uses neither the streaming width nor byte enables.
    if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) return tlm::TLM_OK_RESPONSE;
    const uint64_t addr = trans.get_address();
    if (trans.get_data_length() != 4 || (!debug && trans.get_streaming_width() < 4)) return tlm::TLM_BURST_ERROR_RESPONSE;
    if (addr % 4) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if (const unsigned char* be = debug ? nullptr : trans.get_byte_enable_ptr()) {
        const unsigned n = trans.get_byte_enable_length();
        for (unsigned i = 0; i < 4; ++i)
            if (n == 0 || be[i % n] != TLM_BYTE_ENABLED) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
    }
    const RegisterBank::Slot slot = pmu().bank().find_offset(addr);
    if (!slot.reg) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    const Register* reg = slot.reg;
    AccessContext ctx;
    ctx.origin = origin;
    unsigned char* data = trans.get_data_ptr();
    const bool is_write = trans.is_write();
    uint32_t v = 0;
    if (is_write)
        for (unsigned i = 0; i < 4; ++i) v |= static_cast<uint32_t>(data[i]) << (8 * i);
    AccessOutcome out;
    if (config().on_socket_access) {  // a checker or a trace: the full record, then the hook
        const AccessRecord rec = is_write ? pmu().write_slot(slot, v, ctx) : pmu().read_slot(slot, ctx);
        config().on_socket_access(rec);
        out = AccessOutcome{rec.status, rec.value_read};
    } else {  // what the payload returns: the status and the data
        out = is_write ? pmu().write_slot_lean(slot, v, ctx) : pmu().read_slot_lean(slot, ctx);
    }
    if (!is_write)
        for (unsigned i = 0; i < 4; ++i) data[i] = static_cast<unsigned char>(out.value_read >> (8 * i));
    schedule_levels(nullptr, at, at);
    // A refused access, and a write of a read-only or a read of a write-only register (the model ignores the
    // write or reads 0), is a command the target cannot execute.
    const bool wrong_direction = is_write ? !reg->writable : !reg->readable;
    return out.trapped() || wrong_direction ? tlm::TLM_COMMAND_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE;
}

void ArmPmuModule::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    // Loosely timed: the access happens at sc_time_stamp() + delay, and takes the configured latency.
    trans.set_response_status(access(trans, socket_origin, sc_time_stamp() + delay, false));
    delay += config().access_latency;
}

unsigned ArmPmuModule::transport_dbg(tlm::tlm_generic_payload& trans) {
    const auto status = access(trans, AccessOrigin::external_debug, sc_time_stamp(), true);  // a debugger: zero time
    trans.set_response_status(status);
    return status == tlm::TLM_OK_RESPONSE ? 4u : 0u;
}

Arm11PmuModule::Arm11PmuModule(sc_core::sc_module_name name, std::unique_ptr<Pmu> pmu, const ModuleConfig& cfg)
    : PmuModule(name, std::move(pmu), cfg), fiq_out("fiq_out") {}

void Arm11PmuModule::drive_lines() {
    PmuModule::drive_lines();
    fiq_out.write(config().irq_active_low ? !fiq_level_ : fiq_level_);
}

void Arm11PmuModule::trace(sc_core::sc_trace_file* tf) {
    PmuModule::trace(tf);
    sc_core::sc_trace(tf, fiq_level_, trace_name("fiq_request"));
    // The event bus (PMNC.X): the running count of events exported to EVNTBUS.
    sc_core::sc_trace(tf, static_cast<const Arm11Pmu&>(pmu()).exported_events_word(), trace_name("evntbus_exported"), 64);
}

VeerPmuModule::VeerPmuModule(sc_core::sc_module_name name, std::unique_ptr<Pmu> pmu, const ModuleConfig& cfg)
    : PmuModule(name, std::move(pmu), cfg) {}

std::unique_ptr<PmuModule> make_module(const char* name, const Platform& p, const PlatformOptions& opts,
                                       ModuleConfig cfg) {
    auto pmu = p.make(opts);
    if (p.family == "arm11-pmnc") return std::make_unique<Arm11PmuModule>(name, std::move(pmu), cfg);
    if (p.family == "veer-el2") {
        cfg.irq_active_low = false;  // no overflow interrupt: the line stays low
        return std::make_unique<VeerPmuModule>(name, std::move(pmu), cfg);
    }
    return std::make_unique<ArmPmuModule>(name, std::move(pmu), cfg);
}

}  // namespace pmusim::sc
