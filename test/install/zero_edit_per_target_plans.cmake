# Issue 17, the other ways a header's instrumented text depends on its unit: a
# per-unit -D that adds a function to the header, and a FILTER per target
# (perf_instrument_target) that measures a header function in one target only; -j2,
# Ninja and Makefiles. interleave.sh holds the compile of with_helper.cpp until
# plain.cpp (no -D) has written its mirror.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(src ${WORK_DIR}/src)
file(WRITE ${src}/include/h.hpp "#pragma once
inline int twice(int x) { return 2 * x; }
#ifdef WITH_HELPER
inline int helper(int x) { return x + 1; }
#endif
")
file(WRITE ${src}/with_helper.cpp "#include \"h.hpp\"\nint with_helper(int x) { return helper(twice(x)); }\n")
file(WRITE ${src}/plain.cpp "#include \"h.hpp\"\nint plain(int x) { return twice(x); }\n")
file(WRITE ${src}/main.cpp "int with_helper(int);\nint plain(int);\n"
  "int main() { return with_helper(1) + plain(2) + with_helper(3) == 3 + 4 + 7 ? 0 : 1; }\n")
file(WRITE ${src}/tool.cpp "#include \"h.hpp\"\nint tool_twice(int x) { return twice(x); }\n"
  "int main() { return tool_twice(1) + tool_twice(2) == 6 ? 0 : 1; }\n")
file(WRITE ${src}/CMakeLists.txt "cmake_minimum_required(VERSION 3.20)
project(per_target_plans LANGUAGES CXX)
find_package(perf_instrument CONFIG REQUIRED)
add_executable(app with_helper.cpp plain.cpp main.cpp)
add_executable(tool tool.cpp)
include_directories(include)
set_source_files_properties(with_helper.cpp PROPERTIES COMPILE_DEFINITIONS WITH_HELPER)
set_target_properties(app PROPERTIES CXX_COMPILER_LAUNCHER
  \"/bin/sh;${SOURCE_DIR}/interleave/interleave.sh;\${CMAKE_BINARY_DIR};with_helper.cpp;plain.cpp\")
perf_instrument_target(app FILTER \".*\")
perf_instrument_target(tool FILTER \"tool_.*\")
")

foreach(generator Ninja "Unix Makefiles")
  set(build ${WORK_DIR}/build-${generator})
  run(${CMAKE_COMMAND} -S ${src} -B ${build} -G ${generator} -DCMAKE_PREFIX_PATH=${PREFIX}
    -DPERF_INSTRUMENT_SIZE_THRESHOLD=0)  # every function the FILTERs name, however small
  run(${CMAKE_COMMAND} --build ${build} -j 2)
  run_and_expect_calls(app ${build}/app CALLS "main=1" "with_helper=2" "plain=1" "helper=2" "twice=3")
  run_and_expect_calls(tool ${build}/tool CALLS "tool_twice=2")
endforeach()
