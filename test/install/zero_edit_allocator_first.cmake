# Issue 43: the zero-edit integration links libperfalloc first whichever way the project
# links its own allocator (test/install/allocator_paths: a static library's interface, an
# INTERFACE target, target_link_options, CMAKE_EXE_LINKER_FLAGS, a -l flag), into a C++
# program, a C++ shared library and a C program of a language enabled after project():
# libperfalloc is each binary's first needed library, tcmalloc one after it, and the
# program's allocations are counted (interposed). About 40 s.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
find_program(READELF readelf REQUIRED)

# Fails unless the first library `binary` needs is libperfalloc and tcmalloc is among the others.
function(expect_runtime_first binary)
  execute_process(COMMAND ${READELF} --dynamic ${binary} OUTPUT_VARIABLE dynamic COMMAND_ERROR_IS_FATAL ANY)
  string(REGEX MATCHALL "\\(NEEDED\\)[^[]*\\[[^]]+\\]" needed "${dynamic}")
  list(TRANSFORM needed REPLACE ".*\\[(.+)\\]" "\\1")
  list(GET needed 0 first)
  list(FILTER needed INCLUDE REGEX "^libtcmalloc_minimal\\.so")
  if(NOT first MATCHES "^libperfalloc\\.so" OR NOT needed)
    message(FATAL_ERROR "${binary} needs ${first} first, not libperfalloc, or no tcmalloc:\n${dynamic}")
  endif()
endfunction()

foreach(way static_interface interface_target link_options linker_flags l_flag)
  set(build ${WORK_DIR}/${way})
  configure_zero_edit(${SOURCE_DIR}/allocator_paths ${build} -G ${GENERATOR} -DALLOCATOR_PATH=${way})
  run(${CMAKE_COMMAND} --build ${build})
  foreach(binary app libplugin.so c_app)
    expect_runtime_first(${build}/${binary})
  endforeach()
  run(${CMAKE_COMMAND} -E env PERF_REPORT=${build}/app.json ${build}/app)
  file(READ ${build}/app.json report)
  string(JSON counting GET "${report}" allocations counting)
  if(NOT counting STREQUAL "interposed")
    message(FATAL_ERROR "allocation counting is '${counting}' with tcmalloc linked by ${way}, not 'interposed'")
  endif()
endforeach()
