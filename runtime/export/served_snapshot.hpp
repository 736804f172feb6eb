// What the live endpoint serves: the program's statistics, never the endpoint's own.
#ifndef PERF_RUNTIME_EXPORT_SERVED_SNAPSHOT_HPP
#define PERF_RUNTIME_EXPORT_SERVED_SNAPSHOT_HPP

#include "export/metrics.hpp"
#include "perf/report.hpp"

namespace perf::runtime {

// Makes the calling thread the endpoint's: its samples are not counted from now on,
// and its rows (allocations, threads) are left out of served snapshots. Call once,
// on the server thread, before it serves.
void become_server_thread() noexcept;

// perf::take_snapshot() without the server thread's rows. Any thread.
snapshot served_snapshot();

// What /metrics shows, without the server thread's rows: the same page as
// metrics_page(served_snapshot()) would give, read without building the report's
// rows (perf::function_stats) or symbolizing samples. The label text lives as long
// as the process. Any thread; one at a time (the others wait), so not in the child
// of a fork() that another thread made while in it (the child has no endpoint).
metrics_content served_metrics();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_SERVED_SNAPSHOT_HPP
