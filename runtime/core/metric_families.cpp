#include "core/metric_families.hpp"

#include <algorithm>

#include "core/registrations.hpp"

namespace perf::runtime {

void add_metric_family(const metric_family& family) {
  std::vector<metric_family>& all = registered<metric_family>();
  all.insert(std::upper_bound(all.begin(), all.end(), family,
                              [](const metric_family& a, const metric_family& b) { return a.order < b.order; }),
             family);
}

const std::vector<metric_family>& metric_families() { return registered<metric_family>(); }

}  // namespace perf::runtime
