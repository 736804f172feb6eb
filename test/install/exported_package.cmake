# A library project that exports a package, built instrumented by the zero-edit
# integration (shared and static) and installed; a plain project finds the package,
# configures, builds and runs: the exported interface names no perf target (the
# consumer has none), the installed library still finds the runtime, and the library's
# measured function is reported from the consumer's run.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
execute_process(COMMAND ${PREFIX}/bin/perf-instrument --cmake-include OUTPUT_VARIABLE zero_edit
  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
foreach(shared ON OFF)
  set(work ${WORK_DIR}/shared_${shared})
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/exported/library -B ${work}/library -G ${GENERATOR}
    -DBUILD_SHARED_LIBS=${shared} -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_PROJECT_INCLUDE=${zero_edit}
    -DPERF_INSTRUMENT_FILTER=area -DPERF_INSTRUMENT_SIZE_THRESHOLD=0 -DCMAKE_INSTALL_PREFIX=${work}/installed)
  run(${CMAKE_COMMAND} --build ${work}/library)
  run(${CMAKE_COMMAND} --install ${work}/library)
  file(READ ${work}/installed/lib/cmake/shapes/shapes-config.cmake package)
  expect_no_output("${package}" "perf::")
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/exported/consumer -B ${work}/consumer -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${work}/installed)
  run(${CMAKE_COMMAND} --build ${work}/consumer)
  set(WORK_DIR ${work})
  run_and_expect_calls(consumer ${work}/consumer/uses_shapes CALLS "area=2")
endforeach()
