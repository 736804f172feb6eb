// A run of a test program that only lists its tests: test discovery (CMake's
// gtest_discover_tests, catch_discover_tests, doctest_discover_tests) runs every test
// program, at build time or before the tests, with a listing flag. Such a run writes
// no exit report.
#ifndef PERF_RUNTIME_EXIT_REPORT_TEST_LISTING_HPP
#define PERF_RUNTIME_EXIT_REPORT_TEST_LISTING_HPP

#include <string>
#include <vector>

namespace perf::runtime {

// Whether `arguments` (the program's name first) hold a flag that makes GoogleTest,
// Catch2 or doctest list tests, tags or reporters and exit: GoogleTest's
// --gtest_list_tests (not =0, =f, =false), Catch2's --list-tests, --list-test-names-only,
// --list-tags, --list-reporters and --list-listeners, doctest's --list-test-cases and
// --list-test-suites (also spelled --dt-...). Their short forms (-l, -t, -ltc) do not
// count: other programs use them too.
bool lists_tests_only(const std::vector<std::string>& arguments);

// The process's arguments, from /proc/self/cmdline as the process started; empty when
// it cannot be read.
std::vector<std::string> process_arguments();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXIT_REPORT_TEST_LISTING_HPP
