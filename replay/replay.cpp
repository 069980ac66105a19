// The driver: builds the replay's parts (replay/session.hpp, core.hpp, registers.hpp, stepper.hpp,
// block_runner.hpp, run_replayer.hpp), picks the engine and the loop specialised for the run, and runs it.
#include "replay/replay.hpp"

#include <memory>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>

#include "platforms/timing_follows.hpp"
#include "replay/block_runner.hpp"
#include "replay/core.hpp"
#include "replay/producer.hpp"
#include "replay/registers.hpp"
#include "replay/run_replayer.hpp"
#include "replay/session.hpp"
#include "replay/stepper.hpp"

namespace pmusim::replay {

namespace {

class Replayer {
public:
    Replayer(const Options& o, const Platform& p)
        : o_(o), p_(p), session_(o, p), core_(o, p), regs_(session_, core_), stepper_(session_, core_, regs_),
          blocks_(session_, core_, regs_, stepper_), runs_(session_, core_, stepper_, blocks_) {}

    Result run(std::unique_ptr<trace::TraceReader> reader) {
        if (!reader) {
            trace::ReaderOptions ro = o_.reader;
            ro.isa = p_.isa == IsaKind::a64 ? IsaState::a64 : p_.isa == IsaKind::a32 ? IsaState::a32 : IsaState::rv32;
            reader = trace::open_reader(o_.trace, o_.format, ro);
        }
        Result& r = session_.r;
        core_.reader = reader.get();
        r.format = std::string(reader->format());
        if (o_.timing == Timing::trace && !reader->has_time())
            throw std::invalid_argument(fmt::format("{}: --timing trace: this {} trace carries no timestamps (use --timing model or cpi1)",
                                                    o_.trace, r.format));
        session_.producer = producer_of(*reader);  // what its read-backs depend on (replay/producer.hpp)
        r.producer = session_.producer.name;
        r.producer_timing = session_.producer.clock;
        // A trace from reset starts from the reset values of the registers the timing follows (VeeR EL2: mrac).
        if (core_.tm && reader->starts_at_reset()) timing_follows(p_).reset(*core_.tm);

        // The block engine hands whole batches to the PMU; --interval, sample points and SystemC's hook see every
        // instruction, and --roi ends a batch at every region boundary (RoiTracker): these take the reference path.
        const bool blocks = o_.engine == Engine::block && !o_.interval && !o_.advance_hook && !o_.sample_period &&
                            !session_.roi.active();
        if (blocks) {
            const bool runs = reader->stores_runs();
            specialised([&](auto tm, auto mode) {
                constexpr bool kTm = decltype(tm)::value;
                constexpr Timing kT = decltype(mode)::value;
                if (runs) runs_.template run<kTm, kT>(*reader);
                else blocks_.template run<kTm, kT>(*reader);
            });
        } else {
            stepper_.run(*reader);
        }
        // Nothing to replay is an error, whatever the engine: never a report of 0 records.
        if (r.records == 0)
            throw trace::TraceError(o_.trace, 0, fmt::format("no instruction records in this {} trace", r.format));
        if (o_.on_progress) o_.on_progress(Progress{r.records, reader->bytes_read(), true});
        return session_.finish(*reader, core_.tm ? &*core_.tm : nullptr, regs_.slept(), core_.mem_seen, regs_.irq_seen());
    }

private:
    // Calls f(tm, mode) with whether the timing model runs and the timing mode as compile-time constants
    // (std::integral_constant): the block engine's loops are specialised by both, chosen once per run.
    template <typename F>
    void specialised(F&& f) {
        auto by_mode = [&](auto tm) {
            switch (o_.timing) {
                case Timing::model: return f(tm, std::integral_constant<Timing, Timing::model>{});
                case Timing::trace: return f(tm, std::integral_constant<Timing, Timing::trace>{});
                case Timing::cpi1: return f(tm, std::integral_constant<Timing, Timing::cpi1>{});
            }
        };
        if (core_.tm) by_mode(std::true_type{});
        else by_mode(std::false_type{});
    }

    const Options& o_;
    const Platform& p_;
    Session session_;       // batches to the PMU, intervals, regions, results
    Core core_;             // the timing model, the register file, the trace's time
    RegisterAccess regs_;   // CSR and system-register accesses, interrupts
    RecordStepper stepper_; // the reference engine: one record at a time
    BlockRunner blocks_;    // the block engine on records
    RunReplayer runs_;      // the block engine on runs (native version 2)
};

}  // namespace

void Result::skipped_note(const trace::TraceReader* reader) {
    if (reader->skipped_lines())
        notes.push_back(fmt::format("{} malformed lines skipped (the first: {})", reader->skipped_lines(),
                                    reader->first_skip_message()));
}

Result run(const Options& o, std::unique_ptr<trace::TraceReader> reader) {
    const Platform* p = find_platform(o.platform);
    if (!p) throw std::invalid_argument(fmt::format("unknown platform '{}'", o.platform));
    // On the heap: the replay may run on a SystemC thread's small stack (pmusim run --vcd).
    auto r = std::make_unique<Replayer>(o, *p);
    return r->run(std::move(reader));
}

Result run(const Options& o) { return run(o, nullptr); }


}  // namespace pmusim::replay
