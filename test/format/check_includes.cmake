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
# The fixtures: lit's and the installed consumers' sources are a user's, the bench
# layering fixture reaches on purpose.
list(FILTER sources EXCLUDE REGEX "^test/(install|layering)/")
set(problems "")
foreach(source ${sources})
  get_filename_component(folder ${source} DIRECTORY)
  file(STRINGS ${SOURCE_DIR}/${source} lines REGEX "^#include [\"<]")
  foreach(line ${lines})
    if(line MATCHES "^#include \"(\\.\\./[^\"]*)\"")
      string(APPEND problems "${source}: includes \"${CMAKE_MATCH_1}\": by its path from the root, not ../\n")
    elseif(line MATCHES "^#include <(perf/[^>]*)>")
      string(APPEND problems "${source}: includes <${CMAKE_MATCH_1}>: a project header takes quotes\n")
    elseif(line MATCHES "^#include \"([^\"/]+)\"")
      set(name "${CMAKE_MATCH_1}")
      if(folder MATCHES "^(test/runtime|bench)/" AND EXISTS ${SOURCE_DIR}/${folder}/${name})
        string(REGEX REPLACE "^(test/runtime|bench)/" "" below_root "${folder}")
        string(APPEND problems "${source}: includes \"${name}\": by its path from the root, \"${below_root}/${name}\"\n")
      endif()
    endif()
  endforeach()
endforeach()
if(problems)
  execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${problems}")  # one line each, unwrapped
  message(FATAL_ERROR "the includes above break the include convention")
endif()
