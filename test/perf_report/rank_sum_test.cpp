// The across-process statistics of perf-report ab: the rank-sum test's p-values, the
// Hodges-Lehmann interval and Holm's adjustment, against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "rank_test.hpp"

namespace perf::perf_report {
namespace {

TEST(RankSum, ExactPValuesOfSmallSamples) {
  // Three against three, wholly separated: 2 of the 20 orders are as extreme.
  EXPECT_DOUBLE_EQ(rank_sum_p({1, 2, 3}, {4, 5, 6}), 0.1);
  EXPECT_DOUBLE_EQ(rank_sum_p({4, 5, 6}, {1, 2, 3}), 0.1);
  EXPECT_DOUBLE_EQ(rank_sum_p({1, 2, 3}, {1, 2, 3}), 1.0);
  // Ties: a = {1, 1}, b = {1, 2} have mid-ranks 2, 2 | 2, 4, a's sum 4 against 5
  // expected; two of the four values sum to 4 (3 ways) or 6 (3 ways), each 1 away.
  EXPECT_DOUBLE_EQ(rank_sum_p({1, 1}, {1, 2}), 1.0);
  // Beyond 40 values the normal approximation: 25 against 25, separated.
  std::vector<double> low, high;
  for (int i = 0; i < 25; ++i) low.push_back(i), high.push_back(100 + i);
  const double p = rank_sum_p(low, high);
  EXPECT_GT(p, 1e-10);
  EXPECT_LT(p, 1e-8);  // the normal tail at z = 6.06 is 1.4e-9
}

TEST(RankSum, HodgesLehmannIntervalFromTheTestsCriticalValues) {
  // Differences b - a: 8, 9, 9, 10, 10, 10, 11, 11, 12; P(U <= 0) = 1/20.
  const shift_interval at_10 = hodges_lehmann({0, 1, 2}, {10, 11, 12}, 0.1);
  EXPECT_EQ(at_10.estimate, 10);
  EXPECT_EQ(at_10.low, 8);
  EXPECT_EQ(at_10.high, 12);
  // At 5% the extremes are not enough: no bound.
  const shift_interval at_5 = hodges_lehmann({0, 1, 2}, {10, 11, 12}, 0.05);
  EXPECT_TRUE(std::isinf(at_5.low) && at_5.low < 0);
  EXPECT_TRUE(std::isinf(at_5.high) && at_5.high > 0);
}

TEST(RankSum, HolmAdjustsTheSmallestMostAndKeepsTheOrder) {
  const std::vector<double> adjusted = holm_adjusted({0.01, 0.04, 0.03, 0.5});
  ASSERT_EQ(adjusted.size(), 4u);
  EXPECT_DOUBLE_EQ(adjusted[0], 0.04);  // 0.01 x 4
  EXPECT_DOUBLE_EQ(adjusted[2], 0.09);  // 0.03 x 3
  EXPECT_DOUBLE_EQ(adjusted[1], 0.09);  // 0.04 x 2 = 0.08, raised to stay in order
  EXPECT_DOUBLE_EQ(adjusted[3], 0.5);
  EXPECT_DOUBLE_EQ(holm_adjusted({0.6, 0.6})[0], 1.0);
}

}  // namespace
}  // namespace perf::perf_report
