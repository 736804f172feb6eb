// The runner on a fake clock (fake_clock.hpp): exact ratios, intervals, orders and
// stop reasons. Plus one real-clock run that checks only what noise cannot change.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "compare/fake_clock.hpp"
#include "compare/round_order.hpp"
#include "perf/compare.hpp"

namespace perf {
namespace {

using testing::fake_clock;

// The costs that make a candidate's 20 recorded batches last 101..120 ns, shuffled;
// the first cost is the calibration call's.
std::vector<std::uint64_t> costs_of_101_to_120() {
  const std::vector<std::uint64_t> durations = {113, 104, 120, 101, 117, 108, 111, 102, 119, 106,
                                                115, 110, 103, 118, 105, 112, 109, 116, 107, 114};
  std::vector<std::uint64_t> costs = {99};
  for (std::uint64_t duration : durations) costs.push_back(duration - 1);
  return costs;
}

// Stops after exactly `rounds` rounds: any finite interval is precise enough.
comparison_options stopping_after(fake_clock& clock, std::size_t rounds) {
  comparison_options options = clock.options();
  options.min_rounds = rounds;
  options.precision = 1;
  return options;
}

TEST(Comparison, RatioIsTheMedianAndIntervalTheSignTestOrderStatistics) {
  fake_clock clock;
  comparison c(stopping_after(clock, 20));
  c.reference("ref", clock.constant(99)).candidate("cand", clock.scripted(costs_of_101_to_120()));
  const comparison_result result = c.run();

  EXPECT_EQ(result.stop, stop_reason::precision);
  EXPECT_EQ(result.rounds, 20u);
  EXPECT_EQ(result.batch_calls, 1u);
  // Sorted ratios 1.01 .. 1.20: the median between the 10th and 11th, the interval
  // from the 6th to the 15th (sign_test_rank(20, 0.05) = 6).
  EXPECT_NEAR(result.ratio("cand"), std::sqrt(1.10 * 1.11), 1e-12);
  EXPECT_NEAR(result.interval("cand").lower, 1.06, 1e-12);
  EXPECT_NEAR(result.interval("cand").upper, 1.15, 1e-12);
  EXPECT_EQ(result.row("cand").outlier_rounds, 0u);
  EXPECT_EQ(result.row("cand").batch_ns.front(), 113u);
  EXPECT_EQ(result.row("cand").batch_ns.back(), 114u);
  EXPECT_EQ(result.row("ref").batch_ns, std::vector<std::uint64_t>(20, 100));
  EXPECT_EQ(result.row("ref").ns_per_call, 100);
  EXPECT_EQ(result.row("ref").spread, 0);
  EXPECT_TRUE(result.row("ref").is_reference);
  EXPECT_EQ(result.ratio("ref"), 1);
  EXPECT_EQ(result.row("cand").ns_per_call, 110.5);
  EXPECT_NEAR(result.row("cand").spread, (115.25 - 105.75) / 2 / 110.5, 1e-12);
}

TEST(Comparison, SeveralCandidatesWidenEveryIntervalByBonferroni) {
  fake_clock clock;
  comparison c(stopping_after(clock, 20));  // five Williams cycles of four callables
  c.reference("ref", clock.constant(99));
  for (const char* name : {"a", "b", "c"}) c.candidate(name, clock.scripted(costs_of_101_to_120()));
  const comparison_result result = c.run();
  ASSERT_EQ(result.rounds, 20u);
  // alpha 0.05 / 3 for each: sign_test_rank(20, 0.05 / 3) = 5, the 5th and 16th of 1.01 .. 1.20.
  for (const char* name : {"a", "b", "c"}) {
    SCOPED_TRACE(name);
    EXPECT_NEAR(result.interval(name).lower, 1.05, 1e-12);
    EXPECT_NEAR(result.interval(name).upper, 1.16, 1e-12);
  }
}

TEST(Comparison, OutlyingRoundsAreCountedAndKept) {
  fake_clock clock;
  std::vector<std::uint64_t> costs = costs_of_101_to_120();
  costs[3] = 9999;  // the third round: 10000 ns instead of 120
  comparison c(stopping_after(clock, 20));
  c.reference("ref", clock.constant(99)).candidate("cand", clock.scripted(costs));
  const comparison_result result = c.run();
  EXPECT_EQ(result.row("cand").outlier_rounds, 1u);
  EXPECT_EQ(result.row("cand").batch_ns.size(), 20u);
  EXPECT_EQ(result.row("cand").batch_ns[2], 10000u);
  EXPECT_NEAR(result.ratio("cand"), std::sqrt(1.10 * 1.11), 1e-12);  // the median does not move
}

TEST(Comparison, RoundsFollowTheWilliamsDesignAndStopAtWholeCycles) {
  fake_clock clock;
  std::vector<std::size_t> calls;
  auto recording = [&](std::size_t index) {
    return [&clock, &calls, index] {
      calls.push_back(index);
      clock.now += 50;
    };
  };
  comparison_options options = clock.options();
  options.min_rounds = 7;  // equal costs: precise at the first check, after 12 rounds (two cycles of 6)
  comparison c(options);
  c.reference("ref", recording(0)).candidate("a", recording(1)).candidate("b", recording(2));
  const comparison_result result = c.run();
  EXPECT_EQ(result.stop, stop_reason::precision);
  ASSERT_EQ(result.rounds, 12u);
  std::vector<std::size_t> expected = {0, 1, 2};  // calibration
  const auto design = compare_impl::williams_design(3);
  for (std::size_t round = 0; round < 12; ++round)
    expected.insert(expected.end(), design[round % 6].begin(), design[round % 6].end());
  EXPECT_EQ(calls, expected);
  EXPECT_EQ(result.interval("a").lower, 1);
  EXPECT_EQ(result.interval("a").upper, 1);
}

TEST(Comparison, WarmUpRoundsAreRunButNotRecorded) {
  fake_clock clock;
  comparison_options options = stopping_after(clock, 20);
  options.warmup_rounds = 3;
  // Calibration, three warm-up rounds at 1000 ns, then the 20 recorded durations.
  std::vector<std::uint64_t> costs = costs_of_101_to_120();
  costs.insert(costs.begin() + 1, {999, 999, 999});
  comparison c(options);
  c.reference("ref", clock.constant(99)).candidate("cand", clock.scripted(costs));
  const comparison_result result = c.run();
  EXPECT_EQ(result.row("cand").batch_ns.size(), 20u);
  EXPECT_EQ(result.row("cand").batch_ns.front(), 113u);
  EXPECT_NEAR(result.ratio("cand"), std::sqrt(1.10 * 1.11), 1e-12);
}

TEST(Comparison, BatchIsCalibratedToTheClockResolutionForTheFastestCallable) {
  fake_clock clock;
  comparison_options options = stopping_after(clock, 10);
  options.batch_resolutions = 1000;  // the fake clock's resolution is 1 ns
  comparison c(options);
  c.reference("ref", clock.constant(100)).candidate("fast", clock.constant(30));
  const comparison_result result = c.run();
  EXPECT_EQ(result.batch_calls, 64u);  // 30 × 32 + 1 < 1000 <= 30 × 64 + 1
  EXPECT_EQ(result.row("fast").batch_ns.front(), 30u * 64 + 1);
  EXPECT_NEAR(result.ratio("fast"), (30.0 * 64 + 1) / (100 * 64 + 1), 1e-12);
}

TEST(Comparison, BudgetStopsARunThatNeverGetsPrecise) {
  fake_clock clock;
  comparison_options options = clock.options();
  options.budget = std::chrono::nanoseconds(2000);
  comparison c(options);
  c.reference("ref", clock.constant(99)).candidate("noisy", clock.scripted({50, 150}));
  const comparison_result result = c.run();
  EXPECT_EQ(result.stop, stop_reason::budget);
  EXPECT_GT(result.rounds, 0u);
  EXPECT_LT(result.rounds, options.min_rounds);  // never checked for precision
  // Started at 1; stopped by the first round that ended past 1 + 2000, a round lasting at most 255.
  EXPECT_GE(clock.now, 2001u);
  EXPECT_LT(clock.now, 2001u + 255);
  EXPECT_NE(result.table().find("stopped: time budget spent before every interval was within ±1%"), std::string::npos);
}

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& error) { return error.what(); }
  return "no exception";
}

TEST(Comparison, CheckResultsAcceptsEqualResults) {
  fake_clock clock;
  comparison_options options = stopping_after(clock, 10);
  options.check_results = true;
  comparison c(options);
  c.reference("a", [&] {
    clock.now += 10;
    return std::string("same");
  });
  c.candidate("b", [&] {
    clock.now += 20;
    return std::string("same");
  });
  EXPECT_NEAR(c.run().ratio("b"), 21.0 / 11, 1e-12);
}

TEST(Comparison, CheckResultsRejectsADifferentResult) {
  fake_clock clock;
  comparison_options options = clock.options();
  options.check_results = true;
  comparison c(options);
  c.reference("a", [&] {
    clock.now += 10;
    return 42;
  });
  c.candidate("b", [&] {
    clock.now += 10;
    return 42;
  });
  c.candidate("c", [&] {
    clock.now += 10;
    return 43;
  });
  EXPECT_EQ(error_of([&] { c.run(); }),
            "perf::comparison: check_results: 'c' returned another result than the reference 'a'");
}

TEST(Comparison, CheckResultsRejectsAnotherTypeAndAReferenceWithoutResult) {
  fake_clock clock;
  comparison_options options = clock.options();
  options.check_results = true;
  comparison typed(options);
  typed.reference("a", [] { return 1; }).candidate("b", [] { return 1L; });
  EXPECT_EQ(error_of([&] { typed.run(); }),
            "perf::comparison: check_results: 'b' returns another type than the reference 'a'");
  comparison silent(options);
  silent.reference("a", [] {}).candidate("b", [] { return 1; });
  EXPECT_EQ(error_of([&] { silent.run(); }), "perf::comparison: check_results: the reference 'a' returns nothing");
}

TEST(Comparison, MisuseIsReportedByName) {
  comparison c;
  c.reference("a", [] { return 1; });
  EXPECT_EQ(error_of([&] { c.run(); }), "perf::comparison: run() needs a reference and at least one candidate");
  EXPECT_EQ(error_of([&] { c.candidate("a", [] { return 2; }); }), "perf::comparison: two callables named 'a'");
  EXPECT_EQ(error_of([&] { c.reference("z", [] { return 2; }); }), "perf::comparison: a second reference 'z'");
  comparison_result result;
  EXPECT_EQ(error_of([&] { result.ratio("nobody"); }), "perf::comparison_result: no callable named 'nobody'");
}

TEST(Comparison, WorkOptimisedAwayIsReportedNotLoopedOnForever) {
  fake_clock clock;
  comparison_options options = clock.options();
  options.batch_resolutions = 1000;
  comparison c(options);
  c.reference("empty", [] {}).candidate("also empty", [] {});
  EXPECT_EQ(error_of([&] { c.run(); }),
            "perf::comparison: 'empty' takes no measurable time: was its work optimised away? Return its result.");
}

TEST(Comparison, SeriesTimesPowersOfTenCallsInterleaved) {
  fake_clock clock;
  comparison c(clock.options());
  c.reference("ten", clock.constant(10)).candidate("twenty", clock.constant(20));
  EXPECT_EQ(c.series(2, 2).csv(),
            "name,exponent,calls,sample,ns_per_call\n"
            "ten,0,1,0,11\ntwenty,0,1,0,21\nten,0,1,1,11\ntwenty,0,1,1,21\n"
            "ten,1,10,0,10.1\ntwenty,1,10,0,20.1\nten,1,10,1,10.1\ntwenty,1,10,1,20.1\n"
            "ten,2,100,0,10.01\ntwenty,2,100,0,20.01\nten,2,100,1,10.01\ntwenty,2,100,1,20.01\n");
}

// The children re-execute this test binary with its arguments (one test under ctest) and
// measure on a fresh fake clock of their own: the same ratio, exactly.
TEST(Comparison, ProcessesRepeatTheMeasurementInChildren) {
  fake_clock clock;
  comparison_options options = stopping_after(clock, 20);
  options.processes = 3;
  comparison c(options);
  c.reference("ref", clock.constant(99)).candidate("cand", clock.scripted(costs_of_101_to_120()));
  const comparison_result result = c.run();
  const double ratio = result.ratio("cand");
  EXPECT_EQ(result.row("cand").process_ratios, std::vector<double>(3, ratio));
  EXPECT_EQ(result.row("ref").process_ratios, std::vector<double>(3, 1.0));
  EXPECT_NE(result.table().find("processes"), std::string::npos);
}

TEST(Comparison, AMalformedProcessVariableIsReported) {
  ::setenv("PERF_COMPARE_PROCESS", "two:/tmp/x", 1);
  comparison c;
  c.reference("a", [] { return 1; }).candidate("b", [] { return 2; });
  const std::string error = error_of([&] { c.run(); });
  ::unsetenv("PERF_COMPARE_PROCESS");
  EXPECT_EQ(error, "perf::comparison: PERF_COMPARE_PROCESS='two:/tmp/x' is not ORDINAL:PATH");
}

// Real clock: only what noise cannot change.
TEST(Comparison, RealClockGivesAConsistentResultWithinItsBudget) {
  comparison_options options;
  options.budget = std::chrono::milliseconds(100);
  comparison c(options);
  std::vector<int> data(64, 3);
  c.reference("sum", [&] {
    int sum = 0;
    for (int value : data) sum += value;
    return sum;
  });
  c.candidate("sum twice", [&] {
    int sum = 0;
    for (int value : data) sum += 2 * value;
    return sum / 2;
  });
  const auto start = std::chrono::steady_clock::now();
  const comparison_result result = c.run();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_EQ(result.rows.size(), 2u);
  EXPECT_GE(result.rounds, 1u);
  EXPECT_GE(result.batch_calls, 1u);
  for (const compared& row : result.rows) {
    EXPECT_EQ(row.batch_ns.size(), result.rounds);
    EXPECT_GT(row.ns_per_call, 0);
  }
  const compared& candidate = result.row("sum twice");
  EXPECT_LE(candidate.interval.lower, candidate.ratio);
  EXPECT_LE(candidate.ratio, candidate.interval.upper);
  if (result.stop == stop_reason::budget) { EXPECT_GE(elapsed, options.budget); }
}

}  // namespace
}  // namespace perf
