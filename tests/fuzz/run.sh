#!/usr/bin/env bash
# Runs one libFuzzer harness for a fixed time on a seed corpus: run.sh BINARY NAME SECONDS SOURCE_DIR SHARED_DIR CORPUS
# Seeds: the bundled samples, test traces and scripts, and the shared traces (their first 4 KiB) when present; the
# first byte of each seed picks the format or platform, as the harness reads it.
set -euo pipefail
bin=$1 name=$2 seconds=$3 src=$4 shared=$5 corpus=$6
mkdir -p "$corpus"
seed() {  # seed FILE FIRST_BYTE_OCTAL
  local out="$corpus/seed-$(basename "$1")-$2"
  { printf "\\$2"; head -c 4096 "$1"; } > "$out"
}
case "$name" in
readers)
  # Harness formats by first byte: 0 tarmac, 1 veer, 2 spike, 3 qemu-execlog, 4 qemu-log, 5 native, 6 native-text.
  for f in "$src"/traces/samples/*.pmt; do seed "$f" 005; done
  for f in "$src"/tests/e2e/*.pmt.txt "$src"/tests/traces/*.txt; do [ -f "$f" ] && seed "$f" 006; done
  if [ -d "$shared/traces" ]; then
    for f in "$shared"/traces/tarmac/*.tarmac; do seed "$f" 000; done
    seed "$shared/traces/veer-el2/hello_world.exec.log" 001
    seed "$shared/traces/spike/rv32.spike.log" 002
    for f in "$shared"/traces/qemu/*.execlog; do seed "$f" 003; done
    seed "$shared/traces/qemu/a64_bm.cpu.log.head3000" 104
    seed "$shared/traces/qemu/arm11_versatilepb.log" 004
  fi ;;
script)
  i=0
  for f in "$src"/tests/scripts/*.pmus "$src"/testbench/samples/*.pmus "$src"/tests/e2e/*.pmus; do
    [ -f "$f" ] || continue
    seed "$f" "$(printf '%03o' $((i % 8)))"; i=$((i + 1))
  done ;;
explain)
  printf '\000mrs x0, PMCR_EL0' > "$corpus/seed-mrs"; printf '\000msr PMEVTYPER3_EL0, x2' > "$corpus/seed-msr"
  printf '\001mcr p15, 0, r2, c9, c12, 0' > "$corpus/seed-mcr"; printf '\001mrc p15, 0, r0, c9, c13, 0' > "$corpus/seed-mrc"
  printf '\002csrw mhpmevent3, a0' > "$corpus/seed-csrw"; printf '\002csrrsi t0, mcountinhibit, 0x1f' > "$corpus/seed-csrrsi" ;;
platform)
  # Whole platform files (a dump is 10-20 KiB): the e2e ones, one with a timing section.
  for f in "$src"/tests/e2e/*.json; do cp "$f" "$corpus/seed-$(basename "$f")"; done
  max_len=32768 ;;
esac
"$bin" -max_total_time="$seconds" -max_len="${max_len:-4096}" -timeout=10 -rss_limit_mb=2048 -dict="$src/tests/fuzz/$name.dict" \
  -print_final_stats=1 "$corpus" > "$corpus.log" 2>&1 || { tail -n 60 "$corpus.log"; exit 1; }
grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$corpus.log" || true
echo "fuzz $name: no crash in ${seconds}s"
