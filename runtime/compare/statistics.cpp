#include "compare/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace perf::compare_impl {

double quantile(const std::vector<double>& sorted, double p) {
  const double position = p * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  if (below + 1 >= sorted.size()) return sorted.back();
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[below + 1] - sorted[below]);
}

std::size_t sign_test_rank(std::size_t n, double alpha) {
  // In logarithms: 2^-n underflows for the hundreds of thousands of rounds a long run gives.
  // The slack keeps a distribution function that equals alpha / 2 exactly on the good side.
  const double log_limit = std::log(alpha / 2) + 1e-12;
  double log_term = -static_cast<double>(n) * std::log(2.0);  // log P(B = 0)
  double log_cdf = log_term;
  std::size_t rank = 0;
  for (std::size_t j = 0; j < n && log_cdf <= log_limit; ++j) {
    rank = j + 1;
    log_term += std::log(static_cast<double>(n - j) / static_cast<double>(j + 1));  // log P(B = j + 1)
    const double larger = std::max(log_cdf, log_term);
    log_cdf = larger + std::log1p(std::exp(std::min(log_cdf, log_term) - larger));
  }
  return rank;
}

log_ratio_summary summarize(std::vector<double> values, double alpha) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  log_ratio_summary summary{};
  summary.median = quantile(values, 0.5);
  const std::size_t rank = sign_test_rank(n, alpha);
  summary.lower = rank == 0 ? -std::numeric_limits<double>::infinity() : values[rank - 1];
  summary.upper = rank == 0 ? std::numeric_limits<double>::infinity() : values[n - rank];
  const double first_quartile = quantile(values, 0.25);
  const double third_quartile = quantile(values, 0.75);
  const double reach = 3 * (third_quartile - first_quartile);
  summary.outliers = static_cast<std::size_t>(std::count_if(values.begin(), values.end(), [&](double value) {
    return value < first_quartile - reach || value > third_quartile + reach;
  }));
  return summary;
}

}  // namespace perf::compare_impl
