# perf-instrument.pc: a plain Makefile project (with every GCC and Clang installed of
# g++-12, g++-13, clang++-14, clang++-19) and a Meson project link the runtime through
# `pkg-config --cflags --libs perf-instrument`, build at -Wall -Wextra -Werror with a mark
# in their sources, and run measured.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(GLOB_RECURSE pc_files ${PREFIX}/*/perf-instrument.pc)
list(LENGTH pc_files found)
if(NOT found EQUAL 1)
  message(FATAL_ERROR "expected one perf-instrument.pc under ${PREFIX}, found: ${pc_files}")
endif()
get_filename_component(pc_dir ${pc_files} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
run(pkg-config --modversion perf-instrument OUTPUT_VARIABLE version)
if(NOT version MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+\n$")
  message(FATAL_ERROR "pkg-config --modversion perf-instrument: '${version}'")
endif()
# The prefix is found from the file's place: the flags name this one.
run(pkg-config --cflags --libs perf-instrument OUTPUT_VARIABLE flags)
expect_output("${flags}" "-I${pc_dir}/")

foreach(name g++-12 g++-13 clang++-14 clang++-19)
  unset(compiler)
  find_program(compiler NAMES ${name} NO_CACHE)
  if(NOT compiler)
    continue()
  endif()
  file(COPY ${SOURCE_DIR}/consumer/ DESTINATION ${WORK_DIR}/make-${name})
  run(make -C ${WORK_DIR}/make-${name} CXX=${compiler})
  run_and_expect_calls(make-${name} ${WORK_DIR}/make-${name}/app CALLS "consumer::square=12")
endforeach()

find_program(MESON meson REQUIRED)
run(${MESON} setup ${WORK_DIR}/meson-build ${SOURCE_DIR}/consumer)
run(${MESON} compile -C ${WORK_DIR}/meson-build)
run_and_expect_calls(meson ${WORK_DIR}/meson-build/app CALLS "consumer::square=12")
