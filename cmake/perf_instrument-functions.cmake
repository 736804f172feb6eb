# CMake functions of the perf_instrument package (docs/cmake.md).

# perf_instrument_target(<target> [FILTER <regex>...] [NO_TICKS <regex>...] [TIME_ALL <regex>...])
#
# Builds <target>'s C++ sources instrumented, on the fly, without touching them:
# functions marked [[perf::measure]], and those whose qualified name matches a
# FILTER regex, are measured (those matching a NO_TICKS regex without tick-log
# events, those matching a TIME_ALL regex with every call timed); <target> links
# libperfalloc (allocation counting) and libperfrt first (perf_instrument_runtime_words),
# sees perf's headers and keeps frame pointers.
# A compiler launcher already set on the target (ccache) still runs, behind ours.
function(perf_instrument_target target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "FILTER;NO_TICKS;TIME_ALL")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "perf_instrument_target(${target}): unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  perf_instrument_put_launcher(${target} "${arg_FILTER}" "${arg_NO_TICKS}" "${arg_TIME_ALL}")
  get_target_property(type ${target} TYPE)
  # Its own link options come before its objects and every library, whichever way the
  # project links its own allocator (a static library's interface, an INTERFACE target,
  # a -l flag, target_link_options); only CMAKE_<TYPE>_LINKER_FLAGS and LINK_FLAGS come
  # earlier, for the whole project, which the zero-edit integration covers.
  if(type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
    perf_instrument_runtime_words(words)
    get_target_property(options ${target} LINK_OPTIONS)
    if(NOT options)
      set(options "")
    endif()
    set_property(TARGET ${target} PROPERTY LINK_OPTIONS ${words} ${options})
  endif()
  perf_instrument_uses_runtime(${target} ${type})
  # perf's headers, for a unit that includes one itself and so needs them even when the
  # launcher compiles it as it is (the units it instruments get them from the launcher).
  # By path, as the runtime's files.
  # And the options that keep the compiler quiet about the marks (perf::runtime's).
  if(TARGET perf::runtime)
    get_target_property(headers perf::runtime INTERFACE_INCLUDE_DIRECTORIES)
    target_include_directories(${target} SYSTEM PRIVATE ${headers})
    get_target_property(mark_options perf::runtime INTERFACE_COMPILE_OPTIONS)
    target_compile_options(${target} PRIVATE ${mark_options})
  endif()
  set_property(TARGET ${target} APPEND PROPERTY COMPILE_OPTIONS -fno-omit-frame-pointer)
endfunction()

# perf_instrument_runtime_files(<out>): libperfalloc and libperfrt, by the paths they
# are installed at. By paths, never perf's targets: a target's link properties may be
# copied into another target anywhere in the project (glog's
# $<TARGET_PROPERTY:glog,LINK_LIBRARIES>) and exported (export(TARGETS),
# install(EXPORT)) to a plain project that has no perf target.
function(perf_instrument_runtime_files out)
  get_filename_component(library_dir "${perf_instrument_DIR}/../.." ABSOLUTE)
  set(${out} "${library_dir}/libperfalloc.so" "${library_dir}/libperfrt.so" PARENT_SCOPE)
endfunction()

# perf_instrument_runtime_words(<out>): the linker arguments that link the runtime
# (perf_instrument_runtime_files), libperfalloc first. Put ahead of every object and
# library, they come before the allocator the project links itself (tcmalloc) and
# before the C library: the first malloc in the link order is the one the program
# calls, and the runtime's interposition looks up the next pthread_create and malloc
# after itself. Kept with --no-as-needed (the program names nothing of libperfalloc, so
# a linker with --as-needed would drop it), inside --push-state/--pop-state so that the
# other libraries are linked as the project says.
function(perf_instrument_runtime_words out)
  perf_instrument_runtime_files(files)
  set(${out} "-Wl,--push-state,--no-as-needed" ${files} "-Wl,--pop-state" PARENT_SCOPE)
endfunction()

# perf_instrument_uses_runtime(<target> <type>): what <target> of type <type> needs of
# the runtime besides its own link line: a program or shared library finds the runtime
# where it is installed (its run path, in the build tree and installed), and whatever
# links a library (in this build, or a plain project using the build tree's
# export(TARGETS) or the installed install(EXPORT)) links the runtime too, first
# (perf_instrument_runtime_words), its files also as link items for that program's own
# run path.
function(perf_instrument_uses_runtime target type)
  perf_instrument_runtime_files(files)
  list(GET files 0 first)
  get_filename_component(library_dir "${first}" DIRECTORY)
  if(type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
    set_property(TARGET ${target} APPEND PROPERTY BUILD_RPATH "${library_dir}")
    set_property(TARGET ${target} APPEND PROPERTY INSTALL_RPATH "${library_dir}")
  endif()
  if(type MATCHES "^(SHARED_LIBRARY|STATIC_LIBRARY|OBJECT_LIBRARY)$")
    foreach(file IN LISTS files)
      set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES "$<LINK_ONLY:${file}>")
    endforeach()
    perf_instrument_runtime_words(words)
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_OPTIONS ${words})
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
