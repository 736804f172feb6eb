# Issue 44: a project of 24 units in 4 directories that share 6 headers in nested
# directories (a static library; the 6 units of one directory also make a shared library,
# whose launchers write the same mirror trees as the static one's), built with
# PERF_INSTRUMENT_FILTER='.*' at -j8, 20 times with Ninja and 20 times with Makefiles,
# from clean: no build may fail, and the program counts every call. 130 to 155 s of CPU
# (6 to 7 minutes on a 2-core machine at a load of 13). Each build after the first removes the objects and the
# mirror but keeps the plans, so that the launchers do little besides writing their
# mirrors, all at once: the window of a race between them is as wide as it gets.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(src ${WORK_DIR}/src)
set(includes "")
set(sum "")
foreach(h RANGE 5)
  file(WRITE ${src}/include/shared/h${h}/detail/h${h}.hpp
    "#pragma once\nnamespace shared {\ninline int h${h}(int x) { return x + ${h}; }\n}  // namespace shared\n")
  string(APPEND includes "#include \"shared/h${h}/detail/h${h}.hpp\"\n")
  string(APPEND sum " + shared::h${h}(x)")
endforeach()
file(WRITE ${src}/include/shared/all.hpp "#pragma once\n${includes}")
set(declarations "")
set(calls "")
set(expected_calls "main=1")
foreach(d RANGE 3)
  foreach(u RANGE 5)
    math(EXPR n "${d} * 6 + ${u}")
    file(WRITE ${src}/units/d${d}/u${u}.cpp "#include \"shared/all.hpp\"\nint unit${n}(int x) { return 0${sum}; }\n")
    string(APPEND declarations "int unit${n}(int);\n")
    string(APPEND calls " + unit${n}(1)")
    list(APPEND expected_calls "unit${n}=1")
  endforeach()
endforeach()
list(APPEND expected_calls "shared::h0=24" "shared::h1=24" "shared::h2=24" "shared::h3=24" "shared::h4=24"
  "shared::h5=24")
# Each unit returns 6 + (0 + 1 + ... + 5) = 21.
file(WRITE ${src}/main.cpp "${declarations}int main() { return 0${calls} == 24 * 21 ? 0 : 1; }\n")
file(WRITE ${src}/CMakeLists.txt "cmake_minimum_required(VERSION 3.20)
project(parallel_builds LANGUAGES CXX)
file(GLOB_RECURSE units units/*.cpp)
file(GLOB some_units units/d0/*.cpp)
add_library(units_static STATIC \${units})
add_library(units_shared SHARED \${some_units})
foreach(target units_static units_shared)
  target_include_directories(\${target} PUBLIC include)
endforeach()
add_executable(app main.cpp)
target_link_libraries(app units_static)
")

foreach(generator Ninja "Unix Makefiles")
  set(build ${WORK_DIR}/build-${generator})
  configure_zero_edit(${src} ${build} -G ${generator} "-DPERF_INSTRUMENT_FILTER=.*"
    -DPERF_INSTRUMENT_SIZE_THRESHOLD=0)  # every function, however small
  foreach(attempt RANGE 1 20)
    if(attempt GREATER 1)
      run(${CMAKE_COMMAND} --build ${build} --target clean)
      file(REMOVE_RECURSE ${build}/perf-instrument/mirror)
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} --build ${build} -j 8 RESULT_VARIABLE status OUTPUT_VARIABLE out
      ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "build ${attempt} with ${generator} at -j8 failed (${status}):\n${out}\n${err}")
    endif()
  endforeach()
  file(GLOB_RECURSE left_behind ${build}/perf-instrument/mirror/*.perf-instrument-*)
  if(left_behind)
    message(FATAL_ERROR "temporary files left in the mirror: ${left_behind}")
  endif()
  run_and_expect_calls(parallel ${build}/app CALLS ${expected_calls})
endforeach()
