#!/bin/bash
# rtl_trace.sh KIND PROBE [OUT]: runs a probe of this folder on a copy of the VeeR EL2 RTL that prints what KIND
# names, cycle by cycle, for the measurements in docs/accuracy.md ("The D-bus buffer", "Checks on new programs").
# Measurement only: nothing of the RTL comes into the repository. KIND:
#   lsu   every AXI handshake of the LSU (aw, w, ar with their addresses, b, r) and the write-coalescing buffer's
#         writes, merges and drains (el2_lsu_bus_buffer.sv):
#           t=TIME aw= w= ar= awaddr= araddr= ibwr= ibmerge= ibdrain= ibaddr= b= r= full=
#   bp    each branch that event 25 counts as mispredicted, as it commits (el2_dec_tlu_ctl.sv):
#           t=TIME misp pc=PC
#   exu   each cycle a branch in D or X mispredicts, or the packet in R carries a misprediction (el2_exu.sv): the PCs
#         in D and X, the D-stage misprediction and upper flush, X's, R's packet bit (what event 25 counts), the data
#         and control enables that move the packet, and the lower flush:
#           t=TIME pcd= pcx= dmisp= dflush= xmisp= xflush= rmisp= xen= ren= rctl= lower= alu=
#   bht   the BHT's reads at fetch where the BTB hits (fetch address, GHR, index, valid and direction bits), its
#         writes (W0 from a misprediction, W2 from a committed branch) and each flush's restored GHR
#         (el2_ifu_bp_ctl.sv)
#   dec   each cycle decode is stalled (event 30: dec_pmu_decode_stall = i0_valid_d & ~dec_i0_decode_d,
#         el2_dec_decode_ctl.sv), the instruction at decode and why: the block (i0_block_d), the post- and presync
#         stalls, the load and store stalls (a full LSU buffer), the TLU's flush (dec_tlu_flush_lower_r) and the
#         execute flush a cycle late (flush_final_r), the external interrupt's freeze (dec_extint_stall):
#           t=TIME insn= block= post= pre= ldst= lower= final= extint= nbload= csrw=
#   bbuf  each cycle the D-bus buffer holds anything or the store buffer is full (el2_lsu_bus_buffer.sv; event 34
#         is lsu_stbuf_full_any | lsu_bus_buffer_full_any): the count buf_numvld_any, the bus buffer full, the
#         store buffer full, a dual (misaligned) access at decode and a load or store there, the bus requests in M
#         and R and whether each is dual, the ibuf, and each entry's state (0 IDLE, 1 START_WAIT, 2 CMD, 3 RESP,
#         4 DONE_PARTIAL, 5 DONE_WAIT, 6 DONE), entry 0 first:
#           t=TIME n= full= stfull= duald= vald= reqm= dualm= reqr= dualr= ibuf= st=
#   wbuf  each cycle the D-bus buffer holds anything (el2_lsu_bus_buffer.sv; the write path behind events 34 and 43):
#         the count and full, the requests in M and R (dual, address), the ibuf (valid, address, timer, write, merge,
#         drain and forced drain), the obuf (valid, write, address, tag, written, its timer and wait, the address
#         match with an entry in RESP), the AXI handshakes (aw, w, ar, b, r) and each entry's state and address:
#           t=TIME n= full= m= dm= am= r= dr= ar_= ib= iba= ibt= ibwr= ibmg= ibdr= ibfd= ob= obw= oba= obt= obwr= obtm=
#           obwait= amp= aw= w= ar= b= r= st=S0:A0,S1:A1,S2:A2,S3:A3
# The copy is made once per KIND in VEER_TRACE_WORK-KIND (default /tmp/veer-rtl-trace-KIND) from the kit's prepared sources
# in VEER_WORK (default /tmp/veer-rtl, built by the kit's build.sh): an `always` block is added to the module, then
# the kit's build.sh builds it (1-3 minutes). Output in OUT (default /tmp/rtl-trace/KIND/PROBE): the kit's files and
# PROBE.KIND.txt, one line per event. TIME is the simulation time in ns (10 per core cycle; about 10 x the
# exec.log's cycle + 15).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/common/kit.sh"
KIT=${VEER_KIT:-$HERE/../../../shared/veer-rtl}
WORK=${VEER_WORK:-/tmp/veer-rtl}
kind=${1:?usage: rtl_trace.sh lsu|bp|bht|exu|bbuf|wbuf|dec PROBE [OUT]}
p=${2:?usage: rtl_trace.sh lsu|bp|bht|exu|bbuf|wbuf|dec PROBE [OUT]}
TWORK=${VEER_TRACE_WORK:-/tmp/veer-rtl-trace}-$kind
OUT=${3:-/tmp/rtl-trace/$kind/$p}
case $kind in
  lsu) file=design/lsu/el2_lsu_bus_buffer.sv; clk=clk ;;
  bp) file=design/dec/el2_dec_tlu_ctl.sv; clk=free_l2clk ;;
  bht) file=design/ifu/el2_ifu_bp_ctl.sv; clk=clk ;;
  exu) file=design/exu/el2_exu.sv; clk=clk ;;
  bbuf) file=design/lsu/el2_lsu.sv; clk=clk ;;
  wbuf) file=design/lsu/el2_lsu_bus_buffer.sv; clk=clk ;;
  dec) file=design/dec/el2_dec_decode_ctl.sv; clk=clk ;;
  *) echo "rtl_trace: unknown kind '$kind' (expected lsu, bp, bht, exu, bbuf, wbuf or dec)" >&2; exit 2 ;;
esac
[ -f "$HERE/$p/$p.c" ] || { echo "rtl_trace: no probe $HERE/$p/$p.c" >&2; exit 2; }
[ -x "$KIT/build.sh" ] || { echo "rtl_trace: no RTL kit at $KIT (set VEER_KIT)" >&2; exit 2; }
[ -f "$WORK/rv_root/.kit-prepared" ] || { echo "rtl_trace: no prepared sources in $WORK (run $KIT/build.sh $WORK)" >&2; exit 2; }
if [ ! -x "$TWORK/build/obj_dir/Vtb_top" ]; then
  mkdir -p "$TWORK"
  if [ ! -f "$TWORK/rv_root/.rtl-trace" ]; then
    rm -rf "$TWORK/rv_root.tmp" "$TWORK/rv_root"
    cp -a "$WORK/rv_root" "$TWORK/rv_root.tmp"
    python3 - "$TWORK/rv_root.tmp/$file" "$kind" "$clk" <<'PY'
import sys
path, kind, clk = sys.argv[1:]
body = {
    "lsu": """   if ((lsu_axi_awvalid & lsu_axi_awready) | (lsu_axi_wvalid & lsu_axi_wready) | (lsu_axi_arvalid & lsu_axi_arready) |
       ibuf_wr_en | ibuf_drain_vld | (lsu_axi_bvalid & lsu_axi_bready) | (lsu_axi_rvalid & lsu_axi_rready))
      $display("RTLDBG t=%0t aw=%0d w=%0d ar=%0d awaddr=%h araddr=%h ibwr=%0d ibmerge=%0d ibdrain=%0d ibaddr=%h b=%0d r=%0d full=%0d",
               $time, lsu_axi_awvalid & lsu_axi_awready, lsu_axi_wvalid & lsu_axi_wready, lsu_axi_arvalid & lsu_axi_arready,
               lsu_axi_awaddr, lsu_axi_araddr, ibuf_wr_en, ibuf_merge_en & ibuf_merge_in, ibuf_drain_vld, ibuf_addr,
               lsu_axi_bvalid & lsu_axi_bready, lsu_axi_rvalid & lsu_axi_rready, lsu_bus_buffer_full_any);
""",
    "bp": """   if (exu_pmu_i0_br_misp & tlu_i0_commit_cmt & ~illegal_r)
      $display("RTLDBG t=%0t misp pc=%h", $time, {dec_tlu_i0_pc_r, 1'b0});
""",
    "exu": """   if (i0_predict_p_d.misp | i0_flush_upper_d | i0_flush_upper_x | i0_predict_p_x.misp | i0_pp_r.misp)
      $display("RTLDBG t=%0t pcd=%h pcx=%h dmisp=%0d dflush=%0d xmisp=%0d xflush=%0d rmisp=%0d xen=%0d ren=%0d rctl=%0d lower=%0d alu=%0d",
               $time, {dec_i0_pc_d, 1'b0}, {exu_i0_pc_x, 1'b0}, i0_predict_p_d.misp, i0_flush_upper_d, i0_predict_p_x.misp,
               i0_flush_upper_x, i0_pp_r.misp, x_data_en, r_data_en, r_ctl_en, dec_tlu_flush_lower_r, dec_i0_alu_decode_d);
""",
    "bht": """   if (ifc_fetch_req_f & ~exu_flush_final & (|vwayhit_f))
      $display("RTLDBG R t=%0t addr=%h ghr=%h idx=%h valid=%b dir=%b", $time, {ifc_fetch_addr_f, 1'b0}, fghr, bht_rd_addr_f,
               bht_valid_f, bht_dir_f);
   if (|bht_wr_en0) $display("RTLDBG W0 t=%0t idx=%h en=%b data=%h", $time, bht_wr_addr0, bht_wr_en0, bht_wr_data0);
   if (|bht_wr_en2) $display("RTLDBG W2 t=%0t idx=%h en=%b data=%h", $time, bht_wr_addr2, bht_wr_en2, bht_wr_data2);
   if (exu_flush_final) $display("RTLDBG F t=%0t fghr_restore=%h", $time, exu_mp_fghr);
""",
    "wbuf": """   if ((buf_numvld_any != 0) | ibuf_valid | obuf_valid)
      $display("RTLDBG t=%0t n=%0d full=%0d m=%0d dm=%0d am=%h r=%0d dr=%0d ar_=%h ib=%0d iba=%h ibt=%0d ibwr=%0d ibmg=%0d ibdr=%0d ibfd=%0d ob=%0d obw=%0d oba=%h obt=%0d obwr=%0d obtm=%0d obwait=%0d amp=%0d aw=%0d w=%0d ar=%0d b=%0d r=%0d st=%0d:%h,%0d:%h,%0d:%h,%0d:%h",
               $time, buf_numvld_any, lsu_bus_buffer_full_any, lsu_busreq_m, ldst_dual_m, lsu_addr_m, lsu_busreq_r, ldst_dual_r,
               lsu_addr_r, ibuf_valid, ibuf_addr, ibuf_timer, ibuf_wr_en, ibuf_merge_en, ibuf_drain_vld, ibuf_force_drain,
               obuf_valid, obuf_write, obuf_addr, obuf_tag0, obuf_wr_en, obuf_wr_timer, obuf_wr_wait, bus_addr_match_pending,
               lsu_axi_awvalid & lsu_axi_awready, lsu_axi_wvalid & lsu_axi_wready, lsu_axi_arvalid & lsu_axi_arready,
               lsu_axi_bvalid & lsu_axi_bready, lsu_axi_rvalid & lsu_axi_rready,
               buf_state[0], buf_addr[0], buf_state[1], buf_addr[1], buf_state[2], buf_addr[2], buf_state[3], buf_addr[3]);
""",
    "dec": """   if (i0_valid_d & ~dec_i0_decode_d)
      $display("RTLDBG t=%0t insn=%h block=%0d post=%0d pre=%0d ldst=%0d lower=%0d final=%0d extint=%0d nbload=%0d csrw=%0d",
               $time, dec_i0_instr_d, i0_block_d, postsync_stall, presync_stall, i0_load_stall_d | i0_store_stall_d,
               dec_tlu_flush_lower_r, flush_final_r, dec_extint_stall, i0_nonblock_load_stall, i0_dp.csr_read & prior_csr_write);
""",
    "bbuf": """   if ((bus_intf.bus_buffer.buf_numvld_any != 0) | lsu_stbuf_full_any)
      $display("RTLDBG t=%0t n=%0d full=%0d stfull=%0d duald=%0d vald=%0d reqm=%0d dualm=%0d reqr=%0d dualr=%0d ibuf=%0d st=%0d%0d%0d%0d",
               $time, bus_intf.bus_buffer.buf_numvld_any, lsu_bus_buffer_full_any, lsu_stbuf_full_any,
               bus_intf.bus_buffer.ldst_dual_d, bus_intf.bus_buffer.dec_lsu_valid_raw_d, bus_intf.bus_buffer.lsu_busreq_m,
               bus_intf.bus_buffer.ldst_dual_m, bus_intf.bus_buffer.lsu_busreq_r, bus_intf.bus_buffer.ldst_dual_r,
               bus_intf.bus_buffer.ibuf_valid, bus_intf.bus_buffer.buf_state[0], bus_intf.bus_buffer.buf_state[1],
               bus_intf.bus_buffer.buf_state[2], bus_intf.bus_buffer.buf_state[3]);
""",
}[kind]
s = open(path).read()
i = s.index("endmodule")  # the file's first module is the one named after it
open(path, "w").write(s[:i] + f"// rtl_trace.sh (pmusim): {kind}\nalways @(posedge {clk}) begin\n{body}end\n" + s[i:])
PY
    touch "$TWORK/rv_root.tmp/.rtl-trace"
    mv "$TWORK/rv_root.tmp" "$TWORK/rv_root"
  fi
  "$KIT/build.sh" "$TWORK" >&2
fi
trace_run "$HERE" "$p" "$TWORK" "$KIT" "$OUT" RTLDBG "$p.$kind.txt" || exit $?
echo "rtl_trace: $OUT/$p.$kind.txt ($(wc -l < "$OUT/$p.$kind.txt") lines), exec.log $OUT/$p.exec.log.xz"
