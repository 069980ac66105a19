// Trace readers: one per format, each turning its input into TraceRecords, streaming in constant memory.
#pragma once
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "traces/input.hpp"
#include "traces/runs.hpp"
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

    // Runs, where the file stores them (native format version 2, traces/runs.hpp): up to `run_batch` runs, valid
    // until the next call; 0 at the end. A reader is read either by runs or by records (next, next_batch).
    static constexpr size_t run_batch = 256;
    virtual bool stores_runs() const { return false; }
    virtual size_t next_runs(const Run*& first) {
        first = nullptr;
        return 0;
    }
    // The run shapes defined so far: every run next_runs() has given has a shape numbered below this.
    virtual uint32_t run_shapes() const { return 0; }
    // The runs the reader's buffer holds past the last one read, for a caller that walks them in place (the
    // replay's --architectural loop, with no array of runs between): each a 4-byte tag (little-endian; a shape
    // number below n_shapes, else not a run to walk: a shape, corrupt) and its shape's values. Valid until the
    // next call of next_runs(); the runs walked are then given back with take_runs(). Empty where runs are not
    // stored (at == end).
    struct RunSpan {
        const unsigned char* at = nullptr;   // the first run's tag
        const unsigned char* end = nullptr;  // the buffer's end: a run whose tag or values pass it is not whole
        // A run that starts before it is whole whatever its shape (the longest step of a shape defined fits).
        const unsigned char* safe = nullptr;
        const RunShape* const* shapes = nullptr;  // by tag (a shape's number, RunShape::id, is its tag)
        const uint64_t* steps = nullptr;  // by tag: 4 + the shape's value bytes (low 32 bits), its records (high)
        uint32_t n_shapes = 0;
    };
    virtual RunSpan run_span() { return {}; }
    // The span's runs before `to` (a tag's position, from run_span()) read: `records` theirs in all.
    virtual void take_runs(const unsigned char* to, uint64_t records) {
        (void)to;
        (void)records;
    }

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

// Small scanners shared by the text readers (no regex, no iostreams, no locale): inline, single-pass, on ASCII.
// Called several times per trace line, they are the readers' inner loop (docs/performance.md "Text readers").
namespace scan {

// White space as the C locale's isspace() has it (space, \t, \n, \v, \f, \r), tested inline: the traces are
// ASCII, and the library call per character cost the VeeR reader a third of its time.
// One comparison for the printable characters (above ' '), a bit of a mask for the rest.
inline bool space(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u <= ' ' && ((uint64_t{1} << u) & 0x100003E00ull) != 0;  // bits 9-13 and 32
}

namespace detail {

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
// Eight characters at a time (the first in the low byte): the runs of spaces between a trace's columns and the
// words in them are passed a word at a time, the end of a run found with one bit scan.
constexpr bool swar = true;
#else
constexpr bool swar = false;
#endif
constexpr uint64_t ones = 0x0101010101010101ull, spaces = ones * ' ';
inline uint64_t load8(const char* p) {
    uint64_t x;
    std::memcpy(&x, p, sizeof x);
    return x;
}
// Whether a byte of x is c: the zero-byte test on x ^ c (a borrow can mark bytes above a zero byte, never when
// there is none).
inline bool has_byte(uint64_t x, char c) {
    const uint64_t v = x ^ (ones * static_cast<unsigned char>(c));
    return ((v - ones) & ~v & (ones * 0x80)) != 0;
}
inline unsigned low_zero_bytes(uint64_t m) { return static_cast<unsigned>(__builtin_ctzll(m)) >> 3; }
inline unsigned high_zero_bytes(uint64_t m) { return static_cast<unsigned>(__builtin_clzll(m)) >> 3; }

// The first character at or after p that is not white space, or e.
inline const char* skip_space(const char* p, const char* e) {
    if constexpr (swar) {
        while (e - p >= 8) {
            const uint64_t m = load8(p) ^ spaces;  // zero bytes: ' '
            if (!m) {
                p += 8;
                continue;
            }
            p += low_zero_bytes(m);
            if (!space(*p)) return p;
            ++p;  // \t to \r
        }
    }
    while (p < e && space(*p)) ++p;
    return p;
}

// The end of the white space that ends [b, e): the last character that is not white space is just before it.
inline const char* skip_space_back(const char* b, const char* e) {
    if constexpr (swar) {
        while (e - b >= 8) {
            const uint64_t m = load8(e - 8) ^ spaces;
            if (!m) {
                e -= 8;
                continue;
            }
            e -= high_zero_bytes(m);
            if (!space(e[-1])) return e;
            --e;
        }
    }
    while (e > b && space(e[-1])) --e;
    return e;
}

// The first white-space character at or after p, or e.
inline const char* skip_word(const char* p, const char* e) {
    if constexpr (swar) {
        while (e - p >= 8) {
            const uint64_t x = load8(p);
            // The top bit of each byte below 0x21 (white space and the other control characters); the borrow can
            // mark bytes after the first such byte, never before it, so the lowest mark is exact.
            const uint64_t m = (x - ones * 0x21) & ~x & (ones * 0x80);
            if (!m) {
                p += 8;
                continue;
            }
            p += low_zero_bytes(m);
            if (space(*p)) return p;
            ++p;  // a control character that is not white space: part of the word
        }
    }
    while (p < e && !space(*p)) ++p;
    return p;
}

// The top bit of each byte of x that is c: exact per byte (a byte's low seven bits plus 0x7F carry into no other).
inline uint64_t bytes_equal(uint64_t x, char c) {
    const uint64_t v = x ^ (ones * static_cast<unsigned char>(c));  // zero bytes: c
    return ~(((v & (ones * 0x7F)) + ones * 0x7F) | v) & (ones * 0x80);
}

// The first `c` at or after p, or e: eight characters at a time (a short distance: no library call).
inline const char* find_char(const char* p, const char* e, char c) {
    if constexpr (swar) {
        for (; e - p >= 8; p += 8)
            if (const uint64_t m = bytes_equal(load8(p), c)) return p + low_zero_bytes(m);
    }
    while (p < e && *p != c) ++p;
    return p;
}

// The first character at or after p that is white space or `c`, or e: skip_word() that stops at `c` too.
inline const char* skip_word_until(const char* p, const char* e, char c) {
    if constexpr (swar) {
        while (e - p >= 8) {
            const uint64_t x = load8(p);
            // Bytes below 0x21 as in skip_word (the lowest mark exact), or c (exact): the lowest of both is exact.
            const uint64_t m = ((x - ones * 0x21) & ~x & (ones * 0x80)) | bytes_equal(x, c);
            if (!m) {
                p += 8;
                continue;
            }
            p += low_zero_bytes(m);
            if (*p == c || space(*p)) return p;
            ++p;  // a control character that is not white space: part of the word
        }
    }
    while (p < e && *p != c && !space(*p)) ++p;
    return p;
}

}  // namespace detail

inline std::string_view trim(std::string_view s) {
    const char* b = detail::skip_space(s.data(), s.data() + s.size());
    const char* e = detail::skip_space_back(b, s.data() + s.size());
    return std::string_view(b, static_cast<size_t>(e - b));
}

// The next whitespace-separated word (empty when none is left); `s` becomes what follows it.
inline std::string_view word(std::string_view& s) {
    const char* e = s.data() + s.size();
    const char* b = detail::skip_space(s.data(), e);
    const char* p = detail::skip_word(b, e);
    s = std::string_view(p, static_cast<size_t>(e - p));
    return std::string_view(b, static_cast<size_t>(p - b));
}

// Whether `s` is the literal `lit` / begins with it: the length known at compile time, so the comparison is inlined
// (std::string_view's operator== calls memcmp, and strlen for a const char*).
template <size_t N>
inline bool is(std::string_view s, const char (&lit)[N]) {
    return s.size() == N - 1 && std::memcmp(s.data(), lit, N - 1) == 0;
}
template <size_t N>
inline bool starts(std::string_view s, const char (&lit)[N]) {
    return s.size() >= N - 1 && std::memcmp(s.data(), lit, N - 1) == 0;
}

// The position of the first `c` in a short `s` (a word), or npos: eight characters at a time, not a library call.
inline size_t find(std::string_view s, char c) {
    const char* e = s.data() + s.size();
    const char* p = detail::find_char(s.data(), e, c);
    return p == e ? std::string_view::npos : static_cast<size_t>(p - s.data());
}

namespace detail {
// A character's value as a hexadecimal digit, 16 for anything else: one load per digit.
struct HexDigits {
    uint8_t v[256];
    constexpr HexDigits() : v() {
        for (unsigned c = 0; c < 256; ++c)
            v[c] = static_cast<uint8_t>(c >= '0' && c <= '9'   ? c - '0'
                                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                               : 16);
    }
};
inline constexpr HexDigits hex_digits{};
}  // namespace detail

inline unsigned hex_digit(char c) { return detail::hex_digits.v[static_cast<unsigned char>(c)]; }

namespace detail {
// Eight hexadecimal digits at once, as load8() has them (the first, most significant, in the low byte): their value,
// or false when a byte is not a digit. Each byte is tested against the ranges '0'-'9' and, with bit 5 set,
// 'a'-'f': adding 0x80 - bound to a byte below 0x80 sets its top bit exactly when the byte is at least the bound,
// and carries into no other byte (bytes at or above 0x80 are not digits and are rejected first). Always inlined,
// as right_dec8 is: called out of line (GCC's choice at -O2) each call loaded its eight 64-bit constants again,
// 7% of the VeeR reader's instructions.
__attribute__((always_inline)) inline bool hex8(uint64_t x, uint64_t& v) {
    constexpr uint64_t top = ones * 0x80;
    if (x & top) return false;
    const uint64_t lower = x | (ones * 0x20);  // 'A'-'F' as 'a'-'f'
    const uint64_t digit = (x + ones * (0x80 - '0')) & ~(x + ones * (0x80 - '9' - 1));
    const uint64_t letter = (lower + ones * (0x80 - 'a')) & ~(lower + ones * (0x80 - 'f' - 1));
    if (((digit | letter) & top) != top) return false;
    // A digit's value is its low four bits; a letter's, its low four bits (1-6) plus 9.
    uint64_t n = (x & (ones * 0x0F)) + ((letter >> 7) & ones) * 9;
    n = ((n << 4) | (n >> 8)) & 0x00FF00FF00FF00FFull;   // pairs of digits: bytes in 16-bit lanes
    n = ((n << 8) | (n >> 16)) & 0x0000FFFF0000FFFFull;  // four digits in 32-bit lanes
    v = ((n << 16) | (n >> 32)) & 0xFFFFFFFFull;
    return true;
}

// An eight-character field as printf's "%8d" has it, as load8() has it: spaces, then one to eight decimal digits
// (no other character). Their value, or false.
__attribute__((always_inline)) inline bool right_dec8(uint64_t x, uint64_t& v) {
    constexpr uint64_t top = ones * 0x80;
    if (x & top) return false;
    const uint64_t digit = (x + ones * (0x80 - '0')) & ~(x + ones * (0x80 - '9' - 1)) & top;
    if (!digit) return false;
    const unsigned lead = low_zero_bytes(digit);  // the last byte is a digit: lead < 8
    if (digit != top << (8 * lead) || (bytes_equal(x, ' ') | digit) != top) return false;
    // A space's low four bits are zero: a leading zero. Then pairs, fours and eights of digits, as in hex8.
    uint64_t n = x & (ones * 0x0F);
    n = (n * 10 + (n >> 8)) & 0x00FF00FF00FF00FFull;
    n = (n * 100 + (n >> 16)) & 0x0000FFFF0000FFFFull;
    v = (n * 10000 + (n >> 32)) & 0xFFFFFFFFull;
    return true;
}
}  // namespace detail

// [0x|0X]hex digits only, 1 to 16 of them. The digits before the last multiple of eight through a table, tested
// together at the end (a value of 16 sets a bit that no digit has: no branch per digit); then eight at a time.
inline bool hex(std::string_view s, uint64_t& v) {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    if (s.empty() || s.size() > 16) return false;
    uint64_t x = 0;
    unsigned bad = 0;
    const size_t lead = detail::swar ? s.size() % 8 : s.size();
    for (size_t i = 0; i < lead; ++i) {
        const unsigned d = hex_digit(s[i]);
        bad |= d;
        x = (x << 4) | (d & 15u);
    }
    if (bad & 16u) return false;
    for (size_t i = lead; i < s.size(); i += 8) {
        uint64_t w;
        if (!detail::hex8(detail::load8(s.data() + i), w)) return false;
        x = (x << 32) | w;
    }
    v = x;
    return true;
}

// A run of hexadecimal digits at p, read in place (no word to find first): its value and p past it; false when p
// holds no digit or more than 16 (p is then past them too). Eight at a time where eight follow.
inline bool hex_run(const char*& p, const char* e, uint64_t& v) {
    const char* s = p;
    uint64_t x = 0;
    if (detail::swar && e - p >= 8 && detail::hex8(detail::load8(p), x)) p += 8;
    for (unsigned d; p < e && (d = hex_digit(*p)) < 16; ++p) x = (x << 4) | d;
    v = x;
    return p != s && p - s <= 16;
}

// Decimal digits only, within 64 bits (19 digits always fit; 20 are checked for overflow).
inline bool dec(std::string_view s, uint64_t& v) {
    if (s.empty()) return false;
    uint64_t x = 0;
    if (s.size() <= 19) {
        bool bad = false;
        for (const char c : s) {
            const unsigned d = static_cast<unsigned>(static_cast<unsigned char>(c)) - '0';
            bad |= d > 9;
            x = x * 10 + d;
        }
        if (bad) return false;
    } else {
        for (const char c : s) {
            const unsigned d = static_cast<unsigned>(static_cast<unsigned char>(c)) - '0';
            if (d > 9) return false;
            if (x > (UINT64_MAX - d) / 10) return false;  // overflow
            x = x * 10 + d;
        }
    }
    v = x;
    return true;
}

}  // namespace scan

}  // namespace pmusim::trace
