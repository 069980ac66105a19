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

# set_timing FILE KEY JSON_VALUE: FILE is the dump of cortex-a53 with one timing key set (KEY may be "l1d.ways"),
# written with python3 (skip without it).
set_timing() {
  command -v python3 > /dev/null || { echo "skip: no python3"; exit 0; }
  "$pmusim" platforms --dump cortex-a53 > base.json || fail "cannot dump cortex-a53"
  python3 - "$1" "$2" "$3" <<'PY' || fail "cannot write $1"
import json, sys
out, key, value = sys.argv[1], sys.argv[2], sys.argv[3]
j = json.load(open("base.json"))
t = j["timing"]
*path, last = key.split(".")
for k in path: t = t[k]
t[last] = json.loads(value)
json.dump(j, open(out, "w"), indent=1)
PY
}
# wait_for GLOB: up to 20 s for a file matching GLOB (a temporary output file) to exist.
wait_for() {
  local i
  for i in $(seq 1 200); do compgen -G "$1" > /dev/null && return 0; sleep 0.1; done
  fail "no file matching $1 appeared"
}
# A native text trace of N records (A64 NOPs at consecutive addresses) on standard output; with a second argument,
# no header line.
nops() {
  awk -v n="$1" -v head="${2:-1}" 'BEGIN { if (head) print "# pmusim trace 1"
    for (i = 0; i < n; i++) printf "pc=0x%x enc=0xd503201f size=4 isa=a64 priv=0\n", 4096 + 4 * i }'
}
# interrupted SIGNALS... -- CMD...: runs CMD (its trace read from the FIFO trace.fifo) in the background, waits for
# its temporary output file (not with no_temp set: an output written after the run), sends each signal in turn,
# then ends the trace; sets $rc to CMD's exit status.
interrupted() {
  local sigs=() s pid
  while [ "$1" != -- ]; do sigs+=("$1"); shift; done
  shift
  rm -f trace.fifo; mkfifo trace.fifo
  set -m  # job control: the background command does not ignore SIGINT
  "$@" > out.txt 2> err.txt < /dev/null &
  pid=$!
  exec 3> trace.fifo  # returns once the command has opened its trace (its Ctrl-C handler is in place by then)
  nops 2000 >&3
  [ -n "${no_temp:-}" ] || wait_for '.*.pmusim-*'
  for s in "${sigs[@]}"; do kill -"$s" "$pid"; sleep 0.3; done
  nops 2000 0 >&3 2> /dev/null
  exec 3>&-
  wait "$pid"; rc=$?
  set +m
}

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
  expect 2 "--period expects 0.001 to 1e9 ns .*got 1e-300" "$pmusim" vp --platform cortex-a53 --period 1e-300
  expect 2 "--quantum expects 0.001 to 1e9 ns" "$pmusim" vp --platform cortex-a53 --quantum 1e-6
  expect 2 "cpi" "$pmusim" vp --platform cortex-a53 --cpi 0
  expect 2 "too long" "$pmusim" vp --platform cortex-a53 --cpi 1000000 --instructions 0xffffffffffffffff
  expect 2 "cpi" "$pmusim" vp --platform cortex-a53 --cpi 99999999999999999999999 ;;
platform_timing_checked)  # a timing section that breaks a rule: exit 2 naming the file, the key and the rule
  while read -r key value rule; do
    set_timing t.json "$key" "$value"
    for timing in model cpi1; do
      expect 2 "t.json: key 'timing.$key': .*$rule" "$pmusim" run --platform-file t.json --trace "$sample" --timing $timing
    done
  done <<'CASES'
l2.size 0 not sets x ways x line
l1d.ways 0 1 to 64 ways
l1d.line 3 not a power of two
l1d.size 1000 not sets x ways x line
l1d.dirty_parts 0 not 1, 2, 4 or 8
page_size 0 not a power of two from 1024
main_tlb_entries 7 a multiple of main_tlb_ways
ev_l1d_access "0x7fffffff" expected a number from 0 to 0xffff
ev_l1d_access "0x10000" expected a number from 0 to 0xffff
ev_l1d_access "0x9999" not in the platform's 'events' table
predictor.btb_bits 64 expected a number from 0 to 0x14
predictor.history_bits 64 expected a number from 0 to 0x20
predictor.table_bits 63 expected a number from 0 to 0x18
predictor.table_bits 40 expected a number from 0 to 0x18
ibus_beat 0 not a power of two
CASES
  ;;
platform_file_limits)  # platform JSON: huge numbers, folders, duplicate keys and endless files are errors naming the file
  "$pmusim" platforms --dump cortex-a53 > base.json
  sed 's/"counters": 6/"counters": 1e999/' base.json > big.json
  expect 2 "big.json: not valid JSON" "$pmusim" regs --platform-file big.json
  mkdir folder.json
  expect 2 "folder.json: is a folder" "$pmusim" regs --platform-file folder.json
  awk '{ print } /"counters": 6/ { print "  \"counters\": 4," }' base.json > dup.json
  line=$(grep -n '"counters": 6' base.json | cut -d: -f1)
  expect 2 "dup.json:$((line + 1)): key 'counters' is given twice in one object \\(lines $line and $((line + 1))\\)" \
    "$pmusim" regs --platform-file dup.json
  expect 2 "/dev/zero: longer than 4 MiB" timeout 60 "$pmusim" regs --platform-file /dev/zero
  { printf '{"pmusim_platform": 1, "name": '; head -c 300000 /dev/zero | tr '\0' '['; } > deep.json
  expect 2 "deep.json:1: nested more than 32 deep" "$pmusim" regs --platform-file deep.json ;;
outputs_not_inputs)  # no output may replace an input: run, script, vp and run --manifest refuse, exit 2
  cp "$sample" t.pmt; cp t.pmt orig.pmt
  expect 2 "--vcd t.pmt: the same file as the input" "$pmusim" run --platform cortex-a53 --trace t.pmt --vcd t.pmt
  cmp -s t.pmt orig.pmt || fail "run --vcd replaced its trace"
  expect 2 "--plot t.pmt: the same file as the input" "$pmusim" run --platform cortex-a53 --trace t.pmt --plot t.pmt
  cmp -s t.pmt orig.pmt || fail "run --plot replaced its trace"
  ln -s t.pmt link.pmt
  expect 2 "the same file as the input" "$pmusim" run --platform cortex-a53 --trace link.pmt --plot t.pmt
  printf 'platform cortex-a53\nread PMCR_EL0\n' > s.pmus; cp s.pmus s.orig
  expect 2 "--vcd s.pmus: the same file as the input" "$pmusim" script s.pmus --vcd s.pmus
  expect 2 "--plot s.pmus: the same file as the input" "$pmusim" script s.pmus --plot s.pmus
  expect 2 "--vcd s.pmus: the same file as the input" "$pmusim" vp --platform cortex-a53 --setup s.pmus --vcd s.pmus
  cmp -s s.pmus s.orig || fail "a script was replaced"
  printf '%s --timing cpi1\n' t.pmt > m.txt; cp m.txt m.orig
  expect 2 "--out m.txt: the same file as the input" "$pmusim" run --manifest m.txt --out m.txt -p cortex-a53
  cmp -s m.txt m.orig || fail "run --manifest replaced its manifest"
  expect 2 "--out t.pmt: the same file as the input t.pmt" "$pmusim" run --manifest m.txt --out t.pmt -p cortex-a53
  cmp -s t.pmt orig.pmt || fail "run --manifest replaced a trace it lists"
  no_temp_left ;;
interrupt_keeps_outputs)  # Ctrl-C during run --vcd F or --plot F: the counts so far, F as it was, no temporary file
  for opt in --vcd --plot; do
    echo precious > F
    no_temp=$([ $opt = --plot ] && echo 1) interrupted INT -- "$pmusim" run --platform cortex-a53 --trace trace.fifo \
      --format native-text $opt F
    [ "$rc" = 130 ] || fail "$opt: exit $rc, expected 130 ($(head -c 400 err.txt))"
    [ "$(cat F)" = precious ] || fail "$opt: F was replaced by a part of the run"
    grep -q "interrupted: F not written" err.txt || fail "$opt: no message: $(head -c 400 err.txt)"
    no_temp_left
  done ;;
signals_leave_no_temp)  # a signal that ends convert or run --vcd removes the temporary file it was writing
  for sigs in TERM HUP "INT INT"; do
    echo precious > F
    # shellcheck disable=SC2086
    interrupted $sigs -- "$pmusim" run --platform cortex-a53 --trace trace.fifo --format native-text --vcd F
    [ "$(cat F)" = precious ] || fail "run --vcd, $sigs: F was changed"
    [ "$rc" -gt 128 ] || fail "run --vcd, $sigs: exit $rc, expected death by signal"
    no_temp_left
  done
  for sig in INT TERM HUP; do
    interrupted $sig -- "$pmusim" convert trace.fifo out.pmt --format native-text
    [ "$rc" -gt 128 ] || fail "convert, $sig: exit $rc, expected death by signal"
    [ ! -e out.pmt ] || fail "convert, $sig: a part of OUT was left"
    no_temp_left
  done ;;
endless_inputs)  # a script, manifest or ELF file that never ends is refused, not read until the memory is gone
  expect 2 "/dev/zero: error: longer than 64 MiB: not a script" timeout 120 "$pmusim" script /dev/zero
  expect 2 "/dev/zero:1: a line longer than 64 KiB: not a manifest" timeout 120 "$pmusim" run -p cortex-a53 --manifest /dev/zero
  expect 2 "/dev/zero:1: a line longer than 64 KiB" timeout 120 "$pmusim" run -p cortex-a53 --manifest /dev/zero --out o.jsonl
  [ ! -e o.jsonl ] || fail "an output was written"
  expect 2 "/dev/zero: not a regular file: an ELF file is read whole" timeout 120 \
    "$pmusim" run -p cortex-a53 --trace "$sample" --elf /dev/zero --roi main
  mkdir elf.d
  expect 2 "elf.d: is a folder, expected an ELF file" "$pmusim" run -p cortex-a53 --trace "$sample" --elf elf.d --roi main
  no_temp_left ;;
native_binary_ranges)  # native binary records refuse what the text form refuses, naming the record
  command -v python3 > /dev/null || { echo "skip: no python3"; exit 0; }
  for field in priv:200 size:0 size:255 mem:255; do
    python3 - "$field" <<'PY'
import struct, sys
what, value = sys.argv[1].split(":")
value = int(value)
def rec(pc, size=4, priv=0, mem=None):
    # traces/native.cpp: u64 pc, u64 time, u32 encoding, u32 line, u8 size, isa (1: A64), privilege, flags, n_mem, n_regs,
    # u16 cause; a memory part: u64 addr, u64 data, u8 size, u8 flags, 6 reserved
    head = struct.pack("<QQIIBBBBBBH", pc, 0, 0xd503201f, 0, size, 1, priv, 0, 1 if mem is not None else 0, 0, 0)
    if mem is not None:
        head += struct.pack("<QQBB6x", 0x1000, 0, mem, 0)
    return head
out = b"PMUSIMTR" + struct.pack("<II", 1, 0) + rec(0x1000)
if what == "priv": out += rec(0x1004, priv=value)
elif what == "size": out += rec(0x1004, size=value)
else: out += rec(0x1004, mem=value)
open("bad.pmt", "wb").write(out)
PY
    case $field in
      priv:*) rule="privilege 200: expected 0-3" ;;
      size:*) rule="instruction size ${field#size:}: expected 2 or 4" ;;
      mem:*) rule="memory access of 255 bytes: expected 0-16" ;;
    esac
    expect 2 "bad.pmt: record 2: corrupt \\($rule\\)" "$pmusim" run --platform cortex-a53 --trace bad.pmt
  done ;;
script_json_streams)  # script --json writes each entry as it comes: memory stays bounded however many there are
  ulimit -v 400000 2> /dev/null || { echo "skip: no ulimit -v"; exit 0; }
  "$pmusim" --version > /dev/null 2>&1 || { echo "skip: pmusim cannot start under a 400 MB address-space limit (sanitizers)"; exit 0; }
  printf 'platform cortex-a53\nrepeat 30000 explain read PMCR_EL0\nrepeat 200000 read PMCR_EL0\n' > many.pmus
  "$pmusim" script --json many.pmus > out.json 2> err.txt; rc=$?
  [ $rc = 0 ] || fail "exit $rc under a 400 MB limit: $(head -c 400 err.txt)"
  tail -c 200 out.json | grep -q '"status": 0' || fail "the document does not end with its status"
  [ "$(grep -c '"explain": {' out.json)" = 30000 ] || fail "not every explanation was written" ;;
*) echo "unknown case $case_name"; exit 2 ;;
esac
echo "PASS [$case_name]"
