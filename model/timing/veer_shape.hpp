// The parameters whose mechanisms the step's kernel in VeeR EL2's shape (kFull 2, step.cpp) takes as on, each once:
// TimingModel::veer_shape asks every one of them to be set, and the step tests each through veer_on<>(), which
// names no other (a mechanism the kernel takes as on without veer_shape asking for it fails to build).
#pragma once
#include <type_traits>

#include "model/timing/timing_params.hpp"

namespace pmusim::timing {

// A list of TimingParams members (member pointers).
template <auto... M>
struct ParamList {
    template <auto X>
    static constexpr bool has() {
        return (same<X, M>() || ...);
    }
    static bool all_set(const TimingParams& p) { return (static_cast<bool>(p.*M) && ...); }

private:
    template <auto A, auto B>
    static constexpr bool same() {
        if constexpr (std::is_same_v<decltype(A), decltype(B)>)
            return A == B;
        else
            return false;
    }
};

// The DCCM and ICCM, the I-cache, the fetch buffer and its fetches, mrac, the fill buffer, the D-bus buffer, the LSU
// buffers, pre- and post-sync and an interrupt's entry (veer() in platforms/timing_params.cpp sets them all).
using VeerMechanisms =
    ParamList<&TimingParams::local_data, &TimingParams::local_code, &TimingParams::l1i, &TimingParams::fetch_queue,
              &TimingParams::fetch_bytes, &TimingParams::fetch_keeps_halfword, &TimingParams::follows_mrac,
              &TimingParams::fill_buffer_fetches, &TimingParams::fill_buffer_cycles, &TimingParams::fill_redirect_commit,
              &TimingParams::fill_next_miss, &TimingParams::dbus_queue, &TimingParams::store_buffer,
              &TimingParams::sync_stall, &TimingParams::interrupt_after_enable>;

// Whether the mechanism of parameter M is on: always in VeeR EL2's shape (kFull 2), else where M is set.
template <int kFull, auto M>
[[gnu::always_inline]] inline bool veer_on(const TimingParams& p) {
    static_assert(VeerMechanisms::has<M>(), "the kernel in VeeR EL2's shape takes as on only what veer_shape asks for");
    if constexpr (kFull == 2)
        return true;
    else
        return static_cast<bool>(p.*M);
}

}  // namespace pmusim::timing
