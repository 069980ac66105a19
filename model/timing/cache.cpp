#include "model/timing/cache.hpp"

#include "model/timing/bits.hpp"

#include <algorithm>
#include <cassert>

namespace pmusim::timing {

Cache::Cache(const CacheConfig& c) : cfg_(c) {
    assert(c.line && (c.line & (c.line - 1)) == 0 && c.ways && c.size % (c.line * c.ways) == 0);
    assert(c.dirty_parts && c.dirty_parts <= 8 && (c.dirty_parts & (c.dirty_parts - 1)) == 0 && c.dirty_parts <= c.line);
    sets_ = c.size / (c.line * c.ways);
    while ((1u << line_shift_) < c.line) ++line_shift_;
    part_shift_ = line_shift_;
    while ((1u << (line_shift_ - part_shift_)) < c.dirty_parts) --part_shift_;
    tags_.assign(static_cast<size_t>(sets_) * c.ways, ~uint64_t{0});
    dirty_.assign(static_cast<size_t>(sets_) * c.ways, 0);
    sets_pow2_ = (sets_ & (sets_ - 1)) == 0;
    if (sets_pow2_) set_mask_ = sets_ - 1;
    jset_.assign(tags_.size(), 0);  // the journal off: note() saves nothing (jmark_ 0)
}

Cache::Result Cache::miss(size_t base, uint64_t tag, uint8_t part, bool write) {
    Result r;
    if (write && !cfg_.write_allocate) return r;  // a write-around miss
    // The victim: the least recent line, or an empty way (the last way holds one while any is empty).
    const unsigned ways = cfg_.ways;
    const size_t last = base + ways - 1;
    if (tags_[last] != ~uint64_t{0} && dirty_[last]) {
        r.writeback = true;
        r.dirty_parts = popcount(dirty_[last]);
        r.victim = tags_[last] << line_shift_;  // its line's number
        ++writebacks_;
    }
    tags_[last] = tag;
    dirty_[last] = 0;
    promote(base, ways - 1, part);
    r.refill = true;
    ++refills_;
    return r;
}

void Cache::set_journal(bool on) {
    journal_ = on;
    jmark_ = jforgotten_ = 0;
    jset_.assign(tags_.size(), 0);  // on or off: nothing saved before the first mark
    jseen_.assign(on ? sets_ : 0, 0);
    jseen_gen_ = 0;
    jsaved_.clear();
    jtags_.clear();
    jdirty_.clear();
}

uint32_t Cache::mark() {
    if (!journal_) return 0;
    return ++jmark_;
}

void Cache::save_set(size_t first) {
    jset_[first] = jmark_;
    jsaved_.push_back({static_cast<uint32_t>(first / cfg_.ways), jmark_});
    const auto base = static_cast<std::ptrdiff_t>(first);
    jtags_.insert(jtags_.end(), tags_.begin() + base, tags_.begin() + base + cfg_.ways);
    jdirty_.insert(jdirty_.end(), dirty_.begin() + base, dirty_.begin() + base + cfg_.ways);
}

bool Cache::same_since(uint32_t m) {
    if (!journal_ || m == 0 || m > jmark_ || m < jforgotten_) return false;
    if (++jseen_gen_ == 0) {  // the scratch marks wrapped: start them again
        std::fill(jseen_.begin(), jseen_.end(), 0);
        jseen_gen_ = 1;
    }
    const auto first = std::lower_bound(jsaved_.begin(), jsaved_.end(), m, [](const Saved& x, uint32_t v) { return x.mark < v; });
    const unsigned n = cfg_.ways;
    for (auto it = first; it != jsaved_.end(); ++it) {
        // The first save of a set at or after m holds it as it was at m (not changed in between).
        if (jseen_[it->set] == jseen_gen_) continue;
        jseen_[it->set] = jseen_gen_;
        // The same lines with the same dirty parts in the same LRU order: the same ways (a set is kept in LRU
        // order, its empty ways last).
        const size_t then = static_cast<size_t>(it - jsaved_.begin()) * n, now = static_cast<size_t>(it->set) * n;
        if (!std::equal(jtags_.begin() + static_cast<std::ptrdiff_t>(then), jtags_.begin() + static_cast<std::ptrdiff_t>(then + n),
                        tags_.begin() + static_cast<std::ptrdiff_t>(now)) ||
            !std::equal(jdirty_.begin() + static_cast<std::ptrdiff_t>(then), jdirty_.begin() + static_cast<std::ptrdiff_t>(then + n),
                        dirty_.begin() + static_cast<std::ptrdiff_t>(now)))
            return false;
    }
    return true;
}

void Cache::forget_before(uint32_t m) {
    jforgotten_ = std::max(jforgotten_, m);
    const auto first = std::lower_bound(jsaved_.begin(), jsaved_.end(), m, [](const Saved& x, uint32_t v) { return x.mark < v; });
    const size_t k = static_cast<size_t>(first - jsaved_.begin());
    jsaved_.erase(jsaved_.begin(), first);
    jtags_.erase(jtags_.begin(), jtags_.begin() + static_cast<std::ptrdiff_t>(k * cfg_.ways));
    jdirty_.erase(jdirty_.begin(), jdirty_.begin() + static_cast<std::ptrdiff_t>(k * cfg_.ways));
}

bool Cache::same_state(const Cache& o) const {
    return accesses_ == o.accesses_ && refills_ == o.refills_ && writebacks_ == o.writebacks_ &&
           tags_ == o.tags_ && dirty_ == o.dirty_;
}

}  // namespace pmusim::timing
