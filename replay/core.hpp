// The traced core as every engine follows it: the timing model, the register file, the trace's time, the
// privilege, the decoded instructions. One per replay, shared by reference (replay/replay.cpp builds it).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>

#include "isa/decode.hpp"
#include "model/timing/timing_model.hpp"
#include "replay/records.hpp"
#include "replay/replay.hpp"
#include "traces/reader.hpp"

namespace pmusim::replay {

struct Core {
    // Throws std::invalid_argument where the options ask for cycles without the timing model.
    Core(const Options& o, const Platform& p);
    const Options& o;
    const Platform& p;
    std::optional<timing::TimingModel> tm;   // none: the timing model does not run
    const trace::TraceReader* reader = nullptr;
    uint64_t gpr[32] = {};                   // the register file, as the trace shows it
    uint64_t prev_time = 0;                  // the last record's time (the trace's timestamps)
    unsigned priv = 0xFF;                    // the privilege of the instructions being retired
    bool mem_seen = false;                   // some record carried a data access
    isa::DecodeCache decode;

    // Throws trace::TraceError where the record's instruction set is not the platform's (checked when it changes).
    void check_isa(const TraceRecord& rec) {
        if (rec.isa == checked_isa_) return;
        check_isa_of(rec);
        checked_isa_ = rec.isa;
    }
    // The register file holds what the trace shows, in trace order (x0 of RISC-V stays 0).
    void set_gpr(const trace::RegWrite& w, bool rv) {
        if (w.kind == trace::RegKind::gpr && w.index < 32 && !(rv && w.index == 0)) gpr[w.index] = w.value;
    }
    // The register file, for an instruction in a block (none reads it): the late writebacks that land before it,
    // then what it writes; RecordStepper::step() applies the two around the instruction.
    void gprs(const TraceRecord& rec) {
        const bool rv = is_rv(rec.isa);
        for (unsigned i = 0; i < rec.n_regs; ++i)
            if (rec.regs[i].before) set_gpr(rec.regs[i], rv);
        for (unsigned i = 0; i < rec.n_regs; ++i)
            if (!rec.regs[i].before) set_gpr(rec.regs[i], rv);
    }
    // The cycles since the previous record, from the trace's timestamps (prev_time is the caller's to move on).
    uint64_t trace_cycles(const TraceRecord& rec) const {
        if (!rec.has_time) no_time(rec);
        return rec.time - std::min(rec.time, prev_time);
    }

private:
    void check_isa_of(const TraceRecord& rec) const;
    [[noreturn]] void no_time(const TraceRecord& rec) const;
    IsaState checked_isa_ = static_cast<IsaState>(0xFF);  // the instruction set last found to match the platform
};

}  // namespace pmusim::replay
