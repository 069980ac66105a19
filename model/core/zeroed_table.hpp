// A fixed-size table that starts all zero and costs nothing for the entries never written.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>

namespace pmusim {

// From calloc: a block this large comes as fresh pages from the kernel, already zero, and a page is faulted in
// only when first touched; a std::vector writes every entry at construction. A page fault costs about 10 us on
// the machines pmusim is measured on (docs/performance.md, "Process start-up"), so a 1 MiB table touched in a few
// places saves milliseconds a run. T must be a plain type whose all-zero bytes are a valid, empty entry.
template <class T>
class ZeroedTable {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                  "ZeroedTable holds plain entries that are valid as zero bytes");

public:
    explicit ZeroedTable(size_t n) : n_(n), p_(static_cast<T*>(std::calloc(n, sizeof(T)))) {
        if (!p_ && n) throw std::bad_alloc();
    }
    ZeroedTable(const ZeroedTable&) = delete;
    ZeroedTable& operator=(const ZeroedTable&) = delete;
    ~ZeroedTable() { std::free(p_); }
    size_t size() const { return n_; }
    T& operator[](size_t i) { return p_[i]; }
    const T& operator[](size_t i) const { return p_[i]; }

private:
    size_t n_;
    T* p_;
};

}  // namespace pmusim
