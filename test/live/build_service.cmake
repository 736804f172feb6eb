# Builds examples/live_service as a user would, through the installed perf-instrument's
# zero-edit include (PREFIX), into WORK_DIR. Run by the test live.service_build.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${PREFIX}/bin/perf-instrument --cmake-include OUTPUT_VARIABLE include
  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${WORK_DIR} -G ${GENERATOR}
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_PROJECT_INCLUDE=${include} COMMAND_ERROR_IS_FATAL ANY OUTPUT_QUIET)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR} COMMAND_ERROR_IS_FATAL ANY OUTPUT_QUIET)
