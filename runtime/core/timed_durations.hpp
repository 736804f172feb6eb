// The distribution of a function's timed calls, for the tick log's FUNCTION>pQ capture
// rules: the measure component keeps it and registers how to read it here, so that the
// tick log (a component of measure's layer, which includes none of it) reads it
// through core.
#ifndef PERF_RUNTIME_CORE_TIMED_DURATIONS_HPP
#define PERF_RUNTIME_CORE_TIMED_DURATIONS_HPP

#include <cstdint>
#include <utility>
#include <vector>

namespace perf::runtime {

// A histogram's nonzero buckets (perf/detail/histogram_index.hpp) as (bucket, count),
// ascending.
using bucket_counts = std::vector<std::pair<unsigned, uint64_t>>;

// Who keeps the timed calls' durations (measure): the durations, in clock ticks less
// the probe's cost (as the report's distribution has them), of the timed calls of site
// `site` folded so far on every thread, living or exited.
using timed_durations_source = bucket_counts (*)(unsigned site);

// Makes `source` the one read_timed_durations asks. Call it only from a
// PERF_RUNTIME_ON_START function (core/startup.hpp).
void set_timed_durations_source(timed_durations_source source);

// The durations of site `site`'s timed calls; none without a source. Any thread that
// may call visit_threads() (the source reads under the thread list's lock); allocates.
bucket_counts read_timed_durations(unsigned site);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_TIMED_DURATIONS_HPP
