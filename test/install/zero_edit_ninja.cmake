# The example, configured with only -DCMAKE_PROJECT_INCLUDE=..., builds instrumented
# with Ninja: exact counts on every thread, its sources untouched, incremental builds
# that rebuild exactly what depends on a touched file, and dependencies that name the
# sources.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(project ${WORK_DIR}/log_pipeline)
set(build ${WORK_DIR}/build)
build_example_incrementally(${project} ${build} Ninja)
# The dependencies name the sources, not their instrumented copies.
run(ninja -C ${build} -t deps OUTPUT_VARIABLE deps)
expect_output("${deps}" "${project}/parse.hpp")
expect_no_output("${deps}" "perf-instrument/mirror")
run_and_expect_calls(log_pipeline ${build}/log_pipeline ARGS 20000 CALLS ${LOG_PIPELINE_CALLS})
