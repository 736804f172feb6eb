// A performance regression test as a project would write one: the code under test
// against a reference workload, interleaved in one process, judged on the interval.
// bench/compare/regression_example.sh runs it 20 times (docs/comparisons.md).
#include <gtest/gtest-spi.h>

#include <cstdint>

#include "compare/workload.hpp"
#include "perf/gtest.hpp"

namespace {

// The code under test as it was when the test was written, and as a change that made
// it 10% slower.
std::uint64_t checksum() { return mix(400); }
std::uint64_t slower_checksum() { return mix(440); }

TEST(RegressionExample, UnchangedCodePasses) {
  const auto reference = [] { return mix(400); };
  const auto code_under_test = [] { return checksum(); };
  EXPECT_RATIO_LE(reference, code_under_test, 1.05);
}

TEST(RegressionExample, ATenPercentSlowdownIsCaught) {
  const auto reference = [] { return mix(400); };
  const auto code_under_test = [] { return slower_checksum(); };
  EXPECT_NONFATAL_FAILURE(EXPECT_RATIO_LE(reference, code_under_test, 1.05), "above 1.05");
}

}  // namespace
