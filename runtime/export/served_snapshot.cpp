#include "export/served_snapshot.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "core/settings.hpp"
#include "core/snapshot_parts.hpp"
#include "export/label_cache.hpp"
#include "export/served_counters.hpp"
#include "measure/function_row.hpp"
#include "measure/probe_cost.hpp"
#include "measure/totals.hpp"
#include "sampler/sampler.hpp"

namespace perf::runtime {
namespace {

std::atomic<long> server_tid{0};

template <typename Rows>
void erase_server_rows(Rows& rows, long tid) {
  rows.erase(std::remove_if(rows.begin(), rows.end(), [tid](const auto& row) { return row.tid == tid; }), rows.end());
}

void erase_server_rows(snapshot& s) {
  const long tid = server_tid.load(std::memory_order_acquire);
  if (tid == 0) return;
  erase_server_rows(s.threads, tid);
  erase_server_rows(s.allocations.threads, tid);
  erase_server_rows(s.samples.threads, tid);
}

// The functions with calls, in the page's order, with the figures of their report
// rows (measure's call_figures) but the self time, served at its highest so far.
std::vector<metrics_function> page_functions(const label_cache& cache, const std::vector<binned_totals>& per_site,
                                             served_counters& self_times) {
  const double ticks_per_ns = current_clock_rate().ticks_per_ns;
  const double least_call_ns = runtime::least_call_ns(current_compensation(), ticks_per_ns);
  std::vector<metrics_function> functions;
  functions.reserve(cache.rows_by_name().size());
  for (const unsigned row : cache.rows_by_name()) {
    const binned_totals& t = per_site[row];
    if (t.calls == 0) continue;
    metrics_function& f = functions.emplace_back();
    f.labels = cache.labels(row).text;
    f.row = call_figures(t, ticks_per_ns, least_call_ns);
    f.row.self_ns = self_times.serve(row, f.row.self_ns);
    uint64_t below = 0;
    for (size_t b = 0; b < f.latency.size(); ++b) f.latency[b] = below += t.latency[b];
  }
  return functions;
}

}  // namespace

void become_server_thread() noexcept {
  // Lives as long as the thread: the handler passes over its samples.
  static thread_local const sampling_pause paused;
  (void)paused;
  server_tid.store(static_cast<long>(syscall(SYS_gettid)), std::memory_order_release);
}

snapshot served_snapshot() {
  snapshot s = perf::take_snapshot();
  erase_server_rows(s);
  return s;
}

metrics_content served_metrics() {
  static std::mutex cache_mutex;
  static label_cache* const cache = new label_cache;  // never destroyed: pages point into it
  static served_counters* const self_times = new served_counters;
  const std::lock_guard lock(cache_mutex);
  cache->update();
  metrics_content content;
  binned_function_totals totals;
  visit_threads([&](const thread_list& threads) {
    content.counts = take_snapshot(threads, snapshot_depth::counts);
    totals = read_binned_totals(threads, cache->rows());
  });
  for (size_t row = 0; row < content.counts.threads.size(); ++row)
    content.counts.threads[row].calls = totals.thread_calls[row];
  erase_server_rows(content.counts);
  content.functions = page_functions(*cache, totals.per_site, *self_times);
  return content;
}

}  // namespace perf::runtime
