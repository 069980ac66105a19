// Driving a PMU from C++: build it from a platform, write and read registers, advance time, read the records.
// The values it checks are the Arm ARM's rules for PMUv3 (docs/models.md cites the sections).
#include <cstdint>
#include <cstdio>

#include <pmusim/model/core/pmu.hpp>
#include <pmusim/platforms/platform.hpp>

namespace {
int failures = 0;
void check(const char* what, uint64_t got, uint64_t want) {
    std::printf("%-28s %#llx%s\n", what, static_cast<unsigned long long>(got), got == want ? "" : "   (WRONG)");
    if (got != want) ++failures;
}
}  // namespace

int main() {
    const pmusim::Platform* platform = pmusim::find_platform("cortex-a53");
    std::unique_ptr<pmusim::Pmu> pmu = platform->make({});  // options: the platform's IMPLEMENTATION DEFINED choices
    pmusim::AccessContext el1;                               // an instruction at EL1, Non-secure
    auto reg = [&](const char* name) -> pmusim::Register& { return *pmu->bank().find(name); };

    pmu->write(reg("PMEVTYPER0_EL0"), 0x08, el1);        // counter 0 counts INST_RETIRED (event 0x08)
    pmu->write(reg("PMCNTENSET_EL0"), 0x80000001, el1);  // enable the cycle counter (bit 31) and counter 0
    const pmusim::AccessRecord rec = pmu->write(reg("PMCR_EL0"), 0x1, el1);  // PMCR_EL0.E: counting on
    for (const auto& f : rec.fields)
        if (f.new_value != f.old_value) std::printf("PMCR_EL0.%s: %s\n", f.name.c_str(), f.effect.c_str());

    pmusim::EventBatch batch;  // 1000 cycles in which 400 instructions retired
    batch.cycles = 1000;
    batch.add(0x08, 400);
    pmu->advance(batch);
    check("PMCCNTR_EL0", pmu->read(reg("PMCCNTR_EL0"), el1).value_read, 1000);
    check("PMEVCNTR0_EL0", pmu->read(reg("PMEVCNTR0_EL0"), el1).value_read, 400);

    // An overflow: counter 0 ten short of 2^32, its interrupt enabled; ten more instructions wrap it to 0.
    pmu->write(reg("PMEVCNTR0_EL0"), 0xFFFFFFF6, el1);
    pmu->write(reg("PMINTENSET_EL1"), 0x1, el1);
    batch.clear();
    batch.cycles = 20;
    batch.add(0x08, 10);
    const pmusim::AdvanceResult r = pmu->advance(batch);
    check("PMEVCNTR0_EL0 after wrap", pmu->read(reg("PMEVCNTR0_EL0"), el1).value_read, 0);
    check("PMOVSCLR_EL0", pmu->read(reg("PMOVSCLR_EL0"), el1).value_read, 0x1);
    check("irq (request)", pmu->irq(), 1);
    check("irq rose at cycle", r.irq_cycle, 20);  // the 10th event of 10 spread over 20 cycles

    // EL0 may not read the counters while PMUSERENR_EL0 is 0: the access traps and changes nothing.
    pmusim::AccessContext el0;
    el0.privilege = 0;
    const pmusim::AccessRecord trap = pmu->read(reg("PMEVCNTR0_EL0"), el0);
    check("EL0 read trapped", trap.trapped(), 1);
    for (const auto& d : trap.diagnostics) std::printf("  [%s] %s\n", d.code.c_str(), d.message.c_str());
    std::printf("%s\n", failures ? "pmu_basics: FAILED" : "pmu_basics: ok");
    return failures ? 1 : 0;
}
