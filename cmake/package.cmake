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
