#include "traces/native.hpp"

#include <cerrno>
#include <array>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "traces/reader.hpp"

namespace pmusim::trace {

// Binary layout (little-endian), docs/trace-formats.md "The native format":
//   header  16 bytes: "PMUSIMTR", u32 version (1 or 2), u32 flags: bit 0 the trace starts at reset, bit 1 no register
//           values, bit 2 no timestamps (0 in files from before these flags: register values and times, as then),
//           bit 3 the trace shows every interrupt taken (a VeeR EL2 exec.log's conversion)
// Version 1: records one after the other.
//   record  32 bytes: u64 pc, u64 time, u32 encoding, u32 source line,
//                     u8 size, u8 isa, u8 privilege, u8 flags (bit 0 condition failed, bit 1 has time, bit 2 trapped,
//                     bit 3 an interrupt was taken before it), u8 n_mem, u8 n_regs, u16 the interrupt's cause (bit 3;
//                     0xffff unknown; else 0)
//   then n_mem parts of 24 bytes: u64 addr, u64 data, u8 size, u8 flags (bit 0 write, bit 1 data known), 6 reserved
//   then n_regs parts of 16 bytes: u8 kind, u8 flags (bit 0: a late writeback, before the instruction), u16 index,
//                     u32 reserved, u64 value
// Version 2: runs (traces/runs.hpp), each entry a u32 tag:
//   0xffffffff: a shape, numbered from 0 in the order of the file: u32 records (bits 0-15: 1-64; bit 16: its
//               values are u32, else u64), u32 bytes, then that many bytes: its records in version 1's layout with
//               the time, addresses, data and register values 0 and the line as an offset from the run's first
//   otherwise:  an execution of shape `tag`: its values (runs.hpp ValueOffsets)
namespace {

constexpr char magic[8] = {'P', 'M', 'U', 'S', 'I', 'M', 'T', 'R'};
constexpr uint32_t shape_tag = 0xFFFFFFFFu;
constexpr size_t record_bytes = 32, mem_bytes = 24, reg_bytes = 16;
constexpr size_t longest_record = record_bytes + mem_bytes * TraceRecord::max_mem + reg_bytes * TraceRecord::max_regs;

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

// A record in version 1's layout at `p`; returns its end. `values` false: the time, addresses, data and register
// values written as 0 and the line as `line` (a shape's prototype).
unsigned char* encode(const TraceRecord& r, unsigned char* p, bool values, uint32_t line) {
    put<uint64_t>(p, r.pc);
    put<uint64_t>(p, values ? r.time : 0);
    put<uint32_t>(p, r.encoding);
    put<uint32_t>(p, line);
    put<uint8_t>(p, r.size);
    put<uint8_t>(p, static_cast<uint8_t>(r.isa));
    put<uint8_t>(p, r.privilege);
    put<uint8_t>(p, static_cast<uint8_t>((r.cond_failed ? 1 : 0) | (r.has_time ? 2 : 0) | (r.trapped ? 4 : 0) | (r.interrupt ? 8 : 0)));
    put<uint8_t>(p, r.n_mem);
    put<uint8_t>(p, r.n_regs);
    put<uint16_t>(p, r.interrupt ? r.cause : uint16_t{0});
    for (unsigned i = 0; i < r.n_mem; ++i) {
        const MemAccess& m = r.mem[i];
        put<uint64_t>(p, values ? m.addr : 0);
        put<uint64_t>(p, values ? m.data : 0);
        put<uint8_t>(p, m.size);
        put<uint8_t>(p, static_cast<uint8_t>((m.is_write ? 1 : 0) | (m.data_known ? 2 : 0)));
        for (unsigned k = 0; k < 6; ++k) *p++ = 0;
    }
    for (unsigned i = 0; i < r.n_regs; ++i) {
        put<uint8_t>(p, static_cast<uint8_t>(r.regs[i].kind));
        put<uint8_t>(p, r.regs[i].before ? 1 : 0);
        put<uint16_t>(p, r.regs[i].index);
        for (unsigned k = 0; k < 4; ++k) *p++ = 0;
        put<uint64_t>(p, values ? r.regs[i].value : 0);
    }
    return p;
}

// Thrown by the decoders below; the reader adds the file and the record.
struct Corrupt {
    std::string what;
};

// Decoding takes the pointer by value and returns it moved on (a pointer held by reference would be reloaded
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
        throw Corrupt{"corrupt (counts or instruction set out of range)"};
    // The values the text form accepts (native_text.cpp, docs/trace-formats.md): size 2 or 4, privilege 0-3.
    if (r.size != 2 && r.size != 4) throw Corrupt{fmt::format("corrupt (instruction size {}: expected 2 or 4)", r.size)};
    if (r.privilege > 3) throw Corrupt{fmt::format("corrupt (privilege {}: expected 0-3)", r.privilege)};
    return p;
}
const unsigned char* decode_mem(const unsigned char* q, MemAccess& m) {
    m.addr = get<uint64_t>(q);
    m.data = get<uint64_t>(q);
    m.size = get<uint8_t>(q);
    // As the text form (mem=r|w:size:...): 0 (not known) to 16 bytes.
    if (m.size > 16) throw Corrupt{fmt::format("corrupt (memory access of {} bytes: expected 0-16)", m.size)};
    const uint8_t f = get<uint8_t>(q);
    m.is_write = f & 1;
    m.data_known = f & 2;
    return q + 6;
}
const unsigned char* decode_reg(const unsigned char* q, RegWrite& g) {
    const uint8_t kind = get<uint8_t>(q);
    if (kind > static_cast<uint8_t>(RegKind::sysreg)) throw Corrupt{fmt::format("corrupt register kind {}", kind)};
    g.kind = static_cast<RegKind>(kind);
    g.before = get<uint8_t>(q) & 1;
    g.index = get<uint16_t>(q);
    q += 4;
    g.value = get<uint64_t>(q);
    return q;
}
// A whole record (header and parts) at `p`, all of it in memory; returns its end.
const unsigned char* decode_record(const unsigned char* p, TraceRecord& r) {
    p = decode_header(p, r);
    for (unsigned i = 0; i < r.n_mem; ++i) p = decode_mem(p, r.mem[i]);
    for (unsigned i = 0; i < r.n_regs; ++i) p = decode_reg(p, r.regs[i]);
    return p;
}

// Record `i` of an execution of `s` with values of W bytes (RunShape::record): its decoded prototype with the
// execution's values in place of the prototype's zeros, in ValueOffsets' order.
template <unsigned W>
void run_record(const RunShape& s, const unsigned char* values, uint32_t i, uint64_t first_line, TraceRecord& r) {
    const RunShape::Head& h = s.heads[i];
    uint32_t at = h.value_at;
    const auto value = [&] {
        const uint64_t v = run_value(values, at, W);
        at += W;
        return v;
    };
    r.pc = h.pc;
    r.encoding = h.encoding;
    r.size = h.size;
    r.isa = h.isa;
    r.privilege = h.privilege;
    r.cond_failed = h.cond_failed;
    r.trapped = h.trapped;
    r.interrupt = h.interrupt;
    r.cause = h.cause;
    r.has_time = h.has_time;
    r.time = h.has_time ? value() : h.time;
    r.line = first_line + h.line;
    r.n_mem = h.n_mem;
    r.n_regs = h.n_regs;
    const MemAccess* m = s.mem.data() + h.mem_at;
    for (unsigned k = 0; k < h.n_mem; ++k) {
        r.mem[k] = m[k];
        r.mem[k].addr = value();
        if (m[k].data_known) r.mem[k].data = value();
    }
    const RegWrite* g = s.regs.data() + h.reg_at;
    for (unsigned k = 0; k < h.n_regs; ++k) {
        r.regs[k] = g[k];
        r.regs[k].value = value();
    }
}

class BinaryWriter : public TraceWriter {
public:
    BinaryWriter(const std::string& path, unsigned version)
        : path_(path), file_(path, OutputFile::Kind::binary), f_(file_.file()), version_(version) {}
    void begin(const NativeHeader& nh) override {
        if (begun_) return;
        begun_ = true;
        unsigned char h[16] = {};
        std::memcpy(h, magic, 8);
        unsigned char* p = h + 8;
        put<uint32_t>(p, version_);
        put<uint32_t>(p, (nh.starts_at_reset ? 1u : 0u) | (nh.register_values ? 0u : 2u) | (nh.timestamps ? 0u : 4u) | (nh.interrupts ? 8u : 0u));
        out(h, sizeof h);
    }
    void write(const TraceRecord& r) override {
        begin({});
        if (version_ == 1) {
            unsigned char b[longest_record];
            out(b, static_cast<size_t>(encode(r, b, true, static_cast<uint32_t>(r.line)) - b));
            return;
        }
        // A run goes on while records follow each other in memory, in one instruction set and privilege, with
        // lines that a u32 offset reaches.
        if (!run_.empty()) {
            const TraceRecord& last = run_.back();
            if (run_.size() == RunShape::max || r.pc != last.pc + last.size || r.isa != run_[0].isa ||
                r.privilege != run_[0].privilege || r.line < run_[0].line || r.line - run_[0].line > 0xFFFFFFFFu)
                end_run();
        }
        run_.push_back(r);
    }
    void finish() override {
        begin({});
        end_run();
        file_.commit();
    }

private:
    // Writes the run held: its shape the first time, then its values.
    void end_run() {
        if (run_.empty()) return;
        std::string shape;
        unsigned char b[longest_record];
        const uint64_t first_line = run_[0].line;
        for (const TraceRecord& r : run_)
            shape.append(reinterpret_cast<const char*>(b),
                         static_cast<size_t>(encode(r, b, false, static_cast<uint32_t>(r.line - first_line)) - b));
        // Values of 4 bytes where every one of this execution fits (a 32-bit machine's registers and addresses, a
        // trace shorter than 2^32 cycles): a shape of its own.
        bool narrow = first_line <= 0xFFFFFFFFu;
        for (const TraceRecord& r : run_) {
            if (r.has_time) narrow &= r.time <= 0xFFFFFFFFu;
            for (unsigned i = 0; i < r.n_mem; ++i)
                narrow &= r.mem[i].addr <= 0xFFFFFFFFu && (!r.mem[i].data_known || r.mem[i].data <= 0xFFFFFFFFu);
            for (unsigned i = 0; i < r.n_regs; ++i) narrow &= r.regs[i].value <= 0xFFFFFFFFu;
        }
        shape.push_back(narrow ? '4' : '8');  // part of the key only
        auto [it, fresh] = shapes_.try_emplace(std::move(shape), static_cast<uint32_t>(shapes_.size()));
        std::vector<unsigned char> e;
        e.reserve(12 + (fresh ? it->first.size() : 0) + 8 + run_.size() * longest_record);
        auto u32 = [&](uint32_t v) {
            for (unsigned i = 0; i < 4; ++i) e.push_back(static_cast<unsigned char>(v >> (8 * i)));
        };
        auto u64 = [&](uint64_t v) {
            for (unsigned i = 0; i < (narrow ? 4u : 8u); ++i) e.push_back(static_cast<unsigned char>(v >> (8 * i)));
        };
        if (fresh) {
            const size_t bytes = it->first.size() - 1;
            u32(shape_tag);
            u32(static_cast<uint32_t>(run_.size()) | (narrow ? 1u << 16 : 0u));
            u32(static_cast<uint32_t>(bytes));
            e.insert(e.end(), it->first.begin(), it->first.begin() + static_cast<std::ptrdiff_t>(bytes));
        }
        u32(it->second);
        u64(first_line);
        for (const TraceRecord& r : run_) {
            if (r.has_time) u64(r.time);
            for (unsigned i = 0; i < r.n_mem; ++i) {
                u64(r.mem[i].addr);
                if (r.mem[i].data_known) u64(r.mem[i].data);
            }
            for (unsigned i = 0; i < r.n_regs; ++i) u64(r.regs[i].value);
        }
        out(e.data(), e.size());
        run_.clear();
    }
    void out(const unsigned char* b, size_t n) {
        if (std::fwrite(b, 1, n, f_) != n) throw TraceError(path_, 0, fmt::format("write error: {}", std::strerror(errno)));
    }
    std::string path_;
    OutputFile file_;  // written whole or not at all (traces/output_file.hpp)
    std::FILE* f_;
    unsigned version_;
    bool begun_ = false;
    std::vector<TraceRecord> run_;
    std::unordered_map<std::string, uint32_t> shapes_;  // a shape's prototypes -> its number
};

// The file's bytes through a block buffer (records are read in bulk, not one read per field).
class Buffer {
public:
    explicit Buffer(ByteSource& src) : src_(src) {}
    size_t avail() const { return end_ - pos_; }
    const unsigned char* at() const { return buf_.data() + pos_; }
    void skip(size_t n) { pos_ += n; }
    // Makes `n` bytes available at at() (moving the buffer's contents: pointers into it are no longer valid);
    // false when the stream ends first.
    bool fill(size_t n) {
        if (avail() >= n) return true;
        std::memmove(buf_.data(), buf_.data() + pos_, avail());
        end_ -= pos_;
        pos_ = 0;
        if (n > buf_.size()) buf_.resize(std::max(n, 2 * buf_.size()));  // a shape larger than the buffer
        while (end_ < n) {
            const size_t got = src_.read(reinterpret_cast<char*>(buf_.data()) + end_, buf_.size() - end_);
            if (got == 0) break;
            end_ += got;
        }
        return end_ >= n;
    }
    // The next n bytes; nullptr when the stream ends first.
    const unsigned char* take(size_t n) {
        if (!fill(n)) return nullptr;
        const unsigned char* p = at();
        pos_ += n;
        return p;
    }

private:
    ByteSource& src_;
    // 128 KiB: as fast to read() through as larger ones, and each 4 KiB page first touched is a page fault
    // (docs/performance.md, "Process start-up").
    std::vector<unsigned char> buf_ = std::vector<unsigned char>(size_t{128} << 10);
    size_t pos_ = 0, end_ = 0;
};

// What both versions' readers share: the header, and errors naming the file and the record.
class NativeReader : public TraceReader {
public:
    NativeReader(std::unique_ptr<ByteSource> src, uint32_t flags, const ReaderOptions& o)
        : src_(std::move(src)), buf_(*src_), flags_(flags) {
        opts_ = o;
    }
    std::string_view format() const override { return "native"; }
    uint64_t bytes_read() const override { return src_->raw_bytes(); }
    bool has_register_values() const override { return !(flags_ & 2); }
    bool has_time() const override { return !(flags_ & 4); }
    bool starts_at_reset() const override { return flags_ & 1; }
    bool shows_interrupts() const override { return flags_ & 8; }

protected:
    [[noreturn]] void corrupt(const Corrupt& c) const {
        throw TraceError(src_->path(), 0, fmt::format("record {}: {}", count_, c.what));
    }
    // The stream ends inside record `record` (counted from 1).
    [[noreturn]] void truncated(uint64_t record) const {
        throw TraceError(src_->path(), 0, fmt::format("truncated: record {} is incomplete", record));
    }
    std::unique_ptr<ByteSource> src_;
    Buffer buf_;
    uint64_t count_ = 0;  // records so far (the one being read, in messages)
    uint32_t flags_ = 0;
};

class RecordReader final : public NativeReader {
public:
    RecordReader(std::unique_ptr<ByteSource> src, uint32_t flags, const ReaderOptions& o) : NativeReader(std::move(src), flags, o) {
        // A file written before the header had flags (all 0) does not say whether its records carry time: its
        // first record does (its flags byte, at offset 27: bit 1 has time).
        if (flags_ == 0 && buf_.fill(record_bytes) && !(buf_.at()[27] & 2)) flags_ |= 4;
    }

    bool next(TraceRecord& r) override {
        // The header, then its parts (which it counts).
        const unsigned char* p = buf_.take(record_bytes);
        ++count_;
        if (!p) {
            if (buf_.avail() == 0) {
                --count_;
                return false;
            }
            truncated(count_);
        }
        try {
            decode_header(p, r);
            for (unsigned i = 0; i < r.n_mem; ++i) {
                const unsigned char* q = buf_.take(mem_bytes);
                if (!q) truncated(count_);
                decode_mem(q, r.mem[i]);
            }
            for (unsigned i = 0; i < r.n_regs; ++i) {
                const unsigned char* q = buf_.take(reg_bytes);
                if (!q) truncated(count_);
                decode_reg(q, r.regs[i]);
            }
        } catch (const Corrupt& c) {
            corrupt(c);
        }
        return true;
    }

protected:
    void fill_batch(TraceRecord* out, size_t max, size_t& n) override {
        // While the buffer holds the longest record, records decode straight from it (no take() per part);
        // near its end, through next().
        try {
            while (n < max) {
                if (buf_.avail() >= longest_record) {
                    ++count_;
                    const unsigned char* p = decode_record(buf_.at(), out[n]);
                    buf_.skip(static_cast<size_t>(p - buf_.at()));
                    ++n;
                } else if (RecordReader::next(out[n])) {
                    ++n;
                } else {
                    break;
                }
            }
        } catch (const Corrupt& c) {
            corrupt(c);
        }
    }
};

// Version 2: runs, handed to the replay as they are (next_runs) or expanded into records (next).
class RunReader final : public NativeReader {
public:
    using NativeReader::NativeReader;
    bool stores_runs() const override { return true; }
    uint32_t run_shapes() const override { return static_cast<uint32_t>(by_tag_.size()); }

    // A record of the run being read, built in the caller's record from the shape's decoded prototype and the
    // run's values (in the reader's buffer): nothing is decoded or copied but the record's own fields and parts.
    bool next(TraceRecord& r) override {
        if (at_ == run_->records && !next_run()) return false;
        run_->record(values_, at_++, first_line_, r);
        return true;
    }

    size_t next_runs(const Run*& first) override {
        size_t k = 0;
        first = runs_.data();
        while (k < runs_.size()) {
            k = runs_in_buffer(k);
            if (k == runs_.size()) break;
            // A shape, a run the buffer does not hold whole, the end, or a corrupt tag.
            // Only the first entry of a call may move the buffer (the runs before it point into it).
            if (buf_.avail() < 4 && (k || !buf_.fill(4))) {
                if (k) break;
                if (buf_.avail()) truncated(count_ + 1);
                return 0;
            }
            const unsigned char* p = buf_.at();
            const uint32_t tag = get<uint32_t>(p);
            if (tag == shape_tag) {
                if (!need(12, k)) break;
                p = buf_.at() + 4;
                const uint32_t count = get<uint32_t>(p), bytes = get<uint32_t>(p), n = count & 0xFFFFu;
                if (n == 0 || n > RunShape::max || (count >> 16) > 1 || bytes > n * longest_record)
                    throw TraceError(src_->path(), 0, fmt::format("record {}: corrupt run shape ({} records in {} bytes)", count_ + 1, n, bytes));
                if (!need(12 + size_t{bytes}, k)) break;
                define(buf_.at() + 12, n, bytes, count >> 16 ? 4 : 8);
                buf_.skip(12 + size_t{bytes});
                continue;
            }
            if (tag >= shapes_.size())
                throw TraceError(src_->path(), 0, fmt::format("record {}: corrupt run (shape {} not defined; {} are)", count_ + 1, tag, shapes_.size()));
            const RunShape& s = *shapes_[tag];
            if (!need(4 + size_t{s.value_bytes}, k)) break;
            runs_[k++] = Run{&s, buf_.at() + 4};
            buf_.skip(4 + size_t{s.value_bytes});
            count_ += s.records;
        }
        return k;
    }

    RunSpan run_span() override {
        RunSpan sp;
        sp.at = buf_.at();
        sp.end = sp.at + buf_.avail();
        sp.safe = buf_.avail() >= step_max_ ? sp.end - step_max_ + 1 : sp.at;  // none where the buffer is shorter
        sp.shapes = by_tag_.data();
        sp.steps = steps_.data();
        sp.n_shapes = static_cast<uint32_t>(by_tag_.size());
        return sp;
    }
    void take_runs(const unsigned char* to, uint64_t records) override {
        buf_.skip(static_cast<size_t>(to - buf_.at()));
        count_ += records;
    }

protected:
    void fill_batch(TraceRecord* out, size_t max, size_t& n) override {
        while (n < max && RunReader::next(out[n])) ++n;
    }

private:
    // From entry `k` on, the runs of shapes already defined that the buffer holds whole, in one pass with no
    // refill: where the general loop of next_runs() stops (a shape, the buffer's end) it goes on from there.
    // While the buffer holds the longest execution of any shape defined (step_max_) past a run's start, the run is
    // not tested against the buffer's end: per run a tag, its shape's step and count (one add for both), two stores.
    size_t runs_in_buffer(size_t k) {
        const unsigned char* const start = buf_.at();
        const unsigned char* p = start;
        const unsigned char* const end = p + buf_.avail();
        const RunShape* const* const shapes = by_tag_.data();
        const uint64_t* const steps = steps_.data();
        const uint32_t n_shapes = static_cast<uint32_t>(by_tag_.size());
        Run* out = runs_.data() + k;
        Run* const out_end = runs_.data() + runs_.size();
        uint64_t sum = 0;  // the runs' steps (low 32 bits: bytes, < 2^32 for a batch) and records (high 32 bits)
        if (buf_.avail() >= step_max_) {
            const unsigned char* const safe = end - step_max_;
            while (out != out_end && p <= safe) {
                const uint32_t tag = get<uint32_t>(p);  // moves p on past the tag
                if (tag >= n_shapes) {  // shape_tag included
                    p -= 4;
                    break;
                }
                const uint64_t step = steps[tag];
                *out++ = Run{shapes[tag], p};
                sum += step;
                p += static_cast<uint32_t>(step) - 4;
            }
        }
        while (out != out_end && end - p >= 4) {
            const unsigned char* q = p;
            const uint32_t tag = get<uint32_t>(q);
            if (tag >= n_shapes) break;  // shape_tag included
            const uint64_t step = steps[tag];
            if (static_cast<size_t>(end - p) < static_cast<uint32_t>(step)) break;
            *out++ = Run{shapes[tag], q};
            sum += step;
            p += static_cast<uint32_t>(step);
        }
        buf_.skip(static_cast<size_t>(p - start));
        count_ += sum >> 32;
        return static_cast<size_t>(out - runs_.data());
    }
    // The next run for next(); false at the end.
    bool next_run() {
        if (run_at_ == runs_n_) {
            runs_n_ = next_runs(runs_first_);
            run_at_ = 0;
            if (runs_n_ == 0) return false;
        }
        const Run& run = runs_first_[run_at_++];
        run_ = run.shape;
        values_ = run.values;
        first_line_ = run_value(values_, 0, run_->width);
        at_ = 0;
        return true;
    }
    // Whether `n` bytes of an entry are in the buffer, filling it when no run of this call points into it (k == 0);
    // false: end the call here. A stream that ends inside an entry is truncated.
    bool need(size_t n, size_t k) {
        if (buf_.avail() >= n) return true;
        if (k) return false;
        if (!buf_.fill(n)) truncated(count_ + 1);
        return true;
    }
    // A shape from its prototypes (checked here, once).
    void define(const unsigned char* p, uint32_t n, uint32_t bytes, uint8_t width) {
        auto s = std::make_unique<RunShape>();
        s->width = width;
        s->id = static_cast<uint32_t>(shapes_.size());
        s->records = n;
        s->protos.assign(p, p + bytes);
        const unsigned char* q = p;
        try {
            for (uint32_t i = 0; i < n; ++i) {
                if (static_cast<size_t>(q - p) + record_bytes > bytes) throw Corrupt{"corrupt run shape (shorter than its records)"};
                TraceRecord r;
                decode_header(q, r);
                if (static_cast<size_t>(q - p) + record_bytes + mem_bytes * r.n_mem + reg_bytes * r.n_regs > bytes)
                    throw Corrupt{"corrupt run shape (shorter than its records)"};
                q = decode_record(q, recs_[i]);
            }
        } catch (const Corrupt& c) {
            corrupt(c);
        }
        if (static_cast<size_t>(q - p) != bytes) corrupt(Corrupt{"corrupt run shape (longer than its records)"});
        const std::vector<ValueOffsets> offs = value_offsets(recs_.data(), n, width, s->value_bytes);
        s->heads.reserve(n);
        for (uint32_t i = 0; i < n; ++i) {
            const TraceRecord& r = recs_[i];
            const ValueOffsets& o = offs[i];
            RunShape::Head h;
            h.pc = r.pc;
            h.time = r.time;
            h.encoding = r.encoding;
            h.line = static_cast<uint32_t>(r.line);  // a u32 in the file
            // The record's first value (its values follow each other: RunShape::record reads them in order).
            h.value_at = r.has_time ? o.time : r.n_mem ? o.addr[0] : r.n_regs ? o.reg[0] : 0;
            h.cause = r.cause;
            h.mem_at = static_cast<uint16_t>(s->mem.size());
            h.reg_at = static_cast<uint16_t>(s->regs.size());
            h.size = r.size;
            h.privilege = r.privilege;
            h.n_mem = r.n_mem;
            h.n_regs = r.n_regs;
            h.isa = r.isa;
            h.cond_failed = r.cond_failed;
            h.trapped = r.trapped;
            h.interrupt = r.interrupt;
            h.has_time = r.has_time;
            s->heads.push_back(h);
            s->mem.insert(s->mem.end(), r.mem.begin(), r.mem.begin() + r.n_mem);
            s->regs.insert(s->regs.end(), r.regs.begin(), r.regs.begin() + r.n_regs);
        }
        // A step: the tag and the values in bytes (low 32 bits), the records (high 32 bits).
        const uint64_t step = uint64_t{4} + s->value_bytes;
        steps_.push_back(step | uint64_t{s->records} << 32);
        step_max_ = std::max<size_t>(step_max_, step);
        by_tag_.push_back(s.get());
        shapes_.push_back(std::move(s));
    }

    std::vector<std::unique_ptr<RunShape>> shapes_;
    // By tag, dense for runs_in_buffer(): the shape, and its step (4 + value_bytes, and records << 32).
    std::vector<const RunShape*> by_tag_;
    std::vector<uint64_t> steps_;
    size_t step_max_ = 4;  // the longest step of a shape defined (at least a tag's bytes, read before its shape is known)
    std::array<Run, run_batch> runs_{};
    const Run* runs_first_ = nullptr;
    size_t runs_n_ = 0, run_at_ = 0;
    std::array<TraceRecord, RunShape::max> recs_{};  // a shape's prototypes, decoded
    // The run being read by next(): its shape, its values, its first line, the next of its records.
    const RunShape* run_ = &empty_;
    const unsigned char* values_ = nullptr;
    uint64_t first_line_ = 0;
    uint32_t at_ = 0;
    RunShape empty_;  // before the first run: no records
};

}  // namespace

void RunShape::record(const unsigned char* values, uint32_t i, uint64_t first_line, TraceRecord& r) const {
    if (width == 4)
        run_record<4>(*this, values, i, first_line, r);
    else
        run_record<8>(*this, values, i, first_line, r);
}

void RunShape::expand(const unsigned char* values, TraceRecord* out) const {
    const uint64_t first_line = run_value(values, 0, width);
    for (uint32_t i = 0; i < records; ++i) record(values, i, first_line, out[i]);
}

std::vector<ValueOffsets> value_offsets(const TraceRecord* protos, size_t n, unsigned width, uint32_t& bytes) {
    std::vector<ValueOffsets> v(n);
    uint32_t at = width;  // the first record's line
    for (size_t i = 0; i < n; ++i) {
        const TraceRecord& r = protos[i];
        if (r.has_time) {
            v[i].time = at;
            at += width;
        }
        for (unsigned k = 0; k < r.n_mem; ++k) {
            v[i].addr[k] = at;
            at += width;
            v[i].data[k] = r.mem[k].data_known ? at : ValueOffsets::none;
            at += r.mem[k].data_known ? width : 0;
        }
        for (unsigned k = 0; k < r.n_regs; ++k) {
            v[i].reg[k] = at;
            at += width;
        }
    }
    bytes = at;
    return v;
}

std::unique_ptr<TraceWriter> make_native_writer(const std::string& path, bool text, unsigned version) {
    if (text) return make_native_text_writer(path);
    if (version != 1 && version != 2) throw std::invalid_argument(fmt::format("native format version {} (1 or 2)", version));
    return std::make_unique<BinaryWriter>(path, version);
}

std::unique_ptr<TraceReader> make_native_reader(std::unique_ptr<ByteSource> src, const ReaderOptions& opts) {
    unsigned char h[16];
    if (src->read(reinterpret_cast<char*>(h), 16) != 16 || std::memcmp(h, magic, 8) != 0)
        throw TraceError(src->path(), 0, "not a pmusim native trace (expected the 16-byte 'PMUSIMTR' header)");
    const unsigned char* p = h + 8;
    const uint32_t v = get<uint32_t>(p), flags = get<uint32_t>(p);
    if (v == 1) return std::make_unique<RecordReader>(std::move(src), flags, opts);
    if (v == 2) return std::make_unique<RunReader>(std::move(src), flags, opts);
    throw TraceError(src->path(), 0, fmt::format("native trace version {} (expected 1 or 2)", v));
}

}  // namespace pmusim::trace
