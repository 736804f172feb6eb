# The zero-edit build with Unix Makefiles: exact counts, a second build compiles
# nothing, a touched source rebuilds its own object only, a touched header every
# object that includes it.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
build_example_incrementally(${WORK_DIR}/log_pipeline ${WORK_DIR}/build "Unix Makefiles")
