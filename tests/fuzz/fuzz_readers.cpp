// libFuzzer target: the trace readers on arbitrary bytes. The first byte picks the format (and whether malformed
// lines are skipped), so every input exercises one reader fully instead of eight shallowly; the rest is the trace
// (through the gzip/xz decoders when it starts with their magic). A reader may reject its input with TraceError;
// anything else (a crash, a sanitizer report, another exception) is a bug. Built with PMUSIM_FUZZ (scripts/test.sh).
#include <cstdint>
#include <cstdio>
#include <memory>

#include "traces/reader.hpp"

using namespace pmusim::trace;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    using Make = std::unique_ptr<TraceReader> (*)(std::unique_ptr<ByteSource>, const ReaderOptions&);
    static const Make makers[] = {make_tarmac_reader,      make_veer_reader,       make_spike_reader,
                                  make_qemu_execlog_reader, make_qemu_log_reader,  make_native_reader,
                                  make_native_text_reader};
    const uint8_t pick = data[0];
    std::FILE* mem = fmemopen(const_cast<uint8_t*>(data + 1), size - 1, "rb");
    if (!mem) return 0;
    try {
        ReaderOptions o;
        o.skip_bad_lines = (pick & 0x80) != 0;
        o.isa = (pick & 0x40) ? IsaState::a64 : IsaState::a32;
        auto src = std::make_unique<ByteSource>(mem, "fuzz");
        auto reader = makers[(pick & 0x3F) % 7](std::move(src), o);
        TraceRecord r;
        while (reader->next(r)) {
        }
    } catch (const TraceError&) {
        // rejected input: fine
    }
    std::fclose(mem);
    return 0;
}
