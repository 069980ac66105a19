#!/usr/bin/env bash
# The web page (issue 43): builds it (scripts/build-web.sh) and checks it in a real browser, Debian's headless
# chromium (tests/web/test_web.py). scripts/test.sh runs this after the native suite. Where emscripten or
# chromium is not installed (scripts/setup.sh could not install them), it says so and skips (exit 0).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
missing=()
command -v em++ >/dev/null || missing+=(emscripten)
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "test-web: SKIPPED: ${missing[*]} not installed (scripts/setup.sh installs them where the system can)"
  exit 0
fi
pmusim=${PMUSIM:-$top/build/testbench/pmusim}
if [ ! -x "$pmusim" ]; then
  echo "test-web: $pmusim is missing: build the command first (bash scripts/build.sh)" >&2
  exit 2
fi
start=$(date +%s)
page=$(mktemp -d "${TMPDIR:-/tmp}/pmusim-web.XXXXXX")
trap 'rm -rf "$page"' EXIT
PMUSIM_WEB_OUT=$page bash scripts/build-web.sh
built=$(date +%s)
python3 tests/web/test_web.py "$page" "$pmusim"
echo "test-web: the page built in $(( built - start )) s, tested in $(( $(date +%s) - built )) s"
