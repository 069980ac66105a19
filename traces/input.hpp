// Trace input: a file or standard input ("-"), plain, gzip- or xz-compressed (detected by the magic bytes,
// decoded with zlib and liblzma, not a subprocess), read in constant memory whatever its length.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pmusim::trace {

// A malformed or unreadable input: names the file, the line (0 when not line-based) and what was expected.
class TraceError : public std::runtime_error {
public:
    TraceError(const std::string& file, uint64_t line, const std::string& what);
    const std::string& file() const { return file_; }
    uint64_t line() const { return line_; }

private:
    std::string file_;
    uint64_t line_;
};

enum class Compression { none, gzip, xz };

class ByteSource {
public:
    explicit ByteSource(const std::string& path);  // "-" is standard input; throws TraceError
    ByteSource(std::FILE* file, const std::string& name);  // an open stream (not closed here): fmemopen, pipes
    ~ByteSource();
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Reads up to n bytes; 0 at the end. Throws TraceError on a read error or corrupt/truncated compressed data.
    size_t read(char* out, size_t n);
    // The first bytes of the (decompressed) stream without consuming them.
    std::string_view peek(size_t n);
    const std::string& path() const { return path_; }
    Compression compression() const { return compression_; }
    // Bytes read from the file so far (compressed, for a compressed file): progress against its size.
    uint64_t raw_bytes() const { return raw_bytes_; }

private:
    void start();  // sniff the compression and start its decoder
    size_t read_raw(char* out, size_t n);
    size_t read_decoded(char* out, size_t n);

    std::string path_;
    std::FILE* file_ = nullptr;
    bool owns_ = false;
    Compression compression_ = Compression::none;
    struct Codec;
    std::unique_ptr<Codec> codec_;
    std::vector<char> peeked_;
    size_t peek_pos_ = 0;
    uint64_t raw_bytes_ = 0;
};

// Lines of a ByteSource, as views valid until the next call, with their 1-based numbers.
class LineReader {
public:
    // The read buffer: lines are found in place in it, one read() (or decoder call) per 128 KiB. Larger gains
    // nothing measurable and faults in more zeroed pages at every start (docs/performance.md, "Process start-up").
    static constexpr size_t buffer_size = size_t{1} << 17;
    explicit LineReader(ByteSource& src) : src_(src) {}
    // Inline where the buffer holds the whole line (all but one line in a buffer's worth): one memchr.
    bool next(std::string_view& line) {
        const char* start = buf_.data() + begin_;
        if (const void* nl = std::memchr(start, '\n', end_ - begin_)) {
            const size_t len = static_cast<size_t>(static_cast<const char*>(nl) - start);
            line = std::string_view(start, len);
            if (len && start[len - 1] == '\r') line.remove_suffix(1);
            begin_ += len + 1;
            ++line_no_;
            return true;
        }
        return refill_next(line);
    }
    uint64_t line_number() const { return line_no_; }
    ByteSource& source() { return src_; }

private:
    bool refill_next(std::string_view& line);  // next() where the buffer ends before the line's newline
    ByteSource& src_;
    std::vector<char> buf_ = std::vector<char>(buffer_size);  // grows only for a longer line
    size_t begin_ = 0, end_ = 0;
    bool eof_ = false;
    uint64_t line_no_ = 0;
};

}  // namespace pmusim::trace
