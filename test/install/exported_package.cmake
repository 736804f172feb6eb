# A library project that exports a package, built instrumented (by the zero-edit
# integration or perf_instrument_target(), shared and static) and installed. Its tests
# link what the library links, copied from its properties (glog's
# $<TARGET_PROPERTY:glog,LINK_LIBRARIES>, in a subdirectory): they configure, build and
# count. A plain project uses the build tree's export(TARGETS) file, another finds the
# installed package: each configures, builds and runs, the exported interfaces name no
# perf target (the consumer has none), the library still finds the runtime, and the
# library's measured function is reported from the consumer's run.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
execute_process(COMMAND ${PREFIX}/bin/perf-instrument --cmake-include OUTPUT_VARIABLE zero_edit
  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
# Each way: zero-edit or perf_instrument_target(), shared or static.
foreach(way "zero_edit;ON" "zero_edit;OFF" "target;ON" "target;OFF")
  list(GET way 0 how)
  list(GET way 1 shared)
  set(work ${WORK_DIR}/${how}_shared_${shared})
  if(how STREQUAL "zero_edit")
    set(instrumented -DCMAKE_PROJECT_INCLUDE=${zero_edit} -DPERF_INSTRUMENT_FILTER=area)
  else()
    set(instrumented -DSHAPES_MEASURE=ON)
  endif()
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/exported/library -B ${work}/library -G ${GENERATOR}
    -DBUILD_SHARED_LIBS=${shared} -DCMAKE_PREFIX_PATH=${PREFIX} ${instrumented} -DPERF_INSTRUMENT_SIZE_THRESHOLD=0
    -DCMAKE_INSTALL_PREFIX=${work}/installed)
  run(${CMAKE_COMMAND} --build ${work}/library)
  run(${CMAKE_COMMAND} -E env PERF_REPORT=${work}/unittest.json ${work}/library/tests/shapes_unittest)
  expect_calls(${work}/unittest.json "area=1")
  file(READ ${work}/library/shapes-targets.cmake build_tree_targets)
  expect_no_output("${build_tree_targets}" "perf::")
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/exported/tree_export_consumer -B ${work}/tree_export_consumer -G ${GENERATOR}
    -DSHAPES_TARGETS=${work}/library/shapes-targets.cmake)
  run(${CMAKE_COMMAND} --build ${work}/tree_export_consumer)
  run(${CMAKE_COMMAND} -E env PERF_REPORT=${work}/tree_export_consumer.json ${work}/tree_export_consumer/uses_shapes)
  expect_calls(${work}/tree_export_consumer.json "area=2")
  run(${CMAKE_COMMAND} --install ${work}/library)
  file(READ ${work}/installed/lib/cmake/shapes/shapes-config.cmake package)
  expect_no_output("${package}" "perf::")
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/exported/consumer -B ${work}/consumer -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${work}/installed)
  run(${CMAKE_COMMAND} --build ${work}/consumer)
  run(${CMAKE_COMMAND} -E env PERF_REPORT=${work}/consumer.json ${work}/consumer/uses_shapes)
  expect_calls(${work}/consumer.json "area=2")
endforeach()
