# The example, configured with only -DCMAKE_PROJECT_INCLUDE=..., builds instrumented
# with Ninja: exact counts on every thread, its sources untouched, and incremental
# builds that rebuild exactly what depends on a touched file.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(project ${WORK_DIR}/log_pipeline)
set(build ${WORK_DIR}/build)
file(COPY ${EXAMPLE_DIR}/ DESTINATION ${project})
configure_zero_edit(${project} ${build} -G Ninja)
run(${CMAKE_COMMAND} --build ${build})
run_and_expect_calls(log_pipeline ${build}/log_pipeline ARGS 20000 CALLS ${LOG_PIPELINE_CALLS})
expect_same_files(${EXAMPLE_DIR} ${project})

run(${CMAKE_COMMAND} --build ${build} OUTPUT_VARIABLE again)
expect_output("${again}" "ninja: no work to do.")
file(TOUCH ${project}/parse.cpp)
run(${CMAKE_COMMAND} --build ${build} OUTPUT_VARIABLE touched_source)
expect_output("${touched_source}" "parse.cpp.o")
expect_no_output("${touched_source}" "main.cpp.o")
file(TOUCH ${project}/parse.hpp)  # included by both units
run(${CMAKE_COMMAND} --build ${build} OUTPUT_VARIABLE touched_header)
expect_output("${touched_header}" "parse.cpp.o")
expect_output("${touched_header}" "main.cpp.o")
# The dependencies name the sources, not their instrumented copies.
run(ninja -C ${build} -t deps OUTPUT_VARIABLE deps)
expect_output("${deps}" "${project}/parse.hpp")
expect_no_output("${deps}" "perf-instrument/mirror")
run_and_expect_calls(log_pipeline ${build}/log_pipeline ARGS 20000 CALLS ${LOG_PIPELINE_CALLS})
