#include "report_format/schema.hpp"

#include <algorithm>

namespace perf::report_format {

bool probe_dominated(double p50_ns, double probe_inside_ns, double probe_ns) {
  return std::max(0.0, p50_ns - probe_inside_ns) < probe_dominated_factor * probe_ns;
}

}  // namespace perf::report_format
