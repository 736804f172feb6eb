# perf_instrument_target() in a project's own build files: the target it names is
# measured (its FILTER selects, its NO_TICKS keeps count_down out of the tick log, its
# TIME_ALL gives count_up the form that times every call),
# the other one is not even linked with the runtime. The measured target links tcmalloc
# itself: perf::alloc goes first, and allocations are counted.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/targeted -B ${WORK_DIR}/build -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX}
  -DPERF_INSTRUMENT_SIZE_THRESHOLD=0)  # every function its FILTER names, however small
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run_and_expect_calls(measured ${WORK_DIR}/build/measured CALLS "count_up=5" "count_down=2")
file(READ ${WORK_DIR}/measured.json report)
string(JSON counting GET "${report}" allocations counting)
if(NOT counting STREQUAL "interposed")
  message(FATAL_ERROR "allocation counting is '${counting}' in a target that links tcmalloc itself, not 'interposed'")
endif()
run(${CMAKE_COMMAND} -E env PERF_REPORT=off PERF_TICKLOG=${WORK_DIR}/ticks.txt ${WORK_DIR}/build/measured)
file(READ ${WORK_DIR}/ticks.txt ticks)
expect_output("${ticks}" ": 10 events of 1 thread,")
expect_output("${ticks}" "> count_up")
expect_no_output("${ticks}" "count_down")
file(GLOB_RECURSE mirrored_main ${WORK_DIR}/build/perf-instrument/mirror/*.cpp)
list(FILTER mirrored_main INCLUDE REGEX "/main\\.cpp$")
if(NOT mirrored_main)
  message(FATAL_ERROR "no mirror of main.cpp under ${WORK_DIR}/build/perf-instrument/mirror")
endif()
file(READ ${mirrored_main} measured_source)
expect_output("${measured_source}" "int count_up(int n) { PERF_INSTRUMENT_TIME_ALL(\"count_up\"); return n + 1; }")
expect_output("${measured_source}" "int count_down(int n) { PERF_INSTRUMENT_NO_TICKS(\"count_down\"); return n - 1; }")
run(${CMAKE_COMMAND} -E env PERF_REPORT=${WORK_DIR}/plain.json ${WORK_DIR}/build/plain)
if(EXISTS ${WORK_DIR}/plain.json)
  message(FATAL_ERROR "the target perf_instrument_target() did not name was measured")
endif()
