#!/usr/bin/env bash
# Builds the web page (issue 43, web/): the register models, explain, regs, events and the sequence runner in
# WebAssembly with Debian's emscripten, into build-web/: index.html, its script, style and pmusim.js/.wasm.
# Static files: `python3 -m http.server -d build-web` serves them, and so does any static file host.
# Needs: emscripten (scripts/setup.sh installs it). Nothing is downloaded: Debian's emscripten brings its
# libraries prebuilt. PMUSIM_WEB_OUT=DIR writes elsewhere than build-web/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${PMUSIM_WEB_OUT:-$top/build-web}
obj=$top/build-web-obj  # CMake's build tree of the page
if ! command -v emcmake >/dev/null || ! command -v em++ >/dev/null; then
  echo "build-web: emscripten is not installed (bash scripts/setup.sh installs it)" >&2
  exit 2
fi
# Debian's emscripten runs its JavaScript tools with node and finds acorn among Debian's node modules; a node
# from elsewhere on PATH does not look there by itself.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
start=$(date +%s)
emcmake cmake -S "$top/web" -B "$obj" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$obj" --parallel "${PMUSIM_JOBS:-$(nproc)}"
# The page's files are staged and then moved into place one by one: a failed build leaves an earlier page as it
# was, and only files of the page are replaced in the output folder.
stage=$(mktemp -d "$obj/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
cp "$obj/pmusim.js" "$obj/pmusim.wasm" "$top/web/index.html" "$top/web/app.js" "$top/web/style.css" "$stage/"
python3 "$top/web/samples.py" "$stage/samples.js" "$top/testbench/samples" "$top/tests/scripts"
mkdir -p "$out"
for f in "$stage"/*; do mv -f "$f" "$out/"; done
echo "build-web: $out (index.html, app.js, style.css, samples.js, pmusim.js, pmusim.wasm) in $(( $(date +%s) - start )) s"
