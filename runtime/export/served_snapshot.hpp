// What the live endpoint serves: the program's statistics, never the endpoint's own.
#ifndef PERF_RUNTIME_EXPORT_SERVED_SNAPSHOT_HPP
#define PERF_RUNTIME_EXPORT_SERVED_SNAPSHOT_HPP

#include "perf/report.hpp"

namespace perf::runtime {

// Makes the calling thread the endpoint's: its samples are not counted from now on,
// and its rows (allocations, threads) are left out of served snapshots. Call once,
// on the server thread, before it serves.
void become_server_thread() noexcept;

// perf::take_snapshot() without the server thread's rows. Any thread.
snapshot served_snapshot();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_SERVED_SNAPSHOT_HPP
