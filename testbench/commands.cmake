# The commands' work without an option parser or SystemC: the sequence runner and its script ISA, explain, the
# commands' tables (command_bodies), waveforms and plots. testbench/CMakeLists.txt and the web build
# (web/CMakeLists.txt) both include this file; each links the library to what provides the rest.
add_library(pmusim_commands STATIC
  ${CMAKE_CURRENT_LIST_DIR}/script_runner.cpp ${CMAKE_CURRENT_LIST_DIR}/script_isa.cpp
  ${CMAKE_CURRENT_LIST_DIR}/explain.cpp ${CMAKE_CURRENT_LIST_DIR}/command_bodies.cpp
  ${CMAKE_CURRENT_LIST_DIR}/platform_args.cpp ${CMAKE_CURRENT_LIST_DIR}/waveform.cpp ${CMAKE_CURRENT_LIST_DIR}/plot.cpp)
target_include_directories(pmusim_commands PUBLIC ${CMAKE_CURRENT_LIST_DIR}/..)
target_link_libraries(pmusim_commands PUBLIC nlohmann_json::nlohmann_json spdlog::spdlog fmt::fmt)
