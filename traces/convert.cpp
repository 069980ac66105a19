#include "traces/convert.hpp"

#include <fmt/format.h>

#include "traces/native.hpp"

namespace pmusim::trace {

ConvertResult convert(const std::string& in, const std::string& format, const ReaderOptions& opts, const std::string& out, bool text,
                      unsigned version) {
    auto reader = open_reader(in, format, opts);
    // The writer puts `out` in place only at finish(): an error leaves no file and the old one as it was
    // (traces/output_file.hpp).
    auto writer = make_native_writer(out, text, version);
    ConvertResult c;
    TraceRecord r;
    bool begun = false;
    // The header once the first record is read (a QEMU -d log knows whether it has register dumps by then).
    auto begin = [&] {
        NativeHeader h;
        h.starts_at_reset = reader->starts_at_reset();
        h.register_values = reader->has_register_values();
        h.timestamps = reader->has_time();
        h.interrupts = reader->shows_interrupts();
        writer->begin(h);
        begun = true;
    };
    while (reader->next(r)) {
        if (r.isa == IsaState::unknown)
            throw TraceError(in, r.line, fmt::format("the {} trace does not say its instruction set: give --platform or --isa",
                                                     reader->format()));
        if (!begun) begin();
        writer->write(r);
        ++c.records;
    }
    if (!begun) begin();
    writer->finish();
    c.format = std::string(reader->format());
    return c;
}

}  // namespace pmusim::trace
