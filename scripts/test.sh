#!/usr/bin/env bash
# The whole test suite: set-up, build (warnings are errors), every test through CTest; then the same suite built
# with AddressSanitizer and UndefinedBehaviorSanitizer (clang), which also runs the fuzz harnesses briefly. Between
# them the web page is built and checked in headless chromium (scripts/test-web.sh).
# PMUSIM_NO_SANITIZE=1 skips the second pass (a quicker local run); arguments go to both ctest runs.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash scripts/build.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)" "$@"
# The web page in a real browser (skipped, with a message, where emscripten or chromium is not installed).
bash scripts/test-web.sh
if [ "${PMUSIM_NO_SANITIZE:-0}" = 1 ]; then
  echo "test: the sanitizer pass is skipped (PMUSIM_NO_SANITIZE=1)"
  exit 0
fi
bash scripts/build-sanitize.sh
# Leaks are checked (tests/lsan.supp lists what may be left at exit). No detect_stack_use_after_return: its fake
# stacks break SystemC's thread switching (QuickThreads), a crash in every SystemC test that is not pmusim's.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The tests that run a SystemC simulation run with every check but leaks: LeakSanitizer's own scan at exit faults in
# about half of them on a fresh Debian 12 machine ("Tracer caught signal 11" at a page boundary, after the test
# passed; SystemC's coroutine stacks, QuickThreads with a guard page, are the likely cause). The rest run with leaks
# checked.
systemc_tests='^(sc\.|Waveform\.|SystemcMessages\.|e2e\.vp|e2e\.systemc_host|e2e\.reliability\.interrupt_keeps_outputs)|vcd'
ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" -E "$systemc_tests" "$@"
ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1" \
  ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" -R "$systemc_tests" "$@"
