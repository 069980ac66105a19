// The block engine against the reference stepper (replay/replay.hpp): every field of the Result bit-identical,
// on the shared real traces (skipped when ../shared is absent) and on generated instruction streams with
// branches, loads and stores (some unaligned), failed conditions, privilege changes, interrupts in the middle of
// blocks, code that changes under the same PC, and PMU register reads and writes.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>

#include <unistd.h>

#include "replay/replay.hpp"
#include "traces/convert.hpp"
#include "traces/native.hpp"
#include "traces/reader.hpp"
#include "tests/unit/trace_test_util.hpp"

namespace pmusim {
namespace {

using trace::IsaState;
using trace::TraceRecord;

std::string shared(const std::string& rel) { return std::string(PMUSIM_SHARED_DIR) + "/traces/" + rel; }

bool have_shared() { return std::ifstream(shared("FORMATS.md")).good(); }

// A generated trace in memory.
class VectorReader : public trace::TraceReader {
public:
    explicit VectorReader(std::vector<TraceRecord> v) : v_(std::move(v)) {}
    bool next(TraceRecord& r) override {
        if (i_ == v_.size()) return false;
        r = v_[i_++];
        return true;
    }
    std::string_view format() const override { return "generated"; }
    bool has_register_values() const override { return true; }
    bool has_time() const override { return true; }

private:
    std::vector<TraceRecord> v_;
    size_t i_ = 0;
};

void expect_same(const replay::Result& a, const replay::Result& b, const std::string& what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(a.format, b.format);
    EXPECT_EQ(a.records, b.records);
    EXPECT_EQ(a.instructions, b.instructions);
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.event_totals, b.event_totals);
    EXPECT_EQ(a.not_modelled, b.not_modelled);
    EXPECT_EQ(a.counters, b.counters);
    EXPECT_EQ(a.readbacks_checked, b.readbacks_checked);
    EXPECT_EQ(a.readbacks_matched, b.readbacks_matched);
    ASSERT_EQ(a.mismatches.size(), b.mismatches.size());
    for (size_t i = 0; i < a.mismatches.size(); ++i) {
        EXPECT_EQ(a.mismatches[i].line, b.mismatches[i].line);
        EXPECT_EQ(a.mismatches[i].reg, b.mismatches[i].reg);
        EXPECT_EQ(a.mismatches[i].traced, b.mismatches[i].traced);
        EXPECT_EQ(a.mismatches[i].predicted, b.mismatches[i].predicted);
    }
    EXPECT_EQ(a.notes, b.notes);
}

// The counts of two replays of one trace in two formats (the original and its native conversion): all but the
// format's name and the reader's notes.
void expect_same_counts(const replay::Result& a, const replay::Result& b, const std::string& what) {
    SCOPED_TRACE(what);
    replay::Result x = a, y = b;
    x.format = y.format = "";
    x.notes = y.notes = {};
    x.producer = y.producer = "";
    // The native form does not keep which program wrote the trace: the read-backs of counters the original's
    // producer does not count (Spike's mhpmcounters, replay/producer.hpp) are compared there. Set them aside.
    if (x.uncounted_readbacks && !y.uncounted_readbacks) {
        std::vector<replay::Readback> kept;
        uint64_t dropped = 0, dropped_mismatches = 0;
        for (const auto& m : y.mismatches) {
            if (m.reg.rfind("mhpmcounter", 0) == 0) ++dropped_mismatches;
            else kept.push_back(m);
        }
        dropped = x.uncounted_readbacks;
        y.mismatches = kept;
        y.readbacks_checked -= dropped;
        y.readbacks_matched -= dropped - dropped_mismatches;
        x.uncounted_readbacks = 0;
    }
    expect_same(x, y, what);
}

// The instruction set a platform's traces are converted in (formats that do not say it).
// An event's total in a result (0 where it did not count).
uint64_t event_total(const replay::Result& r, uint32_t event) {
    for (const auto& [e, c] : r.event_totals)
        if (e == event) return c;
    return 0;
}

trace::ReaderOptions reader_options(const std::string& platform) {
    trace::ReaderOptions ro;
    ro.isa = platform == "veer-el2" ? IsaState::rv32 : platform == "cortex-a53" ? IsaState::a64 : IsaState::a32;
    return ro;
}

// The timing modes to compare under: the model, the trace's timestamps, one cycle per instruction, and the
// last two without the timing model (--architectural).
struct Mode {
    replay::Timing timing;
    bool timing_events;
    const char* name;
};
const Mode modes[] = {{replay::Timing::model, true, "model"},
                      {replay::Timing::trace, true, "trace"},
                      {replay::Timing::cpi1, true, "cpi1"},
                      {replay::Timing::trace, false, "trace architectural"},
                      {replay::Timing::cpi1, false, "cpi1 architectural"}};

replay::Options options(const std::string& platform, const Mode& m, replay::Engine e) {
    replay::Options o;
    o.platform = platform;
    o.timing = m.timing;
    o.timing_events = m.timing_events;
    o.engine = e;
    return o;
}

// A replay's Result, or the error it stopped with.
struct Outcome {
    replay::Result result;
    std::string error;
};
Outcome outcome(const replay::Options& o, std::unique_ptr<trace::TraceReader> reader = nullptr) {
    Outcome out;
    try {
        out.result = replay::run(o, std::move(reader));
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    return out;
}

// `timed`: every record has a timestamp (else --timing trace must stop with the same error in both engines).
void compare_file(const std::string& platform, const std::string& path, bool timed) {
    for (const Mode& m : modes) {
        replay::Options o = options(platform, m, replay::Engine::reference);
        o.trace = path;
        const Outcome ref = outcome(o);
        o.engine = replay::Engine::block;
        o.check_block_timing = true;  // every block timed from a recording is also stepped and compared
        const Outcome blk = outcome(o);
        const std::string what = fmt::format("{} on {} under {}", path, platform, m.name);
        EXPECT_EQ(ref.error, blk.error) << what;
        if (m.timing == replay::Timing::trace && !timed) {
            EXPECT_NE(ref.error.find("timestamp"), std::string::npos) << what;
            continue;
        }
        EXPECT_EQ(ref.error, "") << what;
        EXPECT_GT(ref.result.instructions, 0u) << what;
        expect_same(ref.result, blk.result, what);
        // With the timing model, real code repeats its blocks: most are timed from recordings.
        EXPECT_EQ(ref.result.timed_blocks, 0u) << what;
        if (m.timing_events) {
            EXPECT_GT(blk.result.timed_blocks, 0u) << what;
        }
    }
    // The same trace converted to the native format in version 2 (runs): the block engine takes most runs whole
    // from their values (fast_runs) and must count exactly as the reference does on the original and on the
    // conversion (which expands every run into records).
    // Named after the process and the trace: tests (and test runs) in parallel each have their own file.
    const std::string native = ::testing::TempDir() + fmt::format("engines-v2-{}-{}.pmt", ::getpid(), path.substr(path.find_last_of('/') + 1));
    trace::convert(path, "auto", reader_options(platform), native, false);
    for (const Mode& m : modes) {
        replay::Options o = options(platform, m, replay::Engine::reference);
        o.trace = path;
        const Outcome orig = outcome(o);
        o.trace = native;
        const Outcome ref = outcome(o);
        o.engine = replay::Engine::block;
        o.check_block_timing = true;
        const Outcome blk = outcome(o);
        const std::string what = fmt::format("{} as native v2 on {} under {}", path, platform, m.name);
        EXPECT_EQ(ref.error, blk.error) << what;
        if (!ref.error.empty()) continue;  // --timing trace without timestamps: checked above
        expect_same(ref.result, blk.result, what);
        expect_same_counts(orig.result, blk.result, what);
        EXPECT_EQ(ref.result.fast_runs, 0u) << what;
        EXPECT_GT(blk.result.fast_runs, 0u) << what;
        if (m.timing == replay::Timing::model) {
            EXPECT_GT(blk.result.grouped_runs, 0u) << what;
        }
    }
    std::remove(native.c_str());  // this test's own file
}

TEST(ReplayEngines, BundledSamplesAreBitIdentical) {
    compare_file("cortex-a53", std::string(PMUSIM_SOURCE_DIR) + "/traces/samples/pmu_loop.a64.pmt", false);
    compare_file("cortex-a53", std::string(PMUSIM_SOURCE_DIR) + "/traces/samples/pmu_loop.a64.tb.log.xz", false);
    // Interrupts taken in the middle of code, and an mpmc fw-halt (the VeeR EL2 RTL probe's exec.log).
    compare_file("veer-el2", std::string(PMUSIM_SOURCE_DIR) + "/tests/veer-rtl/irq/rtl/irq.exec.log.xz", true);
    // Two loops in turn that walk arrays in the DCCM (bench/veer-walk: the stretches repeat with their addresses
    // moved, the anchor going from one loop to the other).
    const std::string walk = std::string(PMUSIM_SOURCE_DIR) + "/bench/veer-walk/walk_sum.exec.log.xz";
    compare_file("veer-el2", walk, true);
    // Its loops over 4096 words repeat as stretches moved through memory: most of the program.
    const std::string native = ::testing::TempDir() + fmt::format("walk-sum-{}.pmt", ::getpid());
    trace::convert(walk, "auto", reader_options("veer-el2"), native, false);
    replay::Options o = options("veer-el2", modes[0], replay::Engine::block);
    o.trace = native;
    const replay::Result r = replay::run(o);
    EXPECT_GT(r.repeated_instructions, r.instructions * 3 / 4);
    std::remove(native.c_str());
}

// A native v2 trace of more distinct runs than the block engine keeps plans for (Replayer::max_plans, 4096): the
// plans are dropped and made again, memory stays bounded, and the counts are the reference engine's.
TEST(ReplayEngines, RunPlansStayBounded) {
    // 5000 distinct runs, twice: `add x1, x1, #i` (0x91000021 | i << 10) or `sub x1, x1, #i` (0xd1000021 | i << 10),
    // each followed by `b .+0xfc` (0x1400003f, Arm ARM C6.2.26: imm26 = 0xfc / 4) to the next run 0x100 bytes on.
    const std::string text = ::testing::TempDir() + fmt::format("plans-{}.pmt.txt", ::getpid());
    const std::string native = ::testing::TempDir() + fmt::format("plans-{}.pmt", ::getpid());
    {
        std::ofstream f(text);
        f << "# pmusim trace 1\n";
        for (int pass = 0; pass < 2; ++pass)
            for (uint32_t i = 0; i < 5000; ++i) {
                const uint64_t pc = 0x100000 + uint64_t{i} * 0x100;
                const uint32_t enc = i < 4096 ? 0x91000021u | i << 10 : 0xd1000021u | (i - 4096) << 10;
                f << fmt::format("pc={:#x} enc={:#x} size=4 isa=a64 priv=0\npc={:#x} enc=0x1400003f size=4 isa=a64 priv=0\n",
                                 pc, enc, pc + 4);
            }
        ASSERT_TRUE(f.good());
    }
    trace::convert(text, "auto", reader_options("cortex-a53"), native, false);
    replay::Options o = options("cortex-a53", modes[0], replay::Engine::reference);
    o.trace = native;
    const Outcome ref = outcome(o);
    o.engine = replay::Engine::block;
    const Outcome blk = outcome(o);
    ASSERT_EQ(ref.error, "");
    ASSERT_EQ(blk.error, "");
    EXPECT_EQ(blk.result.instructions, 20000u);
    expect_same(ref.result, blk.result, "5000 distinct runs twice");
    EXPECT_GT(blk.result.fast_runs, 0u);
    // At most max_plans, and the runs of one batch read past it (trace::TraceReader::run_batch) before the drop.
    EXPECT_GT(blk.result.run_plans_peak, 0u);
    EXPECT_LE(blk.result.run_plans_peak, 4096u + trace::TraceReader::run_batch);
    // Without the timing model (the runs' table by shape, replay/arch_shapes.hpp, forgets the plans with them):
    // 10000 `add`/`sub` and 10000 `b` retired, each branch taken (BR_IMMED_RETIRED 0x0D).
    o = options("cortex-a53", modes[4], replay::Engine::reference);
    o.trace = native;
    const Outcome ref_arch = outcome(o);
    o.engine = replay::Engine::block;
    const Outcome blk_arch = outcome(o);
    ASSERT_EQ(ref_arch.error, "");
    ASSERT_EQ(blk_arch.error, "");
    expect_same(ref_arch.result, blk_arch.result, "5000 distinct runs twice, architectural");
    EXPECT_GT(blk_arch.result.fast_runs, 0u);
    EXPECT_GT(blk_arch.result.run_plans_peak, 4096u);  // the plans were dropped
    // As soon as they were over the budget, also where the runs are walked in the reader's buffer (thousands of
    // runs between two batches).
    EXPECT_LE(blk_arch.result.run_plans_peak, 4096u + trace::TraceReader::run_batch);
    EXPECT_EQ(event_total(blk_arch.result, 0x08), 20000u);  // INST_RETIRED
    EXPECT_EQ(event_total(blk_arch.result, 0x0D), 10000u);  // BR_IMMED_RETIRED
    std::remove(text.c_str());
    std::remove(native.c_str());
}

// A native v2 file's errors past the first batch of runs, where --architectural --timing cpi1 walks the runs in
// the reader's buffer (RunReplayer::SpanWalk): the same record numbers as the reader's own (BadInput.
// NativeRunsPastTheFirstBuffer in test_traces.cpp), on the same file (testutil::write_runs_past_first_buffer, its
// register values all 0). A tag naming no shape in pair 4000 is record 4000 x 4 + 4 (16003 records read before
// it); a file cut 5 bytes before its end ends inside the last execution, record 20000. Intact, 20000 instructions
// retire.
TEST(ReplayEngines, NativeRunErrorsInTheReadersBuffer) {
    const std::string path = ::testing::TempDir() + fmt::format("arch-walk-{}.pmt", ::getpid());
    const std::string all = testutil::write_runs_past_first_buffer(path, false);
    const size_t tag_4000 = testutil::runs_load_tag(4000);
    replay::Options o = options("veer-el2", modes[4], replay::Engine::block);  // cpi1 architectural
    o.trace = path;
    const Outcome good = outcome(o);
    EXPECT_EQ(good.error, "");
    EXPECT_EQ(good.result.instructions, 20000u);
    const auto write = [&](const std::string& bytes) {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << bytes;
        ASSERT_TRUE(out.good());
    };
    std::string bad = all;
    bad[tag_4000] = 9;
    write(bad);
    const Outcome wrong = outcome(o);
    EXPECT_NE(wrong.error.find(": record 16004: corrupt run (shape 9 not defined; 2 are)"), std::string::npos) << wrong.error;
    write(all.substr(0, all.size() - 5));
    const Outcome cut = outcome(o);
    EXPECT_NE(cut.error.find(": truncated: record 20000 is incomplete"), std::string::npos) << cut.error;
    std::remove(path.c_str());
}

TEST(ReplayEngines, SharedTracesAreBitIdentical) {
    if (!have_shared()) GTEST_SKIP() << "../shared/traces not found";
    compare_file("veer-el2", shared("veer-el2/hello_world.exec.log"), true);
    compare_file("veer-el2", shared("veer-el2/dhrystone.exec.log.xz"), true);
    compare_file("veer-el2", shared("spike/rv32.spike.log"), false);
    compare_file("veer-el2", shared("qemu/rv32_bm.execlog"), false);
    compare_file("cortex-a53", shared("qemu/a64_bm.execlog"), false);
    compare_file("cortex-a53", shared("qemu/loop.a64.execlog"), false);
    compare_file("cortex-a7", shared("qemu/a32_bm.execlog"), false);
    compare_file("arm1176", shared("qemu/arm11_versatilepb.log"), false);
    compare_file("cortex-a53", shared("tarmac/calculator-aarch64-fastmodel.tarmac"), true);
    compare_file("cortex-a7", shared("tarmac/calculator-aarch32-fastmodel.tarmac"), true);
}

// A generated program: blocks of random instructions, each ending in a branch or a jump, executed by a random
// walk. `kinds` are the instruction set's encodings by role.
struct Isa {
    IsaState state;
    const char* platform;
    uint32_t alu, alu_compressed, load, store, mul, cond_branch, call, ret;
    uint32_t pmu_read, pmu_write, pmu_enable;  // a counter read into register 14/3, writes from register 15/4/5
    unsigned read_rd, write_rs, enable_rs;
    uint32_t other_sysreg;  // a read of a system register that is none of the PMU's (0: none)
    uint32_t enable_value, event_value;
    bool conditional_execution;  // A32: any instruction may fail its condition
};

// RV32: addi a0,a0,1; c.addi a0,1; lw a1,0(a2); sw a1,4(a2); mul a0,a0,a1; bne a0,a3; jal ra; ret;
// csrr a4,mhpmcounter3; csrw mhpmevent3,a5; csrw mcountinhibit,x0 (all counting) - RISC-V unprivileged and
// privileged ISA encodings.
const Isa rv32{IsaState::rv32, "veer-el2", 0x00150513u, 0x0505u, 0x00062583u, 0x00B62223u, 0x02B50533u,
               0x00D51063u, 0x000000EFu, 0x00008067u, 0xB0302773u, 0x32379073u, 0x32001073u, 14, 15, 0, 0,
               0, 4 /* VeeR EL2 event 4: instructions committed */, false};
// A64: add x0,x0,#1; ldr x1,[x2]; str x1,[x2,#8]; b.ne; bl; ret; mrs x3,pmccntr_el0; msr pmcr_el0,x4;
// msr pmcntenset_el0,x5; mrs x3,tpidr_el0 (ARM ARM C6).
const Isa a64{IsaState::a64, "cortex-a53", 0x91000400u, 0, 0xF9400041u, 0xF9000441u, 0x9B017C00u, 0x54000001u,
              0x94000000u, 0xD65F03C0u, 0xD53B9D03u, 0xD51B9C04u, 0xD51B9C25u, 3, 4, 5, 0xD53BD043u,
              0x8000000Fu, 1 /* PMCR.E */, false};
// A32: add r0,r0,#1; ldr r1,[r2]; str r1,[r2,#4]; mul r0,r1,r0; bne; bl; bx lr; mrc PMCCNTR into r3;
// mcr PMCR from r4; mcr PMCNTENSET from r5; mrc TPIDRURO into r3 (ARM ARM v7 A8, B4.1.117, B4.1.150).
const Isa a32{IsaState::a32, "cortex-a7", 0xE2800001u, 0, 0xE5921000u, 0xE5821004u, 0xE0000091u, 0x1A000000u,
              0xEB000000u, 0xE12FFF1Eu, 0xEE193F1Du, 0xEE094F1Cu, 0xEE094F3Cu, 3, 4, 5, 0xEE1D3F70u,
              0x8000000Fu, 1, true};

std::vector<TraceRecord> generate(const Isa& isa, unsigned seed, size_t count) {
    std::mt19937 rng(seed);
    auto rnd = [&](size_t n) { return static_cast<uint32_t>(rng() % n); };
    auto coin = [&](unsigned percent) { return rnd(100) < percent; };
    struct Insn {
        uint32_t enc;
        uint8_t size;
        int role;  // 0 alu, 1 load, 2 store, 3 mul, 4 pmu read, 5 pmu write, 6 enable, 7 branch, 8 call, 9 ret,
                   // 10 another system register's read
    };
    // 24 blocks of 1-12 instructions at consecutive addresses.
    std::vector<std::vector<Insn>> blocks(24);
    std::vector<uint64_t> starts;
    uint64_t pc = isa.state == IsaState::rv32 ? 0x80000000u : 0x10000u;
    for (auto& b : blocks) {
        starts.push_back(pc);
        const unsigned n = 1 + rnd(12);
        for (unsigned i = 0; i + 1 < n; ++i) {
            const unsigned r = rnd(100);
            Insn in{isa.alu, 4, 0};
            if (r < 20) in = {isa.load, 4, 1};
            else if (r < 35) in = {isa.store, 4, 2};
            else if (r < 40) in = {isa.mul, 4, 3};
            else if (r < 43) in = {isa.pmu_read, 4, 4};
            else if (r < 44) in = {isa.pmu_write, 4, 5};
            else if (r < 45) in = {isa.pmu_enable, 4, 6};
            else if (r < 47 && isa.other_sysreg) in = {isa.other_sysreg, 4, 10};
            else if (r < 60 && isa.alu_compressed) in = {isa.alu_compressed, 2, 0};
            b.push_back(in);
            pc += in.size;
        }
        const unsigned r = rnd(10);
        b.push_back(r < 6 ? Insn{isa.cond_branch, 4, 7} : r < 8 ? Insn{isa.call, 4, 8} : Insn{isa.ret, 4, 9});
        pc += 4;
    }
    std::vector<TraceRecord> out;
    size_t blk = 0, at = 0;
    uint64_t time = 100, line = 1;
    uint8_t priv = isa.state == IsaState::rv32 ? 3 : 1;
    while (out.size() < count) {
        // Code that changes under the same PC now and then (the block must not be replayed over it).
        if (coin(1)) blocks[blk][at].enc = blocks[blk][at].enc == isa.alu ? isa.mul : blocks[blk][at].enc;
        const Insn& in = blocks[blk][at];
        TraceRecord r;
        r.pc = starts[blk];
        for (size_t k = 0; k < at; ++k) r.pc += blocks[blk][k].size;
        r.encoding = in.enc;
        r.size = in.size;
        r.isa = isa.state;
        r.privilege = priv;
        r.has_time = true;
        time += 1 + (coin(10) ? rnd(20) : 0);
        r.time = time;
        r.line = line;
        line += 1 + rnd(3);
        r.cond_failed = isa.conditional_execution && in.role != 4 && in.role != 5 && in.role != 6 && coin(10);
        if (in.role == 1 || in.role == 2) {
            trace::MemAccess m;
            m.addr = 0x20000000u + rnd(4096) * 4 + (coin(5) ? 1 : 0);  // sometimes unaligned
            if (coin(3)) m.addr = 0x30000000u + rnd(1u << 18) * 4;   // now and then far away: cache and TLB misses
            m.size = 4;
            m.is_write = in.role == 2;
            r.add_mem(m);
        }
        if (in.role == 0 && coin(30)) r.add_reg(trace::RegKind::gpr, static_cast<uint16_t>(rnd(16)), rng());
        if (in.role == 4) r.add_reg(trace::RegKind::gpr, static_cast<uint16_t>(isa.read_rd), rnd(4) ? time : rng());
        if (in.role == 10) r.add_reg(trace::RegKind::gpr, 3, 0x7FF0001000u);
        // The values the PMU writes take come from the register file.
        if (in.role == 5) {
            out.push_back(r);  // first an instruction that sets the source register
            TraceRecord& w = out.back();
            w.encoding = isa.alu;
            w.n_mem = 0;
            w.cond_failed = false;
            w.n_regs = 0;
            w.add_reg(trace::RegKind::gpr, static_cast<uint16_t>(isa.write_rs), isa.event_value);
            r.time = ++time;
        }
        if (in.role == 6 && isa.enable_rs) {
            out.push_back(r);
            TraceRecord& w = out.back();
            w.encoding = isa.alu;
            w.n_mem = 0;
            w.n_regs = 0;
            w.cond_failed = false;
            w.add_reg(trace::RegKind::gpr, static_cast<uint16_t>(isa.enable_rs), isa.enable_value);
            r.time = ++time;
        }
        out.push_back(r);
        // Next: within the block, or an interrupt to a random block (rarely, from anywhere), or the branch's
        // target: taken to a random block, or on to the next one.
        if (coin(1)) {
            blk = rnd(blocks.size());
            at = 0;
            if (coin(30)) priv = static_cast<uint8_t>(isa.state == IsaState::rv32 ? (priv == 3 ? 0 : 3) : (priv == 1 ? 0 : 1));
            continue;
        }
        if (++at < blocks[blk].size()) continue;
        const bool taken = !r.cond_failed && (in.role != 7 || coin(60));
        blk = taken ? rnd(blocks.size()) : (blk + 1) % blocks.size();
        at = 0;
    }
    return out;
}

TEST(ReplayEngines, GeneratedStreamsAreBitIdentical) {
    for (const Isa* isa : {&rv32, &a64, &a32}) {
        uint64_t through[std::size(modes)] = {}, grouped[std::size(modes)] = {};
        for (unsigned seed = 1; seed <= 3; ++seed) {
            const auto recs = generate(*isa, seed, 30000);
            for (const Mode& m : modes) {
                const replay::Options ro = options(isa->platform, m, replay::Engine::reference);
                replay::Options bo = options(isa->platform, m, replay::Engine::block);
                bo.check_block_timing = true;
                const replay::Result ref = replay::run(ro, std::make_unique<VectorReader>(recs));
                const replay::Result blk = replay::run(bo, std::make_unique<VectorReader>(recs));
                // The stream is what the generator made: every record replayed, and PMU accesses checked.
                EXPECT_EQ(ref.records, recs.size());
                EXPECT_GT(ref.readbacks_checked, 0u);
                expect_same(ref, blk, fmt::format("{} seed {} under {}", isa->platform, seed, m.name));
                if (m.timing_events) {
                    EXPECT_GT(blk.timed_blocks, 0u) << isa->platform << " under " << m.name;
                }
                // The stream as a native v2 file: runs replayed from their values, or expanded where a run holds a
                // register access, a failed condition or an unaligned access.
                const std::string native = ::testing::TempDir() + fmt::format("generated-v2-{}-{}-{}.pmt", ::getpid(), isa->platform, seed);
                {
                    auto w = trace::make_native_writer(native, false);
                    for (const auto& r : recs) w->write(r);
                    w->finish();
                }
                bo.trace = native;
                const replay::Result v2 = replay::run(bo);
                expect_same_counts(ref, v2, fmt::format("{} seed {} as native v2 under {}", isa->platform, seed, m.name));
                EXPECT_GT(v2.fast_runs, 0u) << isa->platform << " under " << m.name;
                through[&m - modes] += v2.timed_through;
                grouped[&m - modes] += v2.grouped_runs;
                std::remove(native.c_str());
            }
        }
        // A branch that falls through to the next block leaves the run going on (the generator lays the blocks
        // out one after the other): the plans merge the blocks on either side, and their bodies are timed from
        // recordings through it (each replay also stepped and compared: check_block_timing).
        // With the timing model, runs go a few at a time, the jumps between them inside the bodies (taken:
        // predicted before the body, like the others).
        for (const Mode& m : modes)
            if (m.timing_events) {
                EXPECT_GT(through[&m - modes], 0u) << isa->platform << " under " << m.name;
                EXPECT_GT(grouped[&m - modes], 0u) << isa->platform << " under " << m.name;
            }
    }
}

// A loop: one block (ALU, load, ALU, store, multiply, a branch taken back to its start), its iterations in
// phases, each with its own load and store addresses: `walk` moves them on by 4 bytes every iteration. The last
// iteration's branch falls through to an ALU instruction after the loop.
struct LoopPhase {
    size_t iterations;
    uint32_t load, store;
    bool walk;
    uint32_t load_step = 4, store_step = 4;  // bytes an iteration, where it walks
};
// A 4-byte instruction of `isa` at `pc` as the generated programs trace it: its own line, one time step after the
// last (`time` and `line` move on).
TraceRecord generated_record(const Isa& isa, uint64_t pc, uint32_t encoding, uint64_t& time, uint64_t& line) {
    TraceRecord r;
    r.pc = pc;
    r.encoding = encoding;
    r.size = 4;
    r.isa = isa.state;
    r.privilege = isa.state == IsaState::rv32 ? 3 : 1;
    r.has_time = true;
    r.time = ++time;
    r.line = line++;
    return r;
}

std::vector<TraceRecord> loop_program(const Isa& isa, const std::vector<LoopPhase>& phases) {
    const uint32_t encs[] = {isa.alu, isa.load, isa.alu, isa.store, isa.mul, isa.cond_branch};
    const uint64_t start = isa.state == IsaState::rv32 ? 0x80000000u : 0x10000u;
    std::vector<TraceRecord> out;
    uint64_t time = 100, line = 1;
    for (const LoopPhase& ph : phases)
        for (size_t it = 0; it < ph.iterations; ++it)
            for (size_t k = 0; k < std::size(encs); ++k) {
                TraceRecord r = generated_record(isa, start + 4 * k, encs[k], time, line);
                if (k == 1 || k == 3) {
                    trace::MemAccess m;
                    m.addr = (k == 1 ? ph.load : ph.store) + (ph.walk ? (k == 1 ? ph.load_step : ph.store_step) * static_cast<uint32_t>(it) : 0);
                    m.size = 4;
                    m.is_write = k == 3;
                    r.add_mem(m);
                }
                if (k == 0) r.add_reg(trace::RegKind::gpr, 10, it);  // a loop counter: values the timing ignores
                out.push_back(r);
            }
    TraceRecord after = out.back();
    after.pc = start + 4 * std::size(encs);
    after.encoding = isa.alu;
    after.n_mem = 0;
    after.n_regs = 0;
    after.time = ++time;
    after.line = line;
    out.push_back(after);
    return out;
}

// The block engine on `native` (records written in version 2) under mode `m`, with repeated stretches and with
// the block timing checked: its counts must be the reference stepper's (`ref`, on the records) and the block
// engine's without repeats, which repeats nothing. Returns the run with repeats.
replay::Result repeats_checked(const std::string& platform, const Mode& m, const std::string& native,
                               const replay::Result& ref, const std::string& what, bool check_bodies = true) {
    replay::Options bo = options(platform, m, replay::Engine::block);
    bo.trace = native;
    bo.check_block_timing = check_bodies;
    const replay::Result on = replay::run(bo);
    bo.repeat_stretches = false;
    const replay::Result off = replay::run(bo);
    expect_same_counts(ref, on, what);
    expect_same(off, on, what);
    EXPECT_EQ(off.repeated_instructions, 0u) << what;
    return on;
}

// Stretches that repeat (Options::repeat_stretches): the block engine adds a repeated stretch's events instead of
// timing it again. On a loop whose iterations touch the same addresses, then one that differs (the runs held back
// are timed), then the same again, then a walk through memory (never the same addresses), the counts must be the
// reference stepper's and those of the block engine without it, and with the timing model most instructions must
// come from repeated stretches.
TEST(ReplayEngines, RepeatedStretchesCountAsTimed) {
    for (const Isa* isa : {&rv32, &a64, &a32}) {
        // VeeR EL2's data in its DCCM (0xF0040000), the others' anywhere.
        const uint32_t base = isa->state == IsaState::rv32 ? 0xF0040000u : 0x20000000u;
        const auto recs = loop_program(*isa, {{3000, base + 0x100, base + 0x200, false},
                                              {1, base + 0x300, base + 0x200, false},
                                              {3000, base + 0x100, base + 0x200, false},
                                              {400, base + 0x400, base + 0x1000, true},
                                              {500, base + 0x100, base + 0x200, false}});
        const std::string native = ::testing::TempDir() + fmt::format("loop-v2-{}-{}.pmt", ::getpid(), isa->platform);
        {
            auto w = trace::make_native_writer(native, false);
            for (const auto& r : recs) w->write(r);
            w->finish();
        }
        for (const Mode& m : modes) {
            const std::string what = fmt::format("{} under {}", isa->platform, m.name);
            const replay::Result ref = replay::run(options(isa->platform, m, replay::Engine::reference),
                                                   std::make_unique<VectorReader>(recs));
            const replay::Result on = repeats_checked(isa->platform, m, native, ref, what);
            EXPECT_EQ(ref.instructions, recs.size()) << what;
            EXPECT_EQ(ref.repeated_instructions, 0u) << what;
            if (m.timing_events && m.timing != replay::Timing::trace) {
                EXPECT_GT(on.repeated_instructions, recs.size() / 2) << what;
                EXPECT_LT(on.repeated_instructions, recs.size()) << what;
            } else {
                EXPECT_EQ(on.repeated_instructions, 0u) << what;
            }
        }
        std::remove(native.c_str());
    }
}

// A32 code whose conditions fail (the loop's multiply made `mulne`, its condition failing every iteration): a
// failed condition is part of a run's shape, so the runs stay fast (their blocks carry it) and their stretches
// repeat. The counts must be the reference stepper's and the block engine's without repeats.
TEST(ReplayEngines, FailedConditionsKeepRunsFast) {
    auto recs = loop_program(a32, {{3000, 0x20000100u, 0x20000200u, false}});
    for (TraceRecord& r : recs)
        if (r.encoding == a32.mul) {
            r.encoding = (a32.mul & 0x0FFFFFFFu) | 0x10000000u;  // cond NE (ARM ARM A8.3)
            r.cond_failed = true;
        }
    const std::string native = ::testing::TempDir() + fmt::format("cond-v2-{}.pmt", ::getpid());
    {
        auto w = trace::make_native_writer(native, false);
        for (const auto& r : recs) w->write(r);
        w->finish();
    }
    for (const Mode& m : modes) {
        const std::string what = fmt::format("cortex-a7 under {}", m.name);
        const replay::Result ref = replay::run(options("cortex-a7", m, replay::Engine::reference),
                                               std::make_unique<VectorReader>(recs));
        const replay::Result on = repeats_checked("cortex-a7", m, native, ref, what);
        EXPECT_GT(on.fast_runs, 0u) << what;
        if (m.timing_events && m.timing != replay::Timing::trace) {
            EXPECT_GT(on.repeated_instructions, recs.size() / 2) << what;
        }
    }
    std::remove(native.c_str());
}

// Stretches that walk through memory (TimingModel::shift_invariant): on VeeR EL2, which has no data cache, a loop
// whose loads and stores move on by the same distance each iteration repeats with its addresses moved. Walks of 4
// and 8 bytes an iteration through the DCCM, one that leaves the DCCM for the bus midway (the accesses' kind
// changes: the repeat must stop there), one whose store stays put while its load walks (not one distance: no
// repeat), and loads and stores of the same words: every count must be the reference stepper's and the block
// engine's without repeats, and under the timing model most of the uniform walks must come from repeats.
TEST(ReplayEngines, StretchesThatWalkRepeatMoved) {
    const uint32_t dccm = 0xF0040000u, dccm_end = 0xF0050000u;
    struct Program {
        const char* name;
        std::vector<LoopPhase> phases;
        int repeated;  // 1: most instructions repeated under the timing model, 0: less than half, -1: either
    };
    const Program programs[] = {
        {"walks", {{5000, dccm + 0x100, dccm + 0x8000, true}, {3000, dccm + 0x40, dccm + 0x6000, true, 8, 8}}, 1},
        {"same words", {{6000, dccm + 0x100, dccm + 0x100, true}}, 1},
        // Its load leaves the DCCM at iteration 1536: the repeat stops there, and may start again on the bus.
        {"out of the DCCM", {{3000, dccm_end - 0x1800, dccm_end - 0x4000, true}}, -1},
        {"store stays", {{3000, dccm + 0x100, dccm + 0x80, true, 4, 0}}, 0},
    };
    for (const Program& prog : programs) {
        const auto recs = loop_program(rv32, prog.phases);
        const std::string native = ::testing::TempDir() + fmt::format("walk-v2-{}.pmt", ::getpid());
        {
            auto w = trace::make_native_writer(native, false);
            for (const auto& r : recs) w->write(r);
            w->finish();
        }
        for (const Mode& m : modes) {
            const std::string what = fmt::format("{} under {}", prog.name, m.name);
            const replay::Result ref = replay::run(options("veer-el2", m, replay::Engine::reference),
                                                   std::make_unique<VectorReader>(recs));
            const replay::Result on = repeats_checked("veer-el2", m, native, ref, what);
            EXPECT_EQ(ref.instructions, recs.size()) << what;
            if (m.timing_events && m.timing != replay::Timing::trace && prog.repeated == 1) {
                EXPECT_GT(on.repeated_instructions, recs.size() / 2) << what;
            }
            if (prog.repeated == 0) {
                EXPECT_LT(on.repeated_instructions, recs.size() / 2) << what;
            }
        }
        std::remove(native.c_str());
    }
}

// An outer loop whose iterations are alike: `functions` pieces of code 16 KiB apart, each an inner loop (ALU, load,
// ALU, store, multiply, a branch taken back) run 20-32 times, then an ALU instruction and a branch taken to the
// next piece (the last to the first). Their code lines share one I-cache set, and on the ARM platforms their data
// (8 KiB apart) one D-cache set, so every iteration refills lines and writes dirty ones back. Each piece's code
// is its own, met once an iteration: only a stretch one iteration long repeats. In iteration `odd` (if any) the
// piece in the middle runs once more, on data one line further.
std::vector<TraceRecord> outer_program(const Isa& isa, unsigned functions, unsigned iterations, uint64_t data,
                                       unsigned odd = ~0u) {
    const uint32_t body[] = {isa.alu, isa.load, isa.alu, isa.store, isa.mul, isa.cond_branch};
    const uint64_t code = isa.state == IsaState::rv32 ? 0x80000000u : 0x100000u;
    std::vector<TraceRecord> out;
    out.reserve(size_t{iterations} * functions * (6 * 33 + 2));  // trips at most 33
    uint64_t time = 100, line = 1;
    auto put = [&](uint64_t pc, uint32_t enc, const trace::MemAccess* m) {
        TraceRecord r = generated_record(isa, pc, enc, time, line);
        if (m) r.add_mem(*m);
        out.push_back(r);
    };
    for (unsigned it = 0; it < iterations; ++it)
        for (unsigned f = 0; f < functions; ++f) {
            const bool differs = it == odd && f == functions / 2;
            const uint64_t pc = code + uint64_t{f} * 0x4000u;
            const uint64_t addr = data + uint64_t{f} * 0x2000u + (differs ? 64 : 0);
            for (unsigned t = 0, trips = 20 + (f * 7) % 13 + (differs ? 1 : 0); t < trips; ++t)
                for (size_t k = 0; k < std::size(body); ++k) {
                    trace::MemAccess m;
                    m.addr = addr + (k == 3 ? 8 : 0);
                    m.size = 4;
                    m.is_write = k == 3;
                    put(pc + 4 * k, body[k], k == 1 || k == 3 ? &m : nullptr);
                }
            put(pc + 24, isa.alu, nullptr);
            put(pc + 28, isa.cond_branch, nullptr);  // taken to the next piece
        }
    return out;
}

// outer_program() on `isa` (16 iterations of 112 pieces, `odd` as there) under the timing model, through
// repeats_checked(): the block engine with repeats against the reference stepper and against itself without.
// The bodies are not each checked against a stepped copy of the model (check_block_timing: the other tests do it;
// here each copy would take the caches, a few hundred KiB). Returns the instructions and those repeated.
std::pair<uint64_t, uint64_t> outer_checked(const Isa& isa, unsigned odd, const std::string& what) {
    const Mode& model = modes[0];
    // 112 pieces of 128-200 instructions: 17,648 instructions an iteration.
    auto recs = outer_program(isa, 112, 16, isa.state == IsaState::rv32 ? 0xF0040000u : 0x20000000u, odd);
    const uint64_t n = recs.size();
    const std::string native = ::testing::TempDir() + fmt::format("outer-v2-{}-{}-{}.pmt", ::getpid(), isa.platform, odd);
    {
        auto w = trace::make_native_writer(native, false);
        for (const auto& r : recs) w->write(r);
        w->finish();
    }
    const replay::Result ref = replay::run(options(isa.platform, model, replay::Engine::reference),
                                           std::make_unique<VectorReader>(std::move(recs)));  // 280 K records: not copied
    const replay::Result on = repeats_checked(isa.platform, model, native, ref, what, false);
    EXPECT_EQ(ref.instructions, n) << what;
    std::remove(native.c_str());
    return {n, on.repeated_instructions};
}

// Stretches as long as an outer loop's iteration (Replayer::loop_sparse), more than loop_patience instructions,
// that refill and write back lines: repeated where every set they touch ends as it started (Cache::same_since).
// The counts must be the reference stepper's and the block engine's without repeats, and under the timing model
// most instructions must come from repeats (the first 4-6 iterations are timed: the caches and the predictor
// settle, the anchor is chosen at the third, a run that starts a unit in one iteration may not in the next, the
// last iteration is not followed by the anchor). On VeeR EL2 the code lines share a set of its 2-way I-cache; it has
// no data cache, and the data of most pieces lie beyond the DCCM, on the bus.
TEST(ReplayEngines, OuterLoopsRepeatAcrossCacheRefills) {
    for (const Isa* isa : {&a64, &a32, &rv32}) {
        const std::string what = fmt::format("{} outer loop", isa->platform);
        const auto [instructions, repeated] = outer_checked(*isa, ~0u, what);
        EXPECT_GT(repeated, instructions / 2) << what;
    }
}

// The same outer loop with one iteration unlike the others (iteration 9 of 16: a piece runs once more, on another
// line): the repeats stop at it (the runs held back are timed), and the counts must still be the reference
// stepper's and the block engine's without repeats. The iterations after it leave the caches and the predictor
// as before only after they settle again; repeats may resume then.
TEST(ReplayEngines, OuterLoopsStopAtAnIterationThatDiffers) {
    for (const Isa* isa : {&a64, &rv32}) {
        const std::string what = fmt::format("{} outer loop, one iteration differs", isa->platform);
        const auto [instructions, repeated] = outer_checked(*isa, 9, what);
        // Repeated before the odd iteration (from the fifth or so), not that one: at least 3 iterations, at most 14.
        EXPECT_GT(repeated, instructions / 6) << what;
        EXPECT_LT(repeated, instructions * 14 / 16) << what;
    }
}

// --architectural: no timing model, so its events are not modelled; the retirement counts are those of the run
// with the model (the same trace, the same retirement).
TEST(ReplayEngines, ArchitecturalDropsOnlyTheModelsEvents) {
    const auto recs = generate(rv32, 7, 5000);
    replay::Options o = options("veer-el2", modes[2], replay::Engine::block);
    const replay::Result with = replay::run(o, std::make_unique<VectorReader>(recs));
    o.timing_events = false;
    const replay::Result without = replay::run(o, std::make_unique<VectorReader>(recs));
    EXPECT_EQ(with.instructions, without.instructions);
    EXPECT_EQ(with.cycles, without.cycles);  // one per instruction either way
    EXPECT_LT(without.event_totals.size(), with.event_totals.size());
    // VeeR EL2 event 1 (cycles), 4 (instructions committed) and 11 (loads committed) are retirement's.
    for (uint32_t e : {1u, 4u, 11u}) {
        uint64_t a = 0, b = 0;
        for (const auto& [n, c] : with.event_totals)
            if (n == e) a = c;
        for (const auto& [n, c] : without.event_totals)
            if (n == e) b = c;
        EXPECT_EQ(a, b) << "event " << e;
        EXPECT_GT(a, 0u) << "event " << e;
    }
    o.timing = replay::Timing::model;
    EXPECT_THROW(replay::run(o, std::make_unique<VectorReader>(recs)), std::invalid_argument);
}

// The out-of-order cores (TimingParams::ooo): their state is not in the block timing's keys nor in a stretch's
// words, so the block engine steps every record under the model (no body timed from a recording, no stretch
// repeated) and must count exactly as the reference stepper does, on records and on native v2 runs; the generated
// streams (A64 on cortex-a57 and cortex-a72, A32 on cortex-a9 and cortex-a15), the bundled A64 sample and a loop.
TEST(ReplayEngines, OutOfOrderCoresAreBitIdentical) {
    for (const char* platform : {"cortex-a57", "cortex-a72", "cortex-a9", "cortex-a15"}) {
        Isa isa = std::string(platform) == "cortex-a57" || std::string(platform) == "cortex-a72" ? a64 : a32;
        isa.platform = platform;
        const auto recs = generate(isa, 5, 20000);
        const auto loop = loop_program(isa, {{2000, 0x20000100u, 0x20000200u, false}, {300, 0x20000400u, 0x20001000u, true}});
        const std::string native = ::testing::TempDir() + fmt::format("ooo-v2-{}-{}.pmt", ::getpid(), platform);
        {
            auto w = trace::make_native_writer(native, false);
            for (const auto& r : loop) w->write(r);
            w->finish();
        }
        for (const Mode& m : modes) {
            const std::string what = fmt::format("{} under {}", platform, m.name);
            replay::Options bo = options(platform, m, replay::Engine::block);
            bo.check_block_timing = true;
            const replay::Result ref = replay::run(options(platform, m, replay::Engine::reference), std::make_unique<VectorReader>(recs));
            const replay::Result blk = replay::run(bo, std::make_unique<VectorReader>(recs));
            EXPECT_EQ(ref.records, recs.size()) << what;
            expect_same(ref, blk, what);
            const replay::Result lref = replay::run(options(platform, m, replay::Engine::reference), std::make_unique<VectorReader>(loop));
            const replay::Result on = repeats_checked(platform, m, native, lref, what + " (loop)");
            if (m.timing == replay::Timing::model) {
                EXPECT_EQ(blk.timed_blocks, 0u) << what;
                EXPECT_EQ(on.repeated_instructions, 0u) << what;
                EXPECT_GT(ref.cycles, 0u) << what;
            }
        }
        std::remove(native.c_str());
    }
    // Files: the bundled A64 sample, and where ../shared is beside the checkout QEMU logs of real programs.
    std::vector<std::pair<std::string, std::string>> files = {
        {"cortex-a57", std::string(PMUSIM_SOURCE_DIR) + "/traces/samples/pmu_loop.a64.pmt"}};
    if (have_shared()) {
        files.emplace_back("cortex-a72", shared("qemu/a64_bm.execlog"));
        files.emplace_back("cortex-a15", shared("qemu/a32_bm.execlog"));
        files.emplace_back("cortex-a9", shared("qemu/a32_bm.execlog"));
    }
    for (const auto& [platform, path] : files)
        for (const Mode& m : modes) {
            replay::Options o = options(platform, m, replay::Engine::reference);
            o.trace = path;
            const Outcome ref = outcome(o);
            o.engine = replay::Engine::block;
            o.check_block_timing = true;
            const Outcome blk = outcome(o);
            const std::string what = fmt::format("{} on {} under {}", path, platform, m.name);
            EXPECT_EQ(ref.error, blk.error) << what;
            if (ref.error.empty()) expect_same(ref.result, blk.result, what);
        }
}

// A record of the alignment tests' loops: a 4-byte instruction with one data access of `size` bytes (0: none).
TraceRecord loop_record(IsaState isa, uint64_t line, uint64_t pc, uint32_t encoding, uint64_t addr, uint8_t size) {
    TraceRecord r;
    r.pc = pc;
    r.encoding = encoding;
    r.size = 4;
    r.isa = isa;
    r.line = line;
    if (size) {
        trace::MemAccess m;
        m.addr = addr;
        m.size = size;
        r.add_mem(m);
    }
    return r;
}

// `recs` written as a native v2 file and replayed from it by the block engine without the timing model (cpi1,
// architectural), its counts checked against the reference stepper's on the records: the v2 run's result.
replay::Result native_architectural(const std::vector<TraceRecord>& recs, const std::string& platform,
                                    const std::string& what) {
    const std::string native = ::testing::TempDir() + fmt::format("fast-runs-v2-{}.pmt", ::getpid());
    {
        auto w = trace::make_native_writer(native, false);
        for (const auto& r : recs) w->write(r);
        w->finish();
    }
    replay::Options o = options(platform, modes[4], replay::Engine::reference);  // cpi1 architectural
    const replay::Result ref = replay::run(o, std::make_unique<VectorReader>(recs));
    o.engine = replay::Engine::block;
    o.trace = native;
    const replay::Result v2 = replay::run(o);
    std::remove(native.c_str());
    expect_same_counts(ref, v2, what);
    return v2;
}

// A fast run's alignment test (RunPlan::aligned) on accesses of a power-of-two size (a mask of the low bits) and of
// another (a 12-byte LDM: the remainder, as unaligned() takes it): an A32 loop of LDM r0, {r1-r3}, LDR r4, [r5]
// and B back, 300 times, the LDM's address off a multiple of 12 every third iteration from the second (k % 3 == 1)
// and the LDR's off a multiple of 4 every fifth from the third (k % 5 == 2). UNALIGNED_LDST_RETIRED (0x0F) counts
// 100 + 60, the same without the timing model on the native v2 file as the reference stepper on the records.
TEST(ReplayEngines, FastRunsTestAlignmentBySize) {
    std::vector<TraceRecord> recs;
    auto insn = [&](uint64_t pc, uint32_t encoding, uint64_t addr, uint8_t size) {
        recs.push_back(loop_record(IsaState::a32, recs.size() + 1, pc, encoding, addr, size));
    };
    const unsigned n = 300;
    for (unsigned k = 0; k < n; ++k) {
        insn(0x8000, 0xE890000E, 0x1200 + 24 * k + (k % 3 == 1 ? 4 : 0), 12);  // LDM r0, {r1, r2, r3}: 0x1200 = 384 * 12
        insn(0x8004, 0xE5954000, 0x2000 + 8 * k + (k % 5 == 2 ? 2 : 0), 4);    // LDR r4, [r5]
        insn(0x8008, 0xEAFFFFFC, 0, 0);                                        // B 0x8000
    }
    const replay::Result v2 = native_architectural(recs, "cortex-a7", "the alignment loop as native v2");
    EXPECT_GT(v2.fast_runs, 0u);
    EXPECT_EQ(event_total(v2, 0x0F), n / 3 + n / 5);
    EXPECT_EQ(event_total(v2, 0x06), 2u * n);  // LD_RETIRED
    EXPECT_EQ(v2.instructions, 3u * n);
}

// Fast runs whose only accesses of 2-16 bytes are powers of two, tested from their addresses' low bits
// (ArchShape::masks_clear) without the timing model, the values 8 bytes wide (addresses above 4 GiB): an A64 loop
// of LDR x1, [x0] (8 bytes, off by 4 every fourth iteration from the second), LDR w2, [x3] (4 bytes, off by 1 every
// seventh from the fourth) and B back, 280 times. UNALIGNED_LDST_RETIRED (0x0F) counts 70 + 40, as the reference
// stepper does on the records.
TEST(ReplayEngines, FastRunsTestAlignmentFromLowBits) {
    std::vector<TraceRecord> recs;
    auto insn = [&](uint64_t pc, uint32_t encoding, uint64_t addr, uint8_t size) {
        recs.push_back(loop_record(IsaState::a64, recs.size() + 1, pc, encoding, addr, size));
    };
    const unsigned n = 280;
    for (unsigned k = 0; k < n; ++k) {
        insn(0x400000, 0xF9400001, 0x100002000 + 0x108 * k + (k % 4 == 1 ? 4 : 0), 8);  // LDR x1, [x0]
        insn(0x400004, 0xB9400062, 0x100003000 + 0x104 * k + (k % 7 == 3 ? 1 : 0), 4);  // LDR w2, [x3]
        insn(0x400008, 0x17FFFFFE, 0, 0);                                               // B 0x400000
    }
    const replay::Result v2 = native_architectural(recs, "cortex-a53", "the low-bits loop as native v2");
    EXPECT_GT(v2.fast_runs, 0u);
    EXPECT_EQ(event_total(v2, 0x0F), n / 4 + n / 7);
    EXPECT_EQ(event_total(v2, 0x06), 2u * n);  // LD_RETIRED
    EXPECT_EQ(v2.instructions, 3u * n);
}

}  // namespace
}  // namespace pmusim
