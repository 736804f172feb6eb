# The Debian packages (cpack, as `cmake --build build --target package` makes them):
# libperfrt0 and perf-instrument, whose other dependencies are Debian packages apt can
# install on this Debian 12 (apt-get --simulate). Installed by dpkg into a fresh root (a
# dpkg database of its own; --force-depends, as the root has no system of its own, and the
# maintainer scripts run outside it, with DPKG_ROOT set, which libperfrt0's ldconfig heeds), they
# serve the example, built through the installed CMake package with the zero-edit line and
# run measured, and a Makefile project through the installed perf-instrument.pc. Gets
# BUILD_DIR and VERSION besides common.cmake's variables (PREFIX is the root's /usr).
set(PREFIX ${WORK_DIR}/root/usr)
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
run(cpack --config ${BUILD_DIR}/CPackConfig.cmake -B ${WORK_DIR}/packages)
run(dpkg --print-architecture OUTPUT_VARIABLE architecture)
string(STRIP "${architecture}" architecture)
set(runtime_deb ${WORK_DIR}/packages/libperfrt0_${VERSION}_${architecture}.deb)
set(tool_deb ${WORK_DIR}/packages/perf-instrument_${VERSION}_${architecture}.deb)
run(dpkg-deb -f ${tool_deb} Depends OUTPUT_VARIABLE depends)
expect_output("${depends}" "libperfrt0 (= ${VERSION})")
run(dpkg-deb -f ${runtime_deb} Depends OUTPUT_VARIABLE runtime_depends)
expect_output("${runtime_depends}" "libunwind8")
run(dpkg-deb -c ${runtime_deb} OUTPUT_VARIABLE runtime_files)
expect_output("${runtime_files}" "/libperfrt.so.0")
expect_no_output("${runtime_files}" "/bin/")
run(apt-get install --simulate ${runtime_deb} ${tool_deb} OUTPUT_VARIABLE plan)
expect_output("${plan}" "Inst perf-instrument")

set(root ${WORK_DIR}/root)
foreach(directory info updates triggers)
  file(MAKE_DIRECTORY ${root}/var/lib/dpkg/${directory})
endforeach()
file(TOUCH ${root}/var/lib/dpkg/status ${root}/var/lib/dpkg/available)
run(dpkg --root=${root} --force-depends --force-script-chrootless -i ${runtime_deb} ${tool_deb})
run(dpkg-query --admindir=${root}/var/lib/dpkg -W -f=\${Package}=\${Version}=\${Status}\n OUTPUT_VARIABLE installed)
if(NOT installed STREQUAL "libperfrt0=${VERSION}=install ok installed\nperf-instrument=${VERSION}=install ok installed\n")
  message(FATAL_ERROR "installed in ${root}:\n${installed}")
endif()

file(COPY ${EXAMPLE_DIR}/ DESTINATION ${WORK_DIR}/log_pipeline)
configure_zero_edit(${WORK_DIR}/log_pipeline ${WORK_DIR}/example -G ${GENERATOR} -DCMAKE_CXX_FLAGS=-Werror)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/example)
run_and_expect_calls(log_pipeline ${WORK_DIR}/example/log_pipeline ARGS 20000 CALLS ${LOG_PIPELINE_CALLS})

file(GLOB_RECURSE pc_file ${root}/*/perf-instrument.pc)
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
file(COPY ${SOURCE_DIR}/consumer/ DESTINATION ${WORK_DIR}/make)
run(make -C ${WORK_DIR}/make)
run_and_expect_calls(make ${WORK_DIR}/make/app CALLS "consumer::square=12")
