#include "noise.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace perf::perf_report {
namespace {

constexpr double z_95 = 1.959964;

}  // namespace

sample_moments sample_moments::of(const std::vector<double>& values) {
  sample_moments m;
  m.count = static_cast<double>(values.size());
  if (values.empty()) return m;
  for (double v : values) m.mean += v;
  m.mean /= m.count;
  double squares = 0;
  for (double v : values) squares += (v - m.mean) * (v - m.mean);
  m.variance = values.size() < 2 ? 0 : squares / (m.count - 1);
  return m;
}

double t_critical(double degrees) {
  // Two-sided 5% points of Student's t for 1..30 degrees of freedom.
  static constexpr double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                     2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                     2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (!(degrees >= 1)) return table[0];
  if (degrees > 30) return z_95 + 2.4 / degrees;   // within 0.5% of the exact value
  return table[static_cast<size_t>(degrees) - 1];  // rounding the degrees down: conservative
}

bool means_differ(const sample_moments& a, const sample_moments& b) {
  if (a.count < 2 || b.count < 2) return false;
  const double va = a.variance / a.count, vb = b.variance / b.count;
  const double standard_error = std::sqrt(va + vb);
  if (standard_error == 0) return a.mean != b.mean;
  const double degrees = (va + vb) * (va + vb) / (va * va / (a.count - 1) + vb * vb / (b.count - 1));
  return std::abs(a.mean - b.mean) / standard_error > t_critical(degrees);
}

interval quantile_interval(const histogram& h, double q) {
  const double n = static_cast<double>(h.count());
  if (n == 0) return {};
  const double spread = z_95 * std::sqrt(n * q * (1 - q));
  const auto rank = [&](double r) { return static_cast<uint64_t>(std::clamp(r, 1.0, n)); };
  return {h.lower_ns(h.bucket_at_rank(rank(std::floor(n * q - spread)))),
          h.upper_ns(h.bucket_at_rank(rank(std::ceil(n * q + spread))))};
}

bool quantiles_differ(const histogram& a, const histogram& b, double q) {
  if (a.count() == 0 || b.count() == 0) return false;
  const interval x = quantile_interval(a, q), y = quantile_interval(b, q);
  return x.high <= y.low || y.high <= x.low;
}

bool proportions_differ(uint64_t hits_a, uint64_t total_a, uint64_t hits_b, uint64_t total_b) {
  if (total_a == 0 || total_b == 0) return false;
  const double na = static_cast<double>(total_a), nb = static_cast<double>(total_b);
  const double pa = static_cast<double>(hits_a) / na, pb = static_cast<double>(hits_b) / nb;
  const double pooled = static_cast<double>(hits_a + hits_b) / (na + nb);
  const double standard_error = std::sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb));
  if (standard_error == 0) return pa != pb;
  return std::abs(pa - pb) / standard_error > z_95;
}

}  // namespace perf::perf_report
