# The zero-edit build with Unix Makefiles: exact counts, and a touched source
# rebuilds its own object only.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(project ${WORK_DIR}/log_pipeline)
set(build ${WORK_DIR}/build)
file(COPY ${EXAMPLE_DIR}/ DESTINATION ${project})
configure_zero_edit(${project} ${build} -G "Unix Makefiles")
run(${CMAKE_COMMAND} --build ${build})
run_and_expect_calls(log_pipeline ${build}/log_pipeline ARGS 20000 CALLS ${LOG_PIPELINE_CALLS})
file(TOUCH ${project}/main.cpp)
run(${CMAKE_COMMAND} --build ${build} OUTPUT_VARIABLE touched)
expect_output("${touched}" "main.cpp.o")
expect_no_output("${touched}" "parse.cpp.o")
expect_same_files(${EXAMPLE_DIR} ${project})
