// The tests that tell a change from noise (docs/perf-report.md, "Noise"), all at a
// two-sided 5% level.
#ifndef PERF_REPORT_TOOL_NOISE_HPP
#define PERF_REPORT_TOOL_NOISE_HPP

#include <cstdint>
#include <vector>

#include "histogram.hpp"

namespace perf::perf_report {

// Count, mean and unbiased variance of a sample.
struct sample_moments {
  double count = 0;
  double mean = 0;
  double variance = 0;

  static sample_moments of(const std::vector<double>& values);
};

// Welch's t-test: whether the means differ.
bool means_differ(const sample_moments& a, const sample_moments& b);

// The t distribution's two-sided 5% critical value for `degrees` of freedom.
double t_critical(double degrees);

struct interval {
  double low = 0;
  double high = 0;
};

// A distribution-free 95% confidence interval of the quantile `q` of the
// distribution `h` was drawn from: the values of the ranks n*q -+ 1.96*sqrt(n*q*(1-q))
// (the binomial order-statistic interval), widened to whole buckets.
interval quantile_interval(const histogram& h, double q);

// Whether two quantiles differ: their intervals are disjoint.
bool quantiles_differ(const histogram& a, const histogram& b, double q);

// The two-proportion z-test: whether hits_a/total_a and hits_b/total_b differ.
bool proportions_differ(uint64_t hits_a, uint64_t total_a, uint64_t hits_b, uint64_t total_b);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_NOISE_HPP
