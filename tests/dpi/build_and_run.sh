#!/usr/bin/env bash
# Builds the SystemVerilog scoreboard with Verilator against the installed C API and runs it.
# Usage: build_and_run.sh PREFIX LIBDIR SV_FILE WORK_DIR
set -euo pipefail
prefix=$1 libdir=$1/$2 sv=$3 work=$4
mkdir -p "$work"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
libs=$(pkg-config --libs pmusim-c)
verilator --binary -Wall -Wno-DECLFILENAME --top-module pmu_scoreboard --Mdir "$work/obj" -j 2 \
          -LDFLAGS "$libs -Wl,-rpath,$libdir" "$sv" >"$work/verilator.log" 2>&1 || { cat "$work/verilator.log"; exit 1; }
"$work/obj/Vpmu_scoreboard"
