#include "report_format/schema.hpp"

#include <algorithm>
#include <cmath>

namespace perf::report_format {

bool probe_dominated(double p50_ns, double probe_inside_ns, double probe_ns) {
  return std::max(0.0, p50_ns - probe_inside_ns) < probe_dominated_factor * probe_ns;
}

bool same_clock_rate(double a_ghz, double b_ghz) {
  return std::fabs(a_ghz - b_ghz) <= calibration_precision * std::max(a_ghz, b_ghz);
}

}  // namespace perf::report_format
