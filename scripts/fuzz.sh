#!/usr/bin/env bash
# Fuzzes the trace readers with libFuzzer (Debian's clang) for a fixed time: scripts/fuzz.sh [SECONDS] (default 30).
# The seed corpus is the real traces beside the checkout (../shared/traces) when present, cut to their first lines.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-30}
if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: clang++ not found (scripts/setup.sh installs clang)" >&2
  exit 1
fi
out="$top/build-fuzz"
mkdir -p "$out/corpus"
sources=("$top"/traces/{output_file,input,reader,veer_reader,spike_reader,qemu_reader,qemu_log_reader,tarmac_reader,native}.cpp
         "$top"/isa/{rv32,arm_classify,a32_coproc,a64_sysreg,number,reg_use}.cpp)
if [ ! -x "$out/fuzz_readers" ] || [ -n "$(find "${sources[@]}" "$top/tests/fuzz/fuzz_readers.cpp" -newer "$out/fuzz_readers" 2>/dev/null)" ]; then
  clang++ -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -I"$top" \
    "$top/tests/fuzz/fuzz_readers.cpp" "${sources[@]}" -lfmt -lz -llzma -o "$out/fuzz_readers"
fi
shared="$top/../shared/traces"
if [ -d "$shared" ]; then
  for f in "$shared"/tarmac/*.tarmac "$shared"/tarmac/parsertest.txt "$shared"/spike/*.log "$shared"/veer-el2/hello_world.exec.log \
           "$shared"/qemu/*.execlog "$shared"/qemu/a64_bm.cpu.log.head3000; do
    head -c 4096 "$f" > "$out/corpus/$(basename "$f").seed"
  done
fi
"$out/fuzz_readers" -max_total_time="$seconds" -max_len=8192 -rss_limit_mb=2048 "$out/corpus" 2>&1 | tail -n 3
echo "fuzz: no crash in ${seconds}s"
