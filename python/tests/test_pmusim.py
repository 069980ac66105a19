"""The Python module against the installed package (PYTHONPATH points at the install prefix).

Expected values are worked out by hand from the architecture (Arm ARM D7 for PMUv3, the Cortex-A53 TRM for
its PMCR_EL0 reset value) and from pmusim's own sample program (traces/samples/pmu_loop.a64.S)."""
import os
import pathlib

import pytest

import pmusim

SOURCE = pathlib.Path(os.environ.get("PMUSIM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


def test_module_comes_from_the_install_prefix():
    prefix = os.environ.get("PMUSIM_PREFIX")
    if prefix is None:
        pytest.skip("PMUSIM_PREFIX not set (run through ctest)")
    assert pathlib.Path(pmusim.__file__).resolve().is_relative_to(pathlib.Path(prefix).resolve())


def test_platforms():
    names = [p.name for p in pmusim.platforms()]
    assert "cortex-a53" in names and "cortex-a7" in names and "veer-el2" in names
    a53 = pmusim.platform("cortex-a53")
    assert a53.family == "armv8-pmuv3"
    assert a53.counters == 6  # Cortex-A53 TRM: PMCR_EL0.N = 6
    with pytest.raises(ValueError, match="unknown platform"):
        pmusim.platform("cortex-z9")


def test_registers_and_reset_value():
    pmu = pmusim.Pmu("cortex-a53")
    names = {r.name for r in pmu.registers()}
    assert {"PMCR_EL0", "PMCCNTR_EL0", "PMEVCNTR5_EL0"} <= names
    pmcr = pmu.register("PMCR_EL0")
    assert ("a64", (3 << 14) | (3 << 11) | (9 << 7) | (12 << 3) | 0) in pmcr.encodings  # S3_3_C9_C12_0
    assert (0xE04, 0) in pmcr.offsets  # the external view's PMCR_EL0
    assert "E" in [f["name"] for f in pmcr.fields]
    # IMP 0x41 (Arm) [31:24], IDCODE 0x03 [23:16], N = 6 [15:11]: 0x41000000 | 0x30000 | 0x3000.
    assert pmu.read("PMCR_EL0").value_read == 0x41033000
    with pytest.raises(KeyError):
        pmu.read("PMNOPE")


def test_write_advance_and_records():
    pmu = pmusim.Pmu("cortex-a53")
    pmu.write("PMEVTYPER0_EL0", 0x08)  # INST_RETIRED
    pmu.write("PMCNTENSET_EL0", 0x80000001)
    rec = pmu.write("PMCR_EL0", 0x1)
    assert rec.is_write and not rec.trapped
    assert rec.old_value == 0x41033000 and rec.new_value == 0x41033001
    e = [f for f in rec.fields if f.name == "E"][0]
    assert (e.lsb, e.width, e.old_value, e.new_value) == (0, 1, 0, 1)
    pmu.advance(1000, {0x08: 400})
    assert pmu.read("PMCCNTR_EL0").value_read == 1000
    assert pmu.read("PMEVCNTR0_EL0").value_read == 400
    assert pmu.counters()["PMEVCNTR0_EL0"] == 400
    # Ten short of 2^32 with the interrupt enabled: the tenth of ten events over 20 cycles overflows at cycle 20.
    pmu.write("PMEVCNTR0_EL0", 0xFFFFFFF6)
    pmu.write("PMINTENSET_EL1", 0x1)
    r = pmu.advance(20, {0x08: 10})
    assert r.irq_rose and r.irq_cycle == 20
    assert pmu.irq
    assert pmu.read("PMOVSCLR_EL0").value_read == 0x1
    pmu.write("PMOVSCLR_EL0", 0x1)  # W1C
    assert not pmu.irq


def test_trap_and_views():
    pmu = pmusim.Pmu("cortex-a53")
    rec = pmu.read("PMEVCNTR0_EL0", privilege=0)  # PMUSERENR_EL0 = 0: EL0 access trapped (D7.10)
    assert rec.trapped and rec.has("trap")
    # MRS PMCCNTR_EL0 by encoding, and the external view's PMCCNTR_EL0 low half at 0x0F8.
    pmu.write("PMCNTENSET_EL0", 0x80000000)
    pmu.write("PMCR_EL0", 0x1)
    pmu.advance(77)
    key = (3 << 14) | (3 << 11) | (9 << 7) | (13 << 3) | 0
    assert pmu.read_encoding("a64", key).value_read == 77
    assert pmu.read_offset(0x0F8).value_read == 77
    with pytest.raises(ValueError, match="privilege"):
        pmu.read("PMCR_EL0", privilege=4)
    with pytest.raises(ValueError):
        pmu.set_state("sleep")  # an ARM core has run and debug only


def test_veer_csrs():
    pmu = pmusim.Pmu("veer-el2")
    assert pmu.family == "veer-el2"
    # mhpmevent3 (CSR 0x323) selects event 1, cycles active; mcountinhibit = 0 (VeeR EL2 PRM, mhpm CSRs).
    pmu.write_encoding("csr", 0x323, 1, privilege=3)
    pmu.advance(50)
    assert pmu.read("mhpmcounter3", privilege=3).value_read == 50


def test_explain():
    text = pmusim.explain("cortex-a53", "write PMCR_EL0 0x1")
    assert "PMCR_EL0" in text
    with pytest.raises(ValueError, match="unknown register"):
        pmusim.explain("cortex-a53", "write PMNOPE 0x1")


def test_script():
    ok = pmusim.run_script_text("platform cortex-a53\nwrite PMCNTENSET_EL0 0x80000000\nwrite PMCR_EL0 0x1\n"
                                "tick 64\nexpect PMCCNTR_EL0 == 64\n")
    assert (ok.status, ok.expectations, ok.failures) == (0, 1, 0)
    failed = pmusim.run_script_text("platform cortex-a53\nexpect PMCCNTR_EL0 == 1\n")
    assert (failed.status, failed.failures) == (1, 1)
    malformed = pmusim.run_script_text("platform cortex-a53\nwrite PMNOPE 1\n")
    assert malformed.status == 2 and "unknown register" in malformed.errors
    sample = pmusim.run_script(str(SOURCE / "testbench/samples/first-steps.pmus"))
    assert sample.status == 0 and sample.failures == 0
    assert "PMEVCNTR0_EL0 = 0x0000000a" in sample.output  # a 32-bit counter, after ten nops


def test_replay():
    r = pmusim.replay("cortex-a53", str(SOURCE / "traces/samples/pmu_loop.a64.pmt"))
    # pmu_loop.a64.S: 16 instructions before the loop, 500 iterations of 6, 7 after it.
    assert r.instructions == 16 + 500 * 6 + 7
    # The counters count from the MSR PMCR_EL0 on (it counts itself: a write takes effect before its own events).
    # INST_RETIRED: msr, isb, ldr, mov, mov (5), the loop (3000), 4 mrs, ldr, mov, hlt (7).
    assert r.counters["PMEVCNTR0_EL0"] == 5 + 3000 + 7
    # LD_RETIRED: ldr x2,=buf, the loop's ldr (500), ldr x1,=exit_block.
    assert r.counters["PMEVCNTR1_EL0"] == 1 + 500 + 1
    # ST_RETIRED: the loop's one store, 500 times.
    assert r.counters["PMEVCNTR2_EL0"] == 500
    with pytest.raises(ValueError):
        pmusim.replay("cortex-a53", "/nonexistent.pmt")


def test_version():
    # The project's version (CMakeLists.txt: project(pmusim VERSION 0.1.0)), as `pmusim --version` prints it.
    assert pmusim.__version__ == "0.1.0"


def test_default_privilege_is_the_most_privileged():
    # Without a privilege an access is made from EL1 on ARM and machine mode on RISC-V, where software programs
    # the PMU. VeeR EL2 implements machine and (optionally) user mode only: EL1's number, 1, is not a mode of it.
    veer = pmusim.Pmu("veer-el2")
    veer.write("mhpmevent3", 1)  # event 1: cycles active (VeeR EL2 PRM Table 7-1)
    veer.advance(20)
    assert veer.read("mhpmcounter3").value_read == 20
    a53 = pmusim.Pmu("cortex-a53")
    assert not a53.write("PMUSERENR_EL0", 1).trapped  # EL1 may write it (Arm ARM D13: EL0 may not)


def test_readable_reprs():
    r = pmusim.replay("cortex-a53", str(SOURCE / "traces/samples/pmu_loop.a64.pmt"), timing="cpi1")
    # One cycle per instruction under cpi1: 3023 of each; both read-backs match (the cycle counter too, as QEMU
    # counted one cycle an instruction).
    assert repr(r) == "<pmusim.ReplayResult native: 3023 instructions, 3023 cycles, read-backs 2/2 matched>"
    s = pmusim.run_script_text("platform cortex-a53\nexpect PMCCNTR_EL0 == 1\n")
    assert repr(s) == "<pmusim.ScriptResult status=1, 1 expectations, 1 failed>"
    pmu = pmusim.Pmu("cortex-a53")
    pmu.write("PMCNTENSET_EL0", 0x80000000)
    pmu.write("PMCR_EL0", 1)
    assert repr(pmu.advance(10)) == "<pmusim.AdvanceResult overflows=0>"
