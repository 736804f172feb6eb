# An unrelated project links perf::runtime from the installed package and measures by hand;
# the installed perf-report reads its report.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
foreach(installed bin/perf-report include/perf/perf.hpp include/perf/tick.hpp
                  lib/cmake/perf_instrument/perf_instrument-config.cmake
                  lib/cmake/perf_instrument/perf_instrument-zero-edit.cmake)
  if(NOT EXISTS ${PREFIX}/${installed})
    message(FATAL_ERROR "not installed: ${installed}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/consumer -B ${WORK_DIR}/consumer -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run_and_expect_calls(consumer ${WORK_DIR}/consumer/consumer CALLS "consumer::square=12")

# The installed perf-report reads that report: merged with itself, every call twice.
run(${PREFIX}/bin/perf-report merge ${WORK_DIR}/consumer.json ${WORK_DIR}/consumer.json -o ${WORK_DIR}/twice.json)
expect_calls(${WORK_DIR}/twice.json "consumer::square=24")
run(${PREFIX}/bin/perf-report html ${WORK_DIR}/consumer.json -o ${WORK_DIR}/consumer.html)
file(READ ${WORK_DIR}/consumer.html page)
if(NOT page MATCHES "consumer::square")
  message(FATAL_ERROR "the installed perf-report's page lacks consumer::square")
endif()
