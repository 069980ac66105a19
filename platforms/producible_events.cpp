#include "platforms/producible_events.hpp"

#include "model/timing/timing_model.hpp"

namespace pmusim {

std::vector<bool> producible_events(const Platform& p, bool with_addresses, bool with_model, bool with_interrupts) {
    std::vector<bool> produced(65536, false);
    EventBatch probe;
    for (int c = 0; c <= static_cast<int>(isa::InsnClass::fence_i); ++c)
        for (bool comp : {false, true})
            // no branch, and each kind of branch taken (conditional ones untaken too)
            for (int br : {0x00, 0x41, 0x42, 0x46, 0x49, 0x4A, 0x11, 0x51, 0x62}) {
                isa::RetiredInsn probe_insn;
                probe_insn.cls = static_cast<isa::InsnClass>(c);
                probe_insn.compressed = comp;
                probe_insn.branch = static_cast<uint8_t>(br);
                probe_insn.unaligned = br == 0;
                p.retire(probe_insn, 1, probe);
            }
    if (with_interrupts && p.interrupt)
        for (unsigned cause = 0; cause < 64; ++cause) p.interrupt(cause, probe);
    for (const auto& e : probe.events) produced[e.event] = true;
    produced[p.cycle_event] = true;
    if (const auto params = with_model ? p.timing : std::nullopt) {
        const timing::TimingModel tm(*params);
        for (uint32_t e : tm.produced_events()) produced[e] = true;
        // Cache and bus events need the data addresses, which some formats do not carry.
        if (!with_addresses)
            for (uint32_t e : tm.address_events())
                if (probe.count(e) == 0) produced[e] = false;  // unless retirement alone signals it
    }
    return produced;
}

}  // namespace pmusim
