# The CMake package: find_package(perf_instrument CONFIG) gives perf::runtime, perf::alloc and
# perf_instrument_target(); perf_instrument-zero-edit.cmake is for CMAKE_PROJECT_INCLUDE.
install(EXPORT perf_instrument_targets NAMESPACE perf:: FILE perf_instrument-targets.cmake
  DESTINATION ${PERF_PACKAGE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/perf_instrument-config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/perf_instrument-config.cmake INSTALL_DESTINATION ${PERF_PACKAGE_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/perf_instrument-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/perf_instrument-config.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/perf_instrument-config-version.cmake
  ${CMAKE_CURRENT_LIST_DIR}/perf_instrument-functions.cmake
  ${CMAKE_CURRENT_LIST_DIR}/perf_instrument-zero-edit.cmake
  DESTINATION ${PERF_PACKAGE_DIR})

# pkg-config (Make, Meson, Bazel): perf-instrument.pc, for the runtime.
set(PERF_PKGCONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH PERF_PC_PREFIX_FROM_PC_DIR ${CMAKE_INSTALL_PREFIX}/${PERF_PKGCONFIG_DIR} ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" PERF_PC_PREFIX_FROM_PC_DIR "${PERF_PC_PREFIX_FROM_PC_DIR}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/perf-instrument.pc.in ${CMAKE_CURRENT_BINARY_DIR}/perf-instrument.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/perf-instrument.pc DESTINATION ${PERF_PKGCONFIG_DIR})
