// How TimingModel::body_key() (block_key.cpp) keys each field of the pipeline state (pipeline_state.hpp): one
// entry per member, in declaration order, naming the part of the key that holds it or why it need not be keyed.
// body_key() keys most fields relative to now and only where a body can see them, so it is not written from
// PipelineState::visit() (a generic walk would key more words and slow the hot path); this list is its check
// instead. A member added to PipelineState and not here stops the build (the static_assert below), and
// tests/unit/test_timing.cpp (BlockTiming.KeyNamesEveryStateField) matches the list against visit() field by field.
#pragma once
#include <cstddef>
#include <iterator>

#include "model/timing/pipeline_state.hpp"

namespace pmusim::timing {

struct KeyedField {
    size_t offset, size;  // the member's place in PipelineState
    const char* how;      // where body_key() keys it, or why it need not
};

#define PMUSIM_KEYED(field, how) KeyedField{offsetof(PipelineState, field), sizeof(PipelineState::field), how}
inline constexpr KeyedField body_key_fields[] = {
    PMUSIM_KEYED(now, "the clock: every cycle below is keyed against it"),
    PMUSIM_KEYED(prev_issue, "key_issue (now - prev_issue with a pair open), key_live_ins (ready by)"),
    PMUSIM_KEYED(ready, "key_live_ins: per live-in register"),
    PMUSIM_KEYED(addr_ready, "key_live_ins: per live-in register, where addr_by_producer_"),
    PMUSIM_KEYED(divider_free, "key_issue: the divider's wait"),
    PMUSIM_KEYED(postsync_until, "key_issue: the postsync wait"),
    PMUSIM_KEYED(csr_write_issue, "not keyed: with sync_stall bodies hold no CSR instruction (prepare)"),
    PMUSIM_KEYED(lsu_free, "key_issue: the load/store unit's wait (multiple_holds_lsu)"),
    PMUSIM_KEYED(stm_issue, "key_lock: the store multiple's locks, while one can still hold a write back"),
    PMUSIM_KEYED(stm_regs, "key_lock, with stm_issue"),
    PMUSIM_KEYED(last_ifetch_line, "key_fetch (key[4])"),
    PMUSIM_KEYED(last_fetch, "key_fetch"),
    PMUSIM_KEYED(last_miss_line, "not keyed: read on an I-cache miss only; a replayed body's lookups all hit"),
    PMUSIM_KEYED(fill_line, "key_fetch"),
    PMUSIM_KEYED(refill_line, "key_fetch (fill_redirect_commit): the line a fetch entering anew waits for"),
    PMUSIM_KEYED(fill_at, "key_fetch: the fill buffer's time left (fill_buffer_cycles)"),
    PMUSIM_KEYED(fill_start, "key_fetch: the wait of a fetch entering refill_line anew (fill_redirect_commit)"),
    PMUSIM_KEYED(fill_data, "not keyed: read on an I-cache miss only; a replayed body's lookups all hit"),
    PMUSIM_KEYED(phase_line, "key_fetch"),
    PMUSIM_KEYED(fetch_at, "key_fetch: the fetch queue's word"),
    PMUSIM_KEYED(fetched, "key_fetch: the fetch queue's word (fetched_held)"),
    PMUSIM_KEYED(lsu_pending, "key_lsu_bus"),
    PMUSIM_KEYED(lsu_prev_eff, "not keyed: the LSU buffers' own (lsu_replay keys it)"),
    PMUSIM_KEYED(seen_sig, "not keyed: the branch predictor's, predicted outside the body (predict_inner)"),
    PMUSIM_KEYED(dbus, "key_dbus: as it acts from now on (dbus_canonical), where dbus_queue"),
    PMUSIM_KEYED(prev_dst, "key_issue, with a pair open"),
    PMUSIM_KEYED(prev_shape, "key_issue, with a pair open"),
    PMUSIM_KEYED(mstatus, "key_issue: MIE"),
    PMUSIM_KEYED(mie_on, "not keyed: read by take_interrupt only, whose record is stepped"),
    PMUSIM_KEYED(mrac, "through cacheable, its decoding"),
    PMUSIM_KEYED(pending_extra, "key_issue"),
    PMUSIM_KEYED(pending_freeze, "not keyed: 0 at a body's entry (set by take_interrupt, whose record is stepped)"),
    PMUSIM_KEYED(pending_entry_stall, "not keyed: 0 at a body's entry (as pending_freeze)"),
    PMUSIM_KEYED(cacheable, "key_issue (the body's region), key_accesses (side-effect regions)"),
    PMUSIM_KEYED(prev_cls, "key_issue, with a pair open"),
    PMUSIM_KEYED(pair_open, "key_issue"),
    PMUSIM_KEYED(next_fetch_new, "key_issue, key_fetch"),
    PMUSIM_KEYED(refetch, "key_fetch: the fetch queue's word"),
    PMUSIM_KEYED(flushed, "key_issue"),
    PMUSIM_KEYED(next, "not keyed: step() clears its CSR and interrupt; its division operands are read with "
                       "divider_from_operands only, where a division ends a block (replay/block_runner.cpp)"),
};
#undef PMUSIM_KEYED

static_assert(std::size(body_key_fields) == member_count<PipelineState>(),
              "a PipelineState member is not in body_key_fields: key it in body_key() or say why it need not be");

}  // namespace pmusim::timing
