#!/usr/bin/env python3
"""Per-probe tables for docs/accuracy.md ("RTL probes (VeeR EL2)") from the probe test's comparison lines:

    PMUSIM_VEER_TABLE=1 build/tests/pmusim_unit_tests --gtest_filter='*VeerRtl*Architectural*' \\
        | python3 tests/veer-rtl/tables.py

Each probe gets its cycles (range of the RTL's windows, and the worst window) and one row per event, from the
window that measured it (event 1 from the first); events both sides count 0 are listed after it. The output is Markdown on standard output.
"""
import re
import sys

ROW = re.compile(r"^\| (\S+) \| set (\d+) (cycles|minstret|event (\d+)) \| (\d+) \| (\d+) \| ([+-][\d.]+%) \|")


def main():
    probes = {}
    order = []
    for line in sys.stdin:
        m = ROW.match(line)
        if not m:
            continue
        probe, _, what, event, rtl, model, err = m.groups()
        if probe not in probes:
            probes[probe] = {"cycles": [], "events": {}}
            order.append(probe)
        p = probes[probe]
        if what == "cycles":
            p["cycles"].append((int(rtl), int(model), err))
        elif event is not None and int(event) not in p["events"]:
            p["events"][int(event)] = (int(rtl), int(model), err)
    for probe in order:
        p = probes[probe]
        if not p["cycles"]:
            continue
        rtls = [c[0] for c in p["cycles"]]
        worst = max(p["cycles"], key=lambda c: abs(c[1] - c[0]) / max(c[0], 1))
        print(f"**{probe}**: cycles, {len(rtls)} windows of RTL {min(rtls)}-{max(rtls)}; worst: RTL {worst[0]}, "
              f"pmusim {worst[1]} ({worst[2]}).\n")
        print("| event | RTL | pmusim | error |")
        print("|---|---|---|---|")
        zero = []
        for e in sorted(p["events"]):
            rtl, model, err = p["events"][e]
            if rtl == 0 and model == 0:
                zero.append(str(e))
                continue
            print(f"| {e} | {rtl} | {model} | {err} |")
        print()
        if zero:
            print(f"Both 0: events {', '.join(zero)}.\n")


if __name__ == "__main__":
    main()
