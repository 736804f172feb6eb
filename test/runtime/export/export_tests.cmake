# The live endpoint's tests for one runtime variant (called by perf_add_runtime_tests):
# its pages and its HTTP server in the test's own process, the transport linked in.
function(perf_add_export_tests label runtime)
  set(flags ${ARGN})
  set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  add_executable(export_tests_${label} ${dir}/listen_address_test.cpp ${dir}/metrics_test.cpp ${dir}/server_test.cpp)
  target_link_libraries(export_tests_${label} PRIVATE ${runtime} perf_export GTest::gtest_main nlohmann_json::nlohmann_json)
  target_compile_options(export_tests_${label} PRIVATE ${PERF_WARNINGS} ${flags})
  # The runtime finds the transport linked in through a weak reference, which alone
  # would not keep the library on the link.
  target_link_options(export_tests_${label} PRIVATE -Wl,--no-as-needed)
  gtest_discover_tests(export_tests_${label} TEST_PREFIX "${label}." DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT "PERF_REPORT=off;${PERF_SANITIZER_ENVIRONMENT}" LABELS ${label})
endfunction()
