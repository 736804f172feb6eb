// Measure's part of perf::snapshot: the per-site ticks of every thread turned into
// per-function times.
#include <algorithm>
#include <tuple>

#include "core/settings.hpp"
#include "core/sites.hpp"
#include "core/snapshot_parts.hpp"
#include "core/startup.hpp"
#include "measure/function_row.hpp"
#include "measure/probe_cost.hpp"
#include "measure/totals.hpp"
#include "perf/report.hpp"

namespace perf {
namespace {

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
  const runtime::compensation& compensation = runtime::current_compensation();
  const double least_call_ns = runtime::least_call_ns(compensation, ticks_per_ns);
  s.functions.reserve(rows.size());
  for (const ranked_row& r : rows) {
    const runtime::accumulator& a = per_site[r.row];
    s.overhead.preempted_calls += a.estimated.outliers;
    s.overhead.preempted_ns += a.estimated.outlier_sum / ticks_per_ns;
    s.functions.push_back(runtime::function_row(std::move(sites[r.row]), a, ticks_per_ns, binning, least_call_ns));
  }
  runtime::add_probe_figures(s, compensation, ticks_per_ns);

  const std::vector<uint64_t> calls = runtime::calls_per_thread(threads);
  for (size_t row = 0; row < calls.size(); ++row) s.threads[row].calls = calls[row];
}

PERF_RUNTIME_ON_START(register_functions) { runtime::add_snapshot_part(add_functions); }

}  // namespace
}  // namespace perf
