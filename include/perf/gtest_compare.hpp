// GoogleTest assertions on comparisons (include/perf/compare.hpp):
//
//   EXPECT_RATIO_LE(reference, candidate, 1.05);  // candidate at most 5% slower
//   EXPECT_RATIO_GE(reference, candidate, 1.5);   // candidate at least 1.5 times slower
//   ASSERT_RATIO_LE, ASSERT_RATIO_GE; and *_WITH(options, reference, candidate, limit)
//   to set the perf::comparison_options (budget, precision, clock ...).
//
// `reference` and `candidate` are callables (a lambda's name, say); each assertion
// copies them into one perf::comparison and runs it. An assertion fails only on
// evidence: when the whole confidence interval of candidate time ÷ reference time lies
// beyond the limit. A candidate whose true ratio is within the limit thus fails with a
// probability of at most (1 - confidence) / 2, and far less when its ratio is well
// inside it; a comparison that runs out of budget with a wide interval passes. The
// failure message has the comparison's table. Needs C++17; link perf::compare.
#ifndef PERF_GTEST_COMPARE_HPP
#define PERF_GTEST_COMPARE_HPP

#include <gtest/gtest.h>

#include <iomanip>
#include <sstream>
#include <string>

#include "perf/compare.hpp"

namespace perf {
namespace testing {

enum class ratio_limit { at_most, at_least };

inline ::testing::AssertionResult judge_ratio(const comparison_result& result, const std::string& candidate,
                                              ratio_limit kind, double limit, const char* limit_text) {
  const ratio_interval interval = result.interval(candidate);
  const bool beyond = kind == ratio_limit::at_most ? interval.lower > limit : interval.upper < limit;
  if (!beyond) return ::testing::AssertionSuccess();
  std::ostringstream message;
  message << std::setprecision(4) << "'" << candidate << "' takes " << result.ratio(candidate)
          << " times the reference's time, [" << interval.lower << ", " << interval.upper << "] with "
          << result.confidence * 100 << "% confidence: " << (kind == ratio_limit::at_most ? "above " : "below ")
          << limit_text << "\n"
          << result.table();
  return ::testing::AssertionFailure() << message.str();
}

template <class Reference, class Candidate>
::testing::AssertionResult compare_ratio(ratio_limit kind, const char* reference_text, const char* candidate_text,
                                         const char* limit_text, const comparison_options& options,
                                         const Reference& reference, const Candidate& candidate, double limit) {
  std::string candidate_name = candidate_text;
  if (candidate_name == reference_text) candidate_name += " (candidate)";
  comparison c(options);
  c.reference(reference_text, reference);
  c.candidate(candidate_name, candidate);
  return judge_ratio(c.run(), candidate_name, kind, limit, limit_text);
}

// Predicate formatters for EXPECT_PRED_FORMAT4 (the macros below).
template <class Reference, class Candidate>
::testing::AssertionResult ratio_at_most(const char*, const char* reference_text, const char* candidate_text,
                                         const char* limit_text, const comparison_options& options,
                                         const Reference& reference, const Candidate& candidate, double limit) {
  return compare_ratio(ratio_limit::at_most, reference_text, candidate_text, limit_text, options, reference, candidate,
                       limit);
}

template <class Reference, class Candidate>
::testing::AssertionResult ratio_at_least(const char*, const char* reference_text, const char* candidate_text,
                                          const char* limit_text, const comparison_options& options,
                                          const Reference& reference, const Candidate& candidate, double limit) {
  return compare_ratio(ratio_limit::at_least, reference_text, candidate_text, limit_text, options, reference, candidate,
                       limit);
}

}  // namespace testing
}  // namespace perf

#define EXPECT_RATIO_LE_WITH(options, reference, candidate, limit) \
  EXPECT_PRED_FORMAT4(::perf::testing::ratio_at_most, options, reference, candidate, limit)
#define EXPECT_RATIO_GE_WITH(options, reference, candidate, limit) \
  EXPECT_PRED_FORMAT4(::perf::testing::ratio_at_least, options, reference, candidate, limit)
#define ASSERT_RATIO_LE_WITH(options, reference, candidate, limit) \
  ASSERT_PRED_FORMAT4(::perf::testing::ratio_at_most, options, reference, candidate, limit)
#define ASSERT_RATIO_GE_WITH(options, reference, candidate, limit) \
  ASSERT_PRED_FORMAT4(::perf::testing::ratio_at_least, options, reference, candidate, limit)
#define EXPECT_RATIO_LE(reference, candidate, limit) \
  EXPECT_RATIO_LE_WITH(::perf::comparison_options(), reference, candidate, limit)
#define EXPECT_RATIO_GE(reference, candidate, limit) \
  EXPECT_RATIO_GE_WITH(::perf::comparison_options(), reference, candidate, limit)
#define ASSERT_RATIO_LE(reference, candidate, limit) \
  ASSERT_RATIO_LE_WITH(::perf::comparison_options(), reference, candidate, limit)
#define ASSERT_RATIO_GE(reference, candidate, limit) \
  ASSERT_RATIO_GE_WITH(::perf::comparison_options(), reference, candidate, limit)

#endif  // PERF_GTEST_COMPARE_HPP
