# The split of testbench/systemc_host.hpp: `pmusim` (PMUSIM) must not load libsystemc, and without pmusim-systemc
# beside it or in ../libexec/pmusim its SystemC commands fail with a message naming the host, exit 2.
execute_process(COMMAND ldd ${PMUSIM} RESULT_VARIABLE code OUTPUT_VARIABLE libs ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "ldd ${PMUSIM} failed: ${err}")
endif()
if(libs MATCHES "libsystemc")
  message(FATAL_ERROR "pmusim loads libsystemc:\n${libs}")
endif()
set(lone ${WORK}/lone)
file(REMOVE_RECURSE ${lone})
file(MAKE_DIRECTORY ${lone})
file(COPY ${PMUSIM} DESTINATION ${lone})
execute_process(COMMAND ${lone}/pmusim vp --platform cortex-a53 --instructions 10 RESULT_VARIABLE code
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 2 OR NOT err MATCHES "cannot start the SystemC host pmusim-systemc \\(.*/lone/pmusim-systemc: No such file")
  message(FATAL_ERROR "vp without its host: exit ${code}\nstdout:\n${out}\nstderr:\n${err}")
endif()
