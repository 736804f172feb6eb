# The benches' rule, checked on every #include "..." of the sources under SOURCE_DIR
# (cmake -DSOURCE_DIR=... -P check_bench_includes.cmake): a bench includes no test/
# header and no component's internal/ one; what it shares with the tests is in harness/,
# what it needs of a component is that component's face. Every broken include is
# named with its file, and the script fails.
if(NOT DEFINED SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=dir -P check_bench_includes.cmake")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/include_checks.cmake)
file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*.cpp ${SOURCE_DIR}/*.hpp ${SOURCE_DIR}/*.h)
set(problems "")
foreach(source ${sources})
  perf_quoted_includes(${SOURCE_DIR}/${source} includes)
  foreach(included ${includes})
    if(included MATCHES "(^|/)test/")
      string(APPEND problems "${source}: includes ${included}, a test's header (what benches share with tests is in harness/)\n")
    elseif(included MATCHES "(^|/)internal/")
      string(APPEND problems "${source}: includes ${included}, a component's internals\n")
    endif()
  endforeach()
endforeach()
perf_fail_on_problems("${problems}" "the benches under ${SOURCE_DIR} reach into tests or internals (above)")
