// The assertions on a fake clock: exact ratios, so exact verdicts.
#include "perf/gtest.hpp"

#include <gtest/gtest-spi.h>

#include "compare/fake_clock.hpp"

namespace perf {
namespace {

using testing::fake_clock;

TEST(RatioAssertions, PassWithinTheLimit) {
  fake_clock clock;
  const auto reference = clock.constant(99);
  const auto same = clock.constant(99);
  const auto twice = clock.constant(199);
  EXPECT_RATIO_LE_WITH(clock.options(), reference, same, 1.05);
  EXPECT_RATIO_GE_WITH(clock.options(), reference, twice, 1.5);
  ASSERT_RATIO_LE_WITH(clock.options(), reference, twice, 2.0);
  ASSERT_RATIO_GE_WITH(clock.options(), reference, same, 1.0);
}

TEST(RatioAssertions, ExpectFailsOnATenPercentSlowdownWithTheTable) {
  fake_clock clock;
  const auto reference = clock.constant(99);
  const auto slower = clock.constant(109);
  EXPECT_NONFATAL_FAILURE(EXPECT_RATIO_LE_WITH(clock.options(), reference, slower, 1.05),
                          "'slower' takes 1.1 times the reference's time, [1.1, 1.1] with 95% confidence: above 1.05\n"
                          "name       ratio    95% interval");
  EXPECT_NONFATAL_FAILURE(EXPECT_RATIO_GE_WITH(clock.options(), reference, slower, 1.2),
                          "'slower' takes 1.1 times the reference's time, [1.1, 1.1] with 95% confidence: below 1.2");
}

TEST(RatioAssertions, AssertStopsTheTest) {
  static fake_clock clock;
  static const auto reference = clock.constant(99);
  static const auto slower = clock.constant(109);
  EXPECT_FATAL_FAILURE(ASSERT_RATIO_LE_WITH(clock.options(), reference, slower, 1.05), "above 1.05");
  EXPECT_FATAL_FAILURE(ASSERT_RATIO_GE_WITH(clock.options(), reference, slower, 1.2), "below 1.2");
}

TEST(RatioAssertions, AWideIntervalIsNoEvidenceOfARegression) {
  fake_clock clock;
  comparison_options options = clock.options();
  options.budget = std::chrono::nanoseconds(2000);  // about eight rounds
  const auto reference = clock.constant(99);
  const auto noisy = clock.scripted({50, 150, 150});  // ratios 0.51 and 1.51: median 1.51
  EXPECT_RATIO_LE_WITH(options, reference, noisy, 1.05);
}

TEST(RatioAssertions, TheSameCallableTwiceGetsTwoNames) {
  fake_clock clock;
  const auto reference = clock.constant(99);
  EXPECT_NONFATAL_FAILURE(EXPECT_RATIO_GE_WITH(clock.options(), reference, reference, 1.5),
                          "'reference (candidate)' takes 1 times");
}

}  // namespace
}  // namespace perf
