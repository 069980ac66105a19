# End-to-end cases of the pmusim command: exit codes and messages.
set(E2E ${CMAKE_CURRENT_SOURCE_DIR}/e2e)
function(pmusim_case name code regex)
  add_test(NAME e2e.${name}
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:pmusim>;${ARGN}" -DEXPECT_CODE=${code} "-DEXPECT_REGEX=${regex}"
            -P ${E2E}/check.cmake)
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
pmusim_shared_case(run_dhrystone_table 0 "343115 +instructions" run --platform veer-el2 --trace ${TRACES}/veer-el2/dhrystone.exec.log.xz --timing trace)
pmusim_shared_case(run_csv 0 "count,event,number\n10000,instructions," run --platform veer-el2 --trace ${TRACES}/spike/rv32.spike.log --output csv)
# hello world prints 78 characters (its console: 25 dashes, "Hello World from VeeR EL2", 25 dashes, each with a
# newline): its loop loads each and the NUL (79), stores each and the NUL, then the 0xff end store (80).
pmusim_shared_case(run_events 0 "79 +mhpmcounter3\n +80 +mhpmcounter4" run --platform veer-el2 --trace ${TRACES}/veer-el2/hello_world.exec.log --events LOADS_COMMITTED,STORES_COMMITTED)
pmusim_shared_case(run_no_timestamps 2 "spike traces carry no timestamps" run --platform veer-el2 --trace ${TRACES}/spike/rv32.spike.log --timing trace)
pmusim_shared_case(run_bad_event 2 "'FOO' is not an event platform veer-el2 implements" run --platform veer-el2 --trace ${TRACES}/spike/rv32.spike.log --events FOO)
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
pmusim_case(readme_main_job 0 "3023 +instructions.*BR_MIS_PRED.*read-backs: 2 checked" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt)
pmusim_case(run_sample_cpi1 0 "3023 +cycles .one per instruction.*read-backs: 2 checked, 2 matched" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --timing cpi1)
# The reference stepper gives the block engine's answer; --architectural runs no timing model (cycles: one per
# instruction; the model's BR_MIS_PRED is not modelled).
pmusim_case(run_sample_reference 0 "3023 +instructions.*BR_MIS_PRED.*read-backs: 2 checked" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --engine reference)
pmusim_case(run_sample_architectural 0 "3023 +cycles .one per instruction.*not modelled.*BR_MIS_PRED.*read-backs: 2 checked, 2 matched" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --timing cpi1 --architectural)
pmusim_case(run_bad_engine 2 "--engine expects block or reference, got 'fast'" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --engine fast)
pmusim_case(run_architectural_model 2 "--architectural needs --timing cpi1 or trace" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --architectural)
pmusim_case(run_vcd 0 "3023 +instructions" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --vcd ${CMAKE_CURRENT_BINARY_DIR}/run.vcd)
# The sample has no timestamps: --timing trace has no cycles to give, an error naming the first record.
pmusim_case(run_sample_no_timestamps 2 "pmu_loop.a64.pmt:[0-9]+: --timing trace: this native record has no timestamp" run --platform cortex-a53 --trace ${PROJECT_SOURCE_DIR}/traces/samples/pmu_loop.a64.pmt --timing trace)
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
             header_only_trace cut_mid_line long_line_message xz_error_text isa_article bad_numbers)
  add_test(NAME e2e.reliability.${case}
           COMMAND bash ${E2E}/reliability.sh $<TARGET_FILE:pmusim> ${PROJECT_SOURCE_DIR} ${case})
  set_tests_properties(e2e.reliability.${case} PROPERTIES PASS_REGULAR_EXPRESSION "PASS \\[${case}\\]|skip:"
                                                          FAIL_REGULAR_EXPRESSION "FAIL \\[")
endforeach()
