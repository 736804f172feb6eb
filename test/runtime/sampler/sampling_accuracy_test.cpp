// The sampler's shares against known CPU splits at 1 kHz, from each source. These
// tests run alone (RUN_SERIAL): each judges one run of about 0.4 s of CPU time.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sampler/sample_probe_summary.hpp"

namespace perf::testing {
namespace {

// The shares need samples taken where the signal arrives; ThreadSanitizer delivers a
// signal only when the thread next enters its runtime (a spin loop never does).
#if !defined(__SANITIZE_THREAD__)

const std::string heavy = "(anonymous namespace)::three_quarters(unsigned long)";
const std::string light = "(anonymous namespace)::one_quarter(unsigned long)";

class SamplingAccuracy : public ProbeTest {};

// Runs the probe at 1 kHz from `source` with a quarter of its work: about 0.4 s.
probe_summary run_quarter(const std::string& source, const std::string& scenario) {
  const probe_result run = run_sample_probe("PERF_SAMPLE_HZ=1000 PERF_SAMPLE_SOURCE=" + source, scenario + " 0.25");
  EXPECT_EQ(run.status, 0) << run.output;
  return parse_summary(run.output);
}

// One sample per millisecond of CPU time at 1 kHz, within 5%: at least one per
// millisecond of main()'s (the sampler starts before main), at most one per
// millisecond of the whole process's (whose start-up, tens of milliseconds under a
// sanitizer, comes before the sampler's).
void expect_samples_match_cpu_time(const probe_summary& s) {
  EXPECT_GE(static_cast<double>(s.total), 0.95 * s.main_cpu_ms) << "cpu_ms " << s.cpu_ms;
  EXPECT_LE(static_cast<double>(s.total), 1.05 * s.cpu_ms) << "main_cpu_ms " << s.main_cpu_ms;
}

double first_share(const probe_summary& s, const std::string& first, const std::string& second) {
  const double a = static_cast<double>(s.functions.count(first) ? s.functions.at(first) : 0);
  const double b = static_cast<double>(s.functions.count(second) ? s.functions.at(second) : 0);
  return a + b == 0 ? 0 : a / (a + b);
}

TEST_F(SamplingAccuracy, TaskClockEventReadsTheThreeToOneSplitWithinThreePoints) {
  const probe_summary s = run_quarter("perf_event", "ratio");
  if (s.source != "perf_event") GTEST_SKIP() << "perf_event_open is refused here: the timers sampled";
  ASSERT_GT(s.total, 300u);
  EXPECT_NEAR(first_share(s, heavy, light), 0.75, 0.03) << "total " << s.total;
  // One signal, one sample: the interval is as narrow as the samples allow, and holds 3/4.
  EXPECT_EQ(s.interrupts, s.total);
  ASSERT_EQ(s.intervals.count(heavy), 1u);
  EXPECT_LE(s.intervals.at(heavy).first, 0.75);
  EXPECT_GE(s.intervals.at(heavy).second, 0.75);
  expect_samples_match_cpu_time(s);
}

TEST_F(SamplingAccuracy, TaskClockEventReadsTheOneToTwoSplitAcrossThreadsWithinThreePoints) {
  const probe_summary s = run_quarter("perf_event", "threads");
  if (s.source != "perf_event") GTEST_SKIP() << "perf_event_open is refused here: the timers sampled";
  uint64_t light_thread = 0, heavy_thread = 0;
  for (const auto& [tid, entry] : s.threads) {
    if (entry.second == "(anonymous namespace)::light_thread_work()") light_thread = entry.first;
    if (entry.second == "(anonymous namespace)::heavy_thread_work()") heavy_thread = entry.first;
  }
  ASSERT_GT(light_thread + heavy_thread, 300u) << "total " << s.total;
  EXPECT_NEAR(static_cast<double>(light_thread) / static_cast<double>(light_thread + heavy_thread), 1.0 / 3, 0.03);
  expect_samples_match_cpu_time(s);
}

// The fallback's signals come at the kernel's tick: fewer interrupts than samples
// above its rate, and an interval as wide as that evidence, which still holds 3/4.
TEST_F(SamplingAccuracy, TimerFallbackCountsItsInterruptsAndItsIntervalHoldsTheSplit) {
  const probe_summary s = run_quarter("timer", "ratio");
  EXPECT_EQ(s.source, "timer");
  ASSERT_GT(s.total, 300u);
  EXPECT_GT(s.interrupts, 0u);
  EXPECT_LE(s.interrupts, s.total);
  ASSERT_EQ(s.intervals.count(heavy), 1u);
  EXPECT_LE(s.intervals.at(heavy).first, 0.75);
  EXPECT_GE(s.intervals.at(heavy).second, 0.75);
  expect_samples_match_cpu_time(s);
}

#endif  // !defined(__SANITIZE_THREAD__)

}  // namespace
}  // namespace perf::testing
