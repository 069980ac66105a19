#include "testbench/waveform.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "testbench/plot.hpp"

namespace pmusim::wave {

namespace {

__extension__ typedef unsigned __int128 u128;

// IEEE 1364-2005 §18.2: identifier codes are printable ASCII characters ('!' to '~').
std::string vcd_id(size_t n) {
    std::string id;
    do {
        id += static_cast<char>('!' + n % 94);
        n /= 94;
    } while (n);
    return id;
}

uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

std::vector<std::string> split_scope(const std::string& s) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t dot; (dot = s.find('.', start)) != std::string::npos; start = dot + 1) parts.push_back(s.substr(start, dot - start));
    parts.push_back(s.substr(start));
    return parts;
}

}  // namespace

VcdWriter::VcdWriter(std::string path, std::string timescale)
    : path_(std::move(path)), timescale_(std::move(timescale)), file_(path_) {}

VcdWriter::~VcdWriter() = default;  // unfinished: file_ removes its temporary file, the target is untouched

void VcdWriter::put(const std::string& s) { file_.write(s); }

size_t VcdWriter::add(const std::string& scope, const std::string& name, unsigned width) {
    signals_.push_back({scope, name, vcd_id(signals_.size()), width});
    return signals_.size() - 1;
}

void VcdWriter::value_text(size_t signal, uint64_t value) {
    const Signal& s = signals_[signal];
    if (s.width == 1) {
        put(fmt::format("{}{}\n", value & 1, s.id));
        return;
    }
    put(fmt::format("b{:b} {}\n", value, s.id));
}

void VcdWriter::begin(const std::vector<uint64_t>& initial) {
    put(fmt::format("$comment pmusim waveform $end\n$timescale {} $end\n", timescale_));
    // Scopes in order of first appearance; signals of one scope together.
    std::vector<std::string> order;
    for (const auto& s : signals_)
        if (std::find(order.begin(), order.end(), s.scope) == order.end()) order.push_back(s.scope);
    std::vector<std::string> open;
    for (const auto& scope : order) {
        const auto parts = split_scope(scope);
        size_t common = 0;
        while (common < open.size() && common < parts.size() && open[common] == parts[common]) ++common;
        for (size_t i = open.size(); i > common; --i) put("$upscope $end\n");
        open.resize(common);
        for (size_t i = common; i < parts.size(); ++i) {
            put(fmt::format("$scope module {} $end\n", parts[i]));
            open.push_back(parts[i]);
        }
        for (const auto& s : signals_)
            if (s.scope == scope) put(fmt::format("$var wire {} {} {} $end\n", s.width, s.id, s.name));
    }
    for (size_t i = open.size(); i > 0; --i) put("$upscope $end\n");
    put("$enddefinitions $end\n#0\n$dumpvars\n");
    for (size_t i = 0; i < signals_.size(); ++i) value_text(i, i < initial.size() ? initial[i] : 0);
    put("$end\n");
    time_written_ = true;
}

void VcdWriter::change(uint64_t time, size_t signal, uint64_t value) {
    if (time < time_) throw std::logic_error("VCD changes out of time order");
    if (time != time_ || !time_written_) put(fmt::format("#{}\n", time));
    time_ = time;
    time_written_ = true;
    value_text(signal, value);
}

void VcdWriter::finish(uint64_t end) {
    // The end of the run as a last time stamp, so that a viewer shows the final values over a span.
    if (end > time_) put(fmt::format("#{}\n", end));
    file_.commit();
    finished_ = true;
}

Recorder::Recorder(const std::string& path, uint64_t sample_period, uint64_t period_ps)
    : vcd_(path.empty() ? nullptr : std::make_unique<VcdWriter>(path, period_ps % 1000 == 0 ? "1 ns" : "1 ps")),
      sample_period_(std::max<uint64_t>(sample_period, 1)),
      scale_(period_ps % 1000 == 0 ? period_ps / 1000 : period_ps) {}

Recorder::~Recorder() = default;

std::vector<StateWord> state_words(const Pmu& pmu) {
    std::vector<StateWord> words;
    for (const auto& reg : pmu.bank().all()) {
        if (!reg->state || !reg->implemented()) continue;
        auto it = std::find_if(words.begin(), words.end(), [&](const StateWord& w) { return w.first->state == reg->state; });
        const unsigned bits = std::min(64u, reg->state_shift + reg->width);
        if (it == words.end()) words.push_back({reg.get(), bits});
        else it->width = std::max(it->width, bits);
    }
    return words;
}

void Recorder::add(Pmu& pmu, const std::string& scope) {
    auto t = std::make_unique<Traced>();
    t->pmu = &pmu;
    // A word is a counter (sampled) when any register that views it is one of the PMU's counters.
    std::set<const uint64_t*> counters;
    for (const auto& c : pmu.counter_values())
        if (const Register* r = pmu.bank().find(c.first)) counters.insert(r->state);
    for (const StateWord& w : state_words(pmu)) {
        const bool counter = counters.count(w.first->state) > 0;
        t->words.push_back({w.first->state, mask_of(w.width), w.width, counter, signal(scope, w.first->name, w.width, counter)});
    }
    t->state_signal = signal(scope, "core_state", 3, true);
    t->irq_signal = signal(scope, "irq_request", 1, true);
    if (pmu.has_fiq()) t->fiq_signal = signal(scope, "fiq_request", 1, true);
    traced_.push_back(std::move(t));
}

size_t Recorder::signal(const std::string& scope, const std::string& name, unsigned width, bool plotted) {
    if (vcd_) vcd_->add(scope, name, width);
    signals_.push_back({scope.empty() ? name : scope + "." + name, plotted});
    return signals_.size() - 1;
}

Recorder::Traced& Recorder::find(Pmu& pmu) {
    for (auto& t : traced_)
        if (t->pmu == &pmu) return *t;
    throw std::logic_error("waveform: a PMU that was not added");
}

void Recorder::start() {
    std::vector<uint64_t> initial;
    for (auto& t : traced_) {
        for (const Word& w : t->words) {
            if (initial.size() <= w.signal) initial.resize(w.signal + 1);
            initial[w.signal] = value(w);
            t->settled.push_back(value(w));
        }
        t->irq = t->pmu->irq();
        t->fiq = t->pmu->fiq();
        t->state = static_cast<uint64_t>(t->pmu->state());
        initial.resize(std::max(initial.size(), std::max({t->state_signal, t->irq_signal, t->fiq_signal + 1}) + 1));
        initial[t->state_signal] = t->state;
        initial[t->irq_signal] = t->irq;
        if (t->fiq_signal != SIZE_MAX) initial[t->fiq_signal] = t->fiq;
    }
    initial.resize(signals_.size());
    last_ = initial;
    if (vcd_) vcd_->begin(initial);
    if (keep_)
        for (size_t i = 0; i < initial.size(); ++i) history_.push_back({0, i, initial[i]});
    started_ = true;
}

void Recorder::note(uint64_t cycle, size_t signal, uint64_t v) {
    if (last_[signal] == v) return;
    last_[signal] = v;
    pending_.emplace(std::max(cycle, released_), std::make_pair(signal, v));
}

void Recorder::lines(Traced& t, uint64_t at) {
    if (t.pmu->irq() != t.irq) note(at, t.irq_signal, t.irq = t.pmu->irq());
    if (t.fiq_signal != SIZE_MAX && t.pmu->fiq() != t.fiq) note(at, t.fiq_signal, t.fiq = t.pmu->fiq());
    const auto state = static_cast<uint64_t>(t.pmu->state());
    if (state != t.state) note(at, t.state_signal, t.state = state);
}

void Recorder::accesses(Traced& t, uint64_t at) {
    // What changed since the last batch was done between batches (register accesses, a core-state input): at
    // its own cycle.
    for (size_t i = 0; i < t.words.size(); ++i) {
        const uint64_t v = value(t.words[i]);
        if (v != t.settled[i]) note(at, t.words[i].signal, t.settled[i] = v);
    }
    lines(t, at);
}

AdvanceResult Recorder::part(Traced& t, const EventBatch& b, uint64_t start, uint64_t offset, const Apply& apply) {
    const uint64_t s = start + offset, n = b.cycles, e = s + n;
    const AdvanceResult r = apply(b, offset);
    // An interrupt raised inside the batch: the line, the flags and the counters at the model's cycle for it.
    if (r.irq_rose || r.fiq_rose) {
        uint64_t k = n;
        if (r.irq_rose) k = std::min(k, r.irq_cycle);
        if (r.fiq_rose) k = std::min(k, r.fiq_cycle);
        for (size_t i = 0; i < t.words.size(); ++i) {
            const Word& w = t.words[i];
            const uint64_t before = t.settled[i], after = value(w);
            if (before == after) continue;
            uint64_t v = after;
            if (w.counter && n) {  // the batch's counts spread evenly over its cycles
                const uint64_t delta = (after - before) & w.mask;
                v = (before + static_cast<uint64_t>(static_cast<u128>(delta) * k / n)) & w.mask;
            }
            note(s + k, w.signal, v);
        }
        if (r.irq_rose) note(s + r.irq_cycle, t.irq_signal, t.irq = true);
        if (r.fiq_rose && t.fiq_signal != SIZE_MAX) note(s + r.fiq_cycle, t.fiq_signal, t.fiq = true);
    }
    // At the end: the flags and control words if they changed, the counters at a sample point.
    const bool sample = e / sample_period_ > t.sampled;
    if (sample) t.sampled = e / sample_period_;
    for (size_t i = 0; i < t.words.size(); ++i) {
        const uint64_t v = value(t.words[i]);
        if (!t.words[i].counter || sample) note(e, t.words[i].signal, v);
        t.settled[i] = v;
    }
    lines(t, e);
    return r;
}

AdvanceResult Recorder::advance(Pmu& pmu, const EventBatch& batch, uint64_t start, const Apply& apply) {
    Traced& t = find(pmu);
    accesses(t, start);
    AdvanceResult total;
    auto merge = [&](const AdvanceResult& r, uint64_t offset) {
        if (r.irq_rose && !total.irq_rose) total.irq_rose = true, total.irq_cycle = offset + r.irq_cycle;
        if (r.fiq_rose && !total.fiq_rose) total.fiq_rose = true, total.fiq_cycle = offset + r.fiq_cycle;
        total.overflows += r.overflows;
    };
    if (batch.events.empty() && batch.cycles) {
        // Cycles alone split exactly at the sample points.
        EventBatch piece;
        for (uint64_t offset = 0; offset < batch.cycles;) {
            const uint64_t at = start + offset;
            piece.cycles = std::min(batch.cycles - offset, (at / sample_period_ + 1) * sample_period_ - at);
            merge(part(t, piece, start, offset, apply), offset);
            offset += piece.cycles;
        }
    } else {
        merge(part(t, batch, start, 0, apply), 0);
    }
    t.now = std::max(t.now, start + batch.cycles);
    release();
    return total;
}

AdvanceResult Recorder::advance(Pmu& pmu, const EventBatch& batch, uint64_t start) {
    return advance(pmu, batch, start, [&pmu](const EventBatch& b, uint64_t) { return pmu.advance(b); });
}

void Recorder::release() {
    uint64_t upto = ~uint64_t{0};
    for (const auto& t : traced_) upto = std::min(upto, t->now);
    auto it = pending_.begin();
    for (; it != pending_.end() && it->first <= upto; ++it) {
        if (vcd_) vcd_->change(it->first * scale_, it->second.first, it->second.second);
        if (keep_) history_.push_back({it->first, it->second.first, it->second.second});
    }
    pending_.erase(pending_.begin(), it);
    released_ = std::max(released_, upto == ~uint64_t{0} ? released_ : upto);
}

void Recorder::finish(uint64_t end) {
    if (!started_) start();
    for (auto& t : traced_) {
        accesses(*t, std::max(end, t->now));
        for (const Word& w : t->words) note(std::max(end, t->now), w.signal, value(w));
        t->now = std::max(end, t->now);
        end = t->now;
    }
    release();
    end_ = end;
    if (vcd_) vcd_->finish(end * scale_);
}

plot::Figure Recorder::figure(const std::string& title) const {
    plot::Figure f;
    f.title = title;
    f.x_label = "cycles";
    f.x_end = static_cast<double>(end_);
    std::vector<plot::Panel> panels(signals_.size());
    std::vector<bool> moved(signals_.size(), false);
    for (const Change& c : history_) {
        plot::Panel& p = panels[c.signal];
        if (!p.x.empty() && c.cycle > 0) moved[c.signal] = true;
        if (!p.x.empty() && p.x.back() == static_cast<double>(c.cycle)) p.y.back() = static_cast<double>(c.value);
        else p.x.push_back(static_cast<double>(c.cycle)), p.y.push_back(static_cast<double>(c.value));
    }
    std::vector<std::string> idle;
    for (size_t i = 0; i < signals_.size(); ++i) {
        if (!signals_[i].counter_or_line) continue;
        const bool line = signals_[i].name.size() >= 8 && signals_[i].name.compare(signals_[i].name.size() - 8, 8, "_request") == 0;
        if (!moved[i] && !line) continue;  // a counter that never moved, the core state when it never changed
        panels[i].name = signals_[i].name;
        panels[i].style = line ? plot::Style::level : plot::Style::hold;
        f.panels.push_back(std::move(panels[i]));
    }
    f.subtitle = fmt::format("{} cycles; counters sampled every {} cycles, writes and overflows at their cycle", end_,
                             sample_period_);
    return f;
}

}  // namespace pmusim::wave
