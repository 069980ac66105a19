#include "model/timing/cache.hpp"

#include <cassert>

namespace pmusim::timing {

Cache::Cache(const CacheConfig& c) : cfg_(c) {
    assert(c.line && (c.line & (c.line - 1)) == 0 && c.ways && c.size % (c.line * c.ways) == 0);
    assert(c.dirty_parts && c.dirty_parts <= 8 && (c.dirty_parts & (c.dirty_parts - 1)) == 0 && c.dirty_parts <= c.line);
    sets_ = c.size / (c.line * c.ways);
    while ((1u << line_shift_) < c.line) ++line_shift_;
    part_shift_ = line_shift_;
    while ((1u << (line_shift_ - part_shift_)) < c.dirty_parts) --part_shift_;
    ways_.resize(static_cast<size_t>(sets_) * c.ways);
    if ((sets_ & (sets_ - 1)) == 0)
        while ((1u << set_shift_) <= sets_) ++set_shift_;
}

Cache::Result Cache::access(uint64_t addr, bool write) {
    ++accesses_;
    ++clock_;
    const uint64_t line = addr >> line_shift_;
    const unsigned set = set_of(line);
    const uint64_t tag = tag_of(line);
    Way* base = &ways_[static_cast<size_t>(set) * cfg_.ways];
    Result r;
    const auto part = static_cast<uint8_t>(write && cfg_.write_back ? 1u << ((addr & (cfg_.line - 1)) >> part_shift_) : 0u);
    for (unsigned w = 0; w < cfg_.ways; ++w) {
        if (base[w].tag == tag) {
            base[w].used = clock_;
            base[w].dirty |= part;
            r.hit = true;
            return r;
        }
    }
    if (write && !cfg_.write_allocate) return r;  // a write-around miss
    Way* victim = base;
    for (unsigned w = 1; w < cfg_.ways; ++w)
        if (base[w].used < victim->used) victim = &base[w];
    if (victim->tag != ~uint64_t{0} && victim->dirty) {
        r.writeback = true;
        r.dirty_parts = static_cast<unsigned>(__builtin_popcount(victim->dirty));
        r.victim = (victim->tag * sets_ + set) << line_shift_;
        ++writebacks_;
    }
    victim->tag = tag;
    victim->used = clock_;
    victim->dirty = part;
    r.refill = true;
    ++refills_;
    return r;
}

bool Cache::same_state(const Cache& o) const {
    if (clock_ != o.clock_ || accesses_ != o.accesses_ || refills_ != o.refills_ || writebacks_ != o.writebacks_ ||
        ways_.size() != o.ways_.size())
        return false;
    for (size_t i = 0; i < ways_.size(); ++i)
        if (ways_[i].tag != o.ways_[i].tag || ways_[i].used != o.ways_[i].used || ways_[i].dirty != o.ways_[i].dirty)
            return false;
    return true;
}

}  // namespace pmusim::timing
