#include "traces/reader.hpp"

#include <utility>

#include <fmt/format.h>

namespace pmusim::trace {

std::string_view to_string(IsaState s) {
    switch (s) {
        case IsaState::a64: return "A64";
        case IsaState::a32: return "A32";
        case IsaState::t32: return "T32";
        case IsaState::rv32: return "RV32";
        case IsaState::rv64: return "RV64";
        default: return "unknown";
    }
}

void TraceReader::bad_line(const std::string& file, uint64_t line, const std::string& what) {
    if (!opts_.skip_bad_lines) throw TraceError(file, line, what);
    if (skipped_++ == 0) first_skip_ = fmt::format("{}:{}: {}", file, line, what);
}

void TraceReader::fill_batch(TraceRecord* out, size_t max, size_t& n) {
    while (n < max && next(out[n])) ++n;
}

size_t TraceReader::next_batch(const TraceRecord*& first) {
    if (batch_error_) std::rethrow_exception(std::exchange(batch_error_, nullptr));
    if (batch_.empty()) batch_.resize(batch_size);
    size_t n = 0;
    try {
        fill_batch(batch_.data(), batch_.size(), n);
    } catch (...) {
        if (n == 0) throw;
        batch_error_ = std::current_exception();  // raised by the next call, after these records
    }
    first = batch_.data();
    return n;
}

std::vector<std::string> format_names() {
    return {"tarmac", "veer", "spike", "qemu-execlog", "qemu-log", "native", "native-text"};
}

namespace {

// Detection from the first few kilobytes: each format has a distinctive first line.
std::string detect(ByteSource& src) {
    const std::string_view head = src.peek(4096);
    if (head.size() >= 8 && head.substr(0, 8) == "PMUSIMTR") return "native";
    std::string_view rest = head;
    int lines = 0;
    while (!rest.empty() && lines < 20) {
        const size_t nl = rest.find('\n');
        std::string_view line = scan::trim(rest.substr(0, nl));
        rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
        if (line.empty()) continue;
        if (line[0] == '#' && line.substr(0, 14) != "# pmusim trace") continue;  // a comment header
        ++lines;
        if (line.substr(0, 14) == "# pmusim trace") return "native-text";
        if (line == "Tarmac Text Rev 3t") return "tarmac";
        if (line.substr(0, 3) == "IN:" || line.substr(0, 6) == "Trace ") return "qemu-log";
        if (line.find("Cycle : #inst") != std::string_view::npos) return "veer";
        if (line.substr(0, 5) == "core " && line.find(':') != std::string_view::npos) return "spike";
        std::string_view w = line;
        const std::string_view first = scan::word(w), second = scan::word(w), third = scan::word(w);
        uint64_t v;
        if (scan::dec(first, v) && second == ":" && third.size() > 1 && third[0] == '#') return "veer";
        // Tarmac: "<time> <unit> [cpuN] IT|IS|IF|ES|R ..." (gem5, Fast Models, RTL).
        {
            std::string_view u = line;
            std::string_view a = scan::word(u), b = scan::word(u), c = scan::word(u);
            if (b == "clk" || b == "ns" || b == "ps" || b == "cs" || b == "tic" || b == "cyc") {
                if (c.substr(0, 3) == "cpu") c = scan::word(u);
                if (c == "IT" || c == "IS" || c == "IF" || c == "ES" || c == "R" || c.substr(0, 2) == "MR" ||
                    c.substr(0, 2) == "MW")
                    return "tarmac";
            }
            (void)a;
        }
        // QEMU execlog: "0, 0x40080000, 0x58000340, \"ldr ...\""
        if (first.size() >= 2 && first.back() == ',' && scan::dec(first.substr(0, first.size() - 1), v) &&
            second.substr(0, 2) == "0x" && line.find('"') != std::string_view::npos)
            return "qemu-execlog";
    }
    return "";
}

}  // namespace

std::unique_ptr<TraceReader> open_reader(const std::string& path, const std::string& format, const ReaderOptions& opts) {
    auto src = std::make_unique<ByteSource>(path);
    std::string f = format;
    // Nothing to replay is an error whatever the format, named or detected: never a report of 0 records.
    if (src->peek(1).empty()) throw TraceError(path, 0, "the trace is empty (no bytes)");
    if (f.empty() || f == "auto") {
        f = detect(*src);
        if (f.empty()) {
            throw TraceError(path, 1,
                             "cannot tell the trace format from the first lines; expected Tarmac, a VeeR exec.log, "
                             "Spike --log-commits, a QEMU execlog or -d log, or a pmusim native trace (or name one with --format)");
        }
    }
    if (f == "veer") return make_veer_reader(std::move(src), opts);
    if (f == "spike") return make_spike_reader(std::move(src), opts);
    if (f == "tarmac") return make_tarmac_reader(std::move(src), opts);
    if (f == "qemu-execlog") return make_qemu_execlog_reader(std::move(src), opts);
    if (f == "qemu-log") return make_qemu_log_reader(std::move(src), opts);
    if (f == "native") return make_native_reader(std::move(src), opts);
    if (f == "native-text") return make_native_text_reader(std::move(src), opts);
    throw TraceError(path, 0, fmt::format("unknown trace format '{}' (expected auto, tarmac, veer, spike, qemu-execlog, qemu-log, native or native-text)", f));
}

}  // namespace pmusim::trace
