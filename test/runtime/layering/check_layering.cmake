# The runtime's layering rule (runtime/CMakeLists.txt), checked on every #include of
# the sources under RUNTIME_DIR (cmake -DRUNTIME_DIR=... -P check_layering.cmake):
#  - no file includes another component's internal/ headers;
#  - a component includes only itself and the components below it, in LAYERS order
#    (components of the same layer are separated by commas and include none of each other).
# Every broken include is named, file and line, and the script fails.
set(LAYERS "report_format" "core" "report" "alloc" "measure,ticklog,sampler" "heap" "export")

set(level 0)
foreach(layer ${LAYERS})
  string(REPLACE "," ";" components "${layer}")
  foreach(component ${components})
    set(level_of_${component} ${level})
  endforeach()
  math(EXPR level "${level} + 1")
endforeach()

file(GLOB_RECURSE sources RELATIVE ${RUNTIME_DIR} ${RUNTIME_DIR}/*.cpp ${RUNTIME_DIR}/*.hpp)
set(problems "")
foreach(source ${sources})
  string(REGEX MATCH "^[^/]+" component "${source}")
  if(NOT DEFINED level_of_${component})
    continue()  # not part of libperfrt's layers (compare/: a library of its own on core)
  endif()
  file(STRINGS ${RUNTIME_DIR}/${source} lines REGEX "^#include \"")
  foreach(line ${lines})
    string(REGEX MATCH "^#include \"([^\"]+)\"" _ "${line}")
    set(included "${CMAKE_MATCH_1}")
    string(REGEX MATCH "^[^/]+" target "${included}")
    if(NOT DEFINED level_of_${target})
      continue()  # perf/...: the public headers
    endif()
    if(NOT target STREQUAL component AND included MATCHES "/internal/")
      string(APPEND problems "${source}: includes ${included}, another component's internals\n")
    elseif(NOT target STREQUAL component AND NOT level_of_${target} LESS level_of_${component})
      string(APPEND problems "${source}: includes ${included}, but ${component} may include only the layers below it\n")
    endif()
  endforeach()
endforeach()

if(problems)
  execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${problems}")  # one line each, unwrapped
  message(FATAL_ERROR "the runtime's layering is broken (above)")
endif()
