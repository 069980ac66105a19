// A first-in first-out queue of records in one ring of reused storage, for the readers that hold records back
// (look-ahead, a block's instructions). std::deque allocates a node per TraceRecord (its nodes hold 512 bytes)
// and frees it on the way out: an allocation per line. The ring grows to the longest queue seen and stays there.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace pmusim::trace {

template <class T>
class RingQueue {
public:
    bool empty() const { return size_ == 0; }
    size_t size() const { return size_; }
    T& front() { return ring_[head_]; }
    T& back() { return ring_[(head_ + size_ - 1) & mask_]; }
    T& operator[](size_t i) { return ring_[(head_ + i) & mask_]; }
    const T& operator[](size_t i) const { return ring_[(head_ + i) & mask_]; }

    // A new last element, to be filled in place (its previous contents are a reused slot's).
    T& emplace_back() {
        if (size_ == ring_.size()) grow();
        T& t = ring_[(head_ + size_) & mask_];
        ++size_;
        return t;
    }
    void push_back(const T& v) { emplace_back() = v; }
    void pop_front() {
        head_ = (head_ + 1) & mask_;
        --size_;
    }
    void pop_back() { --size_; }
    void clear() { head_ = size_ = 0; }

private:
    void grow() {
        std::vector<T> bigger(ring_.empty() ? 16 : 2 * ring_.size());
        for (size_t i = 0; i < size_; ++i) bigger[i] = std::move((*this)[i]);
        ring_.swap(bigger);
        head_ = 0;
        mask_ = ring_.size() - 1;
    }

    std::vector<T> ring_;  // a power of two in size
    size_t head_ = 0, size_ = 0, mask_ = 0;
};

}  // namespace pmusim::trace
