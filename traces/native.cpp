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

// Text form: "# pmusim trace 1 [reset] [no-values] [no-time]" (the header's flags) then one record per line of
// key=value words:
//   pc=0x80000000 enc=0xb0201073 size=4 isa=rv32 priv=3 [time=10] [cf] [trap] [mem=w:1:0xd0580000[:0xff]]
//   [wb=11:0x5] [gpr=5:0x1] [csr=0xb02:0x0] [sys=0xdce0:0x7]
// wb= is a late GPR writeback that landed before the instruction (VeeR EL2 nbL/nbD).
// A register index is decimal unless written with 0x (the writer writes 0x); values are always hex.
class TextWriter : public TraceWriter {
public:
    explicit TextWriter(const std::string& path) : path_(path), file_(path, OutputFile::Kind::text), f_(file_.file()) {}
    void begin(const NativeHeader& h) override {
        if (begun_) return;
        begun_ = true;
        const std::string s = fmt::format("# pmusim trace 1{}{}{}\n", h.starts_at_reset ? " reset" : "",
                                          h.register_values ? "" : " no-values", h.timestamps ? "" : " no-time");
        if (std::fputs(s.c_str(), f_) < 0) throw TraceError(path_, 0, "write error");
    }
    void write(const TraceRecord& r) override {
        begin({});
        std::string s = fmt::format("pc={:#x} enc={:#x} size={} isa={} priv={}", r.pc, r.encoding, r.size,
                                    to_lower_isa(r.isa), r.privilege);
        if (r.has_time) s += fmt::format(" time={}", r.time);
        if (r.cond_failed) s += " cf";
        if (r.trapped) s += " trap";
        if (r.interrupt) s += r.cause == TraceRecord::unknown_cause ? std::string(" irq") : fmt::format(" irq={}", r.cause);
        for (unsigned i = 0; i < r.n_mem; ++i) {
            const MemAccess& m = r.mem[i];
            s += fmt::format(" mem={}:{}:{:#x}", m.is_write ? 'w' : 'r', m.size, m.addr);
            if (m.data_known) s += fmt::format(":{:#x}", m.data);
        }
        for (unsigned i = 0; i < r.n_regs; ++i) {
            const RegWrite& g = r.regs[i];
            const char* k = g.before ? "wb" : g.kind == RegKind::gpr ? "gpr" : g.kind == RegKind::csr ? "csr" : "sys";
            s += fmt::format(" {}={:#x}:{:#x}", k, g.index, g.value);
        }
        s += '\n';
        if (std::fputs(s.c_str(), f_) < 0) throw TraceError(path_, 0, "write error");
    }
    void finish() override {
        begin({});
        file_.commit();
    }
    static std::string to_lower_isa(IsaState s) {
        std::string n(to_string(s));
        for (auto& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return n;
    }

private:
    std::string path_;
    OutputFile file_;  // written whole or not at all (traces/output_file.hpp)
    std::FILE* f_;
    bool begun_ = false;
};

class TextReader : public TraceReader {
public:
    TextReader(std::unique_ptr<ByteSource> src, const ReaderOptions& o) : src_(std::move(src)), lines_(*src_) {
        opts_ = o;
        // The header's flags, known before the first record (the replay asks at its start).
        const std::string_view head = src_->peek(4096);
        std::string_view t = scan::trim(head.substr(0, head.find('\n')));
        if (t.substr(0, 14) == "# pmusim trace") {
            t.remove_prefix(14);
            scan::word(t);  // the version
            for (std::string_view w = scan::word(t); !w.empty(); w = scan::word(t)) {
                if (w == "reset") reset_ = true;
                else if (w == "no-values") values_ = false;
                else if (w == "no-time") time_ = false;
                else throw TraceError(src_->path(), 1, fmt::format("unknown header word '{}' (expected reset, no-values or no-time)", w));
            }
        }
    }
    std::string_view format() const override { return "native-text"; }
    uint64_t bytes_read() const override { return src_->raw_bytes(); }
    bool has_register_values() const override { return values_; }
    bool has_time() const override { return time_; }
    bool starts_at_reset() const override { return reset_; }

    bool next(TraceRecord& r) override {
        std::string_view line;
        while (lines_.next(line)) {
            std::string_view t = scan::trim(line);
            if (t.empty() || t[0] == '#') continue;
            if (parse(t, r)) return true;
        }
        return false;
    }

private:
    bool parse(std::string_view t, TraceRecord& r) {
        const uint64_t no = lines_.line_number();
        r.clear();
        r.line = no;
        bool have_pc = false;
        for (std::string_view w = scan::word(t); !w.empty(); w = scan::word(t)) {
            if (w == "cf") {
                r.cond_failed = true;
                continue;
            }
            if (w == "trap") {
                r.trapped = true;
                continue;
            }
            if (w == "irq") {  // an interrupt taken before it, cause unknown
                r.interrupt = true;
                continue;
            }
            const size_t eq = w.find('=');
            const std::string_view k = w.substr(0, eq), v = eq == std::string_view::npos ? std::string_view{} : w.substr(eq + 1);
            uint64_t n = 0;
            bool ok = eq != std::string_view::npos;
            if (!ok) {
            } else if (k == "pc") {
                ok = scan::hex(v, r.pc);
                have_pc = ok;
            } else if (k == "enc") {
                ok = scan::hex(v, n) && n <= 0xFFFFFFFFu;
                r.encoding = static_cast<uint32_t>(n);
            } else if (k == "size") {
                ok = scan::dec(v, n) && (n == 2 || n == 4);
                r.size = static_cast<uint8_t>(n);
            } else if (k == "isa") {
                static const std::pair<const char*, IsaState> names[] = {{"a64", IsaState::a64}, {"a32", IsaState::a32},
                                                                          {"t32", IsaState::t32}, {"rv32", IsaState::rv32},
                                                                          {"rv64", IsaState::rv64}};
                ok = false;
                for (const auto& [name, s] : names)
                    if (v == name) {
                        r.isa = s;
                        ok = true;
                    }
            } else if (k == "priv") {
                ok = scan::dec(v, n) && n <= 3;
                r.privilege = static_cast<uint8_t>(n);
            } else if (k == "irq") {  // irq=N: an interrupt taken before it, cause N (decimal)
                ok = scan::dec(v, n) && n < TraceRecord::unknown_cause;
                r.interrupt = true;
                r.cause = static_cast<uint16_t>(n);
            } else if (k == "time") {
                ok = scan::dec(v, r.time);
                r.has_time = ok;
            } else if (k == "mem") {
                // dir:size:addr[:data]
                MemAccess m;
                std::string_view parts[4];
                size_t np = 0;
                for (std::string_view rest = v; np < 4;) {
                    const size_t c = rest.find(':');
                    parts[np++] = rest.substr(0, c);
                    if (c == std::string_view::npos) break;
                    rest = rest.substr(c + 1);
                }
                ok = np >= 3 && (parts[0] == "r" || parts[0] == "w") && scan::dec(parts[1], n) && n <= 16 &&
                     scan::hex(parts[2], m.addr) && (np < 4 || scan::hex(parts[3], m.data));
                m.is_write = parts[0] == "w";
                m.size = static_cast<uint8_t>(n);
                m.data_known = np == 4;
                ok = ok && r.add_mem(m);
            } else if (k == "gpr" || k == "csr" || k == "sys" || k == "wb") {
                const size_t c = v.find(':');
                uint64_t idx = 0, val = 0;
                // The index is decimal (gpr=15 is x15 / r15) unless written with 0x (csr=0xb02); the value is hex.
                const std::string_view is = c == std::string_view::npos ? v : v.substr(0, c);
                const bool hex_index = is.size() > 2 && is[0] == '0' && (is[1] == 'x' || is[1] == 'X');
                ok = c != std::string_view::npos && (hex_index ? scan::hex(is, idx) : scan::dec(is, idx)) && idx <= 0xFFFF &&
                     scan::hex(v.substr(c + 1), val);
                const RegKind kind = k == "gpr" || k == "wb" ? RegKind::gpr : k == "csr" ? RegKind::csr : RegKind::sysreg;
                ok = ok && r.add_reg(kind, static_cast<uint16_t>(idx), val, k == "wb");
            } else {
                ok = false;
            }
            if (!ok) {
                bad_line(src_->path(), no, fmt::format("bad word '{}': expected pc=, enc=, size=2|4, isa=, priv=0-3, time=, cf, trap, "
                                                       "mem=r|w:size:addr[:data], wb=|gpr=|csr=|sys=index:value",
                                                       w));
                return false;
            }
        }
        if (!have_pc) {
            bad_line(src_->path(), no, "expected a record with pc=<hex>");
            return false;
        }
        if (r.isa == IsaState::unknown) {
            bad_line(src_->path(), no, "expected isa=a64|a32|t32|rv32|rv64");
            return false;
        }
        return true;
    }

    std::unique_ptr<ByteSource> src_;
    LineReader lines_;
    bool reset_ = false, values_ = true, time_ = true;
};

}  // namespace

std::unique_ptr<TraceWriter> make_native_writer(const std::string& path, bool text) {
    if (text) return std::make_unique<TextWriter>(path);
    return std::make_unique<BinaryWriter>(path);
}

std::unique_ptr<TraceReader> make_native_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<BinaryReader>(std::move(src), opts);
}

std::unique_ptr<TraceReader> make_native_text_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    return std::make_unique<TextReader>(std::move(src), opts);
}

}  // namespace pmusim::trace
