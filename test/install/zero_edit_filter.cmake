# A project that knows nothing of perf-instrument, configured with the one -D and
# PERF_INSTRUMENT_FILTER='.*': every function it defines is measured, in the
# program, a static library and a shared library; PERF_INSTRUMENT_NO_TICKS keeps
# geometry::area's calls out of the tick log, and PERF_INSTRUMENT_TIME_ALL gives
# geometry::scaled the form that times every call. Its test program, which
# gtest_discover_tests runs with --gtest_list_tests while building, reports when it runs
# its tests, and prints no report into the build log.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
configure_zero_edit(${SOURCE_DIR}/unaware ${WORK_DIR}/build -G ${GENERATOR} "-DPERF_INSTRUMENT_FILTER=.*"
  "-DPERF_INSTRUMENT_NO_TICKS=geometry::area" "-DPERF_INSTRUMENT_TIME_ALL=geometry::scaled"
  -DPERF_INSTRUMENT_SIZE_THRESHOLD=0)  # every function, however small
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build OUTPUT_VARIABLE built)
expect_output("${built}" "geometry_test")
expect_no_output("${built}" "perf-instrument report")
run(${WORK_DIR}/build/geometry_test --gtest_list_tests OUTPUT_VARIABLE listed)
expect_output("${listed}" "AScaledSquaresArea")
expect_no_output("${listed}" "perf-instrument report")
run(${WORK_DIR}/build/geometry_test OUTPUT_VARIABLE tested)
expect_output("${tested}" "perf-instrument report")
expect_output("${tested}" "(anonymous namespace)::registered")
run_and_expect_calls(unaware ${WORK_DIR}/build/unaware CALLS
  "main=1" "geometry::scaled=3" "geometry::area=3" "geometry::square::perimeter=3")
run(${CMAKE_COMMAND} -E env PERF_REPORT=off PERF_TICKLOG=${WORK_DIR}/ticks.txt ${WORK_DIR}/build/unaware)
file(READ ${WORK_DIR}/ticks.txt ticks)
expect_output("${ticks}" ": 14 events of 1 thread,")
expect_output("${ticks}" "> geometry::scaled")
expect_no_output("${ticks}" "geometry::area")
file(GLOB_RECURSE mirrored_shapes ${WORK_DIR}/build/perf-instrument/mirror/*.cpp)
list(FILTER mirrored_shapes INCLUDE REGEX "/shapes\\.cpp$")
if(NOT mirrored_shapes)
  message(FATAL_ERROR "no mirror of shapes.cpp under ${WORK_DIR}/build/perf-instrument/mirror")
endif()
foreach(mirrored IN LISTS mirrored_shapes)
  file(READ ${mirrored} shapes)
  expect_output("${shapes}" "{ PERF_INSTRUMENT_TIME_ALL(\"geometry::scaled\"); return square{s.side * factor}; }")
endforeach()
