// Measure's part of perf::snapshot: the per-site ticks of every thread turned into
// per-function times.
#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

#include "core/settings.hpp"
#include "core/sites.hpp"
#include "core/snapshot_parts.hpp"
#include "core/startup.hpp"
#include "measure/probe_cost.hpp"
#include "measure/totals.hpp"
#include "perf/report.hpp"
#include "report_format/schema.hpp"

namespace perf {
namespace {

function_stats to_function_stats(runtime::site_info&& where, const runtime::accumulator& a, double ticks_per_ns,
                                 const runtime::latency_binning& binning) {
  auto ns = [&](double ticks) { return ticks / ticks_per_ns; };
  // A bucket's midpoint may lie just outside the values seen; the extremes are exact.
  // (Not std::clamp: a running thread's slot may be read between updating min and max.)
  constexpr std::array<double, 4> percentiles = {0.50, 0.90, 0.99, 0.999};
  std::array<double, percentiles.size()> at_quantile;
  runtime::bucket_counts buckets = a.durations.nonzero_buckets();
  runtime::quantiles(buckets, percentiles, at_quantile);
  auto quantile_ns = [&](size_t k) {
    return ns(std::min(std::max(at_quantile[k], static_cast<double>(a.min)), static_cast<double>(a.max)));
  };
  function_stats f;
  f.name = std::move(where.name);
  f.file = std::move(where.file);
  f.line = where.line;
  f.calls = a.calls;
  f.timed_calls = a.timed;
  // Where calls went untimed, total, self and mean are estimated for every call
  // (runtime::estimate_sums), the mean with its 95% interval; else they are exact.
  const bool estimated = a.timed < a.calls;
  const double calls = static_cast<double>(a.calls);
  f.total_ns = ns(estimated ? a.estimated.total : static_cast<double>(a.total));
  f.self_ns = estimated ? ns(std::max(0.0, a.estimated.self)) : ns(a.self_ticks());
  f.timed_mean_ns = ns(a.distribution.mean);
  f.mean_ns = estimated ? ns(a.estimated.sum / calls) : f.timed_mean_ns;
  const double half_interval =
      estimated ? ns(report_format::mean_interval_z * std::sqrt(a.estimated.variance) / calls) : 0;
  f.mean_ns_low = f.mean_ns - half_interval;
  f.mean_ns_high = f.mean_ns + half_interval;
  f.min_ns = ns(static_cast<double>(a.min));
  f.max_ns = ns(static_cast<double>(a.max));
  f.stddev_ns = ns(std::sqrt(a.distribution.variance()));
  f.p50_ns = quantile_ns(0);
  f.p90_ns = quantile_ns(1);
  f.p99_ns = quantile_ns(2);
  f.p999_ns = quantile_ns(3);
  const double timed = static_cast<double>(a.timed);
  f.alloc_count = static_cast<double>(a.alloc_count) / timed;
  f.alloc_bytes = static_cast<double>(a.alloc_bytes) / timed;
  f.m2_ns2 = a.distribution.m2 / (ticks_per_ns * ticks_per_ns);
  f.alloc_total_count = estimated ? static_cast<uint64_t>(std::llround(f.alloc_count * calls)) : a.alloc_count;
  f.alloc_total_bytes = estimated ? static_cast<uint64_t>(std::llround(f.alloc_bytes * calls)) : a.alloc_bytes;
  f.latency_buckets = binning.cumulative(buckets);
  f.histogram = std::move(buckets);
  return f;
}

// The measured functions, merged by name and location (the sites of a row), by
// total time, then by name and location; and each thread's count of calls. At
// depth `counts`, nothing (/metrics reads them with measure/totals.hpp).
void add_functions(snapshot& s, const runtime::thread_list& threads, runtime::snapshot_depth depth) {
  if (depth != runtime::snapshot_depth::report) return;
  if (detail::current_thread != nullptr) detail::drain_pending(*detail::current_thread);
  std::vector<runtime::site_info> sites = runtime::copy_sites();
  std::vector<runtime::accumulator> per_site = runtime::site_totals(threads, static_cast<unsigned>(sites.size()));
  const double ticks_per_ns = runtime::current_clock_rate().ticks_per_ns;

  // Each row's statistics merged into its first site's, in the order of the ids.
  for (unsigned id = 1; id < sites.size(); ++id)
    if (sites[id].row != id) per_site[sites[id].row].merge(per_site[id]);
  struct ranked_row {
    double total_ns;
    unsigned row;  // the id of the row's first site
  };
  std::vector<ranked_row> rows;
  for (unsigned id = 1; id < sites.size(); ++id)
    if (sites[id].row == id && per_site[id].calls != 0)
      rows.push_back({per_site[id].estimated.total / ticks_per_ns, id});
  std::sort(rows.begin(), rows.end(), [&](const ranked_row& a, const ranked_row& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    const runtime::site_info &at = sites[a.row], &bt = sites[b.row];
    return std::tie(at.name, at.file, at.line) < std::tie(bt.name, bt.file, bt.line);
  });

  const runtime::latency_binning& binning = runtime::fixed_latency_binning();
  s.functions.reserve(rows.size());
  for (const ranked_row& r : rows)
    s.functions.push_back(to_function_stats(std::move(sites[r.row]), per_site[r.row], ticks_per_ns, binning));
  runtime::add_probe_figures(s, runtime::current_compensation(), ticks_per_ns);

  const std::vector<uint64_t> calls = runtime::calls_per_thread(threads);
  for (size_t row = 0; row < calls.size(); ++row) s.threads[row].calls = calls[row];
}

PERF_RUNTIME_ON_START(register_functions) { runtime::add_snapshot_part(add_functions); }

}  // namespace
}  // namespace perf
