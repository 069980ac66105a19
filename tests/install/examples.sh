#!/usr/bin/env bash
# Builds examples/ against an installed pmusim (CMake package, then pkg-config) and runs them; each example
# checks its own values and exits non-zero when one is wrong. Usage: examples.sh PREFIX EXAMPLES_DIR WORK_DIR [LIBDIR]
set -euo pipefail
prefix=$1 src=$2 work=$3 libdir=$1/${4:-lib}
mkdir -p "$work"
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
# Warnings in installed headers would be the users' warnings: build as strictly as pmusim builds itself.
cmake -S "$src" -B "$work/cmake" "${generator[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wconversion -Werror" -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >"$work/configure.log"
cmake --build "$work/cmake" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
cd "$work"
"$work/cmake/pmu_basics"
"$work/cmake/c_scoreboard"
"$work/cmake/sc_two_pmus"
grep -q "pmu0 \$end" sc_two_pmus.vcd && grep -q "pmu1 \$end" sc_two_pmus.vcd || { echo "examples: no per-PMU scopes in the VCD"; exit 1; }

# The same C++ example through pkg-config.
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046
c++ -std=c++17 -Wall -Wextra -Werror "$src/pmu_basics.cpp" -o "$work/pmu_basics_pc" $(pkg-config --cflags --libs pmusim)
"$work/pmu_basics_pc" | tail -1
# shellcheck disable=SC2046
# The line pkg-config gives is enough to link and to run from this non-system prefix: its rpath finds the
# shared library (no LD_LIBRARY_PATH, no -Wl,-rpath of ours).
cc -Wall -Wextra -Werror "$src/c_scoreboard.c" -o "$work/c_scoreboard_pc" $(pkg-config --cflags --libs pmusim-c)
env -u LD_LIBRARY_PATH "$work/c_scoreboard_pc" | tail -1
# The installed command hands its SystemC commands to libexec/pmusim/pmusim-systemc (testbench/systemc_host.hpp).
"$prefix/bin/pmusim" vp --platform cortex-a53 --instructions 100 | grep -q "cortex-a53: 100 instructions in 100 cycles" \
    || { echo "examples: the installed pmusim vp did not run"; exit 1; }
echo "examples: all passed"
