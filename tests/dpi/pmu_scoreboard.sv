// A SystemVerilog scoreboard driving pmusim's Cortex-A53 PMU model through DPI-C (capi/pmusim_c.h), as a
// verification engineer would check a PMU's RTL against it: program the counters, stream cycles and retired
// instructions into the model, compare its counters and interrupt request with the values expected by hand.
// Expected values: Arm ARM D7 (PMUv3), digested in ../shared/spec/armv8-pmuv3.md.
module pmu_scoreboard;
  import "DPI-C" function chandle pmusim_create(input string platform, input string options);
  import "DPI-C" function void pmusim_destroy(input chandle pmu);
  import "DPI-C" function int pmusim_write(input chandle pmu, input string name, input int privilege,
                                           input longint unsigned value);
  import "DPI-C" function int pmusim_read(input chandle pmu, input string name, input int privilege,
                                          output longint unsigned value);
  import "DPI-C" function int unsigned pmusim_a64_key(input int unsigned op0, input int unsigned op1,
                                                      input int unsigned crn, input int unsigned crm,
                                                      input int unsigned op2);
  import "DPI-C" function int pmusim_read_encoding(input chandle pmu, input int space, input int unsigned key,
                                                   input int privilege, output longint unsigned value);
  import "DPI-C" function int pmusim_read_offset(input chandle pmu, input longint unsigned offset,
                                                 input int origin, output int unsigned value);
  import "DPI-C" function int pmusim_advance_event(input chandle pmu, input longint unsigned cycles,
                                                   input int unsigned event_number, input longint unsigned count);
  import "DPI-C" function int pmusim_irq(input chandle pmu);

  localparam int OK = 0, TRAPPED = 1, SPACE_A64 = 0, ORIGIN_DEBUG = 0, EL0 = 0, EL1 = 1;
  localparam int unsigned INST_RETIRED = 'h08;

  chandle pmu;
  int failures = 0;
  int status;
  longint unsigned v;
  int unsigned w;
  int unsigned retired = 0;

  function automatic void expect_eq(string what, longint unsigned got, longint unsigned want);
    if (got != want) begin
      $display("FAIL %s: got 0x%0h, want 0x%0h", what, got, want);
      failures++;
    end else $display("ok   %s = 0x%0h", what, got);
  endfunction

  initial begin
    pmu = pmusim_create("cortex-a53", "");
    if (pmu == null) $fatal(1, "pmusim_create failed");
    void'(pmusim_write(pmu, "PMEVTYPER0_EL0", EL1, 64'(INST_RETIRED)));
    void'(pmusim_write(pmu, "PMCNTENSET_EL0", EL1, 64'h8000_0001));  // the cycle counter and counter 0
    void'(pmusim_write(pmu, "PMCR_EL0", EL1, 64'h1));                 // E

    // 90 cycles; the pipeline retires an instruction on every third one (cycles 0, 3, ..., 87): 30.
    for (int cycle = 0; cycle < 90; cycle++) begin
      bit valid = (cycle % 3 == 0);
      retired += 32'(valid);
      void'(pmusim_advance_event(pmu, 1, INST_RETIRED, longint'(valid)));
    end
    status = pmusim_read(pmu, "PMEVCNTR0_EL0", EL1, v);
    expect_eq("read status", 64'(status), 64'(OK));
    expect_eq("PMEVCNTR0_EL0 (instructions)", v, 64'(30));
    expect_eq("scoreboard's own count", 64'(retired), 64'(30));
    // PMCCNTR_EL0 by its MRS encoding (op0 3, op1 3, CRn 9, CRm 13, op2 0): 90 cycles.
    status = pmusim_read_encoding(pmu, SPACE_A64, pmusim_a64_key(3, 3, 9, 13, 0), EL1, v);
    expect_eq("PMCCNTR_EL0 (MRS)", v, 64'(90));
    // EL0 may not read it while PMUSERENR_EL0.EN is 0 (D7.10): the access traps.
    status = pmusim_read_encoding(pmu, SPACE_A64, pmusim_a64_key(3, 3, 9, 13, 0), EL0, v);
    expect_eq("PMCCNTR_EL0 at EL0 traps", 64'(status), 64'(TRAPPED));
    // The external view: PMEVCNTR0_EL0 at offset 0x000, read by a debugger.
    status = pmusim_read_offset(pmu, 'h000, ORIGIN_DEBUG, w);
    expect_eq("PMEVCNTR0_EL0 (offset 0x000)", 64'(w), 64'(30));

    // Overflow: counter 0 three short of 2^32 with its interrupt enabled. No request after two instructions,
    // a request after the third (the counter wraps to 0 and PMOVSCLR_EL0 bit 0 sets).
    void'(pmusim_write(pmu, "PMEVCNTR0_EL0", EL1, 64'hFFFF_FFFD));
    void'(pmusim_write(pmu, "PMINTENSET_EL1", EL1, 64'h1));
    void'(pmusim_advance_event(pmu, 2, INST_RETIRED, 2));
    expect_eq("irq before the overflow", 64'(pmusim_irq(pmu)), 64'(0));
    void'(pmusim_advance_event(pmu, 1, INST_RETIRED, 1));
    expect_eq("irq after the overflow", 64'(pmusim_irq(pmu)), 64'(1));
    void'(pmusim_read(pmu, "PMOVSCLR_EL0", EL1, v));
    expect_eq("PMOVSCLR_EL0", v, 64'h1);
    void'(pmusim_write(pmu, "PMOVSCLR_EL0", EL1, 64'h1));  // the handler clears the flag (W1C)
    expect_eq("irq after the clear", 64'(pmusim_irq(pmu)), 64'(0));

    pmusim_destroy(pmu);
    if (failures != 0) $fatal(1, "dpi: %0d checks failed", failures);
    $display("dpi: all passed");
    $finish;
  end
endmodule
