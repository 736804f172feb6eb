# Both binaries' --version name the project's version and the git revision they were
# built from: 12 hex digits of HEAD, "-dirty" when tracked files differ from it (as
# `git status` says now: run it after building). Gets SOURCE_DIR, VERSION and the
# binaries as PERF_REPORT and PERF_INSTRUMENT (empty when the rewriter is not built).
# Sources that are no git checkout (a tarball) are built as revision "unknown".
execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse --short=12 HEAD OUTPUT_VARIABLE revision
  RESULT_VARIABLE status OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(status EQUAL 0)
  execute_process(COMMAND git -C ${SOURCE_DIR} status --porcelain --untracked-files=no OUTPUT_VARIABLE changes
    COMMAND_ERROR_IS_FATAL ANY)
  if(NOT changes STREQUAL "")
    string(APPEND revision "-dirty")
  endif()
else()
  set(revision "unknown")
endif()
foreach(program perf-report perf-instrument)
  string(TOUPPER "${program}" variable)
  string(REPLACE "-" "_" variable "${variable}")
  if("${${variable}}" STREQUAL "")
    continue()
  endif()
  execute_process(COMMAND ${${variable}} --version OUTPUT_VARIABLE out COMMAND_ERROR_IS_FATAL ANY)
  string(REGEX REPLACE "\n.*" "" first "${out}")
  if(NOT first STREQUAL "${program} ${VERSION} (git ${revision})")
    message(FATAL_ERROR "${program} --version says '${first}', not '${program} ${VERSION} (git ${revision})'")
  endif()
endforeach()
