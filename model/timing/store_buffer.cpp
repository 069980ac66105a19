#include "model/timing/store_buffer.hpp"

#include <algorithm>

namespace pmusim::timing {

// The cycles [cursor_, end), one by one while anything is buffered or coming (the rules: store_buffer.hpp). At
// cycle t the instruction committing at t + 1 is in R, at t + 2 in M, at t + 3 at decode and the read port.
void StoreBuffer::run_to(uint64_t end) {
    for (uint64_t t = cursor_; t < end; ++t) {
        if (n_ == 0 && last_store_ < t + 1) break;  // nothing buffered or coming
        const Slot *r = at(t + 1), *m = at(t + 2), *d = at(t + 3);
        // stbuf_specvld_any: the entries, the DCCM stores in R and M, two each when dual.
        unsigned spec = n_;
        if (r && r->store) spec += r->dual ? 2u : 1u;
        if (m && m->store) spec += m->dual ? 2u : 1u;
        if (spec >= (d && !d->dual ? depth_ : depth_ - 1)) ++full_;  // lsu_stbuf_full_any
        // lsu_stbuf_commit_any: the oldest entry drains unless a load at the read port reads its bank.
        if (n_ && !(d && d->load && ((buf_[0] & 3u) == (d->lo & 3u) || (buf_[0] & 3u) == (d->hi & 3u)))) {
            std::copy(buf_.begin() + 1, buf_.begin() + n_, buf_.begin());
            --n_;
        }
        // The store in R enters the buffer, each word once (store_coalesce_lo_r/hi_r).
        if (r && r->store) {
            enter(r->lo);
            if (r->dual) enter(r->hi);
        }
    }
    cursor_ = end;
}

bool StoreBuffer::operator==(const StoreBuffer& o) const {
    // The slots still ahead of the cursor (those at or after cursor_ + 1) are the state; older ones are spent.
    for (uint64_t c = cursor_ + 1; c < cursor_ + 9; ++c) {
        const Slot *a = at(c), *b = o.at(c);
        if (!a != !b) return false;
        if (a && (a->dual != b->dual || a->store != b->store || a->load != b->load || a->lo != b->lo || a->hi != b->hi))
            return false;
    }
    const bool stores_ahead = last_store_ + 1 > cursor_, o_stores_ahead = o.last_store_ + 1 > o.cursor_;
    return depth_ == o.depth_ && n_ == o.n_ && std::equal(buf_.begin(), buf_.begin() + n_, o.buf_.begin()) &&
           cursor_ == o.cursor_ && full_ == o.full_ && stores_ahead == o_stores_ahead;
}

}  // namespace pmusim::timing
