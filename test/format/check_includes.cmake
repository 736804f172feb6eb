# The one include convention (cmake -DSOURCE_DIR=... -P check_includes.cmake): a header
# of the project is included with quotes by its path from its tree's include root:
# "perf/..." (include/), "core/..." (runtime/), "lib/..." (tool/), "harness/...", the
# tests' helpers from test/runtime/ ("measure/busy_loop.hpp"), the benches' from bench/.
# So no "../", no <perf/...>, and no bare name of a header beside the including file in
# a subfolder of test/runtime/ or bench/ (which reads as one from the root). Every
# include that breaks it is named with its file, and the script fails.
if(NOT DEFINED SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=dir -P check_includes.cmake")
endif()
set(sources "")
foreach(folder bench harness include runtime test tool)
  file(GLOB_RECURSE found RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${folder}/*.cpp ${SOURCE_DIR}/${folder}/*.hpp
    ${SOURCE_DIR}/${folder}/*.h)
  list(APPEND sources ${found})
endforeach()
# The fixtures: test/install's sources are a user's, test/layering's break the rules on
# purpose.
list(FILTER sources EXCLUDE REGEX "^test/(install|layering)/")
include(${CMAKE_CURRENT_LIST_DIR}/../layering/include_checks.cmake)
set(problems "")
foreach(source ${sources})
  get_filename_component(folder ${source} DIRECTORY)
  file(STRINGS ${SOURCE_DIR}/${source} angled REGEX "^#include <perf/")
  foreach(line ${angled})
    string(APPEND problems "${source}: ${line}: a project header takes quotes\n")
  endforeach()
  perf_quoted_includes(${SOURCE_DIR}/${source} includes)
  foreach(included ${includes})
    if(included MATCHES "^\\.\\./")
      string(APPEND problems "${source}: includes \"${included}\": by its path from the root, not ../\n")
    elseif(NOT included MATCHES "/" AND folder MATCHES "^(test/runtime|bench)/" AND EXISTS ${SOURCE_DIR}/${folder}/${included})
      string(REGEX REPLACE "^(test/runtime|bench)/" "" below_root "${folder}")
      string(APPEND problems "${source}: includes \"${included}\": by its path from the root, \"${below_root}/${included}\"\n")
    endif()
  endforeach()
endforeach()
perf_fail_on_problems("${problems}" "the includes above break the include convention")
