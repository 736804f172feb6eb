# The heap profile's pprof outputs for one runtime variant (called by
# perf_add_runtime_tests): the encoding, read by go tool pprof (PERF_GO, found by
# sampler_tests.cmake), and PERF_HEAP_PROFILE in a program with known allocation sites.
function(perf_add_heap_pprof_tests label runtime)
  set(flags ${ARGN})
  set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  # Counted and sampled: the interposer of the same variant (perf_alloc_<label>,
  # test/runtime/alloc); frame pointers for the sampled stacks' walk.
  add_executable(heap_pprof_probe_${label} ${dir}/heap_pprof_probe.cpp ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(heap_pprof_probe_${label} PRIVATE perf_alloc_${label} ${runtime})
  target_compile_options(heap_pprof_probe_${label} PRIVATE ${PERF_WARNINGS} -fno-omit-frame-pointer ${flags})
  target_link_options(heap_pprof_probe_${label} PRIVATE ${flags})

  add_executable(heap_pprof_tests_${label} ${dir}/heap_pprof_test.cpp ${dir}/heap_pprof_output_test.cpp
    ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(heap_pprof_tests_${label} PRIVATE ${runtime} GTest::gtest_main)
  target_compile_options(heap_pprof_tests_${label} PRIVATE ${PERF_WARNINGS} ${flags})
  target_compile_definitions(heap_pprof_tests_${label} PRIVATE PERF_GO="${PERF_GO}"
    PERF_HEAP_PPROF_PROBE="$<TARGET_FILE:heap_pprof_probe_${label}>")
  add_dependencies(heap_pprof_tests_${label} heap_pprof_probe_${label})
  gtest_discover_tests(heap_pprof_tests_${label} TEST_PREFIX "${label}." DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT PERF_REPORT=off LABELS ${label})
endfunction()
