# Builds examples/live_service as a user would, through the installed perf-instrument's
# zero-edit include (PREFIX), into WORK_DIR. Run by the test live.service_build; a
# failing step fails it with that step's whole output.
include(${CMAKE_CURRENT_LIST_DIR}/../install/common.cmake)
run(${PREFIX}/bin/perf-instrument --cmake-include OUTPUT_VARIABLE include)
string(STRIP "${include}" include)
run(${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${WORK_DIR} -G ${GENERATOR} -DCMAKE_BUILD_TYPE=RelWithDebInfo
  -DCMAKE_PROJECT_INCLUDE=${include})
run(${CMAKE_COMMAND} --build ${WORK_DIR})
