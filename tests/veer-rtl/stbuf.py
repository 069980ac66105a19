#!/usr/bin/env python3
"""Event 34 (cycles the store or bus buffer is full) estimated from a probe's exec.log, for docs/accuracy.md:

    python3 tests/veer-rtl/stbuf.py PROBE [MODEL_CSV]

The store-buffer half of the event, cycle by cycle, from the RTL's rules (VeeR EL2, el2_lsu_stbuf.sv and
el2_lsu_dccm_ctl.sv) applied to the commit cycles of the exec.log (or, with MODEL_CSV, to the cumulative cycles of
`pmusim run --interval 1 --output csv -e cycles` on the same exec.log, record by record; probes without interrupts
or traps only, whose records and rows pair one to one):
  - an instruction committing at cycle c was at decode (and a load at the DCCM's read port) at c - 3, in the LSU's M
    stage at c - 2, in R at c - 1 (one instruction a cycle, the stages as the exec.log's spacing shows them);
  - a DCCM store enters the buffer the cycle after R, unless a buffered store writes the same 32-bit word (they
    coalesce: store_coalesce_lo_r/hi_r);
  - the oldest entry drains to the DCCM in any cycle in which no load at the read port uses its bank (DCCM_NUM_BANKS
    4: address bits 3:2; lsu_stbuf_commit_any), nor a store that is not an aligned word (it reads the word at
    decode: lsu_dccm_rden_d, el2_lsu_dccm_ctl.sv);
  - the buffer is full (lsu_stbuf_full_any) when its entries plus the DCCM stores in M and R reach 3, or 4 when a
    load or store is at decode (DEPTH 4).
The other half, a full bus buffer (el2_lsu_bus_buffer.sv, lsu_bus_buffer_full_any), is not estimated here (the
model follows it: model/timing/lsu_buffers.hpp; misaligned D-bus accesses fill it, the misaligned probe's 378). The
count is over the window of event set 7 (common/probe.h), printed beside the console's.
"""
import csv
import lzma
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DCCM = (0xF0040000, 0xF0050000)
STORES = {"sw", "sh", "sb", "c.sw", "c.swsp"}
WORD_STORES = {"sw", "c.sw", "c.swsp"}
LOADS = {"lw", "lh", "lb", "lhu", "lbu", "c.lw", "c.lwsp"}
LINE = re.compile(r"\s*(\d+)\s*:\s*#\d+\s+\d+\s+[0-9a-f]+\s+[0-9a-f]+\s*(.*)$")


def records(probe):
    with lzma.open(os.path.join(HERE, probe, "rtl", probe + ".exec.log.xz"), "rt") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            rest = m[2]
            words = rest.split(";")[-1].split()
            addr = re.findall(r"\[([0-9a-f]+)\]", rest)
            yield [int(m[1]), words[0] if words else "", int(addr[0], 16) if addr else None, rest]


def estimate(recs):
    """Cycles with the store buffer full, within event set 7's window."""
    windows, start = [], None
    for c, _, _, rest in recs:
        if "c320=00000000" in rest:
            start = c
        elif "c320=0000007d" in rest and start is not None:
            windows.append((start, c))
            start = None
    lo, hi = windows[7]
    in_r, load_bank, ls_decode = {}, {}, set()
    for c, op, a, _ in recs:
        dccm = a is not None and DCCM[0] <= a < DCCM[1]
        if op in STORES and dccm:
            in_r.setdefault(c - 1, []).append(a)
        if dccm and (op in LOADS or (op in STORES and (op not in WORD_STORES or a & 3))):
            load_bank[c - 3] = (a >> 2) & 3
        if op in STORES or op in LOADS:
            ls_decode.add(c - 3)
    buf, full = [], 0
    for t in range(recs[0][0], recs[-1][0]):
        spec = len(buf) + len(in_r.get(t, [])) + len(in_r.get(t + 1, []))
        if spec >= (4 if t in ls_decode else 3) and lo <= t < hi:
            full += 1
        if buf and load_bank.get(t) != (buf[0] >> 2) & 3:
            buf.pop(0)
        for a in in_r.get(t, []):
            if all(x >> 2 != a >> 2 for x in buf):
                buf.append(a)
    return full


def main():
    probe = sys.argv[1]
    recs = list(records(probe))
    if len(sys.argv) > 2:
        with open(sys.argv[2]) as f:
            rows = list(csv.DictReader(f))
        recs = [[int(row["cycles"]), r[1], r[2], r[3]] for r, row in zip(recs, rows)]
    rtl = None
    with open(os.path.join(HERE, probe, "rtl", probe + ".console.log")) as f:
        for line in f:
            if "] R 7 " in line:
                rtl = int(line.split()[-1])
    print(f"{probe}: event 34 estimated {estimate(recs)}, RTL {rtl}")


if __name__ == "__main__":
    main()
