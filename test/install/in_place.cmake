# perf-instrument -p BUILD edits a copy of a project in place; it builds, reports
# exact counts, and --revert gives back every file byte for byte.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(project ${WORK_DIR}/shop)
file(COPY ${SOURCE_DIR}/rewritten/ DESTINATION ${project})
run(${CMAKE_COMMAND} -S ${project} -B ${project}/build -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX})
run(${PREFIX}/bin/perf-instrument -p ${project}/build)
run(${CMAKE_COMMAND} --build ${project}/build)
run_and_expect_calls(shop ${project}/build/shop CALLS "cart::add=10" "cart total=2")
run(${PREFIX}/bin/perf-instrument -p ${project}/build --revert)
file(REMOVE_RECURSE ${project}/build)
expect_same_files(${SOURCE_DIR}/rewritten ${project})
