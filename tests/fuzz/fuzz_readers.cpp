// libFuzzer target: every trace reader on arbitrary bytes (plain, and through the gzip/xz decoders when the
// bytes start with their magic). A reader may reject its input with TraceError; anything else (a crash, a
// sanitizer report, another exception) is a bug. Built and run by scripts/fuzz.sh with Debian's clang.
#include <cstdint>
#include <cstdio>
#include <string>

#include "traces/reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const char* formats[] = {"auto", "tarmac", "veer", "spike", "qemu-execlog", "qemu-log", "native", "native-text"};
    for (const char* f : formats) {
        for (bool skip : {false, true}) {
            std::FILE* mem = fmemopen(const_cast<uint8_t*>(data), size, "rb");
            if (!mem) return 0;
            try {
                pmusim::trace::ReaderOptions o;
                o.skip_bad_lines = skip;
                o.isa = pmusim::trace::IsaState::a32;
                auto src = std::make_unique<pmusim::trace::ByteSource>(mem, "fuzz");
                auto reader = [&]() -> std::unique_ptr<pmusim::trace::TraceReader> {
                    const std::string fmt = f;
                    if (fmt == "tarmac") return pmusim::trace::make_tarmac_reader(std::move(src), o);
                    if (fmt == "veer") return pmusim::trace::make_veer_reader(std::move(src), o);
                    if (fmt == "spike") return pmusim::trace::make_spike_reader(std::move(src), o);
                    if (fmt == "qemu-execlog") return pmusim::trace::make_qemu_execlog_reader(std::move(src), o);
                    if (fmt == "qemu-log") return pmusim::trace::make_qemu_log_reader(std::move(src), o);
                    if (fmt == "native") return pmusim::trace::make_native_reader(std::move(src), o);
                    if (fmt == "native-text") return pmusim::trace::make_native_text_reader(std::move(src), o);
                    return nullptr;
                }();
                if (reader) {
                    pmusim::trace::TraceRecord r;
                    while (reader->next(r)) {
                    }
                }
            } catch (const pmusim::trace::TraceError&) {
                // rejected input: fine
            }
            std::fclose(mem);
        }
    }
    return 0;
}
