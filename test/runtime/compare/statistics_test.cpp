#include "compare/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace perf::compare_impl {
namespace {

TEST(CompareStatistics, QuantilesInterpolateBetweenOrderStatistics) {
  const std::vector<double> sorted = {1, 2, 4, 8};
  EXPECT_EQ(quantile(sorted, 0), 1);
  EXPECT_EQ(quantile(sorted, 0.5), 3);
  EXPECT_EQ(quantile(sorted, 0.25), 1.75);
  EXPECT_EQ(quantile(sorted, 1), 8);
  EXPECT_EQ(quantile({5}, 0.5), 5);
}

// The ranks of the distribution-free confidence interval for a median, as tables give
// them (e.g. Conover, Practical Nonparametric Statistics, table A3).
TEST(CompareStatistics, SignTestRanksAreTheBinomialOrderStatistics) {
  EXPECT_EQ(sign_test_rank(5, 0.05), 0u);  // 2 / 32 > 0.05: no interval yet
  EXPECT_EQ(sign_test_rank(6, 0.05), 1u);  // 2 / 64 <= 0.05
  EXPECT_EQ(sign_test_rank(20, 0.05), 6u);
  EXPECT_EQ(sign_test_rank(100, 0.05), 40u);
  EXPECT_EQ(sign_test_rank(1000, 0.05), 469u);
  EXPECT_EQ(sign_test_rank(20, 0.05 / 3), 5u);  // Bonferroni for three candidates
  EXPECT_EQ(sign_test_rank(20, 0.01), 4u);
}

TEST(CompareStatistics, SignTestRankStaysFiniteForLongRuns) {
  // The normal approximation n/2 - 1.96 sqrt(n)/2 is within a rank or two here.
  const std::size_t rank = sign_test_rank(100000, 0.05);
  EXPECT_GE(rank, 49689u);
  EXPECT_LE(rank, 49691u);
}

TEST(CompareStatistics, SummaryTakesTheMedianAndTheSignTestInterval) {
  std::vector<double> values;
  for (int i = 20; i >= 1; --i) values.push_back(i);  // unsorted on purpose
  const log_ratio_summary summary = summarize(values, 0.05);
  EXPECT_EQ(summary.median, 10.5);
  EXPECT_EQ(summary.lower, 6);
  EXPECT_EQ(summary.upper, 15);
  EXPECT_EQ(summary.outliers, 0u);
}

TEST(CompareStatistics, TooFewValuesGiveAnUnboundedInterval) {
  const log_ratio_summary summary = summarize({1, 2, 3}, 0.05);
  EXPECT_EQ(summary.median, 2);
  EXPECT_TRUE(std::isinf(summary.lower) && summary.lower < 0);
  EXPECT_TRUE(std::isinf(summary.upper) && summary.upper > 0);
}

TEST(CompareStatistics, FarOutValuesAreCountedNotDropped) {
  // Quartiles 3 and 9 (IQR 6): the fences are -15 and 27.
  const std::vector<double> values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 24, 40, -30};
  const log_ratio_summary summary = summarize(values, 0.05);
  EXPECT_EQ(summary.outliers, 2u);
  EXPECT_EQ(summary.median, 6);
}

}  // namespace
}  // namespace perf::compare_impl
