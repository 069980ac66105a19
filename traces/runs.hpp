// Runs: the native format's version 2 stores a trace as runs of records at consecutive addresses, each run's
// constant part (its "shape": addresses, encodings, flags, which accesses and register writes) once, and per
// execution only the values (docs/trace-formats.md "Version 2: runs"). The replay's block engine takes runs as
// they are, without a TraceRecord per instruction; every other reader of the file gets records as before.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "traces/trace_record.hpp"

namespace pmusim::trace {

// A run's constant part: its records with every value left out (the time, the data addresses and data, the
// register values; the line as an offset from the run's first line).
struct RunShape {
    static constexpr unsigned max = 64;  // records in a run
    uint32_t id = 0;                     // the shape's number in its file
    uint32_t records = 0;
    uint32_t value_bytes = 0;             // bytes of values per execution
    uint8_t width = 8;                    // bytes per value: 4 where every value of the execution is below 2^32
    std::vector<unsigned char> protos;    // the records' prototypes, in version 1's record layout
    // The prototypes decoded once, when the shape is read (expand() and the reader's next() copy them and put the
    // values in; they do not decode `protos` again): per record its fields and where its parts and values start.
    struct Head {
        uint64_t pc = 0, time = 0;
        uint32_t encoding = 0;
        uint32_t line = 0;      // the offset from the run's first line
        uint32_t value_at = 0;  // the offset of its first value (after the line) in an execution's values
        uint16_t cause = TraceRecord::unknown_cause;
        uint16_t mem_at = 0, reg_at = 0;  // its first access in `mem`, its first register write in `regs`
        uint8_t size = 4, privilege = 0, n_mem = 0, n_regs = 0;
        IsaState isa = IsaState::unknown;
        bool cond_failed = false, trapped = false, interrupt = false, has_time = false;
    };
    std::vector<Head> heads;
    std::vector<MemAccess> mem;  // the records' accesses, one record's after the other's
    std::vector<RegWrite> regs;  // their register writes
    // The records of one execution, from its values; `out` holds `records` entries.
    void expand(const unsigned char* values, TraceRecord* out) const;
    // Record `i` of one execution, `first_line` its run's first line (the first value): the fields and the
    // n_mem accesses and n_regs register writes are set, the entries after those are left as they were.
    void record(const unsigned char* values, uint32_t i, uint64_t first_line, TraceRecord& r) const;
};

// One execution of a shape: its values stay valid until the reader's next call.
struct Run {
    const RunShape* shape = nullptr;
    const unsigned char* values = nullptr;
};

// Where an execution's values lie: the line of the first record, then per record its time (when it has one),
// per access its address and (when the data is known) its data, per register write its value; each of the
// shape's width (u32 or u64), little-endian.
struct ValueOffsets {
    static constexpr uint32_t none = 0xFFFFFFFFu;
    uint32_t time = none;
    std::array<uint32_t, TraceRecord::max_mem> addr{}, data{};
    std::array<uint32_t, TraceRecord::max_regs> reg{};
};
// The offsets of each record of `protos` (as RunShape::expand gives them, values left out) for values of `width`
// bytes; the total in `bytes`.
std::vector<ValueOffsets> value_offsets(const TraceRecord* protos, size_t n, unsigned width, uint32_t& bytes);

// A little-endian value of `width` bytes (4 or 8) of an execution's values.
inline uint64_t run_value(const unsigned char* values, uint32_t offset, unsigned width = 8) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (width == 4) {
        uint32_t v;
        std::memcpy(&v, values + offset, 4);
        return v;
    }
    uint64_t v;
    std::memcpy(&v, values + offset, 8);
    return v;
#else
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) v |= static_cast<uint64_t>(values[offset + i]) << (8 * i);
    return v;
#endif
}

}  // namespace pmusim::trace
