# The sampler's sources and what they link: libbacktrace (symbolization, shipped with
# GCC: no new dependency) and zlib (the gzip of the pprof profile).
set(PERF_SAMPLER_SOURCES
  sampler/folded.cpp
  sampler/frame_walk.cpp
  sampler/modules.cpp
  sampler/pprof.cpp
  sampler/profile.cpp
  sampler/report_section.cpp
  sampler/sample_config.cpp
  sampler/sample_signal.cpp
  sampler/sample_table.cpp
  sampler/sampler.cpp
  sampler/summary.cpp
  sampler/thread_start_hook.cpp
  sampler/thread_timers.cpp)

execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libbacktrace.a
  OUTPUT_VARIABLE perf_gcc_backtrace OUTPUT_STRIP_TRAILING_WHITESPACE)
get_filename_component(perf_gcc_library_dir "${perf_gcc_backtrace}" DIRECTORY)
file(GLOB perf_gcc_library_dirs /usr/lib/gcc/*/*)
find_library(PERF_LIBBACKTRACE NAMES libbacktrace.a HINTS ${perf_gcc_library_dir} ${perf_gcc_library_dirs} REQUIRED)
get_filename_component(perf_libbacktrace_dir "${PERF_LIBBACKTRACE}" DIRECTORY)
find_path(PERF_LIBBACKTRACE_INCLUDE_DIR backtrace.h HINTS ${perf_libbacktrace_dir}/include REQUIRED NO_DEFAULT_PATH)
find_package(ZLIB REQUIRED)
# Paths, not ZLIB::ZLIB: the test directory builds runtimes too, and imported targets
# are seen only below the directory that found them.
set(PERF_SAMPLER_LIBRARIES ${PERF_LIBBACKTRACE} ${ZLIB_LIBRARIES} ${CMAKE_DL_LIBS} CACHE INTERNAL "What the sampler links")
set(PERF_SAMPLER_INCLUDE_DIRS ${PERF_LIBBACKTRACE_INCLUDE_DIR} ${ZLIB_INCLUDE_DIRS} CACHE INTERNAL "What the sampler includes")

# Adds the sampler's dependencies to a runtime built by perf_add_runtime().
function(perf_link_sampler name)
  target_include_directories(${name} SYSTEM PRIVATE ${PERF_SAMPLER_INCLUDE_DIRS})
  target_link_libraries(${name} PRIVATE ${PERF_SAMPLER_LIBRARIES})
  # A static runtime's object files are linked only when referenced: this one starts
  # the sampler, and nothing else refers to it.
  get_target_property(type ${name} TYPE)
  if(type STREQUAL STATIC_LIBRARY)
    target_link_options(${name} INTERFACE LINKER:--undefined=perf_start_sampler)
  endif()
endfunction()
