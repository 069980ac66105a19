#!/bin/bash
# fetch_trace.sh PROBE [OUT]: runs a probe of this folder on a copy of the VeeR EL2 RTL that prints every fetch
# and the fetch buffer's state, to see cycle by cycle what events 2 (I-cache hits) and 28 (fetch stalls) count
# (docs/accuracy.md, "RTL probes"). Measurement only: nothing of the RTL comes into the repository.
#
# The copy is made once in VEER_FETCH_WORK (default /tmp/veer-rtl-fetch) from the kit's prepared sources in
# VEER_WORK (default /tmp/veer-rtl, built by the kit's build.sh): an `always` block is added at the end of
# el2_ifu_mem_ctl.sv and of el2_ifu_ifc_ctl.sv, then the kit's build.sh builds it (about 1.5 minutes). Output in
# OUT (default /tmp/fetch-trace/PROBE): the kit's files, and PROBE.fetch.txt with a line per cycle in which a
# fetch is in F or a flush lands, and one per cycle in which the buffer is full, the fetch waits for a miss or
# event 28 counts:
#   F t=TIME req=0|1 addr=FETCH_ADDRESS hit=ic_act_hit_f byp=ic_byp_hit_f flush=exu_flush_final
#   B t=TIME stall=ifu_pmu_fetch_stall wfm=WAITING_FOR_MISS full=fb_full_f c1=ifu_fb_consume1 c2=ifu_fb_consume2
#     flush=exu_flush_final
# TIME is the simulation time in ns (10 per core cycle; about 10 x the exec.log's cycle + 15).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/common/kit.sh"
KIT=${VEER_KIT:-$HERE/../../../shared/veer-rtl}
WORK=${VEER_WORK:-/tmp/veer-rtl}
FWORK=${VEER_FETCH_WORK:-/tmp/veer-rtl-fetch}
p=${1:?usage: fetch_trace.sh PROBE [OUT]}
OUT=${2:-/tmp/fetch-trace/$p}
[ -f "$HERE/$p/$p.c" ] || { echo "fetch_trace: no probe $HERE/$p/$p.c" >&2; exit 2; }
[ -x "$KIT/build.sh" ] || { echo "fetch_trace: no RTL kit at $KIT (set VEER_KIT)" >&2; exit 2; }
[ -f "$WORK/rv_root/.kit-prepared" ] || { echo "fetch_trace: no prepared sources in $WORK (run $KIT/build.sh $WORK)" >&2; exit 2; }
# A copy made by the first version of this script (fetches only) is rebuilt.
if [ -f "$FWORK/rv_root/.fetch-trace" ] && [ ! -f "$FWORK/rv_root/.fetch-trace-2" ]; then
  rm -rf "$FWORK/rv_root" "$FWORK/build"
fi
if [ ! -x "$FWORK/build/obj_dir/Vtb_top" ]; then
  mkdir -p "$FWORK"
  if [ ! -f "$FWORK/rv_root/.fetch-trace-2" ]; then
    rm -rf "$FWORK/rv_root.tmp"
    cp -a "$WORK/rv_root" "$FWORK/rv_root.tmp"
    d=$FWORK/rv_root.tmp/design/ifu
    python3 - "$d" <<'PY'
import sys
d = sys.argv[1]
blocks = {
    "el2_ifu_mem_ctl.sv": """// fetch_trace.sh (pmusim): one line per cycle with a fetch in F or a flush
always @(posedge free_l2clk) begin
   if (ifc_fetch_req_f | exu_flush_final)
      $display("IFDBG F t=%0t req=%0d addr=%h hit=%0d byp=%0d flush=%0d", $time, ifc_fetch_req_f,
               {ifu_fetch_addr_int_f, 1'b0}, ic_act_hit_f, ic_byp_hit_f, exu_flush_final);
end
""",
    "el2_ifu_ifc_ctl.sv": """// fetch_trace.sh (pmusim): one line per cycle with the fetch buffer full, a miss waited for, or a fetch stall
always @(posedge free_l2clk) begin
   if (ifu_pmu_fetch_stall | fb_full_f | wfm)
      $display("IFDBG B t=%0t stall=%0d wfm=%0d full=%0d c1=%0d c2=%0d flush=%0d", $time, ifu_pmu_fetch_stall, wfm,
               fb_full_f, ifu_fb_consume1, ifu_fb_consume2, exu_flush_final);
end
""",
}
for name, block in blocks.items():
    p = f"{d}/{name}"
    s = open(p).read()
    i = s.rindex("endmodule")
    open(p, "w").write(s[:i] + block + s[i:])
PY
    touch "$FWORK/rv_root.tmp/.fetch-trace-2"
    mv "$FWORK/rv_root.tmp" "$FWORK/rv_root"
  fi
  "$KIT/build.sh" "$FWORK" >&2
fi
trace_run "$HERE" "$p" "$FWORK" "$KIT" "$OUT" IFDBG "$p.fetch.txt" || exit $?
echo "fetch_trace: $OUT/$p.fetch.txt ($(wc -l < "$OUT/$p.fetch.txt") lines), exec.log $OUT/$p.exec.log.xz"
