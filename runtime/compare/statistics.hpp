// Distribution-free statistics of paired log-ratios: median, sign-test interval,
// quartiles and far-out counts.
#ifndef PERF_RUNTIME_COMPARE_STATISTICS_HPP
#define PERF_RUNTIME_COMPARE_STATISTICS_HPP

#include <cstddef>
#include <vector>

namespace perf::compare_impl {

// The p-quantile of sorted, non-empty `values`, interpolated between order statistics
// (Hyndman and Fan's type 7, what R and NumPy give by default).
double quantile(const std::vector<double>& sorted, double p);

// The largest k such that the order statistics [x_(k), x_(n+1-k)] of n values cover
// their median with probability at least 1 - alpha (two-sided sign test: the
// Binomial(n, 1/2) distribution function at k - 1 is at most alpha / 2); 0 when n is too
// small for any such k.
std::size_t sign_test_rank(std::size_t n, double alpha);

struct log_ratio_summary {
  double median;
  double lower;  // -infinity and +infinity when too few values for the confidence
  double upper;
  std::size_t outliers;  // values beyond Tukey's far-out fences: quartile ∓ 3 IQR
};

// `values` must not be empty.
log_ratio_summary summarize(std::vector<double> values, double alpha);

}  // namespace perf::compare_impl

#endif  // PERF_RUNTIME_COMPARE_STATISTICS_HPP
