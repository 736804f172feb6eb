# perf-instrument's zero-edit integration: configure any CMake project with
#
#   cmake -DCMAKE_PROJECT_INCLUDE=$(perf-instrument --cmake-include) ...
#
# and build as usual: every C++ unit is compiled from an instrumented copy (under
# <build>/perf-instrument/mirror), every target links perf::runtime, frame pointers
# are kept. The project's files are never changed. -DPERF_INSTRUMENT_FILTER=<regex>
# also measures the functions whose qualified name matches (a list for several;
# '.*' for all); -DPERF_INSTRUMENT_NO_TICKS=<regex> keeps the matching functions'
# calls out of the tick log. An existing CMAKE_CXX_COMPILER_LAUNCHER (ccache) still runs.
include_guard(GLOBAL)  # CMake includes this after every project() call; the first one counts

find_package(perf_instrument CONFIG REQUIRED PATHS "${CMAKE_CURRENT_LIST_DIR}" NO_DEFAULT_PATH)
set(PERF_INSTRUMENT_FILTER "" CACHE STRING
  "perf-instrument: also measure the functions whose qualified name matches this regex (a list for several)")
set(PERF_INSTRUMENT_NO_TICKS "" CACHE STRING
  "perf-instrument: keep the calls of the measured functions whose name matches this regex out of the tick log")

# Normal variables, in the top-level directory's scope: every target below takes them.
perf_instrument_launcher(CMAKE_CXX_COMPILER_LAUNCHER "${PERF_INSTRUMENT_FILTER}" "${PERF_INSTRUMENT_NO_TICKS}"
  "${CMAKE_CXX_COMPILER_LAUNCHER}")
link_libraries(perf::runtime)
add_compile_options(-fno-omit-frame-pointer)
message(STATUS "perf-instrument: instrumenting this build (PERF_INSTRUMENT_FILTER='${PERF_INSTRUMENT_FILTER}')")
