# The heap profile's pprof outputs for one runtime variant (called by
# perf_add_runtime_tests): the encoding, read by go tool pprof (PERF_GO, found by
# sampler_tests.cmake).
function(perf_add_heap_pprof_tests label runtime)
  set(flags ${ARGN})
  set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  add_executable(heap_pprof_tests_${label} ${dir}/heap_pprof_test.cpp ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(heap_pprof_tests_${label} PRIVATE ${runtime} GTest::gtest_main)
  target_compile_options(heap_pprof_tests_${label} PRIVATE ${PERF_WARNINGS} ${flags})
  target_compile_definitions(heap_pprof_tests_${label} PRIVATE PERF_GO="${PERF_GO}")
  gtest_discover_tests(heap_pprof_tests_${label} TEST_PREFIX "${label}." DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT PERF_REPORT=off LABELS ${label})
endfunction()
