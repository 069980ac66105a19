#!/usr/bin/env bash
# The whole test suite: set-up, build (warnings are errors), then every test through CTest.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash scripts/build.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)" "$@"
