# The benches' rule, checked on every #include "..." of the sources under SOURCE_DIR
# (cmake -DSOURCE_DIR=... -P check_bench_includes.cmake): a bench includes no test/
# header and no component's internal/ one; what it shares with the tests is in harness/,
# what it needs of a component is that component's face. Every broken include is
# named with its file, and the script fails.
if(NOT DEFINED SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=dir -P check_bench_includes.cmake")
endif()
file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*.cpp ${SOURCE_DIR}/*.hpp ${SOURCE_DIR}/*.h)
set(problems "")
foreach(source ${sources})
  file(STRINGS ${SOURCE_DIR}/${source} lines REGEX "^#include \"")
  foreach(line ${lines})
    string(REGEX MATCH "^#include \"([^\"]+)\"" _ "${line}")
    set(included "${CMAKE_MATCH_1}")
    if(included MATCHES "(^|/)test/")
      string(APPEND problems "${source}: includes ${included}, a test's header (what benches share with tests is in harness/)\n")
    elseif(included MATCHES "(^|/)internal/")
      string(APPEND problems "${source}: includes ${included}, a component's internals\n")
    endif()
  endforeach()
endforeach()

if(problems)
  execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${problems}")  # one line each, unwrapped
  message(FATAL_ERROR "the benches under ${SOURCE_DIR} reach into tests or internals (above)")
endif()
