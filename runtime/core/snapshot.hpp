// perf::take_snapshot, assembled from the parts that components register: each
// fills in its own fields of perf::snapshot (include/perf/report.hpp).
#ifndef PERF_RUNTIME_CORE_SNAPSHOT_HPP
#define PERF_RUNTIME_CORE_SNAPSHOT_HPP

#include "core/threads.hpp"
#include "perf/report.hpp"

namespace perf::runtime {

// Fills in a component's fields of `s`. Runs on the thread that takes the snapshot,
// with the thread list locked (`threads` is the list; see visit_threads), after
// `s.pid`, `s.clock` and a row per thread in `s.threads` (tid, name, exited; in the
// order of `threads`) are filled in.
using snapshot_part = void (*)(snapshot& s, const thread_list& threads);

// Adds `part` to every snapshot; parts run in the order they were added. Call it
// only from a PERF_RUNTIME_ON_START function (core/startup.hpp).
void add_snapshot_part(snapshot_part part);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_SNAPSHOT_HPP
