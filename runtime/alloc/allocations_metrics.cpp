// The allocation counters' /metrics families: what each thread allocated and freed,
// while counting is active.
#include "core/metric_families.hpp"
#include "core/startup.hpp"

namespace perf::runtime {
namespace {

bool counting(const snapshot& s) { return s.allocations.counting != allocation_counting::inactive; }

PERF_RUNTIME_ON_START(register_allocations_metrics) {
  using rows = metric_family::rows;
  add_metric_family({200, "perf_thread_allocations_total", "counter", "Heap allocations made by a thread.",
                     rows::allocation_threads, counting,
                     [](const snapshot& s, size_t i) { return s.allocations.threads[i].allocations; }});
  add_metric_family({210, "perf_thread_allocated_bytes_total", "counter", "Bytes allocated by a thread.",
                     rows::allocation_threads, counting,
                     [](const snapshot& s, size_t i) { return s.allocations.threads[i].bytes; }});
  add_metric_family({220, "perf_thread_frees_total", "counter", "Heap blocks freed by a thread.",
                     rows::allocation_threads, counting,
                     [](const snapshot& s, size_t i) { return s.allocations.threads[i].frees; }});
  add_metric_family({230, "perf_thread_freed_bytes_total", "counter", "Bytes freed by a thread.",
                     rows::allocation_threads, counting,
                     [](const snapshot& s, size_t i) { return s.allocations.threads[i].bytes_freed; }});
}

}  // namespace
}  // namespace perf::runtime
