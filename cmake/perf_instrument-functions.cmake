# CMake functions of the perf_instrument package (docs/cmake.md).

# perf_instrument_target(<target> [FILTER <regex>...] [NO_TICKS <regex>...] [TIME_ALL <regex>...])
#
# Builds <target>'s C++ sources instrumented, on the fly, without touching them:
# functions marked [[perf::measure]], and those whose qualified name matches a
# FILTER regex, are measured (those matching a NO_TICKS regex without tick-log
# events, those matching a TIME_ALL regex with every call timed); <target> links perf::runtime and perf::alloc (allocation counting) and
# keeps frame pointers.
# A compiler launcher already set on the target (ccache) still runs, behind ours.
function(perf_instrument_target target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "FILTER;NO_TICKS;TIME_ALL")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "perf_instrument_target(${target}): unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  perf_instrument_put_launcher(${target} "${arg_FILTER}" "${arg_NO_TICKS}" "${arg_TIME_ALL}")
  # Property, not target_link_libraries(): works whichever signature the project uses.
  # First on the link line: the first malloc in the link order is the one the program
  # calls, and an allocator the project links (tcmalloc) must not come before ours.
  get_target_property(libraries ${target} LINK_LIBRARIES)
  if(NOT libraries)
    set(libraries "")
  endif()
  set_property(TARGET ${target} PROPERTY LINK_LIBRARIES perf::alloc perf::runtime ${libraries})
  get_target_property(type ${target} TYPE)
  # Within this build only; what the target needs once installed, by paths.
  if(type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "OBJECT_LIBRARY")
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES
      "$<LINK_ONLY:$<BUILD_INTERFACE:perf::alloc>>" "$<LINK_ONLY:$<BUILD_INTERFACE:perf::runtime>>")
  endif()
  perf_instrument_installed(${target} ${type})
  set_property(TARGET ${target} APPEND PROPERTY COMPILE_OPTIONS -fno-omit-frame-pointer)
endfunction()

# perf_instrument_installed(<target> <type>): what an installed <target> of type <type>
# needs of perf, named without perf's targets (a consumer of the project's package has
# none): a program or shared library finds
# the runtime where it is installed (its run path), and the users of an exported
# library link the runtime's files by their installed paths, ahead of the C library
# (the runtime's interposition looks up the next pthread_create and malloc after
# itself: it must not come after libc, as it would as a mere dependency of the library).
function(perf_instrument_installed target type)
  get_filename_component(library_dir "${perf_instrument_DIR}/../.." ABSOLUTE)
  if(type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
    set_property(TARGET ${target} APPEND PROPERTY INSTALL_RPATH "${library_dir}")
  endif()
  if(type MATCHES "^(SHARED_LIBRARY|STATIC_LIBRARY|OBJECT_LIBRARY)$")
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES
      "$<INSTALL_INTERFACE:${library_dir}/libperfalloc.so>"
      "$<INSTALL_INTERFACE:${library_dir}/libperfrt.so>")
    # As perf::alloc's own: a linker with --as-needed would drop what the program names nothing of.
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_OPTIONS "$<INSTALL_INTERFACE:-Wl,--no-as-needed>")
  endif()
endfunction()

# perf_instrument_put_launcher(<target> <filters> <no_ticks> <time_all>): <target>'s C++ units
# are compiled through the instrumenting launcher (see perf_instrument_launcher), in
# front of the launcher the target already has. A target that has it already keeps
# its own.
function(perf_instrument_put_launcher target filters no_ticks time_all)
  get_target_property(existing ${target} CXX_COMPILER_LAUNCHER)
  if(NOT existing)
    set(existing "")
  endif()
  list(FIND existing "${PERF_INSTRUMENT_EXECUTABLE}" ours)
  if(ours EQUAL 0)
    return()
  endif()
  perf_instrument_launcher(launcher "${filters}" "${no_ticks}" "${time_all}" "${existing}")
  set_property(TARGET ${target} PROPERTY CXX_COMPILER_LAUNCHER "${launcher}")
endfunction()

# perf_instrument_launcher(<out> <filters> <no_ticks> <time_all> <launcher>): in <out>, the
# compiler launcher that instruments with the regexes of the lists <filters> (--filter),
# <no_ticks> (--no-ticks) and <time_all> (--time-all) and then runs the list <launcher>
# (may be empty) in front of the compiler. The variables PERF_INSTRUMENT_SIZE_THRESHOLD
# (--size-threshold, when set) and PERF_INSTRUMENT_VERBOSE (--verbose) apply too.
function(perf_instrument_launcher out filters no_ticks time_all launcher)
  if(NOT EXISTS "${PERF_INSTRUMENT_EXECUTABLE}")
    message(FATAL_ERROR "perf-instrument: ${PERF_INSTRUMENT_EXECUTABLE} is missing: "
      "this perf-instrument was installed without its rewriter (PERF_BUILD_TOOL=OFF)")
  endif()
  set(command "${PERF_INSTRUMENT_EXECUTABLE}" --launch -p "${CMAKE_BINARY_DIR}")
  foreach(filter IN LISTS filters)
    list(APPEND command "--filter=${filter}")
  endforeach()
  foreach(expression IN LISTS no_ticks)
    list(APPEND command "--no-ticks=${expression}")
  endforeach()
  foreach(expression IN LISTS time_all)
    list(APPEND command "--time-all=${expression}")
  endforeach()
  if(NOT "${PERF_INSTRUMENT_SIZE_THRESHOLD}" STREQUAL "")
    list(APPEND command "--size-threshold=${PERF_INSTRUMENT_SIZE_THRESHOLD}")
  endif()
  if(PERF_INSTRUMENT_VERBOSE)
    list(APPEND command --verbose)
  endif()
  foreach(word IN LISTS launcher)
    list(APPEND command "--launcher=${word}")
  endforeach()
  list(APPEND command --)
  set(${out} "${command}" PARENT_SCOPE)
endfunction()
