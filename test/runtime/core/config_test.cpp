// PERF_* environment variables: what each value means, and the warning for a bad one.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/config.hpp"
#include "fake_environment.hpp"

namespace perf::runtime {
namespace {

config parse(const std::map<std::string, std::string>& environment) {
  return parse_config(fake_environment(environment));
}

using kind = report_destination::kind;

TEST(Config, ReportGoesToStderrByDefault) {
  const config c = parse({});
  EXPECT_EQ(c.report.where, kind::standard_error);
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(parse({{"PERF_REPORT", ""}}).report.where, kind::standard_error);
  EXPECT_EQ(parse({{"PERF_REPORT", "stderr"}}).report.where, kind::standard_error);
}

TEST(Config, OffDisablesTheReport) { EXPECT_EQ(parse({{"PERF_REPORT", "off"}}).report.where, kind::off); }

TEST(Config, APathSelectsAFileAndKeepsThePidPattern) {
  const config c = parse({{"PERF_REPORT", "out/report-%p.json"}});
  EXPECT_EQ(c.report.where, kind::file);
  EXPECT_EQ(c.report.path, "out/report-%p.json");
}

TEST(Config, ADirectoryIsRejectedWithAWarningNamingTheVariable) {
  const config c = parse({{"PERF_REPORT", "/tmp/"}});
  EXPECT_EQ(c.report.where, kind::standard_error);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], "PERF_REPORT='/tmp/' names a directory, not a file; the report goes to stderr");
}

TEST(Config, ClockIsPassedThroughForTheClockChooser) {
  EXPECT_EQ(parse({{"PERF_CLOCK", "tsc-fenced"}}).clock, "tsc-fenced");
}

TEST(ExpandPid, ReplacesEveryPercentP) {
  EXPECT_EQ(expand_pid("r-%p.json", 1234), "r-1234.json");
  EXPECT_EQ(expand_pid("%p/%p", 7), "7/7");
  EXPECT_EQ(expand_pid("100%", 7), "100%");
  EXPECT_EQ(expand_pid("plain", 7), "plain");
}

TEST(ExpandPid, IntoABufferSaysWhenItDoesNotFit) {
  char out[12];
  ASSERT_TRUE(expand_pid("d-%p.txt", 12345, out, sizeof out));
  EXPECT_STREQ(out, "d-12345.txt");
  EXPECT_FALSE(expand_pid("d-%p.txt", 123456, out, sizeof out));  // 12 bytes and the NUL
  EXPECT_TRUE(expand_pid("", 1, out, 1));
  EXPECT_STREQ(out, "");
}

}  // namespace
}  // namespace perf::runtime
