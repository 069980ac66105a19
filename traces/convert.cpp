#include "traces/convert.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "traces/native.hpp"

namespace pmusim::trace {

ConvertResult convert(const std::string& in, const std::string& format, const ReaderOptions& opts, const std::string& out, bool text) {
    auto reader = open_reader(in, format, opts);
    std::string tmp = out;
    bool created = false;
    std::unique_ptr<TraceWriter> writer;
    try {
        if (out != "-") {
            std::string name = out + ".XXXXXX";
            const int fd = mkstemp(name.data());
            if (fd < 0) throw TraceError(out, 0, fmt::format("cannot create a file beside it: {}", std::strerror(errno)));
            created = true;
            tmp = name;
            const mode_t mask = ::umask(0);  // the mode a newly created file gets (mkstemp's is 0600)
            ::umask(mask);
            const bool ok = ::fchmod(fd, 0666 & ~mask) == 0;
            ::close(fd);
            if (!ok) throw TraceError(out, 0, fmt::format("cannot set the mode of {}: {}", tmp, std::strerror(errno)));
        }
        writer = make_native_writer(tmp, text);
        ConvertResult c;
        TraceRecord r;
        bool begun = false;
        // The header once the first record is read (a QEMU -d log knows whether it has register dumps by then).
        auto begin = [&] {
            NativeHeader h;
            h.starts_at_reset = reader->starts_at_reset();
            h.register_values = reader->has_register_values();
            h.timestamps = reader->has_time();
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
        writer.reset();
        if (created) {
            if (std::rename(tmp.c_str(), out.c_str()) != 0)
                throw TraceError(out, 0, fmt::format("cannot rename {} to it: {}", tmp, std::strerror(errno)));
            created = false;
        }
        c.format = std::string(reader->format());
        return c;
    } catch (...) {
        writer.reset();
        if (created) std::remove(tmp.c_str());  // the temporary file made here, never another
        throw;
    }
}

}  // namespace pmusim::trace
