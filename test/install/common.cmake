# Helpers of the install tests (cmake -P scripts). Each script gets PREFIX (where
# perf-instrument is installed), WORK_DIR (its own scratch directory, emptied),
# SOURCE_DIR (test/install), EXAMPLE_DIR (examples/log_pipeline) and GENERATOR.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# Runs a command; fails with its output unless it succeeds. With OUTPUT_VARIABLE v,
# sets v to what it printed.
function(run)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "OUTPUT_VARIABLE;WORKING_DIRECTORY" "")
  if(NOT arg_WORKING_DIRECTORY)
    set(arg_WORKING_DIRECTORY ${WORK_DIR})
  endif()
  execute_process(COMMAND ${arg_UNPARSED_ARGUMENTS} WORKING_DIRECTORY ${arg_WORKING_DIRECTORY}
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${arg_UNPARSED_ARGUMENTS}\n${out}\n${err}")
  endif()
  if(arg_OUTPUT_VARIABLE)
    set(${arg_OUTPUT_VARIABLE} "${out}${err}" PARENT_SCOPE)
  endif()
endfunction()

# Fails unless the JSON report at `path` has exactly the functions and calls given
# as NAME=COUNT pairs.
function(expect_calls path)
  file(READ ${path} report)
  string(JSON count LENGTH "${report}" functions)
  list(LENGTH ARGN expected_count)
  if(NOT count EQUAL expected_count)
    message(FATAL_ERROR "expected ${expected_count} functions in ${path}:\n${report}")
  endif()
  foreach(pair ${ARGN})
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 expected_name)
    list(GET pair 1 expected_calls)
    set(found FALSE)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON name GET "${report}" functions ${i} name)
      string(JSON calls GET "${report}" functions ${i} calls)
      if(name STREQUAL expected_name AND calls EQUAL expected_calls)
        set(found TRUE)
      endif()
    endforeach()
    if(NOT found)
      message(FATAL_ERROR "expected ${expected_name} with ${expected_calls} calls in ${path}:\n${report}")
    endif()
  endforeach()
endfunction()

# Fails unless every file of `original` is byte for byte the same in `copy`.
function(expect_same_files original copy)
  file(GLOB_RECURSE files RELATIVE ${original} ${original}/*)
  foreach(file ${files})
    file(SHA256 ${original}/${file} expected)
    file(SHA256 ${copy}/${file} actual)
    if(NOT expected STREQUAL actual)
      message(FATAL_ERROR "${copy}/${file} differs from ${original}/${file}")
    endif()
  endforeach()
endfunction()

# Fails unless `text` contains (or, with NOT, lacks) `part`.
function(expect_output text part)
  string(FIND "${text}" "${part}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected '${part}' in:\n${text}")
  endif()
endfunction()
function(expect_no_output text part)
  string(FIND "${text}" "${part}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "did not expect '${part}' in:\n${text}")
  endif()
endfunction()

# The example log pipeline run with 20000 lines: every measured function, worker threads included.
set(LOG_PIPELINE_CALLS
  "(anonymous namespace)::generate_lines=1"
  "process_chunk (one worker's share)=4"
  "logs::parse_line=20000"
  "logs::(anonymous namespace)::parse_timestamp=36800"
  "logs::counter<Key>::add=19600"
  "logs::access_record::weight=16800"
  "logs::error_record::weight=2800"
  "logs::merge_range<Key>=7"
  "(anonymous namespace)::print_top=1"
  "(anonymous namespace)::print_top::(lambda at line 55)=5")

# Runs `program` with the JSON report going to WORK_DIR/`name`.json and checks its calls.
function(run_and_expect_calls name program)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "ARGS;CALLS")
  run(${CMAKE_COMMAND} -E env PERF_REPORT=${WORK_DIR}/${name}.json ${program} ${arg_ARGS})
  expect_calls(${WORK_DIR}/${name}.json ${arg_CALLS})
endfunction()

# The zero-edit configure line: only the one -D (and `extra`).
function(configure_zero_edit source build)
  execute_process(COMMAND ${PREFIX}/bin/perf-instrument --cmake-include OUTPUT_VARIABLE include
    OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  run(${CMAKE_COMMAND} -S ${source} -B ${build} -DCMAKE_PROJECT_INCLUDE=${include} ${ARGN})
endfunction()

# The example copied to `project`, configured through the zero-edit path with
# `generator` in `build`, built and run (exact counts). Then a second build compiles
# nothing, a touched source rebuilds its own object only, a touched header (parse.hpp,
# which both units include) both objects, and the sources stay as they were.
function(build_example_incrementally project build generator)
  file(COPY ${EXAMPLE_DIR}/ DESTINATION ${project})
  configure_zero_edit(${project} ${build} -G ${generator})
  run(${CMAKE_COMMAND} --build ${build})
  run_and_expect_calls(log_pipeline ${build}/log_pipeline ARGS 20000 CALLS ${LOG_PIPELINE_CALLS})
  run(${CMAKE_COMMAND} --build ${build} OUTPUT_VARIABLE again)
  expect_no_output("${again}" "Building CXX object")
  file(TOUCH ${project}/parse.cpp)
  run(${CMAKE_COMMAND} --build ${build} OUTPUT_VARIABLE touched_source)
  expect_output("${touched_source}" "parse.cpp.o")
  expect_no_output("${touched_source}" "main.cpp.o")
  file(TOUCH ${project}/parse.hpp)
  run(${CMAKE_COMMAND} --build ${build} OUTPUT_VARIABLE touched_header)
  expect_output("${touched_header}" "parse.cpp.o")
  expect_output("${touched_header}" "main.cpp.o")
  expect_same_files(${EXAMPLE_DIR} ${project})
endfunction()
