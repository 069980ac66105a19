# Writes a help2man include file (OUT) with a COMMANDS section: every subcommand's options as `pmusim CMD --help`
# prints them, so the man page documents each command from the option definitions the parser itself uses (the
# bash completion reads the same help texts: scripts/pmusim-completion.bash).
# Usage: cmake -DPMUSIM=path/to/pmusim -DOUT=file -P man-commands.cmake
execute_process(COMMAND ${PMUSIM} --help OUTPUT_VARIABLE top RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "man-commands: ${PMUSIM} --help failed (${rc})")
endif()
# The commands: the first word of each line under "commands:".
string(FIND "${top}" "commands:" at)
string(SUBSTRING "${top}" ${at} -1 listing)
string(REGEX MATCHALL "\n  [a-z]+" words "${listing}")
set(commands "")
foreach(w ${words})
  string(STRIP "${w}" w)
  list(APPEND commands ${w})
endforeach()
list(REMOVE_DUPLICATES commands)
set(text "[COMMANDS]\nEach command's options, as `pmusim COMMAND --help` prints them.\n")
foreach(c ${commands})
  execute_process(COMMAND ${PMUSIM} ${c} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "man-commands: ${PMUSIM} ${c} --help failed (${rc})")
  endif()
  # roff: a backslash is \e, a hyphen \- (an option's dashes stay dashes), a line starting with . or ' is escaped.
  string(REPLACE "\\" "\\e" help "${help}")
  string(REPLACE "-" "\\-" help "${help}")
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" help "\n${help}")
  string(APPEND text ".SS \"pmusim ${c}\"\n.nf${help}.fi\n")
endforeach()
file(WRITE ${OUT} "${text}")
