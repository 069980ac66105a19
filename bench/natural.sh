#!/usr/bin/env bash
# The replay on natural traces of programs of our own, side by side with cachegrind running the same program built
# for the host (docs/performance.md, "Natural traces").
#
#   bash bench/natural.sh [BUILD_DIR] [WORK_DIR]
#   PMUSIM_BENCH_CALLGRIND=1 bash bench/natural.sh [BUILD_DIR] [WORK_DIR]
#
# Builds the programs of bench/programs (an LZ77 compressor with a CRC check, a bytecode interpreter, a merge sort
# with a hash table: AArch64, Thumb-2 and one A32 build, static, glibc; and the three together as a bare-metal RV32
# program with no C library) and the QEMU plugin of bench/qemu-plugin; traces each program under QEMU user mode with
# the plugin (the execlog format with data addresses; one run of the program, nothing repeated), checks that the
# program printed under QEMU what the host build prints, and converts each trace to the native format (version 2)
# for the platform it runs on. Then, for each trace, hyperfine times in one run (RUNS, default 3, each after a
# warm-up; the rates are per second of CPU time, user + system, which a loaded machine disturbs much less than
# the wall time):
#   - cachegrind (--cache-sim=yes --branch-sim=yes) on the same program built for the host (gcc, the same -O2):
#     its rate is the host instructions it simulated (I refs) per second of wall time;
#   - `pmusim run --timing model` on the native trace (the default engine);
#   - `pmusim run --architectural --timing cpi1` on the native trace;
#   - `pmusim run --architectural --timing cpi1` on the execlog text itself: the text reader's rate in lines/s
#     (one line per instruction), as near to the reader alone as a run gets;
# and /usr/bin/time gives the peak memory of the `--timing model` run. Prints one row per trace: instructions, the
# rates in millions per second, pmusim's ratios to cachegrind's rate, peak MiB, and whether the default engine's
# JSON is byte-identical to the reference stepper's (`--engine reference`; PMUSIM_BENCH_CHECK=0 skips that run).
# The column cg-net is cachegrind's rate without its start-up: the program's host instructions and CPU time less
# those of the same build running no kernel (valgrind's start-up is about 0.2-0.3 s, a large part of a run of 20-40
# M host instructions); the ratios are to the rate with start-up, as pmusim's rates include its own.
# Nothing is asserted; the machine is shared, so compare ratios, not seconds.
#
# With PMUSIM_BENCH_CALLGRIND=1 it runs `pmusim run --timing model` on each native trace under callgrind instead
# and prints host instructions per traced instruction (process start-up included; steady on a loaded machine
# where times are not); the profiles stay in WORK_DIR/callgrind.NAME.out for callgrind_annotate.
#
# PMUSIM_BENCH_TRACES="a64-lz77 rv32-mix" limits the run to those traces (names as in the table). WORK_DIR
# (default BUILD_DIR/natural) keeps the programs and traces (about 2 GB of text per trace): a trace is made again
# only when its program or the plugin changed. The tools: `bash scripts/setup.sh --bench` installs them.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
work=${2:-$build/natural}
runs=${RUNS:-3}
pmusim=$build/testbench/pmusim
programs=$top/bench/programs

die() { echo "natural.sh: $*" >&2; exit 2; }
[ -x "$pmusim" ] || die "$pmusim not built"
for tool in gcc aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc riscv64-unknown-elf-gcc qemu-aarch64 qemu-arm \
    qemu-riscv32 valgrind hyperfine bc python3; do
    command -v "$tool" >/dev/null || die "$tool not installed (bash scripts/setup.sh --bench installs the bench tools)"
done
[ -x /usr/bin/time ] || die "/usr/bin/time not installed (Debian package time: bash scripts/setup.sh --bench)"
mkdir -p "$work/bin"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name, compiler and flags for QEMU, QEMU, platform, the kernels and their scale (rounds): sized for 20-40 M
# instructions each.
traces=(
    "a64-lz77     aarch64 cortex-a53 -DRUN_LZ77 -DSCALE=3"
    "a64-interp   aarch64 cortex-a53 -DRUN_INTERP -DSCALE=4"
    "a64-sortmap  aarch64 cortex-a53 -DRUN_SORTMAP -DSCALE=2"
    "t32-lz77     t32     cortex-a7  -DRUN_LZ77 -DSCALE=2"
    "t32-interp   t32     cortex-a7  -DRUN_INTERP -DSCALE=4"
    "t32-sortmap  t32     cortex-a7  -DRUN_SORTMAP -DSCALE=1"
    "a32-interp   a32     cortex-a7  -DRUN_INTERP -DSCALE=4"
    "rv32-mix     rv32    veer-el2   -DRUN_LZ77 -DRUN_INTERP -DRUN_SORTMAP -DSCALE=1"
)
wanted() { [ -z "${PMUSIM_BENCH_TRACES:-}" ] || [[ " $PMUSIM_BENCH_TRACES " == *" $1 "* ]]; }

sources=("$programs/main.c" "$programs/lz77.c" "$programs/interp.c" "$programs/sortmap.c")
cflags=(-O2 -Wall -Wextra -Werror -I"$programs")
# install_if_changed NEW OUT: keeps OUT (and so its trace) when the new build is the same file.
install_if_changed() {
    if [ -f "$2" ] && cmp -s "$1" "$2"; then rm -f "$1"; else mv -f "$1" "$2"; fi
}
build_program() {  # name isa defines...
    local name=$1 isa=$2
    shift 2
    case $isa in
    aarch64) aarch64-linux-gnu-gcc "${cflags[@]}" -static "$@" -o "$tmp/$name" "${sources[@]}" ;;
    t32) arm-linux-gnueabihf-gcc "${cflags[@]}" -static -march=armv7-a+fp -mthumb "$@" -o "$tmp/$name" "${sources[@]}" ;;
    a32) arm-linux-gnueabihf-gcc "${cflags[@]}" -static -march=armv7-a+fp -marm "$@" -o "$tmp/$name" "${sources[@]}" ;;
    rv32) riscv64-unknown-elf-gcc "${cflags[@]}" -march=rv32imc -mabi=ilp32 -static -nostdlib -ffreestanding \
        -fno-builtin -DBENCH_BARE_METAL "$@" -o "$tmp/$name" "$programs/rv32_start.S" "${sources[@]}" \
        "$programs/bare_metal.c" -lgcc ;;
    esac
    install_if_changed "$tmp/$name" "$work/bin/$name"
    gcc "${cflags[@]}" "$@" -o "$tmp/$name.host" "${sources[@]}"
    install_if_changed "$tmp/$name.host" "$work/bin/$name.host"
}

# The same sources with no kernel named: what cachegrind's start-up and the C library's cost without the work.
gcc "${cflags[@]}" -o "$tmp/empty.host" "${sources[@]}"
install_if_changed "$tmp/empty.host" "$work/bin/empty.host"

plugin=$work/bin/libpmusim_execlog.so
gcc -O2 -Wall -Wextra -Werror -std=c11 -fPIC -shared -fvisibility=hidden -o "$tmp/plugin.so" \
    "$top/bench/qemu-plugin/pmusim_execlog.c"
install_if_changed "$tmp/plugin.so" "$plugin"

qemu_for() {
    case $1 in aarch64) echo qemu-aarch64 ;; t32 | a32) echo qemu-arm ;; rv32) echo qemu-riscv32 ;; esac
}
for entry in "${traces[@]}"; do
    read -r name isa platform defines <<<"$entry"
    wanted "$name" || continue
    # shellcheck disable=SC2086  # the defines are words
    build_program "$name" "$isa" $defines
    log=$work/$name.execlog
    if [ ! -s "$log" ] || [ "$log" -ot "$work/bin/$name" ] || [ "$log" -ot "$plugin" ]; then
        echo "natural.sh: tracing $name under $(qemu_for "$isa")" >&2
        "$work/bin/$name.host" >"$tmp/host.out" || die "$name: the host build failed its own check"
        "$(qemu_for "$isa")" -plugin "$plugin,out=$tmp/$name.execlog" "$work/bin/$name" >"$tmp/guest.out" ||
            die "$name: failed under QEMU"
        cmp -s "$tmp/host.out" "$tmp/guest.out" || die "$name: printed $(cat "$tmp/guest.out") under QEMU, \
$(cat "$tmp/host.out") on the host"
        rm -f "$work/$name.pmt"
        mv -f "$tmp/$name.execlog" "$log"
    fi
    if [ ! -s "$work/$name.pmt" ] || [ "$work/$name.pmt" -ot "$log" ] || [ "$work/$name.pmt" -ot "$pmusim" ]; then
        "$pmusim" convert "$log" "$tmp/$name.pmt" --platform "$platform" >/dev/null 2>"$tmp/convert.txt" ||
            die "$name: convert failed: $(cat "$tmp/convert.txt")"
        mv -f "$tmp/$name.pmt" "$work/$name.pmt"
    fi
done

instructions_of() {  # json file
    sed -n 's/^ *"instructions": \([0-9]*\),*/\1/p' "$1" | head -1
}

if [ "${PMUSIM_BENCH_CALLGRIND:-0}" = 1 ]; then
    printf '%-14s %-11s %12s %16s %10s\n' trace platform instructions host-instructions per-instr
    for entry in "${traces[@]}"; do
        read -r name isa platform defines <<<"$entry"
        wanted "$name" || continue
        valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.$name.out" "$pmusim" run -p "$platform" \
            -t "$work/$name.pmt" --timing model --output json 2>"$tmp/cg.txt" >"$tmp/out.json" ||
            die "$name: pmusim failed under callgrind"
        n=$(instructions_of "$tmp/out.json")
        host=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/cg.txt")
        printf '%-14s %-11s %12d %16d %10.1f\n' "$name" "$platform" "$n" "$host" "$(echo "$host / $n" | bc -l)"
    done
    exit 0
fi

cachegrind=(valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file=/dev/null)
# cachegrind's cost on the program that does nothing, for the net rate (column cg-net).
"${cachegrind[@]}" "$work/bin/empty.host" 2>"$tmp/cg.txt" >/dev/null || die "cachegrind failed on an empty program"
empty_instr=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$tmp/cg.txt" | tr -d ,)
hyperfine -N --style none --warmup 1 --runs "$runs" --export-json "$tmp/empty.json" \
    -n empty "${cachegrind[*]} $work/bin/empty.host" >/dev/null 2>"$tmp/hf.txt" || die "hyperfine failed: $(cat "$tmp/hf.txt")"
printf '%-14s %-11s %11s %9s %6s %9s %6s %9s %6s %9s %6s %4s\n' trace platform instructions cachegrind cg-net \
    model ratio arch ratio text-Ml/s MiB =ref
for entry in "${traces[@]}"; do
    read -r name isa platform defines <<<"$entry"
    wanted "$name" || continue
    pmt=$work/$name.pmt
    /usr/bin/time -f '%M' -o "$tmp/peak.txt" "$pmusim" run -p "$platform" -t "$pmt" --timing model --output json \
        >"$tmp/model.json" || die "$name: pmusim run --timing model failed"
    n=$(instructions_of "$tmp/model.json")
    same=-
    if [ "${PMUSIM_BENCH_CHECK:-1}" = 1 ]; then
        "$pmusim" run -p "$platform" -t "$pmt" --timing model --output json --engine reference >"$tmp/reference.json" ||
            die "$name: pmusim run --engine reference failed"
        if cmp -s "$tmp/model.json" "$tmp/reference.json"; then same=yes; else same=NO; fi
    fi
    "${cachegrind[@]}" "$work/bin/$name.host" 2>"$tmp/cg.txt" >/dev/null || die "$name: cachegrind failed"
    cg_instr=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$tmp/cg.txt" | tr -d ,)
    lines=$(wc -l <"$work/$name.execlog")
    hyperfine -N --style none --warmup 1 --runs "$runs" --export-json "$tmp/hf.json" \
        -n cachegrind "${cachegrind[*]} $work/bin/$name.host" \
        -n model "$pmusim run -p $platform -t $pmt --timing model --output json" \
        -n arch "$pmusim run -p $platform -t $pmt --architectural --timing cpi1 --output json" \
        -n text "$pmusim run -p $platform -t $work/$name.execlog --architectural --timing cpi1 --output json" \
        >/dev/null 2>"$tmp/hf.txt" || die "$name: hyperfine failed: $(cat "$tmp/hf.txt")"
    python3 - "$tmp" "$name" "$platform" "$same" "$n" "$cg_instr" "$empty_instr" "$lines" "$(cat "$tmp/peak.txt")" <<'PY'
import json, sys
tmp, name, platform, same = sys.argv[1:5]
n, cg_instr, empty_instr, lines, peak_kib = (int(v) for v in sys.argv[5:10])
# CPU time (user + system), not wall time: on this shared machine a process waits for a core most of its wall
# time, and how long depends on the others; the CPU time it used does much less.
def cpu(path):
    return {r["command"]: r["user"] + r["system"] for r in json.load(open(path))["results"]}
mean, empty = cpu(f"{tmp}/hf.json"), cpu(f"{tmp}/empty.json")["empty"]
cg = cg_instr / mean["cachegrind"] / 1e6
cg_net = (cg_instr - empty_instr) / (mean["cachegrind"] - empty) / 1e6
model = n / mean["model"] / 1e6
arch = n / mean["arch"] / 1e6
text = lines / mean["text"] / 1e6
print(f"{name:14} {platform:11} {n:11d} {cg:9.1f} {cg_net:6.1f} {model:9.1f} {model / cg:6.2f} {arch:9.1f} {arch / cg:6.2f}"
      f" {text:9.1f} {peak_kib / 1024:6.1f} {same:>4}")
PY
done
