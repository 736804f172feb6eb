// The tick log's PERF_* variables: what each value means, and the warning for a bad one.
#include "ticklog/ticklog_config.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "fake_environment.hpp"

namespace perf::runtime {
namespace {

ticklog_config parse_ticklog(const std::map<std::string, std::string>& environment) {
  return parse_ticklog_config(fake_environment(environment));
}

TEST(TicklogConfig, DefaultsWithNothingSet) {
  const ticklog_config c = parse_ticklog({});
  EXPECT_EQ(c.ring_events, default_ring_events);
  EXPECT_EQ(c.rings_kept, default_rings_kept);
  EXPECT_EQ(c.ticklog_path, "");
  EXPECT_EQ(c.trace_path, "");
  EXPECT_TRUE(c.trace_stream);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(TicklogConfig, AStreamedTraceGetsTwiceTheRingUnlessRingEventsIsSet) {
  EXPECT_EQ(parse_ticklog({{"PERF_TRACE", "run.pftrace"}}).ring_events, 131072u);
  EXPECT_EQ(parse_ticklog({{"PERF_TRACE", "run.perfetto-trace"}}).ring_events, 131072u);
  EXPECT_EQ(parse_ticklog({{"PERF_TRACE", "run.pftrace"}, {"PERF_RING_EVENTS", "1000"}}).ring_events, 1024u);
  EXPECT_EQ(parse_ticklog({{"PERF_TRACE", "run.pftrace"}, {"PERF_TRACE_STREAM", "off"}}).ring_events, 65536u);
  EXPECT_EQ(parse_ticklog({{"PERF_TRACE", "run.json"}}).ring_events, 65536u);
  EXPECT_EQ(parse_ticklog({{"PERF_TICKLOG", "ticks.txt"}}).ring_events, 65536u);
}

TEST(TicklogConfig, RingEventsRoundUpToAPowerOfTwoOfAtLeastSixteen) {
  EXPECT_EQ(parse_ticklog({{"PERF_RING_EVENTS", "1"}}).ring_events, 16u);
  EXPECT_EQ(parse_ticklog({{"PERF_RING_EVENTS", "1000"}}).ring_events, 1024u);
}

TEST(TicklogConfig, TheRingThatKeepsEveryEventOfAThread) {
  EXPECT_EQ(ring_events_for(100), 128u);
  EXPECT_EQ(ring_events_for(128), 128u);
  EXPECT_EQ(ring_events_for(3), 16u);
  EXPECT_TRUE(ring_keeps_all(max_ring_events));
  EXPECT_EQ(ring_events_for(max_ring_events + 1), max_ring_events);
  EXPECT_FALSE(ring_keeps_all(max_ring_events + 1));
}

TEST(TicklogConfig, BadCountsWarnNamingTheVariableAndKeepTheDefaults) {
  const ticklog_config c = parse_ticklog({{"PERF_RING_EVENTS", "0"}, {"PERF_RINGS_KEPT", "lots"}});
  EXPECT_EQ(c.ring_events, default_ring_events);
  EXPECT_EQ(c.rings_kept, default_rings_kept);
  EXPECT_EQ(c.warnings,
            (std::vector<std::string>{"PERF_RING_EVENTS='0' is not a count from 1 to 268435456; using 65536",
                                      "PERF_RINGS_KEPT='lots' is not a count from 0 to 4096; using 8"}));
}

TEST(TicklogConfig, TraceStreamIsOnOrOffAndWarnsOtherwise) {
  EXPECT_FALSE(parse_ticklog({{"PERF_TRACE_STREAM", "off"}}).trace_stream);
  EXPECT_TRUE(parse_ticklog({{"PERF_TRACE_STREAM", "on"}}).trace_stream);
  const ticklog_config c = parse_ticklog({{"PERF_TRACE_STREAM", "no"}});
  EXPECT_TRUE(c.trace_stream);
  EXPECT_EQ(c.warnings, (std::vector<std::string>{"PERF_TRACE_STREAM='no' is neither on nor off; using on"}));
}

TEST(TicklogConfig, PathsKeepThePidPattern) {
  const ticklog_config c =
      parse_ticklog({{"PERF_TICKLOG", "t-%p.txt"}, {"PERF_TRACE", "t-%p.json"}, {"PERF_RINGS_KEPT", "0"}});
  EXPECT_EQ(c.ticklog_path, "t-%p.txt");
  EXPECT_EQ(c.trace_path, "t-%p.json");
  EXPECT_EQ(c.rings_kept, 0u);
}

}  // namespace
}  // namespace perf::runtime
