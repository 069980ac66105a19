#!/usr/bin/env bash
# `pip install .` into a fresh virtual environment of Debian's Python, with no network (--no-index): the module
# is built by setup.py through the project's CMake build (here the tree PMUSIM_BUILD_DIR names, already
# configured) and imported from the environment. Usage: pip.sh PYTHON SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
python=$1 src=$2 build=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
"$python" -m venv "$work/venv"
PMUSIM_BUILD_DIR="$build" "$work/venv/bin/pip" install --no-index --no-cache-dir "$src" >"$work/pip.log" 2>&1 ||
    { cat "$work/pip.log"; echo "pip: install failed"; exit 1; }
cd "$work"
"$work/venv/bin/python" - "$work/venv" <<'PY'
import pathlib, sys
import pmusim
assert pathlib.Path(pmusim.__file__).resolve().is_relative_to(pathlib.Path(sys.argv[1]).resolve()), pmusim.__file__
# mcycle of a VeeR EL2 PMU read in machine mode, the default (mcountinhibit resets to 0: it counts).
pmu = pmusim.Pmu("veer-el2")
pmu.advance(7)
assert pmu.read("mcycle").value_read == 7
print("pip: imported pmusim", pmusim.__version__, "from the environment")
PY
