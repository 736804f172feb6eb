// The merged totals: each thread's statistics, read while it runs, and kept when
// it exits, so that the report counts every call.
#ifndef PERF_RUNTIME_MEASURE_TOTALS_HPP
#define PERF_RUNTIME_MEASURE_TOTALS_HPP

#include <cstdint>
#include <vector>

#include "core/threads.hpp"
#include "measure/stats.hpp"

namespace perf::runtime {

// Each site's statistics over every thread, living or exited, indexed by site id
// ([0] is unused), for the first `site_count` ids. Needs the thread list locked:
// call it from a visitor of visit_threads() or a snapshot part.
std::vector<accumulator> site_totals(const thread_list& threads, unsigned site_count);

// site_totals() for every site registered so far, taking the lock.
std::vector<accumulator> collect_site_totals();

// Measured calls made on each thread, in the order of `threads`. Needs the thread
// list locked, like site_totals().
std::vector<uint64_t> calls_per_thread(const thread_list& threads);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_TOTALS_HPP
