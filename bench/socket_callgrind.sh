#!/usr/bin/env bash
# Host instructions per TLM socket access, counted by callgrind (steady where wall time is not: the count does not
# depend on the machine's load). Runs each socket benchmark of pmusim_bench under callgrind and divides the
# inclusive cost of ArmPmuModule::b_transport by its number of calls.
# Usage: bash bench/socket_callgrind.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
bench="$build/bench/pmusim_bench"
[ -x "$bench" ] || { echo "socket_callgrind.sh: $bench not found (build first)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "socket_callgrind.sh: valgrind is not installed" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for b in BM_SocketRegisterRead BM_SocketRegisterWrite; do
  valgrind --tool=callgrind --callgrind-out-file="$out/$b.cg" "$bench" --benchmark_filter="^$b\$" \
    --benchmark_min_time=0.05 >"$out/$b.log" 2>&1 || { cat "$out/$b.log" >&2; exit 2; }
  # The caller line just above the function's own line carries the inclusive cost and the call count.
  callgrind_annotate --inclusive=yes --tree=caller "$out/$b.cg" 2>/dev/null | awk -v name="$b" '
    /^ *[0-9,]+ .*< .*fw_process::b_transport.*\([0-9,]+x\)/ { prev = $0; next }
    /\*  .*ArmPmuModule::b_transport/ && prev != "" && !found {
      split(prev, f, " "); ir = f[1]; gsub(",", "", ir)
      match(prev, /\(([0-9,]+)x\)/); calls = substr(prev, RSTART + 1, RLENGTH - 3); gsub(",", "", calls)
      printf "%s: %d accesses, %.0f host instructions per access\n", name, calls, ir / calls; found = 1 }
    { prev = "" }
    END { if (!found) { print name ": b_transport not found in the profile" > "/dev/stderr"; exit 2 } }'
done
