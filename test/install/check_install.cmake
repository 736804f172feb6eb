# Installs the build tree into a fresh prefix, builds test/install/consumer against
# it, runs the consumer and checks its JSON report for the exact call count.
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, GENERATOR.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(installed include/perf/perf.hpp include/perf/measure.hpp lib/cmake/perf_instrument/perf_instrument-config.cmake)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "not installed: ${installed}")
  endif()
endforeach()

run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/consumer -B ${WORK_DIR}/consumer -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${CMAKE_COMMAND} -E env PERF_REPORT=${WORK_DIR}/report.json ${WORK_DIR}/consumer/consumer)

file(READ ${WORK_DIR}/report.json report)
string(JSON name GET "${report}" functions 0 name)
string(JSON calls GET "${report}" functions 0 calls)
if(NOT name STREQUAL "consumer::square" OR NOT calls EQUAL 12)
  message(FATAL_ERROR "expected consumer::square with 12 calls, got ${name} with ${calls}:\n${report}")
endif()
file(REMOVE_RECURSE ${WORK_DIR})
