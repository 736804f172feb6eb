#include "core/metric_families.hpp"

#include "core/registrations.hpp"

namespace perf::runtime {

void add_metric_family(const metric_family& family) { register_in_order(family); }

const std::vector<metric_family>& metric_families() { return registered<metric_family>(); }

}  // namespace perf::runtime
