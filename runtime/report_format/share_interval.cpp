#include "report_format/share_interval.hpp"

#include <algorithm>
#include <cmath>

namespace perf::report_format {

share_interval wilson_interval(double share, double observations) {
  if (observations <= 0) return {};
  constexpr double z = 1.959964;
  const double p = share, n = observations, z2 = z * z;
  const double center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

}  // namespace perf::report_format
