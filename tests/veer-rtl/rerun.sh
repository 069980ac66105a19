#!/bin/bash
# rerun.sh [PROBE...]: runs the VeeR EL2 RTL probes of this folder on the RTL kit (../shared/veer-rtl, a model
# already built by its build.sh) and stores each probe's results beside its source:
#   PROBE/rtl/PROBE.exec.log.xz   the testbench's exec.log
#   PROBE/rtl/PROBE.console.log   the program's output: one "R ..." line per event set (common/probe.h)
# Without arguments every probe is run, one after the other (about 20 s each on an idle machine).
# Environment: VEER_KIT (default: ../shared/veer-rtl beside the repository), VEER_WORK (default /tmp/veer-rtl).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/common/kit.sh"
KIT=${VEER_KIT:-$HERE/../../../shared/veer-rtl}
WORK=${VEER_WORK:-/tmp/veer-rtl}
[ -x "$KIT/run.sh" ] || { echo "rerun: no RTL kit at $KIT (set VEER_KIT)" >&2; exit 2; }
LD=$WORK/build/snapshots/default/link.ld
[ -f "$LD" ] || { echo "rerun: no built model in $WORK (run $KIT/build.sh $WORK, or set VEER_WORK)" >&2; exit 2; }
if [ $# -eq 0 ]; then
  set --
  for d in "$HERE"/*/; do d=$(basename "$d"); [ "$d" = common ] || set -- "$@" "$d"; done
fi
for p in "$@"; do
  [ -f "$HERE/$p/$p.c" ] || { echo "rerun: no probe $HERE/$p/$p.c" >&2; exit 2; }
  tmp=$(mktemp -d)
  probe_dir "$HERE" "$p" "$WORK" "$tmp" || { echo "rerun: could not prepare $p" >&2; exit 2; }
  echo "rerun: $p" >&2
  "$KIT/run.sh" -o "$tmp/out" "$tmp" "$p" "$WORK" > "$tmp/run.log" 2>&1 || { cat "$tmp/run.log" >&2; echo "rerun: $p failed (files in $tmp)" >&2; exit 1; }
  grep -q TEST_PASSED "$tmp/out/$p.sim.log" || { echo "rerun: $p did not pass (files in $tmp)" >&2; exit 1; }
  mkdir -p "$HERE/$p/rtl"
  cp "$tmp/out/$p.exec.log.xz" "$HERE/$p/rtl/$p.exec.log.xz.tmp"
  cp "$tmp/out/$p.console.log" "$HERE/$p/rtl/$p.console.log.tmp"
  mv "$HERE/$p/rtl/$p.exec.log.xz.tmp" "$HERE/$p/rtl/$p.exec.log.xz"
  mv "$HERE/$p/rtl/$p.console.log.tmp" "$HERE/$p/rtl/$p.console.log"
  rm -rf "$tmp"
done
