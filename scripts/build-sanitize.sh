#!/usr/bin/env bash
# Configures and builds pmusim with AddressSanitizer and UndefinedBehaviorSanitizer into build-asan/, with clang and
# the libFuzzer harnesses (tests/fuzz). The warnings gate is the main build's (scripts/build.sh, g++ -Werror).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
if [ ! -f build-asan/CMakeCache.txt ]; then
  CC=clang CXX=clang++ cmake -S . -B build-asan "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPMUSIM_SANITIZE=ON -DPMUSIM_FUZZ=ON -DPMUSIM_BUILD_BENCH=OFF -DPMUSIM_BUILD_PYTHON=OFF
fi
cmake --build build-asan --parallel "$(nproc)"
