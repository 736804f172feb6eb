# What the include checks share (check_layering.cmake, check_bench_includes.cmake,
# test/format/check_includes.cmake): reading a file's includes, and failing with every
# problem found, one line each.

# perf_quoted_includes(<file> <out>): the paths of <file>'s #include "..." lines, in order.
function(perf_quoted_includes file out)
  file(STRINGS ${file} lines REGEX "^#include \"")
  set(paths "")
  foreach(line ${lines})
    string(REGEX MATCH "^#include \"([^\"]+)\"" _ "${line}")
    list(APPEND paths "${CMAKE_MATCH_1}")
  endforeach()
  set(${out} "${paths}" PARENT_SCOPE)
endfunction()

# perf_fail_on_problems(<problems> <summary>): when <problems> (lines) is not empty,
# prints them unwrapped and fails with <summary>.
function(perf_fail_on_problems problems summary)
  if(problems)
    execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${problems}")
    message(FATAL_ERROR "${summary}")
  endif()
endfunction()
