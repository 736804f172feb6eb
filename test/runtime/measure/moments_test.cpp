// Mean and variance: shifted sums per thread, pairwise merging across threads.
#include <gtest/gtest.h>

#include <vector>

#include "measure/stats.hpp"

namespace perf::runtime {
namespace {

// The textbook one-pass formula, Σx² - (Σx)²/n, in doubles.
double naive_variance(const std::vector<uint64_t>& values) {
  double sum = 0, sum_of_squares = 0;
  for (const uint64_t v : values) {
    sum += static_cast<double>(v);
    sum_of_squares += static_cast<double>(v) * static_cast<double>(v);
  }
  const double n = static_cast<double>(values.size());
  return (sum_of_squares - sum * sum / n) / n;
}

// What a thread's slot accumulates: deviations from the first value.
moments shifted(const std::vector<uint64_t>& values) {
  const uint64_t reference = values.front();
  int64_t sum = 0;
  double sum_of_squares = 0;
  for (const uint64_t v : values) {
    const auto d = static_cast<int64_t>(v - reference);
    sum += d;
    sum_of_squares += static_cast<double>(d) * static_cast<double>(d);
  }
  return moments::from_shifted(values.size(), reference, sum, sum_of_squares);
}

// Durations of about ten seconds in 3 GHz ticks that differ by a few ticks: the
// squares need 70 bits, a double holds 53, and the naive formula's digits are gone.
const std::vector<uint64_t> long_calls = {30'000'000'004, 30'000'000'007, 30'000'000'013, 30'000'000'016};

TEST(Moments, ShiftedSumsKeepPrecisionWhereTheNaiveFormulaLosesIt) {
  const double exact = 22.5;                                           // mean 30'000'000'010; deviations -6, -3, 3, 6
  EXPECT_GT(std::abs(naive_variance(long_calls) - exact), exact / 2);  // it says 0 here
  const moments m = shifted(long_calls);
  EXPECT_EQ(m.count, 4u);
  EXPECT_DOUBLE_EQ(m.mean, 30'000'000'010.0);
  EXPECT_DOUBLE_EQ(m.variance(), exact);
}

TEST(Moments, MergingThreadsKeepsThePrecision) {
  moments a = shifted({long_calls[0], long_calls[1]});
  a.merge(shifted({long_calls[2], long_calls[3]}));
  EXPECT_EQ(a.count, 4u);
  EXPECT_DOUBLE_EQ(a.mean, 30'000'000'010.0);
  EXPECT_DOUBLE_EQ(a.variance(), 22.5);
}

TEST(Moments, MergeWithEmptyChangesNothing) {
  moments a = shifted({10, 20, 30});
  a.merge(moments{});
  moments b;
  b.merge(a);
  EXPECT_EQ(b.count, 3u);
  EXPECT_DOUBLE_EQ(b.mean, 20.0);
  EXPECT_DOUBLE_EQ(b.variance(), 200.0 / 3);
}

TEST(Moments, FewerThanTwoValuesHaveNoSpread) {
  EXPECT_EQ(shifted({42}).variance(), 0.0);
  EXPECT_EQ(moments{}.variance(), 0.0);
}

}  // namespace
}  // namespace perf::runtime
