# A mark never breaks a -Werror build: README's first example, marked in both spellings,
# builds at -Wall -Wextra -Werror from C++11 to C++23 with every GCC and Clang installed
# (of 12, 13, 14 and 19), plain (a project that never heard of perf, with the one line
# docs/rewriter.md gives, and one linking perf::runtime) and instrumented (the zero-edit
# integration, on the project with neither), and the instrumented program counts its calls.
# The example builds plain at -Werror too.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(compilers "")
foreach(name g++-12 g++-13 clang++-14 clang++-19)
  unset(compiler)
  find_program(compiler NAMES ${name} NO_CACHE)
  if(compiler)
    list(APPEND compilers ${compiler})
  endif()
endforeach()
if(NOT compilers MATCHES "g\\+\\+" OR NOT compilers MATCHES "clang\\+\\+")
  message(FATAL_ERROR "marks: no GCC or no Clang among g++-12, g++-13, clang++-14, clang++-19")
endif()
foreach(compiler IN LISTS compilers)
  get_filename_component(name ${compiler} NAME)
  # Without the options, the mark warns: what the builds below prove quiet.
  execute_process(COMMAND ${compiler} -std=c++11 -Wall -Wextra -Werror -fsyntax-only ${SOURCE_DIR}/marks/lex.cpp
    RESULT_VARIABLE status ERROR_VARIABLE err)
  if(status EQUAL 0 OR NOT err MATCHES "measure")
    message(FATAL_ERROR "${name} compiled an unknown attribute without a warning at -Werror:\n${err}")
  endif()
  foreach(perf line package)
    run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/marks -B ${WORK_DIR}/${name}-${perf} -G ${GENERATOR}
      -DCMAKE_CXX_COMPILER=${compiler} -DPERF=${perf} -DCMAKE_PREFIX_PATH=${PREFIX})
    run(${CMAKE_COMMAND} --build ${WORK_DIR}/${name}-${perf})
  endforeach()
  configure_zero_edit(${SOURCE_DIR}/marks ${WORK_DIR}/${name}-instrumented -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${compiler} -DPERF=none)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/${name}-instrumented)
  foreach(standard 11 23)
    run_and_expect_calls(${name}-${standard} ${WORK_DIR}/${name}-instrumented/lex_${standard}
      CALLS "lex=2" "count tokens=1" "empty=1" "first token=1")
  endforeach()
endforeach()
run(${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${WORK_DIR}/example -G ${GENERATOR} -DCMAKE_CXX_FLAGS=-Werror)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/example)
