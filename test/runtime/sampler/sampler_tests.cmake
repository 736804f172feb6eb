find_package(ZLIB REQUIRED)  # the tests unzip the pprof profile

# pprof, the real reader of the pprof profile: Debian's golang-go (scripts/setup.sh).
# Not found, the test that needs it fails saying so.
find_program(PERF_GO go)
if(NOT PERF_GO)
  set(PERF_GO "go-not-found-run-scripts-setup.sh")
endif()

add_library(sample_stress_plugin MODULE ${CMAKE_CURRENT_LIST_DIR}/stress_plugin.cpp)
# A container's seccomp profile that refuses both sampling sources, put on a program.
add_executable(seccomp_exec ${CMAKE_CURRENT_LIST_DIR}/seccomp_exec.cpp)
target_compile_options(seccomp_exec PRIVATE ${PERF_WARNINGS})
target_compile_options(sample_stress_plugin PRIVATE -fno-omit-frame-pointer)
# A plugin without frame pointers that the late-code probe loads after sampling started.
add_library(late_plugin MODULE ${CMAKE_CURRENT_LIST_DIR}/late_plugin.cpp)
target_compile_options(late_plugin PRIVATE ${PERF_WARNINGS} -O2 -fomit-frame-pointer)

# speedscope's importer, the real reader of the folded stacks: npm's speedscope
# 1.25.0 (scripts/setup.sh), run by node. Not found, the test that needs it fails saying so.
execute_process(COMMAND npm root -g OUTPUT_VARIABLE perf_npm_root OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
file(GLOB PERF_SPEEDSCOPE_BUNDLE "${perf_npm_root}/speedscope/dist/release/speedscope-*.js")
if(NOT PERF_SPEEDSCOPE_BUNDLE)
  set(PERF_SPEEDSCOPE_BUNDLE "speedscope-not-installed-run-scripts-setup.sh")
endif()

# The sampler's tests for one runtime variant (called by perf_add_runtime_tests).
function(perf_add_sampler_tests label runtime)
  set(flags ${ARGN})
  add_executable(sample_probe_${label} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/sample_probe.cpp ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(sample_probe_${label} PRIVATE ${runtime} perf_harness)
  # Frame pointers, in leaf functions too: the sampler walks the stack by them.
  target_compile_options(sample_probe_${label} PRIVATE ${PERF_WARNINGS} -fno-omit-frame-pointer
    -mno-omit-leaf-frame-pointer ${flags})

  add_executable(sample_stress_${label} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/sample_stress.cpp ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(sample_stress_${label} PRIVATE ${runtime} ${CMAKE_DL_LIBS})
  target_compile_options(sample_stress_${label} PRIVATE ${PERF_WARNINGS} -fno-omit-frame-pointer ${flags})
  target_link_options(sample_stress_${label} PRIVATE ${flags})

  # No frame pointers anywhere on its hot paths: the unwinder's call-frame information only.
  add_executable(library_paths_probe_${label} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/library_paths_probe.cpp
    ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(library_paths_probe_${label} PRIVATE ${runtime})
  target_compile_options(library_paths_probe_${label} PRIVATE ${PERF_WARNINGS} -O2 -fomit-frame-pointer ${flags})
  target_link_options(library_paths_probe_${label} PRIVATE ${flags})

  # Code met after sampling started: a plugin loaded later, a thread found in /proc.
  add_executable(late_code_probe_${label} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/late_code_probe.cpp
    ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(late_code_probe_${label} PRIVATE perf_alloc_${label} ${runtime} ${CMAKE_DL_LIBS})
  target_compile_options(late_code_probe_${label} PRIVATE ${PERF_WARNINGS} -O2 -fomit-frame-pointer ${flags})
  target_link_options(late_code_probe_${label} PRIVATE ${flags})

  set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  add_executable(sampler_tests_${label} ${dir}/sampling_test.cpp ${dir}/sample_table_test.cpp ${dir}/stack_unwind_test.cpp
    ${dir}/linker_stubs_test.cpp ${dir}/exported_symbols_test.cpp
    ${dir}/profile_formats_test.cpp ${dir}/sample_config_test.cpp ${dir}/code_owner_test.cpp ${dir}/function_name_test.cpp
    ${dir}/measured_function_test.cpp ${dir}/library_paths_test.cpp
    ${PERF_SANITIZER_OPTIONS})
  perf_compile_as_one_unit(sampler_tests_${label})
  target_link_libraries(sampler_tests_${label} PRIVATE ${runtime} GTest::gtest_main ZLIB::ZLIB nlohmann_json::nlohmann_json)
  target_compile_options(sampler_tests_${label} PRIVATE ${PERF_WARNINGS} ${flags})
  target_compile_definitions(sampler_tests_${label} PRIVATE PERF_SAMPLE_PROBE="$<TARGET_FILE:sample_probe_${label}>"
    PERF_GO="${PERF_GO}" PERF_STRESS_PROBE="$<TARGET_FILE:sample_stress_${label}>"
    PERF_STRESS_PLUGIN="$<TARGET_FILE:sample_stress_plugin>" PERF_SPEEDSCOPE_BUNDLE="${PERF_SPEEDSCOPE_BUNDLE}"
    PERF_SPEEDSCOPE_IMPORT="${dir}/speedscope_import.mjs" PERF_SAMPLE_PROBE_SOURCE="${dir}/sample_probe.cpp"
    PERF_SECCOMP_EXEC="$<TARGET_FILE:seccomp_exec>" PERF_LIBRARY_PATHS_PROBE="$<TARGET_FILE:library_paths_probe_${label}>"
    PERF_LATE_CODE_PROBE="$<TARGET_FILE:late_code_probe_${label}>" PERF_LATE_PLUGIN="$<TARGET_FILE:late_plugin>")
  add_dependencies(sampler_tests_${label} seccomp_exec sample_probe_${label} sample_stress_${label} library_paths_probe_${label}
    late_code_probe_${label} late_plugin)
  gtest_discover_tests(sampler_tests_${label} TEST_PREFIX "${label}." DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT PERF_REPORT=off LABELS ${label})

  # The shares of one short run each: alone, so that no other test's load shifts them.
  add_executable(sampler_accuracy_tests_${label} ${dir}/sampling_accuracy_test.cpp ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(sampler_accuracy_tests_${label} PRIVATE GTest::gtest_main)
  target_include_directories(sampler_accuracy_tests_${label} PRIVATE ${PROJECT_SOURCE_DIR}/test/runtime)
  target_compile_options(sampler_accuracy_tests_${label} PRIVATE ${PERF_WARNINGS} ${flags})
  target_link_options(sampler_accuracy_tests_${label} PRIVATE ${flags})
  target_compile_definitions(sampler_accuracy_tests_${label} PRIVATE PERF_SAMPLE_PROBE="$<TARGET_FILE:sample_probe_${label}>")
  add_dependencies(sampler_accuracy_tests_${label} sample_probe_${label})
  gtest_discover_tests(sampler_accuracy_tests_${label} TEST_PREFIX "${label}." DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT PERF_REPORT=off LABELS ${label} RUN_SERIAL TRUE)
endfunction()
