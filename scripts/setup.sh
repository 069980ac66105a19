#!/usr/bin/env bash
# Installs every Debian package pmusim needs. Safe to run any number of times:
# it calls apt-get only when a package is missing.
#   bash scripts/setup.sh           the build and the tests
#   bash scripts/setup.sh --bench   and the benchmarks' tools too (bench/natural.sh, bench/replay_real.sh, bench/arm_published.sh)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libsystemc-dev
  libboost-program-options-dev
  libspdlog-dev libfmt-dev
  nlohmann-json3-dev
  libgtest-dev libgmock-dev googletest
  libbenchmark-dev
  zlib1g-dev liblzma-dev
  clang libclang-rt-14-dev
  librsvg2-bin
  help2man binutils-aarch64-linux-gnu
  verilator
  python3-dev pybind11-dev python3-pybind11 python3-pytest python3-venv python3-setuptools
  hyperfine
  universal-ctags
)
# The benchmarks' tools, not needed by the tests: QEMU user mode and cross compilers to make natural traces,
# valgrind for cachegrind and callgrind, GNU time for peak memory.
bench_packages=(
  qemu-user valgrind time bc
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross
  gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
  gcc-arm-linux-gnueabi libc6-dev-armel-cross
  gcc-riscv64-unknown-elf
)
case "${1:-}" in
  "") ;;
  --bench) packages+=("${bench_packages[@]}") ;;
  *) echo "setup: unknown option '$1' (expected --bench or nothing)" >&2; exit 2 ;;
esac
# The web page (scripts/build-web.sh) and its test in a real browser (tests/web): wanted, but where a system cannot
# install them the rest of pmusim still builds; scripts/test.sh then says the web test is skipped.
web_packages=(emscripten chromium)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

web_missing=()
for p in "${web_packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    web_missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ] && [ ${#web_missing[@]} -eq 0 ]; then
  echo "setup: all $(( ${#packages[@]} + ${#web_packages[@]} )) packages are installed"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
if [ ${#web_missing[@]} -gt 0 ]; then
  echo "setup: installing ${web_missing[*]} (the web page and its browser test)"
  if ! "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${web_missing[@]}"; then
    echo "setup: warning: cannot install ${web_missing[*]}: the web page cannot be built or tested here" >&2
  fi
fi
