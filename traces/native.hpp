// pmusim's native trace format (docs/trace-formats.md): a binary stream of fixed-size little-endian parts that
// needs no parsing, and its text form for hand-written teaching traces.
#pragma once
#include <cstdio>
#include <memory>
#include <string>

#include "traces/output_file.hpp"
#include "traces/trace_record.hpp"

namespace pmusim::trace {

// What the replay needs to know of the whole trace, kept in the native header: a converted trace replays as its
// original did.
struct NativeHeader {
    bool starts_at_reset = false;  // the core's reset state at the first record (VeeR EL2 exec.log)
    bool register_values = true;   // MSR/MCR/CSR source values can be known
    bool timestamps = true;        // records carry time
    bool interrupts = false;       // the trace shows every interrupt taken (TraceReader::shows_interrupts)
};

class TraceWriter {
public:
    virtual ~TraceWriter() = default;
    // The header; written before the first record (with the defaults when not called).
    virtual void begin(const NativeHeader& h) = 0;
    virtual void write(const TraceRecord& r) = 0;
    // Flushes, closes and puts the file in place; throws OutputError on a write error. A writer destroyed
    // without finish() leaves no file behind (traces/output_file.hpp).
    virtual void finish() = 0;
};

// Writes to `path` ("-" for standard output); `text` selects the text form. The binary form is written in
// `version` 2 (runs, traces/runs.hpp) or 1 (one record after the other); readers read both.
std::unique_ptr<TraceWriter> make_native_writer(const std::string& path, bool text, unsigned version = 2);
// The text form's writer alone (traces/native_text.cpp).
std::unique_ptr<TraceWriter> make_native_text_writer(const std::string& path);

}  // namespace pmusim::trace
