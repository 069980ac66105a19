#!/usr/bin/env bash
# The replay on real traces, side by side with valgrind's cachegrind in the same run (docs/performance.md).
#
#   bash bench/replay_real.sh [BUILD_DIR] [REPEAT]
#   PMUSIM_BENCH_CALLGRIND=1 bash bench/replay_real.sh [BUILD_DIR] [REPEAT]
#
# With PMUSIM_BENCH_CALLGRIND=1 it runs the block engine with `--timing model` on the version-2 traces under
# callgrind instead and prints the host instructions in all and per traced instruction (process start-up
# included): steady on a loaded machine where times are not (docs/performance.md quotes REPEAT 5, Dhrystone x5 and
# the QEMU loop x50).
#
# Converts the shared VeeR EL2 Dhrystone exec.log, the QEMU AArch64 loop trace (../shared/traces) and the VeeR EL2
# exec.log of bench/veer-walk (loops that walk arrays: the RTL kit's run of walk_sum.c) to the native format
# (version 2, and version 1 for comparison), repeated REPEAT times (default 100, 1000 and 100: about 34, 29 and 20
# million instructions), in a
# temporary folder, then times `pmusim run` on each under every timing mode and engine (wall time and peak
# memory from /usr/bin/time) and cachegrind (--cache-sim=yes --branch-sim=yes) on `xz -dc` of the Dhrystone
# log. Prints one line per run: what, instructions, seconds, million instructions per second, peak MiB, and
# the ratio to cachegrind's rate. Nothing is asserted; the machine is shared, so compare ratios, not seconds.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
repeat=${2:-100}
pmusim=$build/testbench/pmusim
shared=$top/../shared/traces
[ -x "$pmusim" ] || { echo "replay_real.sh: $pmusim not built" >&2; exit 2; }
[ -d "$shared" ] || { echo "replay_real.sh: $shared not found" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "replay_real.sh: valgrind not installed (bash scripts/setup.sh --bench)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A native trace repeated: the 16-byte header once, then the records `n` times.
repeat_native() {  # in out n
    head -c 16 "$1" >"$2"
    tail -c +17 "$1" >"$tmp/body"
    for _ in $(seq "$3"); do cat "$tmp/body"; done >>"$2"
}
# Repeated in version 1 (records one after another), then converted to version 2 (runs): both are timed.
"$pmusim" convert --native-version 1 "$shared/veer-el2/dhrystone.exec.log.xz" "$tmp/dhry1.pmt" 2>/dev/null
# A QEMU execlog does not say its instruction set: through the native text form, A64 at EL0 (a user-mode trace).
awk -F', ' 'BEGIN { print "# pmusim trace 1" } { printf "pc=%s enc=%s size=4 isa=a64 priv=0\n", $2, $3 }' \
    "$shared/qemu/loop.a64.execlog" >"$tmp/loop1.txt"
"$pmusim" convert --native-version 1 "$tmp/loop1.txt" "$tmp/loop1.pmt" 2>/dev/null
repeat_native "$tmp/dhry1.pmt" "$tmp/dhry.v1.pmt" "$repeat"
# A VeeR EL2 exec.log of a program of ours whose loops walk arrays in the DCCM (bench/veer-walk: the RTL kit's run).
"$pmusim" convert --native-version 1 "$top/bench/veer-walk/walk_sum.exec.log.xz" "$tmp/walk1.pmt" 2>/dev/null
repeat_native "$tmp/walk1.pmt" "$tmp/walk.v1.pmt" "$repeat"
[ -s "$tmp/loop1.pmt" ] && repeat_native "$tmp/loop1.pmt" "$tmp/loop.v1.pmt" $((repeat * 10))
for t in dhry loop walk; do
    [ -s "$tmp/$t.v1.pmt" ] && "$pmusim" convert "$tmp/$t.v1.pmt" "$tmp/$t.pmt" 2>/dev/null
done

if [ "${PMUSIM_BENCH_CALLGRIND:-0}" = 1 ]; then
    printf '%-44s %12s %14s %10s\n' what instructions host-instructions per-instr
    for trace in dhry loop walk; do
        [ -s "$tmp/$trace.pmt" ] || continue
        platform=veer-el2
        [ $trace = loop ] && platform=cortex-a53
        n=$("$pmusim" run -p $platform -t "$tmp/$trace.pmt" --timing model --output json | sed -n 's/^ *"instructions": \([0-9]*\),*/\1/p' | head -1)
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$pmusim" run -p $platform -t "$tmp/$trace.pmt" \
            --timing model --output json 2>"$tmp/cg.txt" >/dev/null
        host=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/cg.txt")
        printf '%-44s %12d %14d %10.1f\n' "$trace block model ($platform)" "$n" "$host" "$(echo "$host / $n" | bc -l)"
    done
    exit 0
fi

# cachegrind: instructions simulated per second of wall time (valgrind's start-up included).
t0=$(date +%s.%N)
valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file=/dev/null \
    xz -dc "$shared/veer-el2/dhrystone.exec.log.xz" 2>"$tmp/cg.txt" >/dev/null
t1=$(date +%s.%N)
cg_instr=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$tmp/cg.txt" | tr -d ,)
cg_rate=$(echo "$cg_instr / ($t1 - $t0) / 1000000" | bc -l)
printf '%-44s %12s %8s %8s %8s %6s\n' what instructions seconds M/s MiB ratio
printf '%-44s %12d %8.2f %8.1f %8s %6.2f\n' "cachegrind xz -dc dhrystone" "$cg_instr" "$(echo "$t1 - $t0" | bc -l)" "$cg_rate" - 1

run() {  # label platform trace args...
    local label=$1 platform=$2 trace=$3
    shift 3
    /usr/bin/time -f '%e %M' -o "$tmp/time.txt" "$pmusim" run -p "$platform" -t "$trace" --output json "$@" >"$tmp/out.json"
    local n secs kib rate
    n=$(sed -n 's/^ *"instructions": \([0-9]*\),*/\1/p' "$tmp/out.json" | head -1)
    read -r secs kib <"$tmp/time.txt"
    rate=$(echo "$n / $secs / 1000000" | bc -l)
    printf '%-44s %12d %8.2f %8.1f %8.1f %6.2f\n' "$label" "$n" "$secs" "$rate" "$(echo "$kib / 1024" | bc -l)" \
        "$(echo "$rate / $cg_rate" | bc -l)"
}
for trace in dhry loop walk; do
    [ -s "$tmp/$trace.pmt" ] || continue
    platform=veer-el2
    [ $trace = loop ] && platform=cortex-a53
    printf '%-44s %s: v2 %d bytes, v1 %d bytes\n' "$trace" "native file" "$(stat -c %s "$tmp/$trace.pmt")" "$(stat -c %s "$tmp/$trace.v1.pmt")"
    for engine in block reference; do
        for v in "" .v1; do
            [ "$engine" = reference ] && [ -z "$v" ] && continue  # the reference reads both alike
            run "$trace$v $engine model" $platform "$tmp/$trace$v.pmt" --engine $engine --timing model
            [ "$engine$v" = block ] && cp "$tmp/out.json" "$tmp/$trace.model.json"  # for hyperfine below
            run "$trace$v $engine cpi1" $platform "$tmp/$trace$v.pmt" --engine $engine --timing cpi1
            run "$trace$v $engine cpi1 --architectural" $platform "$tmp/$trace$v.pmt" --engine $engine --timing cpi1 --architectural
        done
    done
done

# With hyperfine (scripts/setup.sh installs it): cachegrind and the version-2 `--timing model` runs again, 10 runs
# each after a warm-up, as mean and standard deviation of the wall time: steadier than the single runs above.
command -v hyperfine >/dev/null || exit 0
hf=()
for trace in dhry loop walk; do
    [ -s "$tmp/$trace.model.json" ] || continue
    platform=veer-el2
    [ $trace = loop ] && platform=cortex-a53
    hf+=(-n "$trace" "$pmusim run -p $platform -t $tmp/$trace.pmt --timing model --output json")
done
hyperfine -N --style none --warmup 1 --runs 10 --export-json "$tmp/hf.json" \
    -n cachegrind "valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file=/dev/null xz -dc $shared/veer-el2/dhrystone.exec.log.xz" \
    "${hf[@]}" >/dev/null
python3 - "$tmp" "$cg_instr" <<'PY'
import json, re, sys
tmp, cg_instr = sys.argv[1], int(sys.argv[2])
runs = {r["command"]: r for r in json.load(open(f"{tmp}/hf.json"))["results"]}
cg = cg_instr / runs["cachegrind"]["mean"] / 1e6
print(f"{'hyperfine, 10 runs':44} {'instructions':>12} {'mean s':>8} {'+-':>6} {'M/s':>8} {'ratio':>6}")
for name, r in runs.items():
    n = cg_instr if name == "cachegrind" else int(re.search(r'"instructions": (\d+)', open(f"{tmp}/{name}.model.json").read()).group(1))
    rate = n / r["mean"] / 1e6
    print(f"{name + ('' if name == 'cachegrind' else ' block model'):44} {n:12d} {r['mean']:8.3f} {r['stddev']:6.3f} {rate:8.1f} {rate / cg:6.2f}")
PY
