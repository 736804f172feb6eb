# The recipe for builds other than CMake (docs/rewriter.md): a Makefile project's
# database from `bear -- make`, the sources instrumented in place, rebuilt with the
# runtime through the Makefile's own variables, exact counts, and reverted byte for byte.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(project ${WORK_DIR}/project)
file(COPY ${SOURCE_DIR}/makefile_project/ DESTINATION ${project})
run(bear -- make WORKING_DIRECTORY ${project})
run(${PREFIX}/bin/perf-instrument -p . --in-place WORKING_DIRECTORY ${project})
file(READ ${project}/tokens.cpp instrumented)
expect_output("${instrumented}" "PERF_INSTRUMENT(\"split\");")
run(${CMAKE_COMMAND} -E env CPATH=${PREFIX}/include
  make "LDLIBS=-L${PREFIX}/lib -lperfrt -Wl,-rpath,${PREFIX}/lib -pthread" WORKING_DIRECTORY ${project})
run_and_expect_calls(app ${project}/app CALLS "split=3" "count_words=3")
run(${PREFIX}/bin/perf-instrument -p . --revert WORKING_DIRECTORY ${project})
expect_same_files(${SOURCE_DIR}/makefile_project ${project})
