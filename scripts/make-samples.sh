#!/usr/bin/env bash
# Regenerates the bundled sample traces from pmusim's own programs (traces/samples/*.S): assembles them with
# Debian's cross binutils, runs them under QEMU with its plugin-free instruction log, and converts the log to
# pmusim's native format. The results are committed; this script is only needed to remake them.
#   needs: binutils-aarch64-linux-gnu qemu-system-arm, and a built pmusim (scripts/build.sh)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top/traces/samples"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
aarch64-linux-gnu-as -o "$work/pmu_loop.o" pmu_loop.a64.S
aarch64-linux-gnu-ld -Ttext=0x40080000 -o "$work/pmu_loop.elf" "$work/pmu_loop.o"
# -icount shift=0: one instruction per ns; QEMU's PMU clock is 1 GHz, so its cycle counter reads instructions.
timeout 60 qemu-system-aarch64 -M virt -cpu cortex-a53 -nographic -semihosting -icount shift=0 -singlestep \
    -d in_asm,exec,cpu,nochain -D "$work/pmu_loop.log" -kernel "$work/pmu_loop.elf" > /dev/null
"$top/build/testbench/pmusim" convert --format qemu-log "$work/pmu_loop.log" pmu_loop.a64.pmt 2>/dev/null || {
    # The reader needs the instruction set for a log without register dumps; these have them.
    echo "make-samples: conversion failed" >&2
    exit 1
}
# The same program logged per translation block (no -singlestep, no register dumps), kept as QEMU wrote it.
timeout 60 qemu-system-aarch64 -M virt -cpu cortex-a53 -nographic -semihosting -icount shift=0 \
    -d in_asm,exec,nochain -D "$work/pmu_loop.tb.log" -kernel "$work/pmu_loop.elf" > /dev/null
xz -9 -c "$work/pmu_loop.tb.log" > pmu_loop.a64.tb.log.xz
echo "make-samples: traces/samples/pmu_loop.a64.pmt, traces/samples/pmu_loop.a64.tb.log.xz"
