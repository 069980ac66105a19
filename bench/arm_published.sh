#!/usr/bin/env bash
# The ARM timing models against published silicon figures (docs/accuracy.md, "Dhrystone and CoreMark against
# silicon"; the figures: ../shared/spec/arm-published.md).
#
#   bash bench/arm_published.sh [BUILD_DIR] [WORK_DIR]
#
# Builds Dhrystone 2.1 and CoreMark from ../shared/benchmarks (read there, never copied into the repository) for
#   AArch64 (aarch64-linux-gnu-gcc -O2 -static), replayed on cortex-a53, cortex-a57 and cortex-a72;
#   A32     (arm-linux-gnueabihf-gcc -O2 -marm -static), replayed on cortex-a7, cortex-a8, cortex-a9 and cortex-a15;
#   ARMv6   (arm-linux-gnueabi-gcc -O2 -march=armv6 -marm -static), replayed on arm1176 (its default start-state,
#           linux: prediction on, as a Linux user program runs; and start-state=reset for comparison), arm1136
#           and arm1156;
#   ARMv6, the published run's flags (v6pub: arm-linux-gnueabi-gcc -O3 -mcpu=arm1176jzf-s -mfpu=vfp
#           -mfloat-abi=softfp -marm -static), replayed on arm1176: the Raspberry Pi 1's CoreMark figure was built
#           with gcc 4.9.2 "-O3 -mcpu=arm1176jzf-s -mfloat-abi=hard -mfpu=vfp" (its run's own output, docs/accuracy.md);
#           softfp as the C library of this toolchain is soft-float (CoreMark's timed functions are the same
#           instructions with either ABI, docs/accuracy.md); the compiler is still gcc 12;
# traces two run counts of each under QEMU user mode (-cpu of the replayed core) with the project's plugin
# (bench/qemu-plugin, as bench/natural.sh builds it), replays each trace with `pmusim run --timing model`, and
# takes the cycles of one run from the difference of the two (start-up and exit cancel):
#   Dhrystone: DMIPS/MHz = 10^6 / (cycles per run) / 1757;   CoreMark: CoreMark/MHz = 10^6 / (cycles per iteration).
# Prints one row per benchmark and core with the published figure and the error. Nothing is tuned to these
# figures and nothing is asserted: they check the model. WORK_DIR (default BUILD_DIR/arm_published) keeps the
# programs and traces; a trace is made again only when its program or the plugin changed.
# DHRY_RUNS="N1 N2" and COREMARK_ITERATIONS="N1 N2" change the run counts (defaults 2000 4000 and 4 8).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
work=${2:-$build/arm_published}
pmusim=$build/testbench/pmusim
bench=$top/../shared/benchmarks
read -r dhry1 dhry2 <<<"${DHRY_RUNS:-2000 4000}"
read -r cm1 cm2 <<<"${COREMARK_ITERATIONS:-4 8}"

die() { echo "arm_published.sh: $*" >&2; exit 2; }
[ -x "$pmusim" ] || die "$pmusim not built"
if [ ! -f "$bench/dhrystone/dhry_1.c" ] || [ ! -f "$bench/coremark/core_main.c" ]; then
    die "the benchmark sources are not at $bench (../shared/benchmarks beside the repository)"
fi
for tool in gcc aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc qemu-aarch64 qemu-arm python3; do
    command -v "$tool" >/dev/null || die "$tool not installed (bash scripts/setup.sh --bench installs the bench tools)"
done
if [ "$dhry2" -le "$dhry1" ] || [ "$cm2" -le "$cm1" ]; then die "the second run count must be the larger"; fi
have_v6=1
command -v arm-linux-gnueabi-gcc >/dev/null || { have_v6=0; echo "arm_published.sh: arm-linux-gnueabi-gcc not installed: no ARMv6 builds (arm1176)" >&2; }
mkdir -p "$work/bin"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

install_if_changed() {  # NEW OUT: keeps OUT (and so its traces) when the new build is the same file
    if [ -f "$2" ] && cmp -s "$1" "$2"; then rm -f "$1"; else mv -f "$1" "$2"; fi
}
plugin=$work/bin/libpmusim_execlog.so
gcc -O2 -Wall -Wextra -Werror -std=c11 -fPIC -shared -fvisibility=hidden -o "$tmp/plugin.so" \
    "$top/bench/qemu-plugin/pmusim_execlog.c"
install_if_changed "$tmp/plugin.so" "$plugin"

# Builds: name, compiler and its flags, QEMU and its -cpu, platforms to replay on.
# The A32 build's traces are replayed on the Cortex-A8 too, and the ARMv6 build's on the ARM1136 and ARM1156
# (the same instructions: QEMU's -cpu only decides which ones decode). The out-of-order cores replay the same
# traces: the A64 build on cortex-a57 and cortex-a72, the A32 build (ARMv7-A, which both the Cortex-A9 and the
# Cortex-A15 run) on cortex-a9 and cortex-a15.
builds=("a64 aarch64-linux-gnu-gcc -O2 -static | qemu-aarch64 cortex-a53 | cortex-a53 cortex-a57 cortex-a72"
        "a32 arm-linux-gnueabihf-gcc -O2 -marm -static | qemu-arm cortex-a7 | cortex-a7 cortex-a8 cortex-a9 cortex-a15")
[ "$have_v6" = 1 ] && builds+=("v6 arm-linux-gnueabi-gcc -O2 -march=armv6 -marm -static | qemu-arm arm1176 | arm1176 arm1176:start-state=reset arm1136 arm1156"
                               "v6pub arm-linux-gnueabi-gcc -O3 -mcpu=arm1176jzf-s -mfpu=vfp -mfloat-abi=softfp -marm -static | qemu-arm arm1176 | arm1176")

dhry_src=("$bench/dhrystone/dhry_1.c" "$bench/dhrystone/dhry_2.c")
cm=$bench/coremark
cm_src=("$cm/core_list_join.c" "$cm/core_main.c" "$cm/core_matrix.c" "$cm/core_state.c" "$cm/core_util.c" "$cm/posix/core_portme.c")

# trace NAME BIN QEMU CPU EXPECTED ARGS...: NAME.execlog, the trace of one run of bin/BIN (made again when stale); the
# program's output must match EXPECTED (Dhrystone's main returns no value, so its exit status says nothing; the
# plugin's write errors exit 3).
trace() {
    local name=$1 bin=$2 qemu=$3 cpu=$4 expected=$5 log rc=0
    shift 5
    log=$work/$name.execlog
    if [ ! -s "$log" ] || [ "$log" -ot "$work/bin/$bin" ] || [ "$log" -ot "$plugin" ]; then
        echo "arm_published.sh: tracing $name under $qemu -cpu $cpu" >&2
        "$qemu" -cpu "$cpu" -plugin "$plugin,out=$tmp/$name.execlog,disas=off" "$work/bin/$bin" "$@" </dev/null \
            >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
        [ "$rc" != 3 ] || die "$name: the plugin could not write its log: $(cat "$tmp/$name.err")"
        grep -q "$expected" "$tmp/$name.out" || die "$name did not run under QEMU (no '$expected' in its output)"
        mv -f "$tmp/$name.execlog" "$log"
        mv -f "$tmp/$name.out" "$work/$name.out"
    fi
}
# cycles TRACE PLATFORM[:OPTION=VALUE]: the timing model's cycles for the trace.
cycles() {
    local platform=${2%%:*} opts=()
    [ "$2" != "$platform" ] && opts=(-o "${2#*:}")
    "$pmusim" run -p "$platform" "${opts[@]}" -t "$work/$1.execlog" --timing model --output json >"$tmp/run.json" ||
        die "pmusim run -p $2 on $1 failed"
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cycles"])' "$tmp/run.json"
}

rows=()
for entry in "${builds[@]}"; do
    IFS='|' read -r cc qemu_cpu platforms <<<"$entry"
    read -r isa compiler cflags <<<"$cc"
    read -r qemu cpu <<<"$qemu_cpu"
    # Dhrystone's run count is built in (DHRY_ITERS): one program per count, the same code but that constant.
    for n in "$dhry1" "$dhry2"; do
        # shellcheck disable=SC2086  # the flags are words
        "$compiler" $cflags -std=gnu89 -w -DTIME -DNOENUM -DDHRY_ITERS="$n" -o "$tmp/dhry.$isa.$n" "${dhry_src[@]}" ||
            die "Dhrystone does not build with $compiler $cflags"
        install_if_changed "$tmp/dhry.$isa.$n" "$work/bin/dhry.$isa.$n"
    done
    # shellcheck disable=SC2086
    "$compiler" $cflags -I"$cm/posix" -I"$cm" -DPERFORMANCE_RUN=1 -DITERATIONS=0 -DFLAGS_STR="\"$cflags\"" \
        -o "$tmp/coremark.$isa" "${cm_src[@]}" || die "CoreMark does not build with $compiler $cflags"
    install_if_changed "$tmp/coremark.$isa" "$work/bin/coremark.$isa"
    for n in "$dhry1" "$dhry2"; do trace "dhry.$isa.$n" "dhry.$isa.$n" "$qemu" "$cpu" "Execution starts, $n runs"; done
    # CoreMark's performance run (seeds 0, 0, 0x66): its list, matrix and state CRCs are the known ones
    # (core_main.c); the "must execute for at least 10 secs" error is expected of a short run.
    for n in "$cm1" "$cm2"; do trace "coremark.$isa.$n" "coremark.$isa" "$qemu" "$cpu" "crcstate *: 0x8e3a" 0x0 0x0 0x66 "$n"; done
    for platform in $platforms; do
        d1=$(cycles "dhry.$isa.$dhry1" "$platform")
        d2=$(cycles "dhry.$isa.$dhry2" "$platform")
        c1=$(cycles "coremark.$isa.$cm1" "$platform")
        c2=$(cycles "coremark.$isa.$cm2" "$platform")
        rows+=("$isa $platform $d1 $d2 $c1 $c2")
    done
done

python3 - "$dhry1" "$dhry2" "$cm1" "$cm2" "${rows[@]}" <<'PY'
import sys
dhry1, dhry2, cm1, cm2 = (int(v) for v in sys.argv[1:5])
# ../shared/spec/arm-published.md: Dhrystone DMIPS/MHz and CoreMark/MHz per core (None: no figure we trust).
# Cortex-A8: Arm's 2.0 DMIPS/MHz. ARM1136 and ARM1156: no figure of their own was found; the ARM11 family's
# (the ARM1176's 1.25, the same pipeline but the 1156's extra stage) stands in, information only.
# The out-of-order cores' Dhrystone: Arm's commonly cited figures (docs/accuracy.md, "Out-of-order cores against
# silicon (ARM)", has the sources): Cortex-A9 2.5, Cortex-A15 3.5 (up to 4.1 quoted), Cortex-A57 4.6, Cortex-A72 4.72.
published = {"cortex-a53": (2.3, None), "cortex-a7": (1.9, None), "arm1176": (1.25, 1.94),
             "cortex-a8": (2.0, None), "arm1136": (1.25, None), "arm1156": (1.25, None),
             "cortex-a9": (2.5, None), "cortex-a15": (3.5, None), "cortex-a57": (4.6, None), "cortex-a72": (4.72, None)}
def err(model, pub):
    return "-" if pub is None else f"{(model - pub) / pub * 100:+.0f}%"
print(f"{'build':5} {'platform':26} {'cyc/dhry':>9} {'DMIPS/MHz':>9} {'published':>9} {'error':>6} "
      f"{'cyc/iter':>9} {'CM/MHz':>7} {'published':>9} {'error':>6}")
for row in sys.argv[5:]:
    isa, platform, d1, d2, c1, c2 = row.split()
    per_run = (int(d2) - int(d1)) / (dhry2 - dhry1)
    per_iter = (int(c2) - int(c1)) / (cm2 - cm1)
    dmips = 1e6 / per_run / 1757
    cmark = 1e6 / per_iter
    pd, pc = published[platform.split(":")[0]]
    print(f"{isa:5} {platform:26} {per_run:9.1f} {dmips:9.2f} {pd if pd else '-':>9} {err(dmips, pd):>6} "
          f"{per_iter:9.0f} {cmark:7.2f} {pc if pc else '-':>9} {err(cmark, pc):>6}")
PY
