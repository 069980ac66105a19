# `cmake --install`: the libraries, the headers under include/pmusim/<their path in the source tree>, the pmusim
# command, the CMake package (find_package(pmusim): pmusim::model, pmusim::systemc, ...) and pkg-config files.
# Installed headers include each other by source-tree path ("model/core/pmu.hpp"), so the package puts both
# include/ and include/pmusim on the include path; code outside pmusim includes <pmusim/...>.
include(CMakePackageConfigHelpers)

set(PMUSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pmusim)

# pmusim::model: the register models and the named platforms (plain C++, no SystemC).
add_library(pmusim_model INTERFACE)
target_link_libraries(pmusim_model INTERFACE pmusim_platforms pmusim_core pmusim_isa)

set(pmusim_exported pmusim_core pmusim_isa pmusim_platforms pmusim_traces pmusim_replay pmusim_sc pmusim_model pmusim_c)
set_target_properties(pmusim_core PROPERTIES EXPORT_NAME core)
set_target_properties(pmusim_isa PROPERTIES EXPORT_NAME isa)
set_target_properties(pmusim_platforms PROPERTIES EXPORT_NAME platforms)
set_target_properties(pmusim_traces PROPERTIES EXPORT_NAME traces)
set_target_properties(pmusim_replay PROPERTIES EXPORT_NAME replay)
set_target_properties(pmusim_sc PROPERTIES EXPORT_NAME systemc)
set_target_properties(pmusim_model PROPERTIES EXPORT_NAME model)
set_target_properties(pmusim_c PROPERTIES EXPORT_NAME c)

install(TARGETS ${pmusim_exported} EXPORT pmusimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} ${CMAKE_INSTALL_INCLUDEDIR}/pmusim)
install(TARGETS pmusim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(dir model isa platforms traces replay capi)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pmusim/${dir}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
endforeach()

install(EXPORT pmusimTargets NAMESPACE pmusim:: DESTINATION ${PMUSIM_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pmusimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/pmusimConfig.cmake INSTALL_DESTINATION ${PMUSIM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pmusimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pmusimConfig.cmake ${PROJECT_BINARY_DIR}/pmusimConfigVersion.cmake
        DESTINATION ${PMUSIM_CMAKE_DIR})

# pkg-config: pmusim (the C++ model, static) and pmusim-c (the C API). Relocatable: paths from ${pcfiledir}.
file(RELATIVE_PATH PMUSIM_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
foreach(pc pmusim pmusim-c)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
