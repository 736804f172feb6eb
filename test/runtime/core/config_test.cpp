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

TEST(Config, ClockIsPassedThroughForTheClockChooser) {
  EXPECT_EQ(parse({{"PERF_CLOCK", "tsc-fenced"}}).clock, "tsc-fenced");
}

TEST(Config, TicksOffTurnsTheTickLogOffAndABadValueKeepsItOn) {
  EXPECT_TRUE(parse({}).ticks);
  EXPECT_FALSE(parse({{"PERF_TICKS", "off"}}).ticks);
  const config c = parse({{"PERF_TICKS", "maybe"}});
  EXPECT_TRUE(c.ticks);
  EXPECT_EQ(c.warnings, std::vector<std::string>{"PERF_TICKS='maybe' is neither on nor off; the tick log stays on"});
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
