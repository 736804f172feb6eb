// A PERF_CAPTURE rule relative to a function's own distribution (FUNCTION>pQ, e.g.
// handle>p99.9): the limit beyond which a call lies beyond the quantile Q of the
// function's timed calls. The writer thread (trace_stream.hpp) finds it again and again
// from the distribution the measure component keeps (core/timed_durations.hpp), and
// gives it to the site as a FUNCTION>DURATION rule's limit (slow_calls.hpp): the
// measured threads judge their calls against it as they end.
//
// The limit is the largest duration of the log-linear bucket (perf/detail/
// histogram_index.hpp) that holds the quantile, so that of a steady distribution at
// most 1 - Q of the calls lie beyond it (a bucket is 1/64 of its values wide); and
// there is none before calls_needed() calls: 10 / (1 - Q), so that at least 10 calls
// lie beyond the quantile and one outlier moves it by one call of the tail, not to
// itself (p99.9: 10,000 calls; p99: 1,000).
#ifndef PERF_RUNTIME_TICKLOG_TAIL_THRESHOLD_HPP
#define PERF_RUNTIME_TICKLOG_TAIL_THRESHOLD_HPP

#include <cstdint>
#include <optional>

#include "core/timed_durations.hpp"

namespace perf::runtime {

// The calls to count before any is judged beyond the quantile `quantile` (in [0.5, 1)).
uint64_t calls_needed(double quantile);

// The limit of the quantile `quantile` (in [0.5, 1)) of the durations counted in
// `buckets` (nonzero, ascending), in their unit; none while they count fewer than
// calls_needed(quantile).
std::optional<uint64_t> tail_limit(const bucket_counts& buckets, double quantile);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_TAIL_THRESHOLD_HPP
