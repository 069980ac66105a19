// How a replayed body's exit (BlockMemo::Exit: save_exit, block_timing.cpp; restore_exit, block_exit.hpp) handles
// each field of the pipeline state (pipeline_state.hpp): one entry per member, in declaration order, either kept
// by BlockMemo::Exit::visit() (in_visit) or saying how else the exit sets it or why a replay need not. A member
// added to PipelineState and not here stops the build (the static_assert below), and tests/unit/test_timing.cpp
// (BlockTiming.ExitNamesEveryStateField) checks the entries marked in_visit against Exit::visit() field by field.
#pragma once
#include <cstddef>
#include <iterator>

#include "model/timing/pipeline_state.hpp"

namespace pmusim::timing {

struct ExitField {
    size_t offset, size;  // the member's place in PipelineState
    bool in_visit;        // kept by BlockMemo::Exit::visit()
    const char* how;      // how else the exit sets it, or why a replay need not
};

#define PMUSIM_EXIT(field, in_visit, how) \
    ExitField{offsetof(PipelineState, field), sizeof(PipelineState::field), in_visit, how}
inline constexpr ExitField body_exit_fields[] = {
    PMUSIM_EXIT(now, false, "step_block/replay: the entry's cycle plus the recording's cycles"),
    PMUSIM_EXIT(prev_issue, true, "relative"),
    PMUSIM_EXIT(ready, false, "save_exit: the registers the body writes only (Exit::written), relative"),
    PMUSIM_EXIT(addr_ready, false, "save_exit: as ready, where addr_by_producer_ (Exit::written)"),
    PMUSIM_EXIT(divider_free, true, "relative, where the body has a division (div_set)"),
    PMUSIM_EXIT(postsync_until, false, "restore_exit sets 0: the body has no postsync instruction (prepare)"),
    PMUSIM_EXIT(csr_write_issue, false, "not set: with sync_stall bodies hold no CSR instruction (prepare); as body_key_fields"),
    PMUSIM_EXIT(lsu_free, true, "relative, where a load/store multiple moved it (lsu_set)"),
    PMUSIM_EXIT(stm_issue, true, "relative, where the body has a store multiple (stm_set)"),
    PMUSIM_EXIT(stm_regs, true, "with stm_issue (stm_set)"),
    PMUSIM_EXIT(last_ifetch_line, true, "as is"),
    PMUSIM_EXIT(last_fetch, true, "as is"),
    PMUSIM_EXIT(last_miss_line, false, "not set: written on an I-cache miss only; a replayed body's lookups all hit"),
    PMUSIM_EXIT(fill_line, true, "as is"),
    PMUSIM_EXIT(refill_line, false, "not set: written on an I-cache miss only (as last_miss_line)"),
    PMUSIM_EXIT(fill_at, false, "not set: written on an I-cache refill only (as last_miss_line)"),
    PMUSIM_EXIT(fill_start, false, "not set: written on an I-cache miss only (as last_miss_line)"),
    PMUSIM_EXIT(fill_data, false, "not set: written on an I-cache miss only (as last_miss_line)"),
    PMUSIM_EXIT(phase_line, true, "as is"),
    PMUSIM_EXIT(fetch_at, true, "relative"),
    PMUSIM_EXIT(fetched, false, "save_exit: as fetched_held() has it (Exit::fetched), relative"),
    PMUSIM_EXIT(lsu_pending, false, "lsu_replay: from the recording's loads and stores (ls_commit)"),
    PMUSIM_EXIT(lsu_prev_eff, false, "lsu_replay, as lsu_pending"),
    PMUSIM_EXIT(seen_sig, false, "not set: the branch predictor's, predicted outside the body (predict_inner)"),
    PMUSIM_EXIT(dbus, false, "replay: the recording's Dbus (dbus_queue)"),
    PMUSIM_EXIT(prev_dst, true, "as is"),
    PMUSIM_EXIT(prev_shape, true, "as is"),
    PMUSIM_EXIT(mstatus, false, "not set: ecall, ebreak and mret are never in a body (prepare); CSR writes come outside step()"),
    PMUSIM_EXIT(mie_on, false, "not set: as mstatus"),
    PMUSIM_EXIT(mrac, false, "not set: written by a CSR write outside step() only"),
    PMUSIM_EXIT(pending_extra, false, "restore_exit sets 0: taken by the body's first instruction"),
    PMUSIM_EXIT(pending_freeze, false, "not set: 0 at a body's entry (set by take_interrupt, whose record is stepped)"),
    PMUSIM_EXIT(pending_entry_stall, false, "not set: 0 at a body's entry (as pending_freeze)"),
    PMUSIM_EXIT(cacheable, false, "not set: mrac's decoding (as mrac)"),
    PMUSIM_EXIT(prev_cls, true, "as is"),
    PMUSIM_EXIT(pair_open, true, "as is"),
    PMUSIM_EXIT(next_fetch_new, true, "as is"),
    PMUSIM_EXIT(refetch, true, "as is"),
    PMUSIM_EXIT(flushed, true, "as is"),
    PMUSIM_EXIT(next, false, "not set: the step's inputs, set by the caller before each step"),
};
#undef PMUSIM_EXIT

static_assert(std::size(body_exit_fields) == member_count<PipelineState>(),
              "a PipelineState member is not in body_exit_fields: keep it in BlockMemo::Exit::visit() or say why a "
              "replay need not set it");

}  // namespace pmusim::timing
