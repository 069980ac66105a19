// `pmusim convert`: any trace to pmusim's native format, with the header the replay needs.
#pragma once
#include <cstdint>
#include <string>

#include "traces/reader.hpp"

namespace pmusim::trace {

struct ConvertResult {
    uint64_t records = 0;
    std::string format;  // the input's
};

// Converts `in` (format name or "auto"; `opts.isa` for formats that do not carry the instruction set) to `out`
// ("-": standard output), text or binary (in `version` 2 or 1). The output is written whole or not at all (traces/output_file.hpp).
// Throws TraceError for bad input, OutputError when the output cannot be written.
ConvertResult convert(const std::string& in, const std::string& format, const ReaderOptions& opts, const std::string& out, bool text,
                      unsigned version = 2);

}  // namespace pmusim::trace
