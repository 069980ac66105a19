#!/usr/bin/env bash
# Configures and builds pmusim into build/ (warnings are errors).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash scripts/setup.sh
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build "${generator[@]}" -DPMUSIM_WERROR=ON
fi
cmake --build build --parallel "$(nproc)"
