// perf::take_snapshot, assembled from the parts that components register: each
// fills in its own fields of perf::snapshot (include/perf/report.hpp).
#ifndef PERF_RUNTIME_CORE_SNAPSHOT_PARTS_HPP
#define PERF_RUNTIME_CORE_SNAPSHOT_PARTS_HPP

#include "core/threads.hpp"
#include "perf/report.hpp"

namespace perf::runtime {

// How much a snapshot holds.
enum class snapshot_depth {
  // Everything the reports show: perf::take_snapshot().
  report,
  // Only counts that are cheap to read, for /metrics, which reads the functions'
  // figures itself (measure/totals.hpp): no `functions`, no probe figures
  // (`overhead`, `clock.probe_*`), every thread's `calls` 0; of `samples` only hz,
  // clock, total and dropped (no lists, nothing symbolized). The rest as `report`.
  counts,
};

// Fills in a component's fields of `s` for `depth`. Runs on the thread that takes
// the snapshot, with the thread list locked (`threads` is the list; see
// visit_threads), after `s.pid`, `s.clock` and a row per thread in `s.threads` (tid,
// name, exited; in the order of `threads`) are filled in.
using snapshot_part = void (*)(snapshot& s, const thread_list& threads, snapshot_depth depth);

// Adds `part` to every snapshot; parts run in the order they were added. Call it
// only from a PERF_RUNTIME_ON_START function (core/startup.hpp).
void add_snapshot_part(snapshot_part part);

// A snapshot of `depth`, taken while the caller holds the thread list (from a
// visitor of visit_threads(); `threads` is the list it was given).
snapshot take_snapshot(const thread_list& threads, snapshot_depth depth);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_SNAPSHOT_PARTS_HPP
