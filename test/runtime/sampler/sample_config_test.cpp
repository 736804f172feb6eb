#include "sampler/sample_config.hpp"

#include <gtest/gtest.h>

#include "fake_environment.hpp"

#include <map>

namespace perf::runtime {
namespace {

sample_config parse(const std::map<std::string, std::string>& environment) {
  return parse_sample_config(fake_environment(environment));
}

TEST(SampleConfig, Defaults) {
  const sample_config c = parse({});
  EXPECT_EQ(c.hz, 100u);
  EXPECT_EQ(c.clock, sample_clock::cpu);
  EXPECT_EQ(c.depth, 128u);
  EXPECT_EQ(c.source, sample_source::perf_event);
  EXPECT_EQ(c.profile_path, "");
  EXPECT_TRUE(c.warnings.empty());
}

TEST(SampleConfig, ReadsEveryVariable) {
  const sample_config c = parse({{"PERF_SAMPLE_HZ", "0"},
                                 {"PERF_SAMPLE_CLOCK", "wall"},
                                 {"PERF_SAMPLE_DEPTH", "256"},
                                 {"PERF_PROFILE", "out-%p.pb.gz"},
                                 {"PERF_SAMPLE_SOURCE", "timer"}});
  EXPECT_EQ(c.hz, 0u);
  EXPECT_EQ(c.source, sample_source::timer);
  EXPECT_EQ(c.clock, sample_clock::wall);
  EXPECT_EQ(c.depth, 256u);
  EXPECT_EQ(c.profile_path, "out-%p.pb.gz");
  EXPECT_TRUE(c.warnings.empty());
}

TEST(SampleConfig, NamesEachValueItCannotUse) {
  const sample_config c = parse({{"PERF_SAMPLE_HZ", "10001"},
                                 {"PERF_SAMPLE_CLOCK", "cycles"},
                                 {"PERF_SAMPLE_DEPTH", "0"},
                                 {"PERF_SAMPLE_SOURCE", "hrtimer"}});
  EXPECT_EQ(c.hz, 100u);
  EXPECT_EQ(c.clock, sample_clock::cpu);
  EXPECT_EQ(c.depth, 128u);
  EXPECT_EQ(c.warnings, (std::vector<std::string>{
                            "PERF_SAMPLE_HZ='10001' is not a number from 0 to 10000; using 100",
                            "PERF_SAMPLE_DEPTH='0' is not a number from 1 to 256; using 128",
                            "PERF_SAMPLE_CLOCK='cycles' is neither cpu nor wall; using cpu",
                            "PERF_SAMPLE_SOURCE='hrtimer' is neither perf_event nor timer; using perf_event",
                        }));
  EXPECT_EQ(c.source, sample_source::perf_event);
}

}  // namespace
}  // namespace perf::runtime
