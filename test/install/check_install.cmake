# Installs the build tree into a fresh prefix and uses it as a user would:
# - test/install/consumer links perf::runtime and measures by hand;
# - test/install/rewritten and the example log pipeline are instrumented by the
#   installed perf-instrument, built, run, and reverted to their original bytes.
# Each program's JSON report is checked for exact call counts.
# Variables: BUILD_DIR, SOURCE_DIR, EXAMPLE_DIR, WORK_DIR, GENERATOR, WITH_TOOL.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(installed include/perf/perf.hpp include/perf/measure.hpp lib/cmake/perf_instrument/perf_instrument-config.cmake)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "not installed: ${installed}")
  endif()
endforeach()

run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/consumer -B ${WORK_DIR}/consumer -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${CMAKE_COMMAND} -E env PERF_REPORT=${WORK_DIR}/report.json ${WORK_DIR}/consumer/consumer)

# Fails unless the report at `path` has exactly the calls given as NAME=COUNT pairs.
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

expect_calls(${WORK_DIR}/report.json "consumer::square=12")

# Copies the project at `source` to WORK_DIR/`name`, instruments the copy with the
# installed perf-instrument, builds it, runs `name` with ARGS, checks the report
# for the exact CALLS (NAME=COUNT), and checks that --revert restores every file.
function(instrument_build_run name source)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "ARGS;CALLS")
  set(project ${WORK_DIR}/${name})
  file(COPY ${source}/ DESTINATION ${project})
  run(${CMAKE_COMMAND} -S ${project} -B ${project}/build -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix})
  run(${prefix}/bin/perf-instrument -p ${project}/build)
  run(${CMAKE_COMMAND} --build ${project}/build)
  run(${CMAKE_COMMAND} -E env PERF_REPORT=${WORK_DIR}/${name}.json ${project}/build/${name} ${arg_ARGS})
  expect_calls(${WORK_DIR}/${name}.json ${arg_CALLS})
  run(${prefix}/bin/perf-instrument -p ${project}/build --revert)
  file(GLOB originals RELATIVE ${source} ${source}/*)
  foreach(file ${originals})
    file(SHA256 ${source}/${file} original)
    file(SHA256 ${project}/${file} reverted)
    if(NOT original STREQUAL reverted)
      message(FATAL_ERROR "--revert did not restore ${name}/${file}")
    endif()
  endforeach()
endfunction()

if(WITH_TOOL)
  instrument_build_run(shop ${SOURCE_DIR}/rewritten CALLS "cart::add=10" "cart total=2")
  # The README's example: every measured function, worker threads included.
  instrument_build_run(log_pipeline ${EXAMPLE_DIR} ARGS 20000 CALLS
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
endif()
file(REMOVE_RECURSE ${WORK_DIR})
