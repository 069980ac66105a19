#include "testbench/replay.hpp"

#include <unistd.h>

#include <array>
#include <ostream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isa/rv32.hpp"

namespace pmusim::replay {

namespace {

using trace::IsaState;
using trace::RegKind;
using trace::TraceRecord;

// What the replay needs to know of an instruction, decoded once per distinct encoding.
struct Decoded {
    isa::RetiredInsn insn;
    bool retires = true;  // ecall/ebreak trap instead of retiring
    bool is_csr = false;
    isa::rv32::CsrInsn csr;
};

isa::InsnClass rv_class(isa::rv32::Klass k, const isa::rv32::CsrInsn* csr) {
    using K = isa::rv32::Klass;
    using C = isa::InsnClass;
    switch (k) {
        case K::load: return C::load;
        case K::store: return C::store;
        case K::branch: return C::branch;
        case K::jal:
        case K::jalr: return C::jump;
        case K::mul: return C::mul;
        case K::div: return C::div;
        case K::ecall: return C::ecall;
        case K::ebreak: return C::ebreak;
        case K::mret: return C::mret;
        case K::fence: return C::fence;
        case K::fence_i: return C::fence_i;
        case K::csr: {
            const auto c = isa::rv32::csr_class(*csr);
            return c == isa::rv32::CsrClass::read ? C::csr_read : c == isa::rv32::CsrClass::write ? C::csr_write : C::csr_read_write;
        }
        default: return C::alu;  // ALU operations, and WFI (implemented as a NOP on VeeR EL2)
    }
}

Decoded decode_rv(uint32_t enc) {
    Decoded d;
    const auto info = isa::rv32::classify(enc);
    d.insn.compressed = info.compressed;
    if (const auto c = isa::rv32::decode_csr(enc)) {
        d.is_csr = true;
        d.csr = *c;
    }
    d.insn.cls = rv_class(info.klass, d.is_csr ? &d.csr : nullptr);
    d.retires = info.klass != isa::rv32::Klass::ecall && info.klass != isa::rv32::Klass::ebreak;
    return d;
}

// A direct-mapped cache of decoded encodings: traces repeat a small set of static instructions.
class DecodeCache {
public:
    const Decoded& get(uint32_t enc) {
        Slot& s = slots_[(enc ^ (enc >> 12)) & (slots_.size() - 1)];
        if (!s.valid || s.enc != enc) {
            s.enc = enc;
            s.d = decode_rv(enc);
            s.valid = true;
        }
        return s.d;
    }

private:
    struct Slot {
        uint32_t enc = 0;
        bool valid = false;
        Decoded d;
    };
    std::array<Slot, 4096> slots_{};
};

class Replayer {
public:
    Replayer(const Options& o, const Platform& p, std::ostream* interval_out)
        : o_(o), p_(p), interval_out_(interval_out), totals_(65536, 0) {
        pmu_ = p.make(o.platform_options);
        if (!o.events.empty()) {
            std::vector<uint32_t> numbers;
            for (const auto& name : o.events) {
                const auto e = find_event(p, name);
                if (!e || !p.implements(*pmu_, e->number))
                    throw std::invalid_argument(fmt::format("--events: '{}' is not an event platform {} implements", name, p.name));
                numbers.push_back(e->number);
            }
            p.program_counters(*pmu_, numbers);
        }
    }

    Result run() {
        auto reader = trace::open_reader(o_.trace, o_.format, o_.reader);
        r_.format = std::string(reader->format());
        if (o_.timing == Timing::trace && !reader->has_time())
            throw std::invalid_argument(fmt::format("--timing trace: {} traces carry no timestamps", r_.format));
        if (!reader->has_register_values())
            r_.notes.push_back("the trace carries no register values: CSR and system-register writes cannot be applied");
        TraceRecord rec;
        const bool tty = o_.progress && isatty(2);
        while (reader->next(rec)) {
            ++r_.records;
            if (rec.isa != IsaState::rv32 && rec.isa != IsaState::rv64)
                throw trace::TraceError(o_.trace, rec.line,
                                        fmt::format("{} instructions: this replay decodes RISC-V only so far", to_string(rec.isa)));
            if (!p_.riscv)
                throw std::invalid_argument(fmt::format("platform {} is not RISC-V but the trace is", p_.name));
            step(rec);
            if (tty && (r_.records & 0xFFFFF) == 0) fmt::print(stderr, "\r{} records", r_.records);
        }
        if (tty) fmt::print(stderr, "\r");
        flush();
        r_.skipped_note(reader.get());
        if (!reader->end_note().empty()) r_.notes.push_back(reader->end_note());
        collect();
        return r_;
    }

private:
    void step(const TraceRecord& rec) {
        if (rec.privilege != priv_) {
            flush();
            priv_ = rec.privilege;
            pmu_->set_exec_context(ExecContext{priv_, false});
        }
        const uint64_t cycles = o_.timing == Timing::trace ? rec.time - std::min(rec.time, prev_time_) : 1;
        prev_time_ = rec.time;
        const Decoded& d = cache_.get(rec.encoding);
        if (d.retires) ++r_.instructions;
        if (d.is_csr) {
            csr(rec, d, cycles);
        } else {
            batch_.cycles += cycles;
            p_.retire(d.insn, 1, batch_);
            if (++pending_ >= 4096) flush();
        }
        for (unsigned i = 0; i < rec.n_regs; ++i)
            if (rec.regs[i].kind == RegKind::gpr && rec.regs[i].index < 32 && rec.regs[i].index) gpr_[rec.regs[i].index] = rec.regs[i].value;
        if (o_.interval && r_.instructions % o_.interval == 0 && d.retires && interval_out_) {
            flush();
            *interval_out_ << r_.instructions << ',' << total_cycles_;
            for (const auto& [name, v] : pmu_->counter_values()) *interval_out_ << ',' << name << '=' << v;
            *interval_out_ << '\n';
        }
    }

    // A CSR instruction at its point in the trace (the traced program programs its own PMU).
    void csr(const TraceRecord& rec, const Decoded& d, uint64_t cycles) {
        flush();
        Register* reg = pmu_->bank().find(EncodingSpace::csr, d.csr.csr);
        AccessContext ctx;
        ctx.privilege = priv_;
        const bool reads = isa::rv32::csr_reads(d.csr), writes = isa::rv32::csr_writes(d.csr);
        uint64_t old = 0;
        if (reg && reads) {
            const AccessRecord a = pmu_->read(*reg, ctx);
            old = a.value_read;
            // Read-back: the traced value the instruction returned, against the prediction.
            for (unsigned i = 0; i < rec.n_regs && d.csr.rd; ++i) {
                if (rec.regs[i].kind != RegKind::gpr || rec.regs[i].index != d.csr.rd || a.trapped()) continue;
                ++r_.readbacks_checked;
                if ((rec.regs[i].value & 0xFFFFFFFFu) == (old & 0xFFFFFFFFu)) ++r_.readbacks_matched;
                else if (r_.mismatches.size() < 8)
                    r_.mismatches.push_back({rec.line, reg->name, rec.regs[i].value, old});
            }
        }
        const uint64_t src = d.csr.immediate ? d.csr.src : gpr_[d.csr.src];
        const uint64_t value = d.csr.op == isa::rv32::CsrOp::rw ? src : d.csr.op == isa::rv32::CsrOp::rs ? (old | src) : (old & ~src);
        batch_.cycles += cycles;
        p_.retire(d.insn, 1, batch_);
        // VeeR EL2 (veer-el2-mhpm.md §4.1): the instruction's own events count before its write lands.
        if (p_.events_before_write) flush();
        if (reg && writes) pmu_->write(*reg, value & 0xFFFFFFFFu, ctx);
        flush();
    }

    void flush() {
        if (batch_.cycles == 0 && batch_.events.empty()) return;
        pmu_->advance(batch_);
        total_cycles_ += batch_.cycles;
        for (const auto& e : batch_.events)
            if (e.event < totals_.size()) totals_[e.event] += e.count;
        batch_.clear();
        pending_ = 0;
    }

    // Which implemented events the replay produces: those the retirement of some class signals, and cycles.
    void collect() {
        r_.cycles = total_cycles_;
        std::vector<bool> produced(65536, false);
        EventBatch probe;
        for (int c = 0; c <= static_cast<int>(isa::InsnClass::fence_i); ++c)
            for (bool comp : {false, true}) p_.retire(isa::RetiredInsn{static_cast<isa::InsnClass>(c), comp}, 1, probe);
        for (const auto& e : probe.events) produced[e.event] = true;
        produced[p_.cycle_event] = true;
        for (const auto& e : p_.event_names()) {
            if (!p_.implements(*pmu_, e.number)) continue;
            if (!produced[e.number]) {
                r_.not_modelled.push_back(e.number);
                continue;
            }
            r_.event_totals.emplace_back(e.number, totals_[e.number] + (e.number == p_.cycle_event ? total_cycles_ : 0));
        }
        r_.counters = pmu_->counter_values();
    }

    const Options& o_;
    const Platform& p_;
    std::ostream* interval_out_;
    std::unique_ptr<Pmu> pmu_;
    Result r_;
    EventBatch batch_;
    uint64_t pending_ = 0, prev_time_ = 0, total_cycles_ = 0;
    unsigned priv_ = 0xFF;
    uint64_t gpr_[32] = {};
    std::vector<uint64_t> totals_;
    DecodeCache cache_;
};

std::string event_name(const Platform& p, uint32_t n) {
    for (const auto& e : p.event_names())
        if (e.number == n) return e.name;
    return fmt::format("{:#x}", n);
}

}  // namespace

void Result::skipped_note(const trace::TraceReader* reader) {
    if (reader->skipped_lines())
        notes.push_back(fmt::format("{} malformed lines skipped (the first: {})", reader->skipped_lines(),
                                    reader->first_skip_message()));
}

Result run(const Options& o, std::ostream* interval_out) {
    const Platform* p = find_platform(o.platform);
    if (!p) throw std::invalid_argument(fmt::format("unknown platform '{}'", o.platform));
    Replayer r(o, *p, interval_out);
    return r.run();
}

void print(const Options& o, const Platform& p, const Result& r, std::ostream& out) {
    if (o.output == Output::json) {
        nlohmann::json j;
        j["platform"] = p.name;
        j["trace"] = {{"path", o.trace}, {"format", r.format}, {"records", r.records}};
        j["timing"] = o.timing == Timing::trace ? "trace" : "model";
        j["instructions"] = r.instructions;
        j["cycles"] = r.cycles;
        nlohmann::json ev = nlohmann::json::array();
        for (const auto& [n, c] : r.event_totals) ev.push_back({{"number", n}, {"name", event_name(p, n)}, {"count", c}});
        for (uint32_t n : r.not_modelled)
            ev.push_back({{"number", n}, {"name", event_name(p, n)}, {"count", nullptr}, {"modelled", false}});
        j["events"] = ev;
        nlohmann::json counters = nlohmann::json::object();
        for (const auto& [name, v] : r.counters) counters[name] = v;
        j["counters"] = counters;
        nlohmann::json mm = nlohmann::json::array();
        for (const auto& m : r.mismatches)
            mm.push_back({{"line", m.line}, {"register", m.reg}, {"traced", m.traced}, {"predicted", m.predicted}});
        j["readbacks"] = {{"checked", r.readbacks_checked}, {"matched", r.readbacks_matched}, {"mismatches", mm}};
        j["notes"] = r.notes;
        out << j.dump(2) << "\n";
        return;
    }
    if (o.output == Output::csv) {
        out << "count,event,number\n";
        out << r.instructions << ",instructions,\n" << r.cycles << ",cycles,\n";
        for (const auto& [n, c] : r.event_totals) out << c << ',' << event_name(p, n) << ',' << n << '\n';
        for (uint32_t n : r.not_modelled) out << "not modelled," << event_name(p, n) << ',' << n << '\n';
        for (const auto& [name, v] : r.counters) out << v << ',' << name << ",\n";
        return;
    }
    out << fmt::format("\n Performance counter stats for '{}' ({}, {} records) on {}:\n\n", o.trace, r.format, r.records, p.name);
    out << fmt::format("{:>20}      instructions\n", r.instructions);
    out << fmt::format("{:>20}      cycles ({}){}\n", r.cycles, o.timing == Timing::trace ? "from the trace's timestamps" : "model",
                       r.cycles ? fmt::format("      # {:.2f} insn per cycle", static_cast<double>(r.instructions) / static_cast<double>(r.cycles)) : "");
    for (const auto& [n, c] : r.event_totals) out << fmt::format("{:>20}      {} ({:#x})\n", c, event_name(p, n), n);
    for (uint32_t n : r.not_modelled) out << fmt::format("{:>20}      {} ({:#x})\n", "<not modelled>", event_name(p, n), n);
    out << "\n counters as the traced program programmed them:\n";
    for (const auto& [name, v] : r.counters) out << fmt::format("{:>20}      {}\n", v, name);
    out << fmt::format("\n read-backs: {} checked, {} matched\n", r.readbacks_checked, r.readbacks_matched);
    for (const auto& m : r.mismatches)
        out << fmt::format("   line {}: {} traced {:#x}, predicted {:#x}\n", m.line, m.reg, m.traced, m.predicted);
    for (const auto& n : r.notes) out << " note: " << n << "\n";
}

}  // namespace pmusim::replay
