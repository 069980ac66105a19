// The TLM socket's two paths give the same answers: a module without ModuleConfig::on_socket_access (the fast
// path: status and value, no per-field record) and one with it (every access builds the full record and hands it to
// the hook) take the same accesses, and must return the same response status and data and leave the PMU in the
// same state (every register, the interrupt request, the request line). Every memory-mapped slot of every platform
// with a socket, read and written with values that set, clear and mix every bit, from the bus (subject to the
// ARMv7 software lock) and from a debugger (transport_dbg), with events between the rounds so that counters move
// and overflow. The hook must see every access that reached a register, with the full record.
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "model/sc/pmu_module.hpp"
#include "platforms/platform.hpp"
#include "tests/sc/sc_check.hpp"

using namespace sc_core;
using pmusim::sctest::tally;

namespace {

// One module of a pair, with its initiator and its signals.
struct Side {
    std::unique_ptr<pmusim::sc::PmuModule> mod;
    pmusim::sc::ArmPmuModule* arm = nullptr;
    std::unique_ptr<sc_signal<bool>> irq, dbg, halt, sleep;
    std::vector<pmusim::AccessRecord> seen;  // what the hook was given (the full side only)
};

struct Initiator : sc_module {
    tlm_utils::simple_initiator_socket<Initiator> full_socket{"full_socket"}, fast_socket{"fast_socket"};
    Side* full = nullptr;
    Side* fast = nullptr;
    std::string platform;
    unsigned warnings = 0;

    SC_HAS_PROCESS(Initiator);
    explicit Initiator(sc_module_name n) : sc_module(n) { SC_THREAD(run); }

    struct Answer {
        tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
        uint32_t data = 0;
        unsigned dbg_bytes = 0;
    };
    static Answer go(tlm_utils::simple_initiator_socket<Initiator>& s, bool debug, tlm::tlm_command cmd, uint64_t addr,
                     uint32_t value) {
        tlm::tlm_generic_payload t;
        unsigned char buf[4];
        for (unsigned i = 0; i < 4; ++i) buf[i] = static_cast<unsigned char>(value >> (8 * i));
        t.set_command(cmd);
        t.set_address(addr);
        t.set_data_ptr(buf);
        t.set_data_length(4);
        t.set_streaming_width(4);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        Answer a;
        if (debug) {
            a.dbg_bytes = s->transport_dbg(t);
        } else {
            sc_time delay = SC_ZERO_TIME;
            s->b_transport(t, delay);
        }
        a.status = t.get_response_status();
        for (unsigned i = 0; i < 4; ++i) a.data |= static_cast<uint32_t>(buf[i]) << (8 * i);
        return a;
    }

    // The same access on both sides; the answers and the PMU state after must agree.
    void both(bool debug, tlm::tlm_command cmd, uint64_t addr, uint32_t value, const pmusim::Register& reg) {
        const std::string what = fmt::format("{} {} {} {} @{:#x} value {:#x}", platform, debug ? "debugger" : "bus",
                                             cmd == tlm::TLM_READ_COMMAND ? "read" : "write", reg.name, addr, value);
        const size_t seen_before = full->seen.size();
        const Answer a = go(full_socket, debug, cmd, addr, value), b = go(fast_socket, debug, cmd, addr, value);
        SC_CHECK_EQ(b.status, a.status, what + ": status");
        SC_CHECK_EQ(b.data, a.data, what + ": data");
        SC_CHECK_EQ(b.dbg_bytes, a.dbg_bytes, what + ": transport_dbg bytes");
        SC_CHECK_EQ(fast->mod->pmu().irq(), full->mod->pmu().irq(), what + ": interrupt request");
        SC_CHECK_EQ(fast->seen.size(), size_t{0}, what + ": no hook on the fast side");
        // The hook saw this access, with the record that answered it.
        SC_CHECK_EQ(full->seen.size(), seen_before + 1, what + ": hook called once");
        if (full->seen.size() != seen_before + 1) return;
        const pmusim::AccessRecord& rec = full->seen.back();
        warnings += !rec.diagnostics.empty();
        SC_CHECK_EQ(rec.detail, true, what + ": the hook's record is the full one");
        SC_CHECK_EQ(rec.is_write, cmd == tlm::TLM_WRITE_COMMAND, what + ": the hook's record direction");
        SC_CHECK_EQ(rec.trapped(), a.status == tlm::TLM_COMMAND_ERROR_RESPONSE && (cmd == tlm::TLM_WRITE_COMMAND
                                                                                       ? reg.writable
                                                                                       : reg.readable),
                    what + ": the hook's record status");
        if (cmd == tlm::TLM_READ_COMMAND && a.status == tlm::TLM_OK_RESPONSE) {
            SC_CHECK_EQ(static_cast<uint32_t>(rec.value_read), a.data, what + ": the hook's record value");
            if (!rec.target.empty()) SC_CHECK_EQ(rec.fields.empty(), false, what + ": the hook's record describes fields");
        }
    }

    void compare_state(const std::string& when) {
        const auto& x = full->mod->pmu().bank().all();
        const auto& y = fast->mod->pmu().bank().all();
        SC_CHECK_EQ(y.size(), x.size(), platform + " register count");
        for (size_t i = 0; i < x.size() && i < y.size(); ++i)
            SC_CHECK_EQ(y[i]->read(), x[i]->read(), platform + " " + x[i]->name + " " + when);
        SC_CHECK_EQ(fast->mod->pmu().irq(), full->mod->pmu().irq(), platform + " interrupt request " + when);
        SC_CHECK_EQ(fast->irq->read(), full->irq->read(), platform + " nPMUIRQ " + when);
    }

    void run() {
        unsigned accesses = 0;
        const auto& regs = full->mod->pmu().bank().all();
        for (uint32_t v : {0xFFFFFFFFu, 0x5A5A5A5Au, 0u, 1u, 0xC5ACCE55u, 0x80000000u}) {
            for (bool debug : {false, true}) {
                for (const auto& r : regs) {
                    for (const auto& [off, shift] : r->offsets) {
                        (void)shift;
                        both(debug, tlm::TLM_READ_COMMAND, off, 0, *r);
                        both(debug, tlm::TLM_WRITE_COMMAND, off, v, *r);
                        both(debug, tlm::TLM_READ_COMMAND, off, 0, *r);
                        accesses += 3;
                    }
                }
                compare_state(fmt::format("after the {} round with {:#x}", debug ? "debugger" : "bus", v));
            }
            // Events between the rounds, so that counters move and overflow paths run on both sides.
            pmusim::EventBatch batch;
            batch.cycles = 1000;
            for (uint32_t e = 0; e < 64; ++e) batch.add(e, 0x40000000u);
            full->mod->report(batch, SC_ZERO_TIME);
            fast->mod->report(batch, SC_ZERO_TIME);
            wait(1, SC_US);  // the request lines follow
            compare_state(fmt::format("after events, round {:#x}", v));
        }
        SC_CHECK_EQ(accesses > 100, true, platform + ": slots found");
        // The rounds include accesses with diagnostics (legalised, ignored, reserved bits written) that a checker reads.
        SC_CHECK_EQ(warnings > 0, true, platform + ": some accesses had diagnostics");
        ++platforms_done;
    }
    static inline unsigned platforms_done = 0;
};

std::unique_ptr<Side> make_side(const char* name, const pmusim::Platform& p, bool hook) {
    auto s = std::make_unique<Side>();
    pmusim::sc::ModuleConfig cfg;
    Side* raw = s.get();
    if (hook) cfg.on_socket_access = [raw](const pmusim::AccessRecord& rec) { raw->seen.push_back(rec); };
    s->mod = pmusim::sc::make_module(name, p, {}, cfg);
    s->arm = dynamic_cast<pmusim::sc::ArmPmuModule*>(s->mod.get());
    const std::string n(name);
    s->irq = std::make_unique<sc_signal<bool>>((n + "_irq").c_str(), true);
    s->dbg = std::make_unique<sc_signal<bool>>((n + "_dbg").c_str());
    s->halt = std::make_unique<sc_signal<bool>>((n + "_halt").c_str());
    s->sleep = std::make_unique<sc_signal<bool>>((n + "_sleep").c_str());
    s->mod->irq_out.bind(*s->irq);
    s->mod->debug_in.bind(*s->dbg);
    s->mod->halt_in.bind(*s->halt);
    s->mod->sleep_in.bind(*s->sleep);
    return s;
}

}  // namespace

// Every platform with a memory-mapped view (the armv8-pmuv3 and armv7-cp15 families), side by side in one
// elaboration: a pair of modules and an initiator each.
int sc_main(int, char*[]) {
    std::vector<std::unique_ptr<Side>> sides;
    std::vector<std::unique_ptr<Initiator>> inits;
    for (const pmusim::Platform& p : pmusim::all_platforms()) {
        if (p.family != "armv8-pmuv3" && p.family != "armv7-cp15") continue;  // ARM11, VeeR EL2: no memory map
        std::string id = p.name;
        for (char& c : id)
            if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
        auto full = make_side(("full_" + id).c_str(), p, true), fast = make_side(("fast_" + id).c_str(), p, false);
        auto init = std::make_unique<Initiator>(("init_" + id).c_str());
        init->platform = p.name;
        init->full = full.get();
        init->fast = fast.get();
        init->full_socket.bind(full->arm->socket);
        init->fast_socket.bind(fast->arm->socket);
        sides.push_back(std::move(full));
        sides.push_back(std::move(fast));
        inits.push_back(std::move(init));
    }
    sc_start();
    SC_CHECK_EQ(Initiator::platforms_done, inits.size(), "every platform's run finished");
    SC_CHECK_EQ(inits.size() >= 2, true, "platforms with a memory-mapped view found");
    std::cout << inits.size() << " platforms\n";
    return tally().finish();
}
