# The live endpoint's tests for one runtime variant (called by perf_add_runtime_tests):
# its pages and its HTTP server in the test's own process, the transport linked in.
function(perf_add_export_tests label runtime)
  set(flags ${ARGN})
  set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  # open_connections is inside libperfexport, which exports only its entry point.
  add_executable(export_tests_${label} ${dir}/listen_address_test.cpp ${dir}/metrics_test.cpp ${dir}/served_metrics_test.cpp
    ${dir}/listen_config_test.cpp ${dir}/server_test.cpp ${dir}/open_connections_test.cpp ${PROJECT_SOURCE_DIR}/runtime/export/http/open_connections.cpp
    ${PERF_SANITIZER_OPTIONS})
  target_sources(export_tests_${label} PRIVATE ${dir}/thread_series_test.cpp ${dir}/descriptors_test.cpp
    ${dir}/default_limits_test.cpp)
  target_link_libraries(export_tests_${label} PRIVATE ${runtime} perf_export perf_harness GTest::gtest_main nlohmann_json::nlohmann_json)
  target_compile_options(export_tests_${label} PRIVATE ${PERF_WARNINGS} ${flags})
  # A daemon closing the descriptors it inherited, the endpoint's among them.
  add_executable(closing_daemon_probe_${label} ${dir}/closing_daemon_probe.cpp ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(closing_daemon_probe_${label} PRIVATE ${runtime} perf_export)
  target_compile_options(closing_daemon_probe_${label} PRIVATE ${PERF_WARNINGS} ${flags})
  target_link_options(closing_daemon_probe_${label} PRIVATE -Wl,--no-as-needed)
  add_dependencies(export_tests_${label} closing_daemon_probe_${label})
  target_compile_definitions(export_tests_${label} PRIVATE PERF_CLOSING_DAEMON_PROBE="$<TARGET_FILE:closing_daemon_probe_${label}>")
  # The runtime finds the transport linked in through a weak reference, which alone
  # would not keep the library on the link.
  target_link_options(export_tests_${label} PRIVATE -Wl,--no-as-needed)
  # pprof fetches the profiles (PERF_GO: sampler_tests.cmake).
  target_compile_definitions(export_tests_${label} PRIVATE PERF_GO="${PERF_GO}")
  # The sanitizers' options are a source (PERF_SANITIZER_OPTIONS), as in every test
  # program: the discovered tests keep one variable of an ENVIRONMENT list.
  gtest_discover_tests(export_tests_${label} TEST_PREFIX "${label}." DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT PERF_REPORT=off LABELS ${label})
  # The heap's pprof pages of a process that samples its heap: the interposer of the
  # same variant (perf_alloc_<label>, test/runtime/alloc) and PERF_HEAP_SAMPLE set.
  add_executable(export_heap_tests_${label} ${dir}/server_heap_test.cpp ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(export_heap_tests_${label} PRIVATE perf_alloc_${label} ${runtime} perf_export perf_harness GTest::gtest_main)
  target_compile_options(export_heap_tests_${label} PRIVATE ${PERF_WARNINGS} -fno-omit-frame-pointer ${flags})
  target_link_options(export_heap_tests_${label} PRIVATE -Wl,--no-as-needed)
  target_compile_definitions(export_heap_tests_${label} PRIVATE PERF_GO="${PERF_GO}")
  # gtest_discover_tests' PROPERTIES flatten an ENVIRONMENT list of two variables into
  # two words: the second variable comes as an ENVIRONMENT_MODIFICATION of its own.
  gtest_discover_tests(export_heap_tests_${label} TEST_PREFIX "${label}." DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT PERF_REPORT=off ENVIRONMENT_MODIFICATION PERF_HEAP_SAMPLE=set:65536 LABELS ${label})
  # Hundreds of connections opened and reopened for a few seconds: alone, so that a
  # busy machine does not stretch the one-second bound it checks.
  add_executable(export_hostile_tests_${label} ${dir}/hostile_clients_test.cpp ${PERF_SANITIZER_OPTIONS})
  target_link_libraries(export_hostile_tests_${label} PRIVATE ${runtime} perf_export perf_harness GTest::gtest_main)
  target_compile_options(export_hostile_tests_${label} PRIVATE ${PERF_WARNINGS} ${flags})
  target_link_options(export_hostile_tests_${label} PRIVATE -Wl,--no-as-needed)
  gtest_discover_tests(export_hostile_tests_${label} TEST_PREFIX "${label}." DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT PERF_REPORT=off LABELS ${label} RUN_SERIAL TRUE)
endfunction()

# A program's view (plain only): the shared libperfrt loading libperfexport from its
# own directory when PERF_LISTEN is set, and nothing when it is not.
set(PERF_EXPORT_SOCKET ${CMAKE_CURRENT_BINARY_DIR}/export_process_test.sock)
add_executable(export_process_tests ${CMAKE_CURRENT_LIST_DIR}/process_test.cpp)
target_link_libraries(export_process_tests PRIVATE perf::alloc perf_harness GTest::gtest_main nlohmann_json::nlohmann_json)
target_compile_options(export_process_tests PRIVATE ${PERF_WARNINGS})
target_compile_definitions(export_process_tests PRIVATE PERF_TEST_SOCKET="${PERF_EXPORT_SOCKET}")
add_test(NAME plain.Process.NoListenNothingLoaded COMMAND export_process_tests --gtest_filter=Process.NoListenNothingLoaded)
add_test(NAME plain.Process.ListenServes COMMAND export_process_tests --gtest_filter=Process.*:-Process.NoListenNothingLoaded)
set_tests_properties(plain.Process.NoListenNothingLoaded PROPERTIES ENVIRONMENT PERF_REPORT=off LABELS plain)
set_tests_properties(plain.Process.ListenServes PROPERTIES
  ENVIRONMENT "PERF_REPORT=off;PERF_LISTEN=${PERF_EXPORT_SOCKET};PERF_SAMPLE_HZ=1000" LABELS plain)
