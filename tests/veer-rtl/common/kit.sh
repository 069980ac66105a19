# Shared by rerun.sh, fetch_trace.sh and rtl_trace.sh (sourced, not run).
# probe_dir HERE PROBE WORK DIR: the probe's sources and the harness put in DIR, with the link script of the model
# built in WORK given a section for data outside the DCCM (.extdata at 0x80100000, over the AXI D-bus).
probe_dir() {
  local here=$1 p=$2 dir=$4 ld=$3/build/snapshots/default/link.ld
  cp "$here/$p"/*.c "$here/$p"/*.mki "$here/common/probe.h" "$dir/" || return 1
  sed 's|^\(\s*\)\. = 0xd0580000;|  .extdata 0x80100000 : { *(.extdata) }\n\1. = 0xd0580000;|' "$ld" > "$dir/$p.ld" || return 1
  grep -q extdata "$dir/$p.ld" || { echo "$p: could not add .extdata to $ld" >&2; return 1; }
}
