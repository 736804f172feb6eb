// Measure's part of perf::snapshot: the per-site ticks of every thread turned into
// per-function times.
#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <tuple>

#include "core/settings.hpp"
#include "core/sites.hpp"
#include "core/snapshot.hpp"
#include "core/startup.hpp"
#include "measure/probe_cost.hpp"
#include "measure/totals.hpp"
#include "perf/report.hpp"

namespace perf {
namespace {

using location = std::tuple<std::string_view, std::string_view, unsigned>;

function_stats to_function_stats(const location& where, const runtime::accumulator& a, double ticks_per_ns,
                                 const std::vector<double>& latency_bounds_ticks) {
  auto ns = [&](double ticks) { return ticks / ticks_per_ns; };
  // A bucket's midpoint may lie just outside the values seen; the extremes are exact.
  // (Not std::clamp: a running thread's slot may be read between updating min and max.)
  auto quantile_ns = [&](double q) {
    return ns(std::min(std::max(a.durations.quantile(q), static_cast<double>(a.min)), static_cast<double>(a.max)));
  };
  function_stats f;
  f.name = std::get<0>(where);
  f.file = std::get<1>(where);
  f.line = std::get<2>(where);
  f.calls = a.calls;
  f.total_ns = ns(static_cast<double>(a.total));
  f.self_ns = ns(static_cast<double>(a.self));
  f.mean_ns = ns(a.distribution.mean);
  f.min_ns = ns(static_cast<double>(a.min));
  f.max_ns = ns(static_cast<double>(a.max));
  f.stddev_ns = ns(std::sqrt(a.distribution.variance()));
  f.p50_ns = quantile_ns(0.50);
  f.p90_ns = quantile_ns(0.90);
  f.p99_ns = quantile_ns(0.99);
  f.p999_ns = quantile_ns(0.999);
  f.alloc_count = static_cast<double>(a.alloc_count) / static_cast<double>(a.calls);
  f.alloc_bytes = static_cast<double>(a.alloc_bytes) / static_cast<double>(a.calls);
  f.m2_ns2 = a.distribution.m2 / (ticks_per_ns * ticks_per_ns);
  f.alloc_total_count = a.alloc_count;
  f.alloc_total_bytes = a.alloc_bytes;
  f.histogram = a.durations.nonzero_buckets();
  f.latency_buckets = a.durations.cumulative_counts(latency_bounds_ticks);
  return f;
}

// The measured functions, merged by name and location, by total time; and each
// thread's count of calls.
void add_functions(snapshot& s, const runtime::thread_list& threads) {
  if (detail::current_thread != nullptr) detail::drain_pending(*detail::current_thread);
  const std::vector<runtime::site_info> sites = runtime::copy_sites();
  std::vector<runtime::accumulator> per_site = runtime::site_totals(threads, static_cast<unsigned>(sites.size()));
  const double ticks_per_ns = runtime::current_clock_rate().ticks_per_ns;

  std::map<location, runtime::accumulator> by_location;
  for (size_t id = 1; id < sites.size(); ++id) {
    runtime::accumulator& a = per_site[id];
    if (a.calls == 0) continue;
    const location where{sites[id].name, sites[id].file, sites[id].line};
    if (auto found = by_location.find(where); found != by_location.end())
      found->second.merge(a);
    else
      by_location.emplace(where, std::move(a));
  }
  std::vector<double> latency_bounds_ticks;
  for (double seconds : latency_bucket_bounds_seconds) latency_bounds_ticks.push_back(seconds * 1e9 * ticks_per_ns);
  for (const auto& [where, a] : by_location)
    s.functions.push_back(to_function_stats(where, a, ticks_per_ns, latency_bounds_ticks));
  std::stable_sort(s.functions.begin(), s.functions.end(),
                   [](const function_stats& a, const function_stats& b) { return a.total_ns > b.total_ns; });
  runtime::add_probe_figures(s, runtime::current_compensation(), ticks_per_ns);

  const std::vector<uint64_t> calls = runtime::calls_per_thread(threads);
  for (size_t row = 0; row < calls.size(); ++row) s.threads[row].calls = calls[row];
}

PERF_RUNTIME_ON_START(register_functions) { runtime::add_snapshot_part(add_functions); }

}  // namespace
}  // namespace perf
