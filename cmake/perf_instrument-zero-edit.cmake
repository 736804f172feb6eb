# perf-instrument's zero-edit integration: configure any CMake project with
#
#   cmake -DCMAKE_PROJECT_INCLUDE=$(perf-instrument --cmake-include) ...
#
# and build as usual: every C++ unit is compiled from an instrumented copy (under
# <build>/perf-instrument/mirror), every program and shared library links libperfalloc
# (allocation counting, docs/allocations.md) and libperfrt first, frame pointers
# are kept. The project's files are never changed. -DPERF_INSTRUMENT_FILTER=<regex>
# also measures the functions whose qualified name matches (a list for several;
# '.*' for all); -DPERF_INSTRUMENT_NO_TICKS=<regex> keeps the matching functions'
# calls out of the tick log; -DPERF_INSTRUMENT_TIME_ALL=<regex> times every call of the
# matching functions (never a sample); -DPERF_INSTRUMENT_SIZE_THRESHOLD=<n> leaves out the
# functions only the filter selects whose body is smaller than n (0: none).
# A compiler launcher the project has (ccache, given on
# the command line or set by its own files) still runs, behind perf-instrument.
include_guard(GLOBAL)  # CMake includes this after every project() call; the first one counts

find_package(perf_instrument CONFIG REQUIRED PATHS "${CMAKE_CURRENT_LIST_DIR}" NO_DEFAULT_PATH)
set(PERF_INSTRUMENT_FILTER "" CACHE STRING
  "perf-instrument: also measure the functions whose qualified name matches this regex (a list for several)")
set(PERF_INSTRUMENT_SIZE_THRESHOLD "" CACHE STRING
  "perf-instrument: leave out the functions only the filter selects whose body is smaller than this (0: none; empty: the tool's default)")
option(PERF_INSTRUMENT_VERBOSE "perf-instrument: say for each unit whether it was parsed, and list what the size threshold left out" OFF)
set(PERF_INSTRUMENT_NO_TICKS "" CACHE STRING
  "perf-instrument: keep the calls of the measured functions whose name matches this regex out of the tick log")
set(PERF_INSTRUMENT_TIME_ALL "" CACHE STRING
  "perf-instrument: time every call of the measured functions whose name matches this regex, never a sample")

# First on every link line, whichever way the project links its own allocator (a static
# library's interface, an INTERFACE target, a -l flag, target_link_options, LINK_FLAGS,
# CMAKE_EXE_LINKER_FLAGS): in the link rules of every language, ahead of <LINK_FLAGS>,
# which holds all of those flags, and of the objects and libraries. Those of the
# languages enabled by now are changed here, in the top-level directory's scope, which
# every directory below inherits; a language enabled later gets its rules set by CMake
# then, in that scope, and perf_instrument_link_rule, watching them, changes them as
# they are set. The runtime is named by its files, not by perf's targets
# (perf_instrument_runtime_files).
function(perf_instrument_link_rule variable access value)
  if(NOT access STREQUAL "MODIFIED_ACCESS")
    return()
  endif()
  perf_instrument_runtime_words(words)
  set(rule_words "")
  foreach(word IN LISTS words)
    string(APPEND rule_words "\"${word}\" ")
  endforeach()
  string(FIND "${value}" "${rule_words}" linked)
  if(NOT linked EQUAL -1)
    return()
  endif()
  foreach(place "<LINK_FLAGS>" "<OBJECTS>")
    string(FIND "${value}" "${place}" at)
    if(NOT at EQUAL -1)
      string(REPLACE "${place}" "${rule_words}${place}" value "${value}")
      set(${variable} "${value}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(WARNING "perf-instrument: ${variable} has neither <LINK_FLAGS> nor <OBJECTS>, "
    "so the runtime cannot be put first on its link line: '${value}'")
endfunction()
get_property(perf_instrument_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
list(APPEND perf_instrument_languages C CXX OBJC OBJCXX CUDA HIP Fortran ASM)
list(REMOVE_DUPLICATES perf_instrument_languages)
foreach(perf_instrument_language IN LISTS perf_instrument_languages)
  foreach(perf_instrument_kind LINK_EXECUTABLE CREATE_SHARED_LIBRARY CREATE_SHARED_MODULE)
    set(perf_instrument_rule CMAKE_${perf_instrument_language}_${perf_instrument_kind})
    if(DEFINED ${perf_instrument_rule})
      perf_instrument_link_rule(${perf_instrument_rule} MODIFIED_ACCESS "${${perf_instrument_rule}}")
    endif()
    variable_watch(${perf_instrument_rule} perf_instrument_link_rule)
  endforeach()
endforeach()
unset(perf_instrument_kind)
unset(perf_instrument_language)
unset(perf_instrument_languages)
unset(perf_instrument_rule)
# The launcher reads the database for the system header directories of every
# command: a header one target reaches through -isystem is never instrumented.
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
add_compile_options(-fno-omit-frame-pointer)

# Puts the instrumenting launcher on every target that compiles C++ in `directory`
# and below.
function(perf_instrument_every_target directory)
  get_property(targets DIRECTORY "${directory}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY|STATIC_LIBRARY|OBJECT_LIBRARY)$")
      perf_instrument_put_launcher(${target} "${PERF_INSTRUMENT_FILTER}" "${PERF_INSTRUMENT_NO_TICKS}"
        "${PERF_INSTRUMENT_TIME_ALL}")
      perf_instrument_uses_runtime(${target} ${type})
    endif()
  endforeach()
  get_property(subdirectories DIRECTORY "${directory}" PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    perf_instrument_every_target("${subdirectory}")
  endforeach()
endfunction()

# Once the project's files have been read and every target exists, so that a launcher
# the project sets after project() (many find ccache themselves) is chained, not lost.
cmake_language(DEFER CALL perf_instrument_every_target "${CMAKE_CURRENT_SOURCE_DIR}")
message(STATUS "perf-instrument: instrumenting this build (PERF_INSTRUMENT_FILTER='${PERF_INSTRUMENT_FILTER}')")
