# An unrelated project links perf::runtime from the installed package and measures by hand.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
foreach(installed include/perf/perf.hpp include/perf/tick.hpp lib/cmake/perf_instrument/perf_instrument-config.cmake
                  lib/cmake/perf_instrument/perf_instrument-zero-edit.cmake)
  if(NOT EXISTS ${PREFIX}/${installed})
    message(FATAL_ERROR "not installed: ${installed}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/consumer -B ${WORK_DIR}/consumer -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run_and_expect_calls(consumer ${WORK_DIR}/consumer/consumer CALLS "consumer::square=12")
