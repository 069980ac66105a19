#include "traces/input.hpp"

#include <cerrno>
#include <cstring>

#include <fmt/format.h>
#include <lzma.h>
#include <zlib.h>

#include "traces/message.hpp"

namespace pmusim::trace {

TraceError::TraceError(const std::string& file, uint64_t line, const std::string& what)
    : std::runtime_error(line ? fmt::format("{}:{}: {}", printable(file), line, printable(what, 2 * message_limit))
                              : fmt::format("{}: {}", printable(file), printable(what, 2 * message_limit))),
      file_(file), line_(line) {}

namespace {

// liblzma's return codes in words (lzma/base.h).
std::string lzma_text(lzma_ret rc) {
    switch (rc) {
        case LZMA_MEM_ERROR: return "out of memory while decompressing";
        case LZMA_MEMLIMIT_ERROR: return "the stream needs more memory than allowed to decompress";
        case LZMA_FORMAT_ERROR: return "not in the .xz format";
        case LZMA_OPTIONS_ERROR: return "compressed with options this liblzma does not support";
        case LZMA_DATA_ERROR: return "corrupt compressed data";
        case LZMA_BUF_ERROR: return "the compressed stream ends early (truncated)";
        case LZMA_UNSUPPORTED_CHECK: return "an integrity check of a kind this liblzma does not support";
        case LZMA_PROG_ERROR: return "a decoder error (liblzma misused)";
        default: return fmt::format("liblzma error {}", static_cast<int>(rc));
    }
}

}  // namespace

struct ByteSource::Codec {
    std::vector<unsigned char> in = std::vector<unsigned char>(1 << 16);
    size_t in_len = 0, in_pos = 0;
    bool in_eof = false, done = false;
    z_stream z{};
    lzma_stream x = LZMA_STREAM_INIT;
};

ByteSource::ByteSource(const std::string& path) : path_(path) {
    if (path == "-") {
        file_ = stdin;
    } else {
        file_ = std::fopen(path.c_str(), "rb");
        if (!file_) throw TraceError(path, 0, fmt::format("cannot open: {}", std::strerror(errno)));
        owns_ = true;
        // Unbuffered: every read here asks for a block (the readers' 64-128 KiB), which the kernel copies straight
        // into the caller's buffer; with stdio's 4 KiB buffer a block not a multiple of 4 KiB took two system calls
        // and its tail was copied twice.
        std::setvbuf(file_, nullptr, _IONBF, 0);
    }
    start();
}

ByteSource::ByteSource(std::FILE* file, const std::string& name) : path_(name), file_(file) { start(); }

void ByteSource::start() {
    const std::string& path = path_;
    // Sniff the magic bytes of the raw stream.
    unsigned char magic[6] = {};
    const size_t n = read_raw(reinterpret_cast<char*>(magic), sizeof magic);
    codec_ = std::make_unique<Codec>();
    std::memcpy(codec_->in.data(), magic, n);
    codec_->in_len = n;
    if (n >= 2 && magic[0] == 0x1F && magic[1] == 0x8B) compression_ = Compression::gzip;
    else if (n >= 6 && std::memcmp(magic, "\xFD" "7zXZ\0", 6) == 0) compression_ = Compression::xz;
    if (compression_ == Compression::gzip) {
        if (inflateInit2(&codec_->z, 15 + 16) != Z_OK) throw TraceError(path, 0, "cannot start the gzip decoder");
    } else if (compression_ == Compression::xz) {
        if (lzma_stream_decoder(&codec_->x, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
            throw TraceError(path, 0, "cannot start the xz decoder");
    }
}

ByteSource::~ByteSource() {
    if (codec_) {
        if (compression_ == Compression::gzip) inflateEnd(&codec_->z);
        if (compression_ == Compression::xz) lzma_end(&codec_->x);
    }
    if (owns_ && file_) std::fclose(file_);
}

size_t ByteSource::read_raw(char* out, size_t n) {
    const size_t got = std::fread(out, 1, n, file_);
    raw_bytes_ += got;
    if (got < n && std::ferror(file_)) throw TraceError(path_, 0, fmt::format("read error: {}", std::strerror(errno)));
    return got;
}

size_t ByteSource::read_decoded(char* out, size_t n) {
    Codec& c = *codec_;
    if (compression_ == Compression::none) {
        // The sniffed bytes first, then the file.
        size_t k = 0;
        if (c.in_pos < c.in_len) {
            k = std::min(n, c.in_len - c.in_pos);
            std::memcpy(out, c.in.data() + c.in_pos, k);
            c.in_pos += k;
        }
        return k + (k < n ? read_raw(out + k, n - k) : 0);
    }
    size_t produced = 0;
    while (produced == 0 && !c.done) {
        if (c.in_pos == c.in_len && !c.in_eof) {
            c.in_len = read_raw(reinterpret_cast<char*>(c.in.data()), c.in.size());
            c.in_pos = 0;
            c.in_eof = c.in_len == 0;
        }
        const size_t avail = c.in_len - c.in_pos;
        if (compression_ == Compression::gzip) {
            c.z.next_in = c.in.data() + c.in_pos;
            c.z.avail_in = static_cast<uInt>(avail);
            c.z.next_out = reinterpret_cast<Bytef*>(out);
            c.z.avail_out = static_cast<uInt>(n);
            const int rc = inflate(&c.z, Z_NO_FLUSH);
            c.in_pos = c.in_len - c.z.avail_in;
            produced = n - c.z.avail_out;
            if (rc == Z_STREAM_END) {
                // Concatenated members: start the next one only if more input follows.
                if (c.in_pos == c.in_len && !c.in_eof) {
                    c.in_len = read_raw(reinterpret_cast<char*>(c.in.data()), c.in.size());
                    c.in_pos = 0;
                    c.in_eof = c.in_len == 0;
                }
                if (c.in_pos < c.in_len) inflateReset(&c.z);
                else c.done = true;
            } else if (rc == Z_BUF_ERROR && c.in_eof && avail == 0) {
                throw TraceError(path_, 0, "truncated gzip data: the compressed stream ends early");
            } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
                throw TraceError(path_, 0, fmt::format("corrupt gzip data ({})", c.z.msg ? c.z.msg : "inflate error"));
            }
            if (produced == 0 && c.in_eof && c.in_pos == c.in_len && !c.done)
                throw TraceError(path_, 0, "truncated gzip data: the compressed stream ends early");
        } else {
            c.x.next_in = c.in.data() + c.in_pos;
            c.x.avail_in = avail;
            c.x.next_out = reinterpret_cast<uint8_t*>(out);
            c.x.avail_out = n;
            const lzma_ret rc = lzma_code(&c.x, c.in_eof ? LZMA_FINISH : LZMA_RUN);
            c.in_pos = c.in_len - c.x.avail_in;
            produced = n - c.x.avail_out;
            if (rc == LZMA_STREAM_END) c.done = true;
            else if (rc == LZMA_BUF_ERROR && c.in_eof)
                throw TraceError(path_, 0, "truncated xz data: the compressed stream ends early");
            else if (rc != LZMA_OK) throw TraceError(path_, 0, fmt::format("xz data: {}", lzma_text(rc)));
        }
    }
    return produced;
}

size_t ByteSource::read(char* out, size_t n) {
    size_t k = 0;
    if (peek_pos_ < peeked_.size()) {
        k = std::min(n, peeked_.size() - peek_pos_);
        std::memcpy(out, peeked_.data() + peek_pos_, k);
        peek_pos_ += k;
        if (peek_pos_ == peeked_.size()) {
            peeked_.clear();
            peek_pos_ = 0;
        }
    }
    while (k < n) {
        const size_t got = read_decoded(out + k, n - k);
        if (got == 0) break;
        k += got;
    }
    return k;
}

std::string_view ByteSource::peek(size_t n) {
    while (peeked_.size() - peek_pos_ < n) {
        char tmp[4096];
        const size_t got = read_decoded(tmp, std::min(sizeof tmp, n - (peeked_.size() - peek_pos_)));
        if (got == 0) break;
        peeked_.insert(peeked_.end(), tmp, tmp + got);
    }
    return std::string_view(peeked_.data() + peek_pos_, peeked_.size() - peek_pos_);
}

bool LineReader::refill_next(std::string_view& line) {
    for (;;) {
        const char* start = buf_.data() + begin_;
        const void* nl = std::memchr(start, '\n', end_ - begin_);
        if (nl) {
            const size_t len = static_cast<size_t>(static_cast<const char*>(nl) - start);
            line = std::string_view(start, len);
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            begin_ += len + 1;
            ++line_no_;
            return true;
        }
        if (eof_) {
            if (begin_ == end_) return false;
            // A last line without its newline is a cut trace (a copy or a run stopped mid-write): reading the part
            // as a record would count a wrong instruction. Blank remains (spaces, a NUL pad) are no record at all.
            const std::string_view rest(start, end_ - begin_);
            ++line_no_;
            begin_ = end_;
            if (rest.find_first_not_of(std::string_view(" \t\r\0", 4)) == std::string_view::npos) return false;
            throw TraceError(src_.path(), line_no_,
                             "the file ends in the middle of this line (a cut trace?): every line of a text trace ends "
                             "with a newline");
        }
        // Keep the partial line; grow only for a line longer than the buffer.
        if (begin_ > 0) {
            std::memmove(buf_.data(), start, end_ - begin_);
            end_ -= begin_;
            begin_ = 0;
        }
        if (end_ == buf_.size()) {
            if (buf_.size() >= (1u << 24))
                throw TraceError(src_.path(), line_no_ + 1, "line longer than 16 MiB: not a text trace");
            buf_.resize(buf_.size() * 2);
        }
        const size_t got = src_.read(buf_.data() + end_, buf_.size() - end_);
        if (got == 0) eof_ = true;
        end_ += got;
    }
}

}  // namespace pmusim::trace
