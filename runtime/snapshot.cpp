// perf::take_snapshot: the registry's per-site ticks turned into per-function times.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <tuple>

#include "perf/report.hpp"
#include "registry.hpp"
#include "startup.hpp"

namespace perf {
namespace {

using location = std::tuple<std::string_view, std::string_view, unsigned>;

function_stats to_function_stats(const location& where, const runtime::accumulator& a, double ticks_per_ns) {
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
  return f;
}

}  // namespace

snapshot take_snapshot() {
  if (detail::current_thread != nullptr) detail::drain_pending(*detail::current_thread);
  runtime::registry_view view = runtime::registry::instance().collect();
  const runtime::clock_rate& rate = runtime::current_clock_rate();

  std::map<location, runtime::accumulator> by_location;
  for (size_t id = 1; id < view.sites.size(); ++id) {
    runtime::accumulator& a = view.per_site[id];
    if (a.calls == 0) continue;
    const runtime::site_info& s = view.sites[id];
    const location where{s.name, s.file, s.line};
    if (auto found = by_location.find(where); found != by_location.end())
      found->second.merge(a);
    else
      by_location.emplace(where, std::move(a));
  }

  snapshot result;
  result.pid = static_cast<long>(getpid());
  for (const auto& [where, a] : by_location)
    result.functions.push_back(to_function_stats(where, a, rate.ticks_per_ns));
  std::stable_sort(result.functions.begin(), result.functions.end(),
                   [](const function_stats& a, const function_stats& b) { return a.total_ns > b.total_ns; });
  const runtime::config& environment = runtime::current_settings().environment;
  result.ticklog.enabled = environment.ticks;
  result.ticklog.ring_events = environment.ticks ? environment.ring_events : 0;
  for (const runtime::thread_summary& t : view.threads) {
    result.threads.push_back({t.tid, t.name, t.calls, t.exited, t.ticks.kept, t.ticks.dropped});
    result.ticklog.events += t.ticks.kept;
    result.ticklog.dropped += t.ticks.dropped;
  }
  result.clock = {std::string(runtime::clock_name(runtime::current_settings().clock)), rate.ticks_per_ns, rate.origin};
  return result;
}

}  // namespace perf
