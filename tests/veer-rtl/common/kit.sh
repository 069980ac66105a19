# Shared by rerun.sh, fetch_trace.sh and rtl_trace.sh (sourced, not run).
# probe_dir HERE PROBE WORK DIR: the probe's sources and the harness put in DIR, with the link script of the model
# built in WORK given a section for data outside the DCCM (.extdata at 0x80100000, over the AXI D-bus).
probe_dir() {
  local here=$1 p=$2 dir=$4 ld=$3/build/snapshots/default/link.ld
  cp "$here/$p"/*.c "$here/$p"/*.mki "$here/common/probe.h" "$dir/" || return 1
  sed 's|^\(\s*\)\. = 0xd0580000;|  .extdata 0x80100000 : { *(.extdata) }\n\1. = 0xd0580000;|' "$ld" > "$dir/$p.ld" || return 1
  grep -q extdata "$dir/$p.ld" || { echo "$p: could not add .extdata to $ld" >&2; return 1; }
}

# trace_run HERE PROBE WORK KIT OUT PREFIX TXT: runs the probe on the instrumented model built in WORK, its kit
# files in OUT, and the simulation log's lines marked PREFIX (the mark taken off) in OUT/TXT.
trace_run() {
  local here=$1 p=$2 work=$3 kit=$4 out=$5 prefix=$6 txt=$7 tmp rc=0
  tmp=$(mktemp -d) || return 1
  probe_dir "$here" "$p" "$work" "$tmp" || rc=2
  if [ "$rc" = 0 ]; then
    mkdir -p "$out"
    "$kit/run.sh" -o "$out" "$tmp" "$p" "$work" > "$out/run.out" 2>&1 || { tail "$out/run.out" >&2; rc=1; }
  fi
  rm -rf "$tmp"
  [ "$rc" = 0 ] || return "$rc"
  sed -n "s/^.*$prefix //p" "$out/$p.sim.log" > "$out/$txt.tmp" && mv "$out/$txt.tmp" "$out/$txt"
}
