# The USDT probes (docs/timeline.md, "USDT probes"): their ELF notes, read by readelf, and
# bpftrace attached to a running program (usdt_test.cpp, skipped where BPF is refused).

# The program bpftrace attaches to: linked with the shared libperfrt, as a program
# built with the installed package is (its notes are the library's).
add_executable(usdt_target ${CMAKE_CURRENT_LIST_DIR}/usdt_target.cpp)
target_link_libraries(usdt_target PRIVATE perf::runtime)
target_compile_options(usdt_target PRIVATE ${PERF_WARNINGS})

if(PERF_USDT)
  # Where the probes live: libperfrt for a program that links it, the program itself for
  # one linked with the runtime's objects (the tests'). One note per probe in each.
  find_program(PERF_READELF readelf REQUIRED)
  foreach(module perf_runtime usdt_tests_plain)
    add_test(NAME usdt_notes_${module} COMMAND ${CMAKE_COMMAND} -DREADELF=${PERF_READELF}
      -DMODULE=$<TARGET_FILE:${module}> -P ${CMAKE_CURRENT_LIST_DIR}/check_usdt_notes.cmake)
  endforeach()
endif()

# The tests for one runtime variant (called by perf_add_runtime_tests).
function(perf_add_usdt_tests label runtime)
  set(flags ${ARGN})
  add_executable(usdt_tests_${label} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/usdt_test.cpp ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(usdt_tests_${label} PRIVATE ${runtime} GTest::gtest_main)
  target_compile_options(usdt_tests_${label} PRIVATE ${PERF_WARNINGS} ${flags})
  target_compile_definitions(usdt_tests_${label} PRIVATE PERF_USDT_TARGET="$<TARGET_FILE:usdt_target>"
    PERF_USDT_LIBRARY="$<TARGET_FILE:perf_runtime>")
  add_dependencies(usdt_tests_${label} usdt_target)
  gtest_discover_tests(usdt_tests_${label} TEST_PREFIX "${label}." DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT PERF_REPORT=off LABELS ${label})
endfunction()
