// A minimal check helper for the SystemC test programs (one process each: a SystemC kernel elaborates once).
#pragma once
#include <cstdlib>
#include <memory>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "model/sc/pmu_module.hpp"
#include <iostream>
#include <sstream>
#include <string>

namespace pmusim::sctest {

struct Tally {
    unsigned passed = 0, failed = 0;
    int finish() const {
        std::cout << passed << " passed, " << failed << " failed\n";
        return failed ? 1 : 0;
    }
};
inline Tally& tally() {
    static Tally t;
    return t;
}

template <typename A, typename B>
void check_eq(const A& got, const B& want, const std::string& what, const char* file, int line) {
    if (got == static_cast<A>(want)) {
        ++tally().passed;
        return;
    }
    ++tally().failed;
    std::ostringstream g, w;
    g << got;
    w << want;
    std::cout << file << ":" << line << ": FAIL: " << what << ": got " << g.str() << ", want " << w.str() << "\n";
}

// Binds an ARM module's target socket to an idle initiator (a platform would bind its bus there).
struct IdleBus : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<IdleBus> socket{"socket"};
    explicit IdleBus(sc_core::sc_module_name n) : sc_module(n) {}
};
inline std::unique_ptr<IdleBus> bind_idle_bus(pmusim::sc::PmuModule& m) {
    auto* arm = dynamic_cast<pmusim::sc::ArmPmuModule*>(&m);
    if (!arm) return nullptr;
    auto bus = std::make_unique<IdleBus>("bus");
    bus->socket.bind(arm->socket);
    return bus;
}

}  // namespace pmusim::sctest

#define SC_CHECK_EQ(got, want, what) ::pmusim::sctest::check_eq((got), (want), (what), __FILE__, __LINE__)
