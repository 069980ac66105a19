#include "model/timing/cache.hpp"

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
    ways_.resize(static_cast<size_t>(sets_) * c.ways);
    if ((sets_ & (sets_ - 1)) == 0)
        while ((1u << set_shift_) <= sets_) ++set_shift_;
    if ((c.ways & (c.ways - 1)) == 0)
        while ((1u << way_shift_) <= c.ways) ++way_shift_;
}

Cache::Result Cache::access(uint64_t addr, bool write) {
    ++accesses_;
    ++clock_;
    const uint64_t line = addr >> line_shift_;
    const unsigned set = set_of(line);
    if (journal_) note(set);
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

void Cache::set_journal(bool on) {
    journal_ = on;
    jmark_ = jforgotten_ = 0;
    jset_.assign(on ? sets_ : 0, 0);
    jseen_.assign(on ? sets_ : 0, 0);
    jseen_gen_ = 0;
    jsaved_.clear();
    jways_.clear();
}

uint32_t Cache::mark() {
    if (!journal_) return 0;
    return ++jmark_;
}

void Cache::save_set(size_t set) {
    jset_[set] = jmark_;
    jsaved_.push_back({static_cast<uint32_t>(set), jmark_});
    const auto base = ways_.begin() + static_cast<std::ptrdiff_t>(set * cfg_.ways);
    jways_.insert(jways_.end(), base, base + cfg_.ways);
}

// Two states of a set alike: the same lines with the same dirty parts in the same LRU order, whichever ways
// hold them (access() picks the least recent way; the empty ways, tag ~0, are alike).
bool Cache::same_set(const Way* a, const Way* b) const {
    const unsigned n = cfg_.ways;
    auto lru_order = [n](const Way* w, const Way** out) {
        for (unsigned i = 0; i < n; ++i) {  // insertion sort by (stamp, tag): n is a few ways
            unsigned j = i;
            while (j > 0 && (out[j - 1]->used > w[i].used || (out[j - 1]->used == w[i].used && out[j - 1]->tag > w[i].tag))) {
                out[j] = out[j - 1];
                --j;
            }
            out[j] = &w[i];
        }
    };
    const Way* sa[max_ways];
    const Way* sb[max_ways];
    lru_order(a, sa);
    lru_order(b, sb);
    for (unsigned i = 0; i < n; ++i)
        if (sa[i]->tag != sb[i]->tag || sa[i]->dirty != sb[i]->dirty) return false;
    return true;
}

bool Cache::same_since(uint32_t m) {
    if (!journal_ || m == 0 || m > jmark_ || m < jforgotten_) return false;
    if (++jseen_gen_ == 0) {  // the scratch marks wrapped: start them again
        std::fill(jseen_.begin(), jseen_.end(), 0);
        jseen_gen_ = 1;
    }
    const auto first = std::lower_bound(jsaved_.begin(), jsaved_.end(), m, [](const Saved& x, uint32_t v) { return x.mark < v; });
    const unsigned n = cfg_.ways;
    if (n > max_ways) return false;
    for (auto it = first; it != jsaved_.end(); ++it) {
        // The first save of a set at or after m holds it as it was at m (not accessed in between).
        if (jseen_[it->set] == jseen_gen_) continue;
        jseen_[it->set] = jseen_gen_;
        const Way* then = &jways_[static_cast<size_t>(it - jsaved_.begin()) * n];
        const Way* now = &ways_[static_cast<size_t>(it->set) * n];
        if (!same_set(then, now)) return false;
    }
    return true;
}

void Cache::forget_before(uint32_t m) {
    jforgotten_ = std::max(jforgotten_, m);
    const auto first = std::lower_bound(jsaved_.begin(), jsaved_.end(), m, [](const Saved& x, uint32_t v) { return x.mark < v; });
    const size_t k = static_cast<size_t>(first - jsaved_.begin());
    jsaved_.erase(jsaved_.begin(), first);
    jways_.erase(jways_.begin(), jways_.begin() + static_cast<std::ptrdiff_t>(k * cfg_.ways));
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
