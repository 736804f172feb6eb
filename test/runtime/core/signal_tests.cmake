# valgrind, to check that the sampler's work is clean under memcheck (Debian's valgrind,
# scripts/setup.sh). Not found, the test that needs it fails saying so.
find_program(PERF_VALGRIND valgrind)
if(NOT PERF_VALGRIND)
  set(PERF_VALGRIND "valgrind-not-found-run-scripts-setup.sh")
endif()

# The signal interposition's tests for one runtime variant (called by perf_add_runtime_tests):
# a probe program shaped like a daemon and a crash reporter, and the tests that run it.
function(perf_add_signal_tests label runtime)
  set(flags ${ARGN})
  set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  add_executable(signal_probe_${label} ${dir}/signal_probe.cpp ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(signal_probe_${label} PRIVATE ${runtime})
  target_compile_options(signal_probe_${label} PRIVATE ${PERF_WARNINGS} ${flags})
  add_executable(signal_tests_${label} ${dir}/signal_interposition_test.cpp ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(signal_tests_${label} PRIVATE ${runtime} GTest::gtest_main)
  target_compile_options(signal_tests_${label} PRIVATE ${PERF_WARNINGS} ${flags})
  target_compile_definitions(signal_tests_${label} PRIVATE PERF_SIGNAL_PROBE="$<TARGET_FILE:signal_probe_${label}>"
    PERF_VALGRIND="${PERF_VALGRIND}")
  gtest_discover_tests(signal_tests_${label} TEST_PREFIX "${label}." DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT PERF_REPORT=off LABELS ${label})
endfunction()
