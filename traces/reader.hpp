// Trace readers: one per format, each turning its input into TraceRecords, streaming in constant memory.
#pragma once
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "traces/input.hpp"
#include "traces/trace_record.hpp"

namespace pmusim::trace {

struct ReaderOptions {
    bool skip_bad_lines = false;  // a malformed line becomes a counted warning instead of an error
    bool replay_all = false;      // VeeR exec.log: go on past the end-of-test mailbox store
    IsaState isa = IsaState::unknown;  // for formats that do not say (QEMU execlog): from the platform
};

class TraceReader {
public:
    virtual ~TraceReader() = default;
    // The next record; false at the end. Throws TraceError (file, line, what was expected) on bad input.
    virtual bool next(TraceRecord& r) = 0;
    virtual std::string_view format() const = 0;
    virtual bool has_register_values() const = 0;  // whether MSR/MCR/CSR source values can be known
    // Whether the trace begins at the core's reset (VeeR's RTL exec.log), so its control state is the reset state
    // (VeeR EL2: no memory region cacheable until the program writes mrac).
    virtual bool starts_at_reset() const { return false; }
    virtual bool has_time() const { return false; }
    // Whether the trace shows where interrupts were taken (TraceRecord::interrupt; the VeeR exec.log).
    virtual bool shows_interrupts() const { return false; }
    uint64_t skipped_lines() const { return skipped_; }
    const std::string& first_skip_message() const { return first_skip_; }
    virtual std::string end_note() const { return {}; }  // why the reader stopped early, if it did
    virtual uint64_t bytes_read() const { return 0; }      // of the trace file so far (progress), 0 if unknown

    // Records in bulk, for the replay's block engine: up to `batch_size` records in the reader's own storage,
    // valid until the next call to next() or next_batch(); 0 at the end. `first` points at the first. An error
    // after the first record of a batch is raised by the following call, so that the records before it are seen
    // first, as with next(). Formats override fill_batch() to decode into the storage without a call per record.
    static constexpr size_t batch_size = 1024;
    size_t next_batch(const TraceRecord*& first);

protected:
    // Fills `out` with up to `max` records (the default: next() per record), counting them in `n` as it goes
    // (so that `n` is right when it throws); n < max at the end.
    virtual void fill_batch(TraceRecord* out, size_t max, size_t& n);
    // Handles a malformed line: throws, or counts it when skipping bad lines.
    void bad_line(const std::string& file, uint64_t line, const std::string& what);
    ReaderOptions opts_;
    uint64_t skipped_ = 0;
    std::string first_skip_;

private:
    std::vector<TraceRecord> batch_;
    std::exception_ptr batch_error_;
};

// The formats by name: veer, spike, qemu-execlog, native, native-text (and "auto").
std::vector<std::string> format_names();
// Opens a trace: `format` is a name from format_names() or "auto" (detected from the first lines).
std::unique_ptr<TraceReader> open_reader(const std::string& path, const std::string& format, const ReaderOptions& opts);

// Readers by format (each takes ownership of its source).
std::unique_ptr<TraceReader> make_veer_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts);
std::unique_ptr<TraceReader> make_spike_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts);
std::unique_ptr<TraceReader> make_native_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts);
std::unique_ptr<TraceReader> make_tarmac_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts);
std::unique_ptr<TraceReader> make_qemu_log_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts);
std::unique_ptr<TraceReader> make_qemu_execlog_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts);
std::unique_ptr<TraceReader> make_native_text_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts);

// Small scanners shared by the text readers (no regex, no iostreams).
namespace scan {
std::string_view trim(std::string_view s);
std::string_view word(std::string_view& s);  // next whitespace-separated word
bool hex(std::string_view s, uint64_t& v);   // [0x]hex digits only
bool dec(std::string_view s, uint64_t& v);
}  // namespace scan

}  // namespace pmusim::trace
