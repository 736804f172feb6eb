// A function's row: ticks to nanoseconds, estimates where calls went untimed, and the
// invariants every output relies on.
#include "measure/function_row.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "report_format/schema.hpp"

namespace perf::runtime {

function_stats function_row(site_info&& where, const accumulator& a, double ticks_per_ns,
                            const latency_binning& binning, double least_call_ns) {
  auto ns = [&](double ticks) { return std::max(0.0, ticks / ticks_per_ns); };
  auto call_ns = [&](double ticks) { return std::max(least_call_ns, ticks / ticks_per_ns); };
  // A bucket's midpoint may lie just outside the values seen; the extremes are exact.
  // (Not std::clamp: a running thread's slot may be read between updating min and max.)
  constexpr std::array<double, 4> percentiles = {0.50, 0.90, 0.99, 0.999};
  std::array<double, percentiles.size()> at_quantile;
  bucket_counts buckets = a.durations.nonzero_buckets();
  quantiles(buckets, percentiles, at_quantile);
  function_stats f;
  f.name = std::move(where.name);
  f.file = std::move(where.file);
  f.line = where.line;
  f.calls = a.calls;
  f.timed_calls = a.timed;
  f.min_ns = call_ns(static_cast<double>(a.min));
  f.max_ns = std::max(f.min_ns, call_ns(static_cast<double>(a.max)));
  const auto within_extremes = [&](double value) { return std::min(std::max(value, f.min_ns), f.max_ns); };
  // Where calls went untimed, total, self and mean are estimated for every call
  // (runtime::estimate_sums), the mean with its 95% interval; else they are exact.
  const bool estimated = a.timed < a.calls;
  const double calls = static_cast<double>(a.calls);
  f.total_ns = std::max(calls * least_call_ns, ns(estimated ? a.estimated.total : static_cast<double>(a.total)));
  const double self_ns = estimated ? ns(a.estimated.self) : ns(a.self_ticks());
  f.self_ns = a.had_callees ? std::min(self_ns, f.total_ns) : f.total_ns;
  f.timed_mean_ns = within_extremes(ns(a.distribution.mean));
  f.mean_ns = estimated ? within_extremes(ns(a.estimated.sum / calls)) : f.timed_mean_ns;
  const double half_interval =
      estimated ? ns(report_format::mean_interval_z * std::sqrt(a.estimated.variance) / calls) : 0;
  f.mean_ns_low = std::max(least_call_ns, f.mean_ns - half_interval);
  f.mean_ns_high = f.mean_ns + half_interval;
  f.stddev_ns = ns(std::sqrt(std::max(0.0, a.distribution.variance())));
  f.p50_ns = within_extremes(ns(at_quantile[0]));
  f.p90_ns = within_extremes(ns(at_quantile[1]));
  f.p99_ns = within_extremes(ns(at_quantile[2]));
  f.p999_ns = within_extremes(ns(at_quantile[3]));
  const double timed = static_cast<double>(a.timed);
  f.alloc_count = static_cast<double>(a.alloc_count) / timed;
  f.alloc_bytes = static_cast<double>(a.alloc_bytes) / timed;
  f.m2_ns2 = std::max(0.0, a.distribution.m2) / (ticks_per_ns * ticks_per_ns);
  f.alloc_total_count = estimated ? static_cast<uint64_t>(std::llround(f.alloc_count * calls)) : a.alloc_count;
  f.alloc_total_bytes = estimated ? static_cast<uint64_t>(std::llround(f.alloc_bytes * calls)) : a.alloc_bytes;
  f.latency_buckets = binning.cumulative(buckets);
  f.histogram = std::move(buckets);
  return f;
}

}  // namespace perf::runtime
