// The call statistics' per-thread /metrics family: each thread's measured calls. (The
// measured functions' own families are the page's frame: export/metrics.cpp.)
#include "core/metric_families.hpp"
#include "core/startup.hpp"

namespace perf::runtime {
namespace {

PERF_RUNTIME_ON_START(register_calls_metrics) {
  add_metric_family({50, "perf_thread_calls_total", "counter", "Finished calls of measured functions on a thread.",
                     metric_family::rows::threads, nullptr,
                     [](const snapshot& s, size_t i) { return s.threads[i].calls; }});
}

}  // namespace
}  // namespace perf::runtime
