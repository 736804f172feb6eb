# The zero-edit build with Unix Makefiles: exact counts, a second build compiles
# nothing, a touched source rebuilds its own object only, a touched header every
# object that includes it.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(project ${WORK_DIR}/log_pipeline)
set(build ${WORK_DIR}/build)
file(COPY ${EXAMPLE_DIR}/ DESTINATION ${project})
configure_zero_edit(${project} ${build} -G "Unix Makefiles")
run(${CMAKE_COMMAND} --build ${build})
run_and_expect_calls(log_pipeline ${build}/log_pipeline ARGS 20000 CALLS ${LOG_PIPELINE_CALLS})
run(${CMAKE_COMMAND} --build ${build} OUTPUT_VARIABLE again)
expect_no_output("${again}" "Building CXX object")
file(TOUCH ${project}/main.cpp)
run(${CMAKE_COMMAND} --build ${build} OUTPUT_VARIABLE touched)
expect_output("${touched}" "main.cpp.o")
expect_no_output("${touched}" "parse.cpp.o")
file(TOUCH ${project}/parse.hpp)  # included by both units
run(${CMAKE_COMMAND} --build ${build} OUTPUT_VARIABLE touched_header)
expect_output("${touched_header}" "main.cpp.o")
expect_output("${touched_header}" "parse.cpp.o")
expect_same_files(${EXAMPLE_DIR} ${project})
