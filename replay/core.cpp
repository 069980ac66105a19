#include "replay/core.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "platforms/timing_params.hpp"

namespace pmusim::replay {

namespace {

// --timing cpi1: one cycle per instruction leaves no cycle for a stall, so the timing model is built without its
// stall events (front end, back end, fetch, result-use waits, pre- and post-sync: their count is 0, consistent with
// cycles == instructions); its other events stand.
timing::TimingParams without_stalls(timing::TimingParams t) {
    for (uint32_t* e : {&t.ev_stall_frontend, &t.ev_stall_backend, &t.ev_fetch_stall, &t.ev_dep_stall, &t.ev_presync, &t.ev_postsync})
        *e = timing::no_event;
    return t;
}

}  // namespace

Core::Core(const Options& opts, const Platform& platform) : o(opts), p(platform) {
    if (!o.timing_events && o.timing == Timing::model)
        throw std::invalid_argument("--architectural needs --timing cpi1 or trace (the timing model gives the cycles)");
    if (const auto t = replay_timing(p, o.platform_options))
        if (o.timing_events || o.timing == Timing::model) tm.emplace(o.timing == Timing::cpi1 ? without_stalls(*t) : *t);
    if (tm) tm->set_check_blocks(o.check_block_timing);
    // The block engine replays a body's VeeR EL2 predictor calls as one group where they repeat (set_memo: the
    // predictor's state keyed by its table signature); the reference stepper steps every one.
    if (tm && o.engine == Engine::block) tm->predictor().set_memo(true);
}

void Core::check_isa_of(const TraceRecord& rec) const {
    const bool ok = is_rv(rec.isa) ? p.isa == IsaKind::rv32
                    : rec.isa == IsaState::a64 ? p.isa == IsaKind::a64
                                               : (rec.isa == IsaState::a32 || rec.isa == IsaState::t32) && p.isa == IsaKind::a32;
    if (ok) return;
    const std::string what = rec.isa == IsaState::unknown
                                 ? std::string("an instruction of an instruction set the trace does not name")
                                 : fmt::format("{} {} instruction", rec.isa == IsaState::t32 ? "a" : "an", to_string(rec.isa));
    throw trace::TraceError(o.trace, rec.line,
                            fmt::format("{}, but platform {} runs {}", what, p.name,
                                        p.isa == IsaKind::a64 ? "A64" : p.isa == IsaKind::a32 ? "A32/T32" : "RV32"));
}

// Every record must carry its time under --timing trace: a trace without timestamps has no cycles to give.
void Core::no_time(const TraceRecord& rec) const {
    throw trace::TraceError(o.trace, rec.line,
                            fmt::format("--timing trace: this {} record has no timestamp (use --timing model or cpi1)",
                                        std::string(reader->format())));
}

}  // namespace pmusim::replay
