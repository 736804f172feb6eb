// The sampler's /metrics families: samples taken and dropped, while sampling is on.
#include "core/metric_families.hpp"
#include "core/startup.hpp"

namespace perf::runtime {
namespace {

bool sampling(const snapshot& s) { return s.samples.hz != 0; }

PERF_RUNTIME_ON_START(register_samples_metrics) {
  using rows = metric_family::rows;
  add_metric_family({400, "perf_samples_total", "counter", "Samples the sampling profiler took, all threads.",
                     rows::process, sampling, [](const snapshot& s, size_t) { return s.samples.total; }});
  add_metric_family({410, "perf_samples_dropped_total", "counter", "Samples the profiler had no room for.",
                     rows::process, sampling, [](const snapshot& s, size_t) { return s.samples.dropped; }});
}

}  // namespace
}  // namespace perf::runtime
