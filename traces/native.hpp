// pmusim's native trace format (docs/trace-formats.md): a binary stream of fixed-size little-endian parts that
// needs no parsing, and its text form for hand-written teaching traces.
#pragma once
#include <cstdio>
#include <memory>
#include <string>

#include "traces/trace_record.hpp"

namespace pmusim::trace {

class TraceWriter {
public:
    virtual ~TraceWriter() = default;
    virtual void write(const TraceRecord& r) = 0;
    virtual void finish() = 0;  // flush and close; throws TraceError on a write error
};

// Writes to `path` ("-" for standard output); `text` selects the text form.
std::unique_ptr<TraceWriter> make_native_writer(const std::string& path, bool text);

}  // namespace pmusim::trace
