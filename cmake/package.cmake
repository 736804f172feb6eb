# The CMake package: find_package(perf_instrument CONFIG) gives perf::runtime.
set(PERF_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/perf_instrument)
install(EXPORT perf_instrument_targets NAMESPACE perf:: FILE perf_instrument-targets.cmake
  DESTINATION ${PERF_PACKAGE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/perf_instrument-config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/perf_instrument-config.cmake INSTALL_DESTINATION ${PERF_PACKAGE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/perf_instrument-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/perf_instrument-config.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/perf_instrument-config-version.cmake DESTINATION ${PERF_PACKAGE_DIR})
