// perf-report on rows timed on a sample of their calls (PERF_TIMING=adaptive):
// reading timed_calls and the mean's interval, merging them, and a diff that knows
// an estimated mean's sampling error.
#include <gtest/gtest.h>

#include <cmath>

#include "diff.hpp"
#include "merge.hpp"
#include "sample_reports.hpp"

namespace perf::perf_report {
namespace {

using testing::durations;
using testing::function_row;
using testing::parsed;
using testing::report_json;
using testing::sampled_row;

report one(long pid, std::vector<nlohmann::json> rows) { return parsed(report_json(pid, 2.0, rows)); }

TEST(SampledRows, ReadTimedCallsAndTheMeansInterval) {
  const nlohmann::json row = sampled_row("f", durations(1, 1000), 1'000'000, 2.0);
  const function_record f = one(1, {row}).functions.at(0);
  EXPECT_EQ(f.calls, 1'000'000u);
  EXPECT_EQ(f.timed_calls, 1000u);
  EXPECT_TRUE(f.estimated());
  EXPECT_EQ(f.call_mean_ns, row["mean_ns"].get<double>());
  EXPECT_EQ(f.call_mean_low_ns, row["mean_ns_low"].get<double>());
  EXPECT_EQ(f.call_mean_high_ns, row["mean_ns_high"].get<double>());
  EXPECT_NEAR(f.call_mean_standard_error_ns(), (f.call_mean_high_ns - f.call_mean_ns) / 1.96, 1e-3);
}

TEST(SampledRows, AReportWithoutTimedCallsTimedEveryCall) {
  nlohmann::json row = function_row("f", durations(1, 100), 2.0);
  const function_record f = one(1, {row}).functions.at(0);
  EXPECT_EQ(f.timed_calls, 100u);
  EXPECT_FALSE(f.estimated());
  EXPECT_EQ(f.call_mean_ns, f.mean_ns);
  EXPECT_EQ(f.call_mean_low_ns, f.mean_ns);
  EXPECT_EQ(f.call_mean_high_ns, f.mean_ns);
}

TEST(SampledRows, BadTimedCallsAreNamed) {
  nlohmann::json above = function_row("f", durations(1, 100), 2.0);
  above["timed_calls"] = 101;
  EXPECT_THROW(
      {
        try {
          one(1, {above});
        } catch (const input_error& e) {
          EXPECT_STREQ(e.what(), "made.json: functions[0] \"timed_calls\" is above \"calls\"");
          throw;
        }
      },
      input_error);
  nlohmann::json miscounted = sampled_row("f", durations(1, 100), 1000, 2.0);
  miscounted["timed_calls"] = 99;
  EXPECT_THROW(
      {
        try {
          one(1, {miscounted});
        } catch (const input_error& e) {
          EXPECT_STREQ(e.what(), "made.json: functions[0] \"histogram\" counts 100 calls, \"timed_calls\" says 99");
          throw;
        }
      },
      input_error);
  nlohmann::json outside = sampled_row("f", durations(1, 100), 1000, 2.0);
  outside["mean_ns_low"] = outside["mean_ns"].get<double>() + 1;
  EXPECT_THROW(
      {
        try {
          one(1, {outside});
        } catch (const input_error& e) {
          EXPECT_STREQ(e.what(),
                       "made.json: functions[0] \"mean_ns\" is not between \"mean_ns_low\" and \"mean_ns_high\"");
          throw;
        }
      },
      input_error);
}

// Counts add up; the moments are the timed calls'; the mean of every call is the
// calls-weighted mean, its standard error sqrt((C_a se_a)^2 + (C_b se_b)^2) / (C_a + C_b).
TEST(SampledRows, MergeSumsTheCountsAndCombinesTheEstimates) {
  const report a = one(1, {sampled_row("f", durations(1, 1000), 1'000'000, 2.0)});
  const report b = one(2, {sampled_row("f", durations(2, 500, 600), 3'000'000, 2.0)});
  const report merged = merge_reports({a, b});
  const function_record &m = merged.functions.at(0), &fa = a.functions.at(0), &fb = b.functions.at(0);
  EXPECT_EQ(m.calls, 4'000'000u);
  EXPECT_EQ(m.timed_calls, 1500u);
  EXPECT_EQ(m.durations.count(), 1500u);
  EXPECT_NEAR(m.call_mean_ns, (1 * fa.call_mean_ns + 3 * fb.call_mean_ns) / 4, 1e-9);
  const double error = std::hypot(1 * fa.call_mean_standard_error_ns(), 3 * fb.call_mean_standard_error_ns()) / 4;
  EXPECT_NEAR(m.call_mean_standard_error_ns(), error, 1e-9);
  EXPECT_NEAR(m.mean_ns, (1000 * fa.mean_ns + 500 * fb.mean_ns) / 1500, 1e-9) << "the timed calls' mean";
  const nlohmann::json row = to_json(merged)["functions"][0];
  EXPECT_EQ(row["timed_calls"], 1500);
  EXPECT_EQ(row["calls"], 4'000'000);
  EXPECT_EQ(row["mean_ns_low"], std::round(m.call_mean_low_ns * 10) / 10);
  EXPECT_EQ(row["mean_ns_high"], std::round(m.call_mean_high_ns * 10) / 10);
}

std::vector<uint64_t> scaled(std::vector<uint64_t> ticks, double factor) {
  for (uint64_t& t : ticks) t = static_cast<uint64_t>(std::llround(static_cast<double>(t) * factor));
  return ticks;
}

// A function timed on 50 of its million calls on each side: a mean 6% slower is
// within the estimates' sampling error (each interval about +-7%), no change; one 50%
// slower is beyond it. (Judged by the million calls, the 6% would be a change.)
TEST(SampledRows, DiffFlagsNoChangeInsideTheEstimatesIntervals) {
  const auto base = durations(1, 50, 300);
  const report before = one(1, {sampled_row("f", base, 1'000'000, 2.0)});
  const diff_result inside =
      diff_reports({before}, {one(2, {sampled_row("f", scaled(base, 1.06), 1'000'000, 2.0)})}, {});
  ASSERT_EQ(inside.functions.size(), 1u);
  EXPECT_NEAR(inside.functions[0][metric::mean].ratio(), 1.06, 0.001);
  EXPECT_FALSE(inside.functions[0][metric::mean].beyond_noise);
  EXPECT_FALSE(inside.functions[0][metric::self].beyond_noise);
  const diff_result beyond =
      diff_reports({before}, {one(2, {sampled_row("f", scaled(base, 1.5), 1'000'000, 2.0)})}, {});
  EXPECT_TRUE(beyond.functions.at(0)[metric::mean].beyond_noise);
}

}  // namespace
}  // namespace perf::perf_report
