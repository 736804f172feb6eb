# A project that knows nothing of perf-instrument, configured with the one -D and
# PERF_INSTRUMENT_FILTER='.*': every function it defines is measured, in the
# program, a static library and a shared library.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
configure_zero_edit(${SOURCE_DIR}/unaware ${WORK_DIR}/build -G ${GENERATOR} "-DPERF_INSTRUMENT_FILTER=.*")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run_and_expect_calls(unaware ${WORK_DIR}/build/unaware CALLS
  "main=1" "geometry::scaled=3" "geometry::area=3" "geometry::square::perimeter=3")
