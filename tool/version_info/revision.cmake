# cmake -DSOURCE_DIR=... -DVERSION=... [-DREVISION=...] -DTEMPLATE=version_info.cpp.in
#       -DOUTPUT=version_info.cpp -P revision.cmake
# Writes OUTPUT from TEMPLATE with the version and the sources' git revision (REVISION
# when given: a build from a tarball), touching it only when its text changes, so that
# a build whose revision did not move recompiles nothing.
if(NOT REVISION)
  set(REVISION "unknown")
  find_program(GIT git)
  if(GIT)
    execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --short=12 HEAD RESULT_VARIABLE status
      OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(status EQUAL 0)
      set(REVISION ${commit})
      execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
        OUTPUT_VARIABLE changes ERROR_QUIET)
      if(NOT changes STREQUAL "")
        string(APPEND REVISION "-dirty")
      endif()
    endif()
  endif()
endif()
configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
