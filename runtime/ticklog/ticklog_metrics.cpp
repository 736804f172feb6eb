// The tick log's /metrics families: each thread's events held and overwritten, and
// the process's.
#include "core/metric_families.hpp"
#include "core/startup.hpp"

namespace perf::runtime {
namespace {

PERF_RUNTIME_ON_START(register_ticklog_metrics) {
  using rows = metric_family::rows;
  add_metric_family({100, "perf_thread_tick_events", "gauge", "Tick-log events a thread's ring holds.", rows::threads,
                     nullptr, [](const snapshot& s, size_t i) { return s.threads[i].tick_events; }});
  add_metric_family({110, "perf_thread_tick_dropped_total", "counter",
                     "Older tick-log events a thread's ring overwrote.", rows::threads, nullptr,
                     [](const snapshot& s, size_t i) { return s.threads[i].tick_dropped; }});
  add_metric_family({300, "perf_ticklog_events", "gauge", "Tick-log events the rings hold, all threads.", rows::process,
                     nullptr, [](const snapshot& s, size_t) { return s.ticklog.events; }});
  add_metric_family({310, "perf_ticklog_dropped_total", "counter", "Tick-log events overwritten, all threads.",
                     rows::process, nullptr, [](const snapshot& s, size_t) { return s.ticklog.dropped; }});
}

}  // namespace
}  // namespace perf::runtime
