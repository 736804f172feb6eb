# A layering rule, checked on every #include of the sources under SOURCE_DIR
# (cmake -DSOURCE_DIR=... -DLAYERS=... [-DINCLUDE_PREFIX=...] -P check_layering.cmake):
#  - no file includes another component's internal/ headers;
#  - a component includes only itself and the components below it, in LAYERS order
#    (layers separated by "|", components of the same layer by commas, which include
#    none of each other).
# A component is a folder of SOURCE_DIR; an include names one by its path below
# INCLUDE_PREFIX ("lib/" for the rewriter's "lib/collect/planner.hpp"). Files and
# includes of no component (the folder's own top-level files, public headers) are not
# checked. Every broken include is named, file and line, and the script fails.
# The runtime's layers are test/runtime/CMakeLists.txt's, the rewriter's phases
# test/tool/CMakeLists.txt's.
if(NOT DEFINED SOURCE_DIR OR NOT DEFINED LAYERS)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=dir -DLAYERS=a|b,c|d [-DINCLUDE_PREFIX=lib/] -P check_layering.cmake")
endif()
string(REPLACE "|" ";" LAYERS "${LAYERS}")
include(${CMAKE_CURRENT_LIST_DIR}/include_checks.cmake)

set(level 0)
foreach(layer ${LAYERS})
  string(REPLACE "," ";" components "${layer}")
  foreach(component ${components})
    set(level_of_${component} ${level})
  endforeach()
  math(EXPR level "${level} + 1")
endforeach()

file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*.cpp ${SOURCE_DIR}/*.hpp)
set(problems "")
foreach(source ${sources})
  string(REGEX MATCH "^[^/]+" component "${source}")
  if(NOT DEFINED level_of_${component})
    continue()  # not in the layers (the runtime's compare/: a library of its own on report_format)
  endif()
  perf_quoted_includes(${SOURCE_DIR}/${source} includes)
  foreach(included ${includes})
    if(DEFINED INCLUDE_PREFIX AND NOT INCLUDE_PREFIX STREQUAL "")
      string(FIND "${included}" "${INCLUDE_PREFIX}" at)
      if(NOT at EQUAL 0)
        continue()  # not one of the folder's own
      endif()
      string(LENGTH "${INCLUDE_PREFIX}" skip)
      string(SUBSTRING "${included}" ${skip} -1 included)
    endif()
    string(REGEX MATCH "^[^/]+" target "${included}")
    if(NOT DEFINED level_of_${target})
      continue()  # of no component (perf/...: the public headers)
    endif()
    if(NOT target STREQUAL component AND included MATCHES "/internal/")
      string(APPEND problems "${source}: includes ${included}, another component's internals\n")
    elseif(NOT target STREQUAL component AND NOT level_of_${target} LESS level_of_${component})
      string(APPEND problems "${source}: includes ${included}, but ${component} may include only the layers below it\n")
    endif()
  endforeach()
endforeach()

perf_fail_on_problems("${problems}" "the layering of ${SOURCE_DIR} is broken (above)")
