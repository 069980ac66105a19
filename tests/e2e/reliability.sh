#!/usr/bin/env bash
# Reliability cases of the pmusim command (issue: no crash, no destroyed file, no silent success). Each case sets up
# its own files in a fresh folder, runs pmusim, and checks the exit code, the message and what is left on disk.
# Usage: reliability.sh PMUSIM SOURCE_DIR CASE
set -u
pmusim=$1
src=$2
case_name=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/pmusim-rel.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
sample="$src/traces/samples/pmu_loop.a64.pmt"

fail() { echo "FAIL [$case_name]: $*"; exit 1; }
# expect CODE REGEX CMD...: runs CMD, checks its exit code and that stdout+stderr match REGEX (grep -E).
expect() {
  local code=$1 regex=$2
  shift 2
  "$@" > out.txt 2> err.txt < /dev/null
  local got=$?
  [ "$got" = "$code" ] || fail "exit $got, expected $code: $* ($(head -c 600 err.txt))"
  [ -z "$regex" ] || cat out.txt err.txt | grep -Eq -- "$regex" || fail "output does not match '$regex': $(head -c 600 err.txt)"
  # A crash shows as a signal exit (>= 128) or a sanitizer report.
  grep -q 'runtime error:\|AddressSanitizer\|LeakSanitizer' err.txt && fail "sanitizer report: $(head -c 800 err.txt)"
  return 0
}
no_temp_left() { ! ls -A "${1:-.}" | grep -q 'pmusim-' || fail "a temporary file was left: $(ls -A "${1:-.}")"; }
bad_trace() { printf 'garbage that is no trace\n' > bad.log; }
# A trace that fails on its third line, after the output has been opened and written to.
mid_bad() { printf '# pmusim trace 1\npc=0x1000 enc=0xd503201f size=4 isa=a64 priv=0\npc=zz\n' > midbad.txt; }

case "$case_name" in
convert_fail_keeps_out)  # a failed conversion leaves OUT as it was, before and after OUT was opened
  bad_trace; mid_bad; echo precious > out.pmt
  expect 2 "bad.log:1: cannot tell the trace format" "$pmusim" convert bad.log out.pmt
  [ "$(cat out.pmt)" = precious ] || fail "OUT was changed"
  expect 2 "midbad.txt:3:" "$pmusim" convert midbad.txt out.pmt
  [ "$(cat out.pmt)" = precious ] || fail "OUT was changed by a conversion that failed half-way"
  no_temp_left ;;
convert_fail_symlink)  # OUT a symbolic link: the link and its target survive a failure
  mid_bad; echo precious > target.pmt; ln -s target.pmt link.pmt
  expect 2 "midbad.txt:3:" "$pmusim" convert midbad.txt link.pmt
  [ -L link.pmt ] || fail "the link was removed"
  [ "$(cat target.pmt)" = precious ] || fail "the link's target was changed"
  no_temp_left ;;
convert_symlink_replaces_target)  # a successful conversion through a link writes the target, the link stays
  echo old > target.txt; ln -s target.txt link.txt
  expect 0 "" "$pmusim" convert "$sample" link.txt
  [ -L link.txt ] || fail "the link was replaced by a file"
  head -1 target.txt | grep -q '^# pmusim trace 1' || fail "the target does not hold the converted trace"
  no_temp_left ;;
convert_fail_fifo)  # OUT a FIFO (like a device node): written directly, never removed
  mid_bad; mkfifo out.fifo
  timeout 30 cat out.fifo > /dev/null 2>&1 < /dev/null &
  reader=$!
  expect 2 "midbad.txt:3:" "$pmusim" convert midbad.txt out.fifo
  kill $reader 2>/dev/null; wait $reader 2>/dev/null
  [ -p out.fifo ] || fail "the FIFO was removed" ;;
convert_same_file)  # convert X X must not truncate its own input
  cp "$sample" in.pmt; cp "$sample" orig.pmt
  expect 2 "same file" "$pmusim" convert in.pmt in.pmt
  cmp -s in.pmt orig.pmt || fail "the input was changed"
  ln -s in.pmt alias.pmt
  expect 2 "same file" "$pmusim" convert alias.pmt in.pmt
  cmp -s in.pmt orig.pmt || fail "the input was changed through a link" ;;
convert_ok_mode)  # a new OUT gets the permissions a new file gets under the umask (not mkstemp's 0600)
  umask 022
  expect 0 "" "$pmusim" convert "$sample" new.txt
  [ "$(stat -c %a new.txt)" = 644 ] || fail "mode $(stat -c %a new.txt), expected 644"
  no_temp_left ;;
convert_folder_out)
  mkdir dir.pmt
  expect 2 "is a folder" "$pmusim" convert "$sample" dir.pmt
  [ -d dir.pmt ] || fail "the folder was removed" ;;
run_vcd_fail_keeps_files)  # a failing run --vcd FILE deletes nothing and leaves no FILE.vcd
  bad_trace; echo precious > wave
  expect 2 "cannot tell the trace format" "$pmusim" run --platform cortex-a53 --trace bad.log --vcd wave
  [ "$(cat wave)" = precious ] || fail "an unrelated FILE was changed or deleted"
  [ ! -e wave.vcd ] || fail "a half-written wave.vcd was left"
  no_temp_left ;;
run_vcd_unwritable)  # an unwritable VCD path is an error (exit 2), not a SIGFPE
  expect 2 "x.vcd" "$pmusim" run --platform cortex-a53 --trace "$sample" --vcd /proc/x.vcd ;;
script_vcd_fail_keeps_files)
  printf 'platform cortex-a53\nwrite PMFOO 1\n' > bad.pmus; echo precious > wave.vcd
  expect 2 "unknown register" "$pmusim" script --vcd wave.vcd bad.pmus
  [ "$(cat wave.vcd)" = precious ] || fail "the existing VCD was changed or deleted"
  no_temp_left ;;
events_more_than_counters)  # five events on a four-counter core: no crash, a note, every event counted
  expect 0 "5 events for 4 event counters" "$pmusim" run --platform cortex-a7 --trace "$src/tests/e2e/a32_nops.pmt.txt" \
    --events SW_INCR,INST_RETIRED,BR_MIS_PRED,BR_PRED,CPU_CYCLES
  expect 0 "7 events for 6 event counters" "$pmusim" run --platform cortex-a53 --trace "$sample" \
    --events SW_INCR,INST_RETIRED,BR_MIS_PRED,BR_PRED,CPU_CYCLES,L1D_CACHE,L1I_CACHE ;;
json_not_utf8)  # a path that is not UTF-8 in the JSON report is replaced, not an abort
  cp "$sample" "$(printf 'tr\xffce.pmt')"
  expect 0 '"path": "tr.*ce.pmt"' "$pmusim" run --platform cortex-a53 --trace "$(printf 'tr\xffce.pmt')" --output json ;;
script_repeat_count)
  printf 'platform cortex-a53\nrepeat 100000000000 read PMCR_EL0\n' > r.pmus
  expect 2 "a repeat count is at most 1000000" "$pmusim" script r.pmus ;;
script_repeat_depth)
  { printf 'platform cortex-a53\n'; for i in $(seq 1 20000); do printf 'repeat 1 '; done; printf 'read PMCR_EL0\n'; } > d.pmus
  expect 2 "repeats nest at most 16 deep" "$pmusim" script d.pmus ;;
script_repeat_total)  # nested counts multiply: refused before running, not after hours
  printf 'platform cortex-a53\nrepeat 1000000 repeat 1000000 read PMCR_EL0\n' > t.pmus
  expect 2 "more than 10000000 statements" "$pmusim" script t.pmus ;;
script_negative_overflow)
  printf 'platform cortex-a53\nwrite PMSWINC_EL0 -0x8000000000000001\n' > n.pmus
  expect 2 "expected a value.*-0x8000000000000001" "$pmusim" script n.pmus
  printf 'platform cortex-a53\nwrite PMCCNTR_EL0 -0x8000000000000000\nexpect PMCCNTR_EL0 == 0x8000000000000000\n' > m.pmus
  expect 0 "" "$pmusim" script m.pmus ;;
script_folder)
  mkdir scripts.d
  expect 2 "is a folder" "$pmusim" script scripts.d
  expect 2 "is a folder" "$pmusim" vp --platform cortex-a53 --setup scripts.d ;;
script_stdin)
  printf 'platform cortex-a53\nexpect PMCR_EL0 == 0x41033000\n' | "$pmusim" script - > out.txt 2>&1 || fail "script - exited $?"
  printf 'platform cortex-a53\nexpect PMCR_EL0 == 1\n' | "$pmusim" script - > out.txt 2>&1
  [ $? = 1 ] || fail "a failing expectation from standard input must exit 1" ;;
stdout_full)  # results that cannot be written are a failure
  [ -w /dev/full ] || { echo "skip: no /dev/full"; exit 0; }
  "$pmusim" platforms > /dev/full 2> err.txt; rc=$?
  [ $rc = 2 ] || fail "exit $rc writing to /dev/full, expected 2"
  grep -q "cannot write the results to standard output" err.txt || fail "no message: $(cat err.txt)" ;;
empty_forced_format)
  : > empty.log
  expect 2 "empty.log: the trace is empty" "$pmusim" run --platform veer-el2 --trace empty.log --format veer
  expect 2 "empty.log: the trace is empty" "$pmusim" convert empty.log out.pmt --format spike
  [ ! -e out.pmt ] || fail "a conversion of nothing left a file" ;;
header_only_trace)
  printf '# pmusim trace 1\n' > h.txt
  expect 2 "no instruction records" "$pmusim" run --platform cortex-a53 --trace h.txt ;;
cut_mid_line)  # a text trace cut in the middle of its last line: an error naming that line, not a record
  printf '# pmusim trace 1\npc=0x1000 enc=0xd503201f size=4 isa=a64 priv=0\npc=0x1004 enc=0xd50' > cut.txt
  expect 2 "cut.txt:3: the file ends in the middle of this line" "$pmusim" run --platform cortex-a53 --trace cut.txt ;;
long_line_message)  # a 15 MB line is not echoed whole; a NUL byte does not cut the message
  head -c 15000000 /dev/zero | tr '\0' 'x' > long.log; printf '\n' >> long.log
  "$pmusim" run --platform veer-el2 --trace long.log --format spike > out.txt 2> err.txt; rc=$?
  [ $rc = 2 ] || fail "exit $rc"
  [ "$(wc -c < err.txt)" -lt 4000 ] || fail "a message of $(wc -c < err.txt) bytes"
  printf '# pmusim trace 1\npc=0x1000 enc=0xd503201f size=4 isa=a64 priv=0 bogus=z\0z\n' > nul.txt
  expect 2 "nul.txt:2: bad word 'bogus=z.x00z': expected" "$pmusim" run --platform cortex-a53 --trace nul.txt
  printf 'platform cortex-a53\nwrite PM\0FOO 1\n' > nul.pmus
  expect 2 "nul.pmus:2: error: unknown register 'PM.x00FOO' on platform" "$pmusim" script nul.pmus ;;
xz_error_text)
  printf '\xfd7zXZ\0\0\x04\xe6\xd6\xb4\x46garbage-after-header' > bad.xz
  expect 2 "bad.xz: (xz data: (corrupt compressed data|not in the .xz format|compressed with options)|truncated xz data)" \
    "$pmusim" run --platform veer-el2 --trace bad.xz ;;
isa_article)
  expect 2 "an A64 instruction, but platform veer-el2 runs RV32" "$pmusim" run --platform veer-el2 --trace "$sample" ;;
bad_numbers)
  expect 2 "interval" "$pmusim" run --platform cortex-a53 --trace "$sample" --interval -1
  expect 2 "period" "$pmusim" vp --platform cortex-a53 --period nan
  expect 2 "period" "$pmusim" vp --platform cortex-a53 --period -1
  expect 2 "cpi" "$pmusim" vp --platform cortex-a53 --cpi 0
  expect 2 "too long" "$pmusim" vp --platform cortex-a53 --cpi 1000000 --instructions 0xffffffffffffffff
  expect 2 "cpi" "$pmusim" vp --platform cortex-a53 --cpi 99999999999999999999999 ;;
*) echo "unknown case $case_name"; exit 2 ;;
esac
echo "PASS [$case_name]"
