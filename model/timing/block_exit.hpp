// A recording's exit state set again (TimingModel::restore_exit) and a recording replayed whole
// (TimingModel::replay_body): inlined into their callers, block_k (block_key.cpp), replay_partial and replay_checked
// (block_timing.cpp). A call each cost about 20 host instructions a body (docs/performance.md, speed20b and s24h1).
#pragma once

#include <type_traits>

#include "model/timing/timing_model.hpp"

namespace pmusim::timing {

[[gnu::always_inline]] inline void TimingModel::restore_exit(const BlockMemo::Exit& e, uint64_t now0, EventBatch& b) {
    for (const auto& x : e.events) b.add(x.event, x.count);
    for (const BlockMemo::Exit::Written& w : e.written) {
        s_.ready[w.reg] = now0 + static_cast<uint64_t>(w.ready);
        if (w.addr) s_.addr_ready[w.reg] = now0 + static_cast<uint64_t>(w.addr_ready);
    }
    BlockMemo::Exit::visit(s_, e, [now0](auto& to, const auto& from, auto relative, bool set) {
        using T = std::remove_reference_t<decltype(to)>;
        if (!set) return;
        if constexpr (decltype(relative)::value) to = now0 + static_cast<T>(from);
        else to = from;
    });
    s_.pending_extra = 0;   // taken by the body's first instruction
    s_.postsync_until = 0;  // the body has no postsync instruction (prepare)
    for (size_t k = 0; k < p_.fetch_queue; ++k) s_.fetched[k] = now0 + e.fetched[k];  // timed() reads no other
}

// The recording's lookups already made (claim_body).
[[gnu::always_inline]] inline void TimingModel::replay_body(BlockMemo& m, const BlockMemo::Recording& r, const MemRef* mem,
                                                            EventBatch& b) {
    ++m.replayed;
    const uint64_t now0 = s_.now;
    if (lsu_) lsu_replay(r, mem, now0);
    restore_exit(r, now0, b);
    if (p_.dbus_queue) replay_dbus(m, r, mem, now0);
    s_.now = now0 + r.cycles;
}

}  // namespace pmusim::timing
