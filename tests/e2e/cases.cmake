# End-to-end cases of the pmusim command: exit codes and messages.
set(E2E ${CMAKE_CURRENT_SOURCE_DIR}/e2e)
function(pmusim_case name code regex)
  add_test(NAME e2e.${name}
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:pmusim>;${ARGN}" -DEXPECT_CODE=${code} "-DEXPECT_REGEX=${regex}"
            -P ${E2E}/check.cmake)
endfunction()
# The same, and the output must not match REJECT.
function(pmusim_case_reject name code regex reject)
  add_test(NAME e2e.${name}
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:pmusim>;${ARGN}" -DEXPECT_CODE=${code} "-DEXPECT_REGEX=${regex}"
            "-DREJECT_REGEX=${reject}" -P ${E2E}/check.cmake)
endfunction()

pmusim_case(help 0 "commands:" --help)
pmusim_case(no_command 2 "usage: pmusim" )
pmusim_case(unknown_command 2 "unknown command 'frob'" frob)
pmusim_case(platforms 0 "cortex-a53 +armv8-pmuv3 +PMUv3 +6" platforms)
pmusim_case(platforms_json 0 "\"name\": \"armv8-generic\"" platforms --json)
pmusim_case(regs_map 0 "PMCR_EL0 +S3_3_C9_C12_0 +0xe04" regs --platform cortex-a53)
pmusim_case(regs_one 0 "\\[15:11\\] +N +RO +0x6" regs --platform cortex-a53 PMCR_EL0)
pmusim_case(regs_generic_name 0 "PMCCFILTR_EL0" regs --platform cortex-a53 S3_3_C14_C15_7)
pmusim_case(regs_unknown_reg 2 "unknown register 'PMFOO'" regs --platform cortex-a53 PMFOO)
pmusim_case(regs_unknown_platform 2 "unknown platform 'z80'" regs --platform z80)
pmusim_case(regs_missing_platform 2 "platform" regs)
pmusim_case(explain_pmcr 0 "PMCR_EL0: 0x41033000 -> 0x41033011.*action: PMCCNTR := 0" explain --platform cortex-a53 "write PMCR_EL0 0x17")
pmusim_case(explain_el0_trap 0 "refused.*trapped to EL1" explain --platform cortex-a53 --el 0 "write PMCR_EL0 1")
pmusim_case(explain_bad_access 2 "explain expects" explain --platform cortex-a53 "poke PMCR_EL0 1")
pmusim_case(explain_bad_value 2 "expected a value" explain --platform cortex-a53 "write PMCR_EL0 zz")
pmusim_case(script_help 0 "usage: pmusim script" script --help)
pmusim_case(script_missing_file 2 "cannot open the script file" script /nonexistent.pmus)
pmusim_case(script_bad_option 2 "unknown platform option 'bogus'" script --platform cortex-a53 --option bogus=1 ${E2E}/failing.pmus)
pmusim_case(script_failing 1 "failing.pmus:5: FAIL: expected PMCR_EL0 == 0x41033001, got 0x41033000" script ${E2E}/failing.pmus)
pmusim_case(script_malformed 2 "malformed.pmus:4: error: unknown register 'PMCRR_EL0'" script ${E2E}/malformed.pmus)
pmusim_case(script_unknown_platform 2 "unknown platform 'cortex-z9'" script --platform cortex-z9 ${E2E}/failing.pmus)
pmusim_case(sample 0 "PMCCNTR_EL0 = 0x0000000000000400" script ${PROJECT_SOURCE_DIR}/testbench/samples/first-steps.pmus)
pmusim_case(explain_mcr 0 "is a write of PMCR \\(encoding 0xee092f1c\\).*PMCR: 0x41072000 -> 0x41072011" explain --platform cortex-a7 --set r2=0x17 "mcr p15, 0, r2, c9, c12, 0")
pmusim_case(explain_bad_set 2 "--set expects CORE_REG=VALUE" explain --platform cortex-a7 --set q2=1 "mcr p15, 0, r2, c9, c12, 0")
pmusim_case(platforms_all 0 "cortex-a7 +armv7-cp15 +PMUv2 +4.*cortex-a8 +armv7-cp15 +PMUv1 +4" platforms)
pmusim_case(regs_v7 0 "PMCR +p15, 0, c9, c12, 0 +0xe04" regs --platform cortex-a7)
pmusim_case(vp 0 "cortex-a53: 5000 instructions in 5000 cycles.*interrupts: 1\n +1 us +irq +asserted" vp --platform cortex-a53 --setup ${E2E}/vp_setup.pmus --instructions 5000 --quantum 3000)
pmusim_case(vp_arm1156_fiq 0 "interrupts: 1\n +1 us +fiq +asserted" vp --platform arm1156 --setup ${E2E}/vp_setup_arm1156.pmus --instructions 4000 --quantum 100)
pmusim_case(vp_bad_platform 2 "unknown platform 'z80'" vp --platform z80)
pmusim_case(vp_bad_setup 2 "cannot open the setup script" vp --platform cortex-a53 --setup /nonexistent.pmus)
pmusim_case(vp_failing_setup 1 "FAIL" vp --platform cortex-a53 --setup ${E2E}/failing.pmus)
pmusim_case(script_vcd 0 "PMCCNTR_EL0 = 0x0000000000000400" script --vcd ${CMAKE_CURRENT_BINARY_DIR}/first-steps.vcd ${PROJECT_SOURCE_DIR}/testbench/samples/first-steps.pmus)
pmusim_case(script_vcd_malformed 2 "malformed.pmus:4: error: unknown register" script --vcd ${CMAKE_CURRENT_BINARY_DIR}/malformed.vcd ${E2E}/malformed.pmus)
pmusim_case(script_vcd_platform_change 2 "cannot change it" script --vcd ${CMAKE_CURRENT_BINARY_DIR}/change.vcd ${E2E}/platform_change.pmus)
# The SystemC commands above ran in pmusim-systemc (testbench/systemc_host.hpp); pmusim itself does not load it.
add_test(NAME e2e.systemc_host
  COMMAND ${CMAKE_COMMAND} -DPMUSIM=$<TARGET_FILE:pmusim> -DWORK=${CMAKE_CURRENT_BINARY_DIR} -P ${E2E}/systemc_host.cmake)

# Trace replay and conversion, on the real traces beside the checkout: skipped when they are absent (a clone
# with no ../shared beside it still passes its whole suite).
set(TRACES ${PMUSIM_SHARED_DIR}/traces)
function(pmusim_shared_case name code regex)
  add_test(NAME e2e.${name}
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:pmusim>;${ARGN}" -DEXPECT_CODE=${code} "-DEXPECT_REGEX=${regex}"
            -DNEEDS=${TRACES}/FORMATS.md -P ${E2E}/check.cmake)
  set_tests_properties(e2e.${name} PROPERTIES SKIP_REGULAR_EXPRESSION "e2e: skipped:")
endfunction()
pmusim_shared_case(run_hello_json 0 "\"instructions\": 330" run --platform veer-el2 --trace ${TRACES}/veer-el2/hello_world.exec.log --timing trace --output json)
pmusim_shared_case(run_dhrystone_table 0 "343,115 +instructions" run --platform veer-el2 --trace ${TRACES}/veer-el2/dhrystone.exec.log.xz --timing trace)
pmusim_shared_case(run_csv 0 "^10000,,instructions,[0-9]+,100.00\n" run --platform veer-el2 --trace ${TRACES}/spike/rv32.spike.log --output csv)
# hello world prints 78 characters (its console: 25 dashes, "Hello World from VeeR EL2", 25 dashes, each with a
# newline): its loop loads each and the NUL (79), stores each and the NUL, then the 0xff end store (80).
pmusim_shared_case(run_events 0 "79 +mhpmcounter3\n +80 +mhpmcounter4" run --platform veer-el2 --trace ${TRACES}/veer-el2/hello_world.exec.log --events LOADS_COMMITTED,STORES_COMMITTED)
pmusim_shared_case(run_no_timestamps 2 "spike trace carries no timestamps" run --platform veer-el2 --trace ${TRACES}/spike/rv32.spike.log --timing trace)
pmusim_shared_case(run_bad_event 2 "event 'FOO' is not an event name, number, rNN or generic alias known on platform veer-el2" run --platform veer-el2 --trace ${TRACES}/spike/rv32.spike.log --events FOO)
pmusim_case(run_missing 2 "/nonexistent.log: cannot open" run --platform veer-el2 --trace /nonexistent.log)
pmusim_shared_case(run_bad_timing 2 "--timing expects model, trace or cpi1" run --platform veer-el2 --trace ${TRACES}/spike/rv32.spike.log --timing sometimes)
pmusim_shared_case(convert_text 0 "pmusim trace 1 no-time\npc=0x1000 enc=0x297 size=4 isa=rv32 priv=3 gpr=0x5:0x1000" convert ${TRACES}/spike/rv32.spike.log -)
pmusim_shared_case(convert_execlog 0 "pmusim trace 1 no-values no-time\npc=0x40080000 enc=0x58000340 size=4 isa=a64" convert ${TRACES}/qemu/a64_bm.execlog - --platform cortex-a53)
pmusim_shared_case(convert_execlog_no_isa 2 "does not say its instruction set" convert ${TRACES}/qemu/a64_bm.execlog -)
pmusim_case(convert_missing 2 "cannot open" convert /nonexistent.log ${CMAKE_CURRENT_BINARY_DIR}/never.pmt)
add_test(NAME e2e.run_stdin
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:pmusim>;run;--platform;veer-el2;--trace;-;--output;json"
          -DEXPECT_CODE=0 "-DEXPECT_REGEX=\"instructions\": 330" -DSTDIN=${TRACES}/veer-el2/hello_world.exec.log
          -DNEEDS=${TRACES}/FORMATS.md -P ${E2E}/check.cmake)
set_tests_properties(e2e.run_stdin PROPERTIES SKIP_REGULAR_EXPRESSION "e2e: skipped:")
# The README's main job: the bundled sample of pmusim's own program (traces/samples/pmu_loop.a64.S): 16
# instructions before its loop, 6 x 500 in it, 7 after = 3023; its counter read-backs match.
pmusim_case(readme_main_job 0 "3,023 +instructions.*BR_MIS_PRED.*read-backs: 2 checked" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt)
# With --check it passes (issue 41): the read-back of PMEVCNTR0_EL0 (INST_RETIRED) is decided by the trace and
# matches; the one of PMCCNTR_EL0 ran on QEMU's clock (no timestamps: one cycle an instruction), which the
# timing model does not reproduce, so it is shown and not checked.
pmusim_case(readme_main_job_check 0 "read-backs: 2 checked, 1 matched\n +1 decided by the trace \\(event counts, instructions\\): 1 matched\n +1 of the cycle counter, on the clock of the trace's producer \\(QEMU or Spike: no timestamps\\): 0 matched; shown, not checked: --timing model does not reproduce that clock \\(--timing cpi1 does\\)\n +line [0-9]+: PMCCNTR_EL0 traced 0x[0-9a-f]+, predicted 0x[0-9a-f]+ \\(the producer's clock: not checked\\)\n +--check passes"
            run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --check)
# Under cpi1 (one cycle an instruction, as QEMU counted) the cycle counter is checked too, and matches.
pmusim_case(readme_cpi1_check 0 "1 of the cycle counter[^\n]*: 1 matched; checked: --timing cpi1 reproduces that clock\n +--check passes"
            run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --timing cpi1 --check)
pmusim_case(run_sample_cpi1 0 "3,023 +cycles .one per instruction.*read-backs: 2 checked, 2 matched" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --timing cpi1)
# The reference stepper gives the block engine's answer; --architectural runs no timing model (cycles: one per
# instruction; the model's BR_MIS_PRED is not modelled).
pmusim_case(run_sample_reference 0 "3,023 +instructions.*BR_MIS_PRED.*read-backs: 2 checked" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --engine reference)
pmusim_case(run_sample_architectural 0 "3,023 +cycles .one per instruction.*not modelled.*BR_MIS_PRED.*read-backs: 2 checked, 2 matched" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --timing cpi1 --architectural)
pmusim_case(run_bad_engine 2 "--engine expects block or reference, got 'fast'" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --engine fast)
pmusim_case(run_architectural_model 2 "--architectural needs --timing cpi1 or trace" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --architectural)
pmusim_case(run_vcd 0 "3,023 +instructions" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --vcd ${CMAKE_CURRENT_BINARY_DIR}/run.vcd)
# The sample has no timestamps: --timing trace has no cycles to give, an error naming the first record.
pmusim_case(run_sample_no_timestamps 2 "pmu_loop.a64.pmt: --timing trace: this native trace carries no timestamps" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --timing trace)
pmusim_case(run_vcd_bad_trace 2 "cannot open" run --platform cortex-a53 --trace /nonexistent.pmt --vcd ${CMAKE_CURRENT_BINARY_DIR}/never.vcd)

# pmusim events (issue 17): AN195 Table 2 marks ITLB_MISS (0x03) "unused on 1156"; VeeR EL2 PRM Table 8.1 event 1
# counts active clock cycles; 29 is reserved on VeeR EL2 and not listed.
pmusim_case(events_a53 0 "0x11 +CPU_CYCLES +yes +yes +Cycle" events --platform cortex-a53)
pmusim_case(events_arm1156_json 0 "\"implemented\": false,[^}]*\"name\": \"ITLB_MISS\",[^}]*\"number\": 3" events --platform arm1156 --json)
pmusim_case(events_veer 0 "0x1c +CYCLES_FETCH_STALLED[^\n]*\n0x1e +CYCLES_DECODE_STALLED" events --platform veer-el2)
pmusim_case(events_no_platform 2 "platform" events)

# Platform options for the IMPLEMENTATION DEFINED figures (issue 18). The trace reads PMCEID as QEMU's cortex-a57
# answers (0x00020101, 0): the built-in platform's PMCEID (0x63FFFFFF, 0x1) differ, the options make them agree.
set(PMCEID_TRACE ${PROJECT_SOURCE_DIR}/tests/traces/qemu_a57_pmceid.txt)
pmusim_case(run_pmceid_builtin 0 "read-backs: 3 checked, 1 matched" run --platform cortex-a57 --trace ${PMCEID_TRACE} --timing cpi1)
pmusim_case(run_pmceid_option 0 "read-backs: 3 checked, 3 matched" run --platform cortex-a57 -o pmceid0=0x20101 -o pmceid1=0 --trace ${PMCEID_TRACE} --timing cpi1)
pmusim_case(regs_counters_option 0 "PMCR_EL0 +S3_3_C9_C12_0 +0xe04 +32 +0x51072000 +control" regs --platform cortex-a53 -o counters=4 -o implementer=0x51 -o idcode=7)
pmusim_case(bad_counters_option 2 "option counters: expected a number from 0 to 0x1f, got '40'" regs --platform cortex-a53 -o counters=40)
pmusim_case(script_swinc_irq 0 "swinc_irq.pmus:10: info \\[irq\\] interrupt request asserted at cycle 5 \\(by the write of PMSWINC_EL0\\)" script ${E2E}/swinc_irq.pmus)

# Reliability: no crash, no destroyed file, no silent success. Each case sets up its own files (tests/e2e/reliability.sh).
foreach(case convert_fail_keeps_out convert_fail_symlink convert_symlink_replaces_target convert_fail_fifo
             convert_same_file convert_ok_mode convert_folder_out run_vcd_fail_keeps_files run_vcd_unwritable
             script_vcd_fail_keeps_files events_more_than_counters json_not_utf8 script_repeat_count script_repeat_depth
             script_repeat_total script_negative_overflow script_folder script_stdin stdout_full empty_forced_format
             header_only_trace cut_mid_line long_line_message xz_error_text isa_article bad_numbers
             platform_timing_checked platform_file_limits outputs_not_inputs interrupt_keeps_outputs
             signals_leave_no_temp native_binary_ranges script_json_streams endless_inputs)
  add_test(NAME e2e.reliability.${case}
           COMMAND bash ${E2E}/reliability.sh $<TARGET_FILE:pmusim> ${PROJECT_SOURCE_DIR} ${case})
  set_tests_properties(e2e.reliability.${case} PROPERTIES PASS_REGULAR_EXPRESSION "PASS \\[${case}\\]|skip:"
                                                          FAIL_REGULAR_EXPRESSION "FAIL \\[")
endforeach()

# perf-style use (issue 20), on the bundled sample (traces/samples/pmu_loop.a64.S; its disassembly, from the
# trace's PCs: 0x40080000-0x4008003c set-up (16 instructions), the loop 0x40080040 ldr w4, [x2] / add /
# str w4, [x2, #4] / add x1 / cmp x1, x3 / 0x40080054 b.lt 0x40080040, run 500 times (x3 = 500), then
# 0x40080058 mrs x5, pmevcntr0_el0 and 6 more).
set(SAMPLE ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt)
# The loop as a region: from the first ldr up to the mrs after it: 6 x 500 = 3000 instructions, 500 loads, 500
# stores, the b.lt taken 499 times (PC_WRITE_RETIRED, the A53's "branches"), entered once; one cycle each under
# cpi1. The whole trace is still simulated: the program's own counter 0 (INST_RETIRED) still reads 3012.
pmusim_case(roi_loop 0 "region 0x40080040:0x40080058 \\(from 0x40080040 up to 0x40080058\\) entered 1 time\n \\(the whole trace: 3,023 instructions, 3,023 cycles\\).* +3,000 +instructions\n +3,000 +cycles.*\n +500 +LD_RETIRED \\(0x6\\)\n +500 +ST_RETIRED \\(0x7\\)\n +3,000 +INST_RETIRED.* +499 +PC_WRITE_RETIRED.* +500 +BR_IMMED_RETIRED.* +3,012 +PMEVCNTR0_EL0"
            run -p cortex-a53 ${SAMPLE} --timing cpi1 --roi 0x40080040:0x40080058)
# START = END = the loop's head: each iteration ends at the next ldr and enters again (500 entries); the last
# b.lt falls through, so the region stays open to the end of the trace: 3000 + 7 instructions.
pmusim_case(roi_open_at_end 0 "entered 500 times, still open at the end of the trace.* +3,007 +instructions"
            run -p cortex-a53 ${SAMPLE} --timing cpi1 --roi 40080040:40080040)
pmusim_case(roi_json 0 "\"instructions\": 3000,.*\"entered\": 1,\n +\"kind\": \"start-end\""
            run -p cortex-a53 ${SAMPLE} --roi 0x40080040:0x40080058 --output json)
pmusim_case(roi_bad 2 "--roi 'main': expected START:END \\(hex PCs\\), or a symbol with --elf FILE" run -p cortex-a53 ${SAMPLE} --roi main)
pmusim_case(roi_bad_hex 2 "--roi '0x40:zz': 'zz' is not a hex address" run -p cortex-a53 ${SAMPLE} --roi 0x40:zz)
pmusim_case(elf_missing 2 "/nonexistent.elf: cannot open the ELF file" run -p cortex-a53 ${SAMPLE} --elf /nonexistent.elf --roi main)
pmusim_case(elf_not_elf 2 "pmu_loop.a64.pmt: not an ELF file" run -p cortex-a53 ${SAMPLE} --elf ${SAMPLE} --roi main)
# -e as perf users write it: the generic aliases (cortex-a53: cycles CPU_CYCLES, instructions INST_RETIRED, branches
# PC_WRITE_RETIRED as it has no BR_RETIRED), r6 raw hex (LD_RETIRED: 500 in the loop, 4 more: the literal loads
# at 0x40080000, 0x40080020, 0x40080034, 0x40080068), 0x7 (ST_RETIRED, 500), a kernel sysfs name; only those
# shown, in order; 7 events for 6 counters: the seventh is counted by the replay.
pmusim_case(events_perf_style 0 "\n\n +3,023 +instructions \\(INST_RETIRED, 0x8\\)\n +3,023 +cycles \\(CPU_CYCLES, 0x11\\)\n +499 +branches \\(PC_WRITE_RETIRED, 0xc\\)\n +504 +r6 \\(LD_RETIRED, 0x6\\)\n +500 +0x7 \\(ST_RETIRED, 0x7\\)\n +500 +armv8_pmuv3_0/br_immed_retired/ \\(BR_IMMED_RETIRED, 0xd\\)\n +500 +St_Retired \\(ST_RETIRED, 0x7\\)\n\n counters.*note: 7 events for 6 event counters: instructions, cycles, branches, r6, 0x7, armv8_pmuv3_0/br_immed_retired/ program the counters; St_Retired are counted by the replay only"
            run -p cortex-a53 ${SAMPLE} --timing cpi1 -e instructions,cycles,branches -e r6,0x7,armv8_pmuv3_0/br_immed_retired/,St_Retired)
# VeeR EL2's aliases (docs/cli.md): cycles is event 1, instructions event 4 (the Spike trace's 10000 retired).
pmusim_shared_case(events_veer_aliases 0 "cycles \\(CYCLES_CLOCKS_ACTIVE, 0x1\\)\n +10,000 +instructions \\(INSTR_COMMITTED_ALL, 0x4\\)\n\n"
            run -p veer-el2 ${TRACES}/spike/rv32.spike.log -e cycles,instructions)
pmusim_case(events_veer_no_cache_refs 2 "event 'cache-references' is not available on veer-el2" run -p veer-el2 ${SAMPLE} -e cache-references)
pmusim_case(events_modifier 2 "event 'cycles:u' has a modifier" run -p cortex-a53 ${SAMPLE} -e cycles:u)
pmusim_case(events_empty 2 "--events: an empty event name in 'r6,,r7'" run -p cortex-a53 ${SAMPLE} -e r6,,r7)
# CSV as perf stat -x, writes it: value, unit (none), event, run time (the run's cycles), percentage; with -e
# those events only.
pmusim_case(csv_perf_style 0 "^504,,r6,[0-9]+,100.00\n[0-9]+,,PMCCNTR_EL0,[0-9]+,100.00\n" run -p cortex-a53 ${SAMPLE} --output csv -e r6)
pmusim_case(csv_region 0 "^# region 0x40080040:0x40080058 .from 0x40080040 up to 0x40080058. entered 1 time\n3000,,instructions,[0-9]+,100.00\n"
            run -p cortex-a53 ${SAMPLE} --output csv --roi 0x40080040:0x40080058)
# --check: 1 after the report when a read-back differs, 0 when all match, 2 for errors.
pmusim_case(check_differs 1 "read-backs: 1 checked, 0 matched\n   1 decided by the trace[^\n]*\n   line 5: PMEVCNTR0_EL0 traced 0x123, predicted 0x0\n   --check fails" run -p cortex-a53 ${E2E}/readback_differs.txt --check)
pmusim_case(check_differs_without 0 "read-backs: 1 checked, 0 matched" run -p cortex-a53 ${E2E}/readback_differs.txt)
pmusim_case(check_matches 0 "read-backs: 1 checked, 1 matched" run -p cortex-a53 ${E2E}/readback_matches.txt --check)
pmusim_case(check_error 2 "cannot open" run -p cortex-a53 /nonexistent.pmt --check)
# The sample's QEMU run counts one cycle per instruction: its PMCCNTR read-back differs from the timing model's
# cycles, which do not claim to reproduce QEMU's clock (exit 0, issue 41), and matches under --timing cpi1.
pmusim_case(check_sample_model 0 "read-backs: 2 checked, 1 matched\n.*   line 39352: PMCCNTR_EL0 traced 0xbc0, predicted 0x[0-9a-f]+ \\(the producer's clock: not checked\\)" run -p cortex-a53 ${SAMPLE} --check)
pmusim_case(check_sample_cpi1 0 "read-backs: 2 checked, 2 matched" run -p cortex-a53 ${SAMPLE} --check --timing cpi1)
# The trace as an operand; --version listed in --help.
pmusim_case(run_positional 0 "3,023 +instructions" run -p cortex-a53 ${SAMPLE})
pmusim_case(help_version 0 "--version +print the version" --help)
pmusim_case(version 0 "^pmusim [0-9]+\\.[0-9]+\\.[0-9]+\n$" --version)
# pmusim script - reads the script from standard input (named <stdin> in messages).
add_test(NAME e2e.script_stdin
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:pmusim>;script;-" -DEXPECT_CODE=1
          "-DEXPECT_REGEX=<stdin>:5: FAIL: expected PMCR_EL0 == 0x41033001, got 0x41033000" -DSTDIN=${E2E}/failing.pmus
          -P ${E2E}/check.cmake)

# --elf: the sample assembled and linked as scripts/make-samples.sh does (its code and addresses are the trace's);
# its symbols loop (0x40080040, size 0x18: the six loop instructions) and loop_end (0x40080058, the mrs after it).
find_program(AARCH64_AS aarch64-linux-gnu-as)
find_program(AARCH64_LD aarch64-linux-gnu-ld)
if(AARCH64_AS AND AARCH64_LD)
  set(SAMPLE_ELF ${CMAKE_CURRENT_BINARY_DIR}/pmu_loop.a64.elf)
  add_custom_command(OUTPUT ${SAMPLE_ELF}
    COMMAND ${AARCH64_AS} -o pmu_loop.a64.o ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.S
    COMMAND ${AARCH64_LD} -Ttext=0x40080000 -o ${SAMPLE_ELF} pmu_loop.a64.o
    DEPENDS ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.S WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  add_custom_target(pmusim_sample_elf ALL DEPENDS ${SAMPLE_ELF})
  # START:END by symbols: the same 3000 instructions as roi_loop, entered once.
  pmusim_case(elf_roi_symbols 0 "region loop:loop_end \\(from 0x40080040 up to 0x40080058\\) entered 1 time.* +3,000 +instructions"
              run -p cortex-a53 ${SAMPLE} --timing cpi1 --elf ${SAMPLE_ELF} --roi loop:loop_end)
  # The function's extent: PCs 0x40080040-0x40080057, entered at each of the 500 retirements of its first
  # instruction; 3000 instructions, 500 loads.
  pmusim_case(elf_roi_extent 0 "region loop \\(PC in \\[0x40080040, 0x40080058\\)\\) entered 500 times\n.* +3,000 +instructions.* +500 +LD_RETIRED"
              run -p cortex-a53 ${SAMPLE} --timing cpi1 --elf ${SAMPLE_ELF} --roi loop)
  pmusim_case(elf_no_size 2 "--roi 'loop_end': the symbol has no size" run -p cortex-a53 ${SAMPLE} --elf ${SAMPLE_ELF} --roi loop_end)
else()
  message(STATUS "aarch64-linux-gnu binutils not found (scripts/setup.sh installs them): the --elf cases are left out")
endif()

# Batches: a manifest of four traces (paths absolute here), one with its own options, one that cannot be opened,
# and comments; the command line's -p applies to every line.
set(MANIFEST ${CMAKE_CURRENT_BINARY_DIR}/manifest.txt)
file(WRITE ${MANIFEST} "# a manifest for the e2e cases\n${SAMPLE} --timing cpi1\n\n${SAMPLE} --timing cpi1 --roi 0x40080040:0x40080058  # the loop\n/nonexistent.pmt\n${E2E}/readback_differs.txt -p cortex-a53\n")
# One JSON object a line, in order: 3023 instructions, the loop's 3000, the error, the differing read-back; exit 2.
pmusim_case(manifest_all 2 "^{[^\n]*\"instructions\":3023,\"manifest\":{\"line\":2,[^\n]*}\n{[^\n]*\"instructions\":3000,\"manifest\":{\"line\":4,[^\n]*}\n{\"error\":\"[^\n]*/nonexistent.pmt: cannot open[^\n]*\"line\":5[^\n]*}\n{[^\n]*\"line\":6,[^\n]*\"matched\":0[^\n]*}\n$"
            run --manifest ${MANIFEST} -p cortex-a53)
# Shard 2 of 2: the second and fourth traces; --check: the fourth's read-back differs (exit 1).
pmusim_case(manifest_shard 1 "^{[^\n]*\"instructions\":3000,\"manifest\":{\"line\":4,[^\n]*}\n{[^\n]*\"line\":6,[^\n]*}\n$"
            run --manifest ${MANIFEST} --shard 2/2 -p cortex-a53 --check)
# Shard 1 of 2: the first and third (the error: exit 2).
pmusim_case(manifest_shard_1 2 "^{[^\n]*\"line\":2,[^\n]*}\n{[^\n]*\"line\":5,[^\n]*}\n$" run --manifest ${MANIFEST} --shard 1/2 -p cortex-a53)
pmusim_case(manifest_bad_shard 2 "--shard expects K/N with 1 <= K <= N, got '3/2'" run --manifest ${MANIFEST} --shard 3/2 -p cortex-a53)
pmusim_case(manifest_missing 2 "/nonexistent.txt: cannot open the manifest" run --manifest /nonexistent.txt -p cortex-a53)
# --out: the lines in the file (complete), nothing on standard output.
add_test(NAME e2e.manifest_out COMMAND bash -c "rm -f out.jsonl && '$<TARGET_FILE:pmusim>' run --manifest '${MANIFEST}' --shard 1/2 -p cortex-a53 --out out.jsonl; echo \"rc=$? lines=$(wc -l < out.jsonl)\"; ls out.jsonl.tmp.* 2>/dev/null"
         WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(e2e.manifest_out PROPERTIES PASS_REGULAR_EXPRESSION "^rc=2 lines=2\n$")
# Ctrl-C: the trace comes through a pipe that stalls after its 3023 records; SIGINT after 1.5 s: the counts of the
# records replayed so far (how many depends on where the reader's buffered reads stopped), marked interrupted,
# exit 130.
set(SAMPLE_TEXT ${CMAKE_CURRENT_BINARY_DIR}/pmu_loop.a64.txt)
add_test(NAME e2e.interrupt COMMAND bash -c "'$<TARGET_FILE:pmusim>' convert '${SAMPLE}' '${SAMPLE_TEXT}' 2>/dev/null; { cat '${SAMPLE_TEXT}'; sleep 4; } | '$<TARGET_FILE:pmusim>' run -p cortex-a53 --timing cpi1 - & sleep 1.5; kill -INT $!; wait $!; echo rc=$?")
set_tests_properties(e2e.interrupt PROPERTIES PASS_REGULAR_EXPRESSION "INTERRUPTED: the counts of the first [0-9,]+ records only\n\n +[0-9,]+ +instructions.*rc=130")
# With --out, an interrupted batch leaves no file: its trace's line goes to standard output.
add_test(NAME e2e.interrupt_manifest COMMAND bash -c "rm -f int.jsonl; echo '- -p cortex-a53' > int-manifest.txt; '$<TARGET_FILE:pmusim>' convert '${SAMPLE}' int.txt 2>/dev/null; { cat int.txt; sleep 4; } | '$<TARGET_FILE:pmusim>' run --manifest int-manifest.txt --out int.jsonl & sleep 1.5; kill -INT $!; wait $!; echo rc=$?; ls int.jsonl* 2>&1 | head -1"
         WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(e2e.interrupt_manifest PROPERTIES PASS_REGULAR_EXPRESSION "\"interrupted\":true.*interrupted at int-manifest.txt line 1; int.jsonl not written\nrc=130\nls: cannot access 'int.jsonl\\*'")
# Installed: the command, the man page (help2man, from --help: it lists --version) and the bash completion.
add_test(NAME e2e.install COMMAND ${CMAKE_COMMAND} -DBUILD=${CMAKE_BINARY_DIR} -DPREFIX=${CMAKE_CURRENT_BINARY_DIR}/install-test
         -P ${E2E}/install_check.cmake)
set_tests_properties(e2e.install PROPERTIES PASS_REGULAR_EXPRESSION "install: bin/pmusim")
# The completion (issue 41): subcommands and every command's options from the command's own --help, --timing's
# values, and event names as the docs spell them (A53: INST_RETIRED 0x08) beside perf's generic ones; every
# option's words from the same list its check reads (--help's "values:"), -f and --format from the readers' names.
add_test(NAME e2e.completion COMMAND bash ${E2E}/completion.sh $<TARGET_FILE:pmusim> ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e.completion PROPERTIES PASS_REGULAR_EXPRESSION
  "^\\[run\\]\n\\[--manifest\\]\n\\[cpi1\\]\n\\[--interval-unit\\]\n\\[--vcd-period\\]\n\\[INST_RETIRED\\]\n\\[cycles,branch-misses\\]\n\\[qemu-execlog\\]\n\\[reference\\]\n\\[native native-text\\]\n$")
# The man page documents every command's options (cmake/man-commands.cmake; help2man writes a dash as \-).
add_test(NAME e2e.man_commands COMMAND bash -c "for w in '.SS \"pmusim run\"' '.SS \"pmusim vp\"' '\\-\\-interval\\-unit' '\\-\\-vcd\\-period' '\\-\\-setup' '\\-\\-plot\\-events'; do grep -q -F -e \"$w\" '${CMAKE_BINARY_DIR}/testbench/pmusim.1' || echo \"missing: $w\"; done; echo checked")
set_tests_properties(e2e.man_commands PROPERTIES PASS_REGULAR_EXPRESSION "^checked\n$")

# Teaching (issue 17): explain and regs in each architecture's own words. Expected values worked out from the
# manuals named in each comment.
set(EX ${E2E}/explain)
# VeeR EL2 PRM Table 8.1: event 29 is reserved, so the WARL mhpmevent3 stores 0; the default privilege is M-mode.
pmusim_case(explain_veer_csrw_warl 0 "csrw mhpmevent3, a0 is a write of mhpmevent3 \\(CSR 0x323\\), a0 = 0x1d\nwrite mhpmevent3 = 0x0000001d on veer-el2 in M-mode\n  mhpmevent3: 0x00000000 -> 0x00000000.*legalised 0x1d -> 0x0: event 29 is reserved: the selector reads 0.*EVENT written: event 29: reserved.*EVENT now selects: event 0: no event" explain --platform veer-el2 --set a0=29 "csrw mhpmevent3, a0")
pmusim_case(explain_veer_warl_range 0 "legalised 0x64 -> 0x0: events 57-511 are reserved: the selector reads 0" explain --platform veer-el2 "write mhpmevent5 100")
pmusim_case(explain_veer_warl_above 0 "legalised 0x258 -> 0x0: events above 516 do not exist: the selector reads 0" explain --platform veer-el2 "write mhpmevent5 600")
pmusim_case(explain_veer_warl_high_bits 0 "legalised 0x401 -> 0x0: bits \\[31:10\\] are not zero" explain --platform veer-el2 --set t1=0x401 "csrrw zero, mhpmevent6, t1")
pmusim_case(explain_veer_csrwi 0 "csrwi mcountinhibit, 5 is a write of mcountinhibit \\(CSR 0x320\\), uimm = 0x5.*\\[2\\] +IR +RW +0x1 +0x0 +0x1 +minstret does not increment +0x0 -> 0x1" explain --platform veer-el2 "csrwi mcountinhibit, 5")
# csrs reads the CSR, then writes it with the bits of rs1 set (Zicsr): two accesses, both explained.
pmusim_case(explain_veer_csrs 0 "is a read and a set of bits in mcountinhibit.*read mcountinhibit on veer-el2 in M-mode\n  mcountinhibit reads 0x00000000.*write mcountinhibit = 0x00000004 on veer-el2 in M-mode" explain --platform veer-el2 --set t0=4 "csrs mcountinhibit, t0")
pmusim_case(explain_veer_csrr 0 "csrr a0, mcycle is a read of mcycle \\(CSR 0xb00\\)\nread mcycle on veer-el2 in M-mode" explain --platform veer-el2 "csrr a0, mcycle")
pmusim_case(explain_veer_user_mode 0 "read mhpmcounter3 on veer-el2 in U-mode\n  the access is refused.*needs M-mode: illegal instruction in U-mode" explain --platform veer-el2 -o user_mode=1 --priv U "csrr a0, mhpmcounter3")
pmusim_case(explain_veer_no_user_mode 2 "veer-el2 has no U-mode" explain --platform veer-el2 --priv U "csrr a0, mcycle")
pmusim_case(explain_veer_priv_el 2 "expected M or U, got 'EL1'" explain --platform veer-el2 --priv EL1 "csrr a0, mcycle")
pmusim_case(explain_veer_json 0 "\"effect\": \"legalised 0x1d -> 0x0: event 29 is reserved: the selector reads 0\",[^}]*\"event\": {[^}]*\"implemented\": false,[^}]*\"name\": null,[^}]*\"number\": 0[^}]*},[^}]*\"event_written\": {[^}]*\"number\": 29.*\"privilege\": \"M-mode\"" explain --platform veer-el2 --json "write mhpmevent3 29")
# Arm ARM DDI 0487 common events: 0x11 is CPU_CYCLES; explain takes the name as scripts do.
pmusim_case(explain_event_named 0 "\\[9:0\\] +evtCount +RW +0x11 +0x0 +0x11 +event number +0x0 -> 0x11\n  evtCount now selects: event 0x11 CPU_CYCLES: Cycle \\(implemented on cortex-a53\\)" explain --platform cortex-a53 "write PMEVTYPER0_EL0 0x11")
pmusim_case(explain_event_by_name 0 "write PMEVTYPER0_EL0 = 0x00000011 on cortex-a53 at EL1.*event 0x11 CPU_CYCLES" explain --platform cortex-a53 "write PMEVTYPER0_EL0 CPU_CYCLES")
# Cortex-A8's PMCEID0 names the common events 0x00-0x12 only: 0x13 MEM_ACCESS is not implemented there.
pmusim_case(explain_event_not_implemented 0 "event 0x13 MEM_ACCESS: Data memory access \\(not implemented on cortex-a8: the counter counts nothing\\)" explain --platform cortex-a8 "write PMXEVTYPER 0x13")
# ARMv7 ARM B1.3: User mode is PL0; Supervisor etc. are PL1. ARM11 the same words.
pmusim_case(explain_v7_pl1 0 "write PMCR = 0x00000001 on cortex-a7 at PL1 \\(a privileged mode" explain --platform cortex-a7 "write PMCR 1")
pmusim_case(explain_v7_user 0 "read PMCR on cortex-a7 at PL0 \\(User mode\\)\n  the access is refused and changes nothing:.*PMUSERENR.EN = 0" explain --platform cortex-a7 --priv User "read PMCR")
pmusim_case(explain_arm11_pl0 0 "read PMNC on arm1176 at PL0 \\(User mode\\)" explain --platform arm1176 --el 0 "read PMNC")
pmusim_case(explain_arm11_no_pl2 2 "ARM11: expected PL0 \\(User\\) or PL1" explain --platform arm1176 --priv 2 "read PMNC")
pmusim_case(explain_el_out_of_range 2 "expected an exception level EL0-EL3, got '7'" explain --platform cortex-a53 --el 7 "read PMCR_EL0")
pmusim_case(explain_el2_named 0 "read PMCR_EL0 on cortex-a53 at EL2" explain --platform cortex-a53 --priv EL2 "read PMCR_EL0")
# The meaning column, as regs shows it.
pmusim_case(explain_meaning 0 "MEANING +EFFECT\n.*\\[0\\] +E +RW +0x1 +0x0 +0x1 +enable: counters enabled by PMCNTENSET count +0x0 -> 0x1" explain --platform cortex-a53 "write PMCR_EL0 1")
# --set names a register the instruction reads; anything else is an error.
pmusim_case(explain_set_unread 2 "--set r9: the access does not read r9" explain --platform cortex-a7 --set r9=1 "mcr p15, 0, r2, c9, c12, 0")
pmusim_case(explain_set_statement 2 "--set x1: the access does not read x1" explain --platform cortex-a53 --set x1=1 "write PMCR_EL0 1")
pmusim_case(explain_set_bad_value 2 "--set r2: expected a value" explain --platform cortex-a7 --set r2=zz "mcr p15, 0, r2, c9, c12, 0")
pmusim_case(explain_no_access 2 "explain takes an access: 'nop' accesses no register" explain --platform cortex-a53 "nop")
pmusim_case(explain_msr 0 "msr PMCNTENSET_EL0, x3 is a write of PMCNTENSET_EL0 \\(system register\\), x3 = 0x80000001\nwrite PMCNTENSET_EL0 = 0x80000001 on cortex-a53 at EL1\n  PMCNTENSET_EL0: 0x00000000 -> 0x80000001" explain --platform cortex-a53 --set x3=0x80000001 "msr PMCNTENSET_EL0, x3")
# CP15 slides (Raspberry Pi 2, Cortex-A7): PMCR := 0x17 sets E and X, and P and C reset the counters (reading 0).
pmusim_case(explain_cp15_slides 0 "is a write of PMCR \\(encoding 0xee092f1c\\), r2 = 0x17\nwrite PMCR = 0x00000017 on cortex-a7 at PL1.*PMCR: 0x41072000 -> 0x41072011.*\\[4\\] +X +RW +0x1 +0x0 +0x1 .*0x0 -> 0x1.*\\[2\\] +C +WO +0x1 +0x0 +0x0 .*action: PMCCNTR := 0\n  \\[1\\] +P +WO +0x1 +0x0 +0x0 .*action: event counters 0..3 := 0" explain --platform cortex-a7 --set r2=0x17 "mcr p15, 0, r2, c9, c12, 0")
pmusim_case(explain_cp15_slides_evtype 0 "write PMXEVTYPER = 0x00000011 on cortex-a7 at PL1.*accesses PMXEVTYPER0.*event 0x11 CPU_CYCLES" explain --platform cortex-a7 --set r1=0x11 "mcr p15, 0, r1, c9, c13, 1")
# AN195 Table 1: PMNC 0x0070000F: EvtCount0 = 0x07 (instructions executed), EvtCount1 = 0x00 (I-cache miss), D, C, P, E.
pmusim_case(explain_an195_pmnc 0 "write PMNC = 0x0070000f on arm1176 at PL1.*PMNC: 0x00000000 -> 0x00700009.*\\[3\\] +D +RW +0x1 +0x0 +0x1 .*action: CCNT := 0.*action: PMN0 := PMN1 := 0.*EvtCount0 now selects: event 0x7 INSTR_EXEC.*EvtCount1 now selects: event 0x0 ICACHE_MISS" explain --platform arm1176 --set r0=0x0070000F "mcr p15, 0, r0, c15, c12, 0")
# AN195 step O6: writing back the PMNC read after the overflow (OC0 = 1, E = 1) clears OC0.
pmusim_case(explain_an195_clear_after 0 "PMNC: 0x00700111 -> 0x00700011.*\\[8\\] +OC0 +W1C +0x1 +0x1 +0x0 .* cleared" explain --platform arm1176 --after ${EX}/arm11_overflow.pmus "write PMNC 0x00700111")
# The W1C flag after a script left it set: PMOVSCLR_EL0 bit 0 reads 1, writing 1 clears it.
pmusim_case(explain_after_w1c 0 "PMOVSCLR_EL0: 0x00000001 -> 0x00000000.*\\[0\\] +P0 +W1C +0x1 +0x1 +0x0 +event counter 0 overflow flag +cleared" explain --after ${EX}/armv8_overflow.pmus "write PMOVSCLR_EL0 1")
pmusim_case(explain_after_missing 2 "cannot open the script file" explain --platform cortex-a53 --after ${EX}/no_such.pmus "read PMCR_EL0")
pmusim_case(explain_json 0 "\"access\": \"write PMCR_EL0 1\",\n  \"accesses\": \\[\n    {\n      \"after\": 1090727937,\n      \"before\": 1090727936,.*\"kind\": \"write\",.*\"privilege\": \"EL1\"" explain --platform cortex-a53 --json "write PMCR_EL0 1")
# The `explain` statement: the PMUv3 blog's setup, explained step by step (PMCR_EL0 0x41033000 | 0x7).
pmusim_case(script_explain_blog 0 "mrs x0, PMCR_EL0 is a read of PMCR_EL0.*PMCR_EL0 reads 0x41033000.*\\[15:11\\] +N +RO +0x6 +0x6.*PMUSERENR_EL0: 0x00000000 -> 0x0000000d.*accesses PMEVTYPER0_EL0.*\\[31\\] +P +RW +0x1 +0x0 +0x1 .*event 0x0 SW_INCR.*PMCCFILTR_EL0: 0x00000000 -> 0x80000000.*PMCNTENSET_EL0: 0x00000000 -> 0x8000003f.*PMCR_EL0: 0x41033000 -> 0x41033001.*action: event counters 0..5 := 0" script ${EX}/armv8_blog_setup.pmus)
pmusim_case(script_explain_veer 0 "mhpmevent3: 0x00000000 -> 0x00000004.*event 4 INSTR_COMMITTED_ALL.*legalised 0x1d -> 0x0: event 29 is reserved" script ${EX}/veer_setup.pmus)
# The document is streamed (docs/cli.md): the log as the script runs, the totals after it.
pmusim_case(script_json 0 "{\n  \"file\": [^\n]*veer_setup.pmus\",\n  \"log\": \\[.*\"instruction\": \"csrw mhpmevent4, a0 is a write of mhpmevent4 \\(CSR 0x324\\), a0 = 0x1d\",.*\"line\": 9.*\n  \\],\n  \"cycles\": [0-9]+,\n  \"expectations\": 1,\n  \"failures\": 0,\n  \"platform\": \"veer-el2\",\n  \"status\": 0\n}" script --json ${EX}/veer_setup.pmus)
# AN195: PMNC after the overflow reads 0x00700111 (OC0 set) = 7340305; the request rises with the 1000th event.
pmusim_case(script_json_read 0 "\"irq\": 0,\n      \"line\": 7\n    },\n    {\n      \"line\": 10,\n      \"read\": \"PMNC\",\n      \"value\": 7340305\n" script --json ${EX}/arm11_overflow.pmus)
pmusim_case(script_json_vcd 2 "--json or --vcd/--plot, not both" script --json --vcd x.vcd ${EX}/arm11_overflow.pmus)
# regs: counters n >= N are CONSTRAINED UNPREDICTABLE; the platform's choice is named (Arm ARM DDI 0487, PMEVCNTR<n>_EL0).
pmusim_case(regs_unimplemented_undefined 0 "PMEVCNTR6_EL0 — event counter 6: not implemented \\(N = 6\\): an access is CONSTRAINED UNPREDICTABLE; pmusim's choice: UNDEFINED.*access: +UNDEFINED" regs --platform cortex-a53 PMEVCNTR6_EL0)
pmusim_case(regs_unimplemented_raz_wi 0 "pmusim's choice: RAZ/WI.*access: +read/write.*RAZ/WI" regs --platform cortex-a53 -o unpredictable=raz-wi PMEVCNTR30_EL0)
pmusim_case_reject(regs_cites_manuals 0 "source: +Arm ARM for A-profile \\(DDI 0487\\)" "\\.md|shared/spec" regs --platform cortex-a53 PMCR_EL0)
pmusim_case_reject(regs_veer_cites_manual 0 "source: +VeeR EL2 Programmer's Reference Manual" "\\.md|shared/spec" regs --platform veer-el2 mhpmevent3)
pmusim_case(regs_json 0 "\"access\": \"WARL\",[^}]*\"event\": true,[^}]*\"name\": \"EVENT\"" regs --platform veer-el2 --json mhpmevent3)
pmusim_case(regs_map_json 0 "\"description\": \"control\",[^}]*\"name\": \"PMCR_EL0\"" regs --platform cortex-a53 --json)

# Platforms as data (issue 18): a dump is a platform file; --platform-file on the commands; a bad file names the key.
pmusim_case(platforms_dump 0 "\"name\": \"cortex-a53\",\n  \"family\": \"armv8-pmuv3\".*\"pmceid0\": \"0x63ffffff\"" platforms --dump cortex-a53)
pmusim_case(platforms_dump_unknown 2 "unknown platform 'z80'" platforms --dump z80)
pmusim_case(run_platform_file 0 "read-backs: 3 checked, 3 matched" run --platform-file ${E2E}/qemu_cortex_a57.json --trace ${PMCEID_TRACE} --timing cpi1)
pmusim_case(regs_platform_file 0 "PMCEID0_EL0 +S3_3_C9_C12_6 +0xe20 +32 +0x00020101" regs --platform-file ${E2E}/qemu_cortex_a57.json)
pmusim_case(platform_file_bad_key 2 "bad_platform.json: key 'ids.pmceid2': unknown key" regs --platform-file ${E2E}/bad_platform.json)
pmusim_case(platform_file_missing 2 "/nonexistent.json: cannot open the platform file" events --platform-file /nonexistent.json)
pmusim_case(platform_file_and_name 2 "give --platform or --platform-file, not both" regs --platform cortex-a53 --platform-file ${E2E}/qemu_cortex_a57.json)

# The documentation cites sources a reader of the repository can open (issue 41): never the project's private
# specification notes beside the checkout.
add_test(NAME e2e.docs_public_sources COMMAND bash -c "grep -rn 'shared/spec' '${PROJECT_SOURCE_DIR}/docs' '${PROJECT_SOURCE_DIR}/README.md'; echo \"found: $?\"")
set_tests_properties(e2e.docs_public_sources PROPERTIES PASS_REGULAR_EXPRESSION "^found: 1\n$")

# The size limits of issue #38 on replay/ and model/timing/ (files at most 800 lines, functions at most 150).
add_test(NAME layout.limits COMMAND bash ${PROJECT_SOURCE_DIR}/tests/layout/limits.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(layout.limits PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL:")
