// PERF_REPORT: what each value means, and the warning for a bad one.
#include "exit_report/report_destination.hpp"
#include "exit_report/test_listing.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "fake_environment.hpp"

namespace perf::runtime {
namespace {

report_destination parse_report(const std::map<std::string, std::string>& environment) {
  return parse_report_destination(fake_environment(environment));
}

using where = report_destination::kind;

TEST(ReportDestination, ReportGoesToStderrByDefault) {
  const report_destination c = parse_report({});
  EXPECT_EQ(c.where, where::standard_error);
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(parse_report({{"PERF_REPORT", ""}}).where, where::standard_error);
  EXPECT_EQ(parse_report({{"PERF_REPORT", "stderr"}}).where, where::standard_error);
}

TEST(ReportDestination, OffDisablesTheReport) { EXPECT_EQ(parse_report({{"PERF_REPORT", "off"}}).where, where::off); }

TEST(ReportDestination, APathSelectsAFileAndKeepsThePidPattern) {
  const report_destination c = parse_report({{"PERF_REPORT", "out/report-%p.json"}});
  EXPECT_EQ(c.where, where::file);
  EXPECT_EQ(c.path, "out/report-%p.json");
}

TEST(ReportDestination, ADirectoryIsRejectedWithAWarningNamingTheVariable) {
  const report_destination c = parse_report({{"PERF_REPORT", "/tmp/"}});
  EXPECT_EQ(c.where, where::standard_error);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], "PERF_REPORT='/tmp/' names a directory, not a file; the report goes to stderr");
}

TEST(TestListing, TheListingFlagsOfGoogleTestCatch2AndDoctestOnly) {
  for (const char* flag : {"--gtest_list_tests", "--gtest_list_tests=1", "--gtest_list_tests=true", "--list-tests",
                           "--list-test-names-only", "--list-tags", "--list-reporters", "--list-listeners",
                           "--list-test-cases", "--list-test-suites", "--dt-list-test-cases"})
    EXPECT_TRUE(lists_tests_only({"tests", "--gtest_filter=A.*", flag})) << flag;
  for (const char* other : {"--gtest_list_tests=0", "--gtest_list_tests=false", "--gtest_list_tests=F", "-l", "-t",
                            "-ltc", "--list", "--list-tests-please", "list-tests", "--gtest_list_testsx"})
    EXPECT_FALSE(lists_tests_only({"tests", other})) << other;
  EXPECT_FALSE(lists_tests_only({"--gtest_list_tests"}));  // the program's name
  EXPECT_FALSE(lists_tests_only({}));
}

TEST(TestListing, TheProcessArgumentsAreThisProgramsOwn) {
  const std::vector<std::string> arguments = process_arguments();
  ASSERT_FALSE(arguments.empty());
  EXPECT_NE(arguments[0].find("runtime_tests_"), std::string::npos) << arguments[0];
}

}  // namespace
}  // namespace perf::runtime
