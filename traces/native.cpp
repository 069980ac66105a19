#include "traces/native.hpp"

#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "traces/reader.hpp"

namespace pmusim::trace {

// Binary layout (little-endian):
//   header  16 bytes: "PMUSIMTR", u32 version (1), u32 flags: bit 0 the trace starts at reset, bit 1 no register
//           values, bit 2 no timestamps (0 in files from before these flags: register values and times, as then)
//   record  32 bytes: u64 pc, u64 time, u32 encoding, u32 source line,
//                     u8 size, u8 isa, u8 privilege, u8 flags (bit 0 condition failed, bit 1 has time, bit 2 trapped,
//                     bit 3 an interrupt was taken before it), u8 n_mem, u8 n_regs, u16 the interrupt's cause (bit 3;
//                     0xffff unknown; else 0)
//   then n_mem parts of 24 bytes: u64 addr, u64 data, u8 size, u8 flags (bit 0 write, bit 1 data known), 6 reserved
//   then n_regs parts of 16 bytes: u8 kind, u8 flags (bit 0: a late writeback, before the instruction), u16 index,
//                     u32 reserved, u64 value
namespace {

constexpr char magic[8] = {'P', 'M', 'U', 'S', 'I', 'M', 'T', 'R'};
constexpr uint32_t version = 1;

template <typename T>
void put(unsigned char*& p, T v) {
    for (unsigned i = 0; i < sizeof(T); ++i) *p++ = static_cast<unsigned char>(static_cast<uint64_t>(v) >> (8 * i));
}
template <typename T>
T get(const unsigned char*& p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    T v;  // the file is little-endian, as the host
    std::memcpy(&v, p, sizeof(T));
    p += sizeof(T);
    return v;
#else
    uint64_t v = 0;
    for (unsigned i = 0; i < sizeof(T); ++i) v |= static_cast<uint64_t>(*p++) << (8 * i);
    return static_cast<T>(v);
#endif
}

class BinaryWriter : public TraceWriter {
public:
    explicit BinaryWriter(const std::string& path) : path_(path), file_(path, OutputFile::Kind::binary), f_(file_.file()) {}
    void begin(const NativeHeader& nh) override {
        if (begun_) return;
        begun_ = true;
        unsigned char h[16] = {};
        std::memcpy(h, magic, 8);
        unsigned char* p = h + 8;
        put<uint32_t>(p, version);
        put<uint32_t>(p, (nh.starts_at_reset ? 1u : 0u) | (nh.register_values ? 0u : 2u) | (nh.timestamps ? 0u : 4u));
        out(h, sizeof h);
    }
    void write(const TraceRecord& r) override {
        begin({});
        unsigned char b[32 + 24 * TraceRecord::max_mem + 16 * TraceRecord::max_regs] = {};
        unsigned char* p = b;
        put<uint64_t>(p, r.pc);
        put<uint64_t>(p, r.time);
        put<uint32_t>(p, r.encoding);
        put<uint32_t>(p, static_cast<uint32_t>(r.line));
        put<uint8_t>(p, r.size);
        put<uint8_t>(p, static_cast<uint8_t>(r.isa));
        put<uint8_t>(p, r.privilege);
        put<uint8_t>(p, static_cast<uint8_t>((r.cond_failed ? 1 : 0) | (r.has_time ? 2 : 0) | (r.trapped ? 4 : 0) |
                                             (r.interrupt ? 8 : 0)));
        put<uint8_t>(p, r.n_mem);
        put<uint8_t>(p, r.n_regs);
        put<uint16_t>(p, r.interrupt ? r.cause : uint16_t{0});
        for (unsigned i = 0; i < r.n_mem; ++i) {
            const MemAccess& m = r.mem[i];
            put<uint64_t>(p, m.addr);
            put<uint64_t>(p, m.data);
            put<uint8_t>(p, m.size);
            put<uint8_t>(p, static_cast<uint8_t>((m.is_write ? 1 : 0) | (m.data_known ? 2 : 0)));
            p += 6;
        }
        for (unsigned i = 0; i < r.n_regs; ++i) {
            put<uint8_t>(p, static_cast<uint8_t>(r.regs[i].kind));
            put<uint8_t>(p, r.regs[i].before ? 1 : 0);
            put<uint16_t>(p, r.regs[i].index);
            p += 4;
            put<uint64_t>(p, r.regs[i].value);
        }
        out(b, static_cast<size_t>(p - b));
    }
    void finish() override {
        begin({});
        file_.commit();
    }

private:
    void out(const unsigned char* b, size_t n) {
        if (std::fwrite(b, 1, n, f_) != n) throw TraceError(path_, 0, fmt::format("write error: {}", std::strerror(errno)));
    }
    std::string path_;
    OutputFile file_;  // written whole or not at all (traces/output_file.hpp)
    std::FILE* f_;
    bool begun_ = false;
};

class BinaryReader final : public TraceReader {
public:
    BinaryReader(std::unique_ptr<ByteSource> src, const ReaderOptions& o) : src_(std::move(src)) {
        opts_ = o;
        unsigned char h[16];
        if (src_->read(reinterpret_cast<char*>(h), 16) != 16 || std::memcmp(h, magic, 8) != 0)
            throw TraceError(src_->path(), 0, "not a pmusim native trace (expected the 16-byte 'PMUSIMTR' header)");
        const unsigned char* p = h + 8;
        const uint32_t v = get<uint32_t>(p);
        if (v != version) throw TraceError(src_->path(), 0, fmt::format("native trace version {} (expected {})", v, version));
        flags_ = get<uint32_t>(p);
    }
    std::string_view format() const override { return "native"; }
    uint64_t bytes_read() const override { return src_->raw_bytes(); }
    bool has_register_values() const override { return !(flags_ & 2); }
    bool has_time() const override { return !(flags_ & 4); }
    bool starts_at_reset() const override { return flags_ & 1; }

    bool next(TraceRecord& r) override {
        const unsigned char* p = take(32);
        if (!p) {
            if (!partial_) return false;
            ++count_;
            truncated();
        }
        ++count_;
        decode(p, r);
        return true;
    }

protected:
    void fill_batch(TraceRecord* out, size_t max, size_t& n) override {
        // While the buffer holds the longest record, records decode straight from it (no take() per part);
        // near its end, through next().
        constexpr size_t longest = 32 + 24 * TraceRecord::max_mem + 16 * TraceRecord::max_regs;
        while (n < max) {
            if (end_ - pos_ >= longest) {
                ++count_;
                const unsigned char* p = decode_inline(buf_.data() + pos_, out[n]);
                pos_ = static_cast<size_t>(p - buf_.data());
                ++n;
            } else if (BinaryReader::next(out[n])) {
                ++n;
            } else {
                break;
            }
        }
    }

private:
    // A record at `p` (its 32-byte header first, its parts after it, all in the buffer); returns its end.
    const unsigned char* decode_inline(const unsigned char* p, TraceRecord& r) {
        p = decode_header(p, r);
        for (unsigned i = 0; i < r.n_mem; ++i) p = decode_mem(p, r.mem[i]);
        for (unsigned i = 0; i < r.n_regs; ++i) p = decode_reg(p, r.regs[i]);
        return p;
    }
    // A record whose 32-byte header is at `p`; its parts are taken from the stream.
    void decode(const unsigned char* p, TraceRecord& r) {
        decode_header(p, r);
        for (unsigned i = 0; i < r.n_mem; ++i) {
            const unsigned char* q = take(24);
            if (!q) truncated();
            decode_mem(q, r.mem[i]);
        }
        for (unsigned i = 0; i < r.n_regs; ++i) {
            const unsigned char* q = take(16);
            if (!q) truncated();
            decode_reg(q, r.regs[i]);
        }
    }
    // The parts take the pointer by value and return it moved on (a pointer held by reference would be reloaded
    // after every store into the record, which may alias it).
    const unsigned char* decode_header(const unsigned char* p, TraceRecord& r) {
        // Every header field is set below; entries past n_mem and n_regs are left as they were (not cleared: the
        // clear cost a third of the reader's time).
        r.pc = get<uint64_t>(p);
        r.time = get<uint64_t>(p);
        r.encoding = get<uint32_t>(p);
        r.line = get<uint32_t>(p);
        r.size = get<uint8_t>(p);
        r.isa = static_cast<IsaState>(get<uint8_t>(p));
        r.privilege = get<uint8_t>(p);
        const uint8_t flags = get<uint8_t>(p);
        r.cond_failed = flags & 1;
        r.has_time = flags & 2;
        r.trapped = flags & 4;
        r.interrupt = flags & 8;
        r.n_mem = get<uint8_t>(p);
        r.n_regs = get<uint8_t>(p);
        const uint16_t cause = get<uint16_t>(p);
        r.cause = r.interrupt ? cause : TraceRecord::unknown_cause;
        if (r.n_mem > TraceRecord::max_mem || r.n_regs > TraceRecord::max_regs || r.isa > IsaState::rv64)
            corrupt();
        return p;
    }
    static const unsigned char* decode_mem(const unsigned char* q, MemAccess& m) {
        m.addr = get<uint64_t>(q);
        m.data = get<uint64_t>(q);
        m.size = get<uint8_t>(q);
        const uint8_t f = get<uint8_t>(q);
        m.is_write = f & 1;
        m.data_known = f & 2;
        return q + 6;
    }
    const unsigned char* decode_reg(const unsigned char* q, RegWrite& g) {
        const uint8_t kind = get<uint8_t>(q);
        if (kind > static_cast<uint8_t>(RegKind::sysreg)) corrupt_kind(kind);
        g.kind = static_cast<RegKind>(kind);
        g.before = get<uint8_t>(q) & 1;
        g.index = get<uint16_t>(q);
        q += 4;
        g.value = get<uint64_t>(q);
        return q;
    }
    [[noreturn]] void corrupt() const {
        throw TraceError(src_->path(), 0, fmt::format("record {}: corrupt (counts or instruction set out of range)", count_));
    }
    [[noreturn]] void corrupt_kind(unsigned kind) const {
        throw TraceError(src_->path(), 0, fmt::format("record {}: corrupt register kind {}", count_, kind));
    }

    // The next n bytes from a block buffer (records are read in bulk, not one read per field); nullptr when the
    // stream ends first (`partial_`: some of them were there).
    const unsigned char* take(size_t n) {
        if (end_ - pos_ < n) {
            std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
            end_ -= pos_;
            pos_ = 0;
            while (end_ < n) {
                const size_t got = src_->read(reinterpret_cast<char*>(buf_.data()) + end_, buf_.size() - end_);
                if (got == 0) break;
                end_ += got;
            }
            if (end_ < n) {
                partial_ = end_ != 0;
                return nullptr;
            }
        }
        const unsigned char* p = buf_.data() + pos_;
        pos_ += n;
        return p;
    }
    std::vector<unsigned char> buf_ = std::vector<unsigned char>(size_t{1} << 20);
    size_t pos_ = 0, end_ = 0;
    bool partial_ = false;

    [[noreturn]] void truncated() {
        throw TraceError(src_->path(), 0, fmt::format("truncated: record {} is incomplete", count_));
    }
    std::unique_ptr<ByteSource> src_;
    uint64_t count_ = 0;
    uint32_t flags_ = 0;
};

}  // namespace

std::unique_ptr<TraceWriter> make_native_writer(const std::string& path, bool text) {
    if (text) return make_native_text_writer(path);
    return std::make_unique<BinaryWriter>(path);
}

std::unique_ptr<TraceReader> make_native_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<BinaryReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
