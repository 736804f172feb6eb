# perf-instrument's zero-edit integration: configure any CMake project with
#
#   cmake -DCMAKE_PROJECT_INCLUDE=$(perf-instrument --cmake-include) ...
#
# and build as usual: every C++ unit is compiled from an instrumented copy (under
# <build>/perf-instrument/mirror), every target links perf::runtime and perf::alloc
# (allocation counting, docs/allocations.md), frame pointers
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

# In the top-level directory's scope: every target below takes them, first on its
# link line (before an allocator the project links itself: the first malloc wins).
# In this build only: an exported target's interface must not name perf's targets,
# which a consumer of the project's package does not have (perf_instrument_installed
# gives installed targets what they need instead).
link_libraries("$<BUILD_INTERFACE:perf::alloc>" "$<BUILD_INTERFACE:perf::runtime>")
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
      perf_instrument_installed(${target} ${type})
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
