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

// What /metrics reads of the measured functions, with one pass over each living
// thread's slots.
struct binned_function_totals {
  // Index = site id ([0] is unused): a row's totals at its first site's id (the
  // row's other sites merged into it, in the order of their ids), as site_totals()
  // and accumulator::merge() give them, the histogram binned into the fixed latency
  // buckets.
  std::vector<binned_totals> per_site;
  std::vector<uint64_t> thread_calls;  // as calls_per_thread()
};

// Reads the sites' totals with their latency buckets (fixed_latency_binning) for the
// sites with ids below `rows.size()`; rows[id] is site id's row (site_info::row).
// The calling thread's pending durations are bucketed first. Needs the thread list
// locked, like site_totals().
binned_function_totals read_binned_totals(const thread_list& threads, const std::vector<unsigned>& rows);

// Measured calls made on each thread, in the order of `threads`. Needs the thread
// list locked, like site_totals().
std::vector<uint64_t> calls_per_thread(const thread_list& threads);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_TOTALS_HPP
