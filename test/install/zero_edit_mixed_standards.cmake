# Issue 17: units of different C++ standards share a header with a constexpr and an
# inline function, built through the zero-edit path with PERF_INSTRUMENT_FILTER='.*'
# and -j2, with Ninja and with Makefiles. interleave.sh holds the compile of a1.cpp
# (C++17) until b1.cpp (C++20) has written its mirror, so the two always meet: each
# must compile the header as its own standard allows.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(src ${WORK_DIR}/src)
file(WRITE ${src}/include/h.hpp
  "#pragma once\nconstexpr int sq(int x) { return x * x; }\ninline int twice(int x) { return 2 * x; }\n")
set(sources "")
set(declarations "")
set(calls "")
foreach(i RANGE 1 6)
  foreach(kind a b)
    file(WRITE ${src}/${kind}${i}.cpp "#include \"h.hpp\"\nstatic_assert(sq(3) == 9, \"\");\n"
      "int ${kind}${i}(int x) { return sq(x) + twice(x); }\n")
    list(APPEND sources ${kind}${i}.cpp)
    string(APPEND declarations "int ${kind}${i}(int);\n")
    string(APPEND calls " + ${kind}${i}(${i})")
  endforeach()
endforeach()
file(WRITE ${src}/main.cpp "${declarations}int main() { return 0${calls} == 2 * (91 + 42) ? 0 : 1; }\n")
list(JOIN sources " " sources)
file(WRITE ${src}/CMakeLists.txt "cmake_minimum_required(VERSION 3.20)
project(mixed_standards LANGUAGES CXX)
add_executable(app ${sources} main.cpp)
target_include_directories(app PRIVATE include)
foreach(i RANGE 1 6)
  set_source_files_properties(a\${i}.cpp PROPERTIES COMPILE_OPTIONS -std=c++17)
  set_source_files_properties(b\${i}.cpp PROPERTIES COMPILE_OPTIONS -std=c++20)
endforeach()
set_target_properties(app PROPERTIES CXX_COMPILER_LAUNCHER
  \"/bin/sh;${SOURCE_DIR}/interleave/interleave.sh;\${CMAKE_BINARY_DIR};a1.cpp;b1.cpp\")
")

# sq: the C++20 units measure it, the C++17 ones cannot; the program runs the one
# definition the linker keeps, a1.cpp's (the first object's), which is not measured.
foreach(generator Ninja "Unix Makefiles")
  set(build ${WORK_DIR}/build-${generator})
  configure_zero_edit(${src} ${build} -G ${generator} "-DPERF_INSTRUMENT_FILTER=.*"
    -DPERF_INSTRUMENT_SIZE_THRESHOLD=0)  # every function, however small
  run(${CMAKE_COMMAND} --build ${build} -j 2)
  run_and_expect_calls(mixed ${build}/app CALLS "main=1" "twice=12"
    "a1=1" "a2=1" "a3=1" "a4=1" "a5=1" "a6=1" "b1=1" "b2=1" "b3=1" "b4=1" "b5=1" "b6=1")
endforeach()
