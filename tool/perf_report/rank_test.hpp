// The across-process test of `perf-report ab` (docs/perf-report.md, "ab"): the
// Mann-Whitney U (Wilcoxon rank-sum) test, its Hodges-Lehmann interval of the shift,
// and Holm's step-down control of the false-alarm rate over many tests. Pure functions.
#ifndef PERF_REPORT_TOOL_RANK_TEST_HPP
#define PERF_REPORT_TOOL_RANK_TEST_HPP

#include <vector>

namespace perf::perf_report {

// The two-sided p-value of the rank-sum test that `a` and `b` come from one
// distribution: exact (the permutation distribution of the mid-rank sum, so ties are
// exact too) up to 40 values in all, the normal approximation with the tie correction
// beyond. 1 when a side is empty.
double rank_sum_p(const std::vector<double>& a, const std::vector<double>& b);

struct shift_interval {
  double estimate = 0;  // the median of the pairwise differences b_j - a_i
  double low = 0;       // -inf/+inf: too few values for this confidence
  double high = 0;
};

// The Hodges-Lehmann estimate of the shift of `b` against `a` and its interval at
// confidence 1 - `error`: the order statistics of the pairwise differences that the
// rank-sum test at level `error` inverts (exact critical values up to 40 values).
shift_interval hodges_lehmann(const std::vector<double>& a, const std::vector<double>& b, double error);

// Holm's adjusted p-values: p_(i) * (k - i + 1), made monotone, at most 1. Rejecting
// those at most alpha keeps the chance of any false rejection at most alpha.
std::vector<double> holm_adjusted(const std::vector<double>& p);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_RANK_TEST_HPP
