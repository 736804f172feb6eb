// Switched calls (end() in perf/measure.hpp): calls that ended on another thread than
// they began on, or off their thread's chain of open activations. Counted per site,
// process-wide, by whichever thread ends them; measure's part of perf::snapshot lists
// them per function.
#include <algorithm>
#include <cstring>
#include <tuple>

#include "core/sites.hpp"
#include "core/snapshot_parts.hpp"
#include "core/startup.hpp"
#include "core/threads.hpp"
#include "perf/report.hpp"

namespace perf {
namespace {

// Per site id; zero pages until a site has one.
uint64_t switched[runtime::max_sites];

// The functions with switched calls, merged by name and location (the sites of a
// row), most first, then by name and location. At depth `counts` too: they are few.
void add_switched_calls(snapshot& s, const runtime::thread_list&, runtime::snapshot_depth) {
  std::vector<runtime::site_info> sites = runtime::copy_sites();
  std::vector<uint64_t> per_row(sites.size());
  for (unsigned id = 1; id < sites.size(); ++id)
    per_row[sites[id].row] += __atomic_load_n(&switched[id], __ATOMIC_RELAXED);
  for (unsigned row = 1; row < sites.size(); ++row)
    if (per_row[row] != 0)
      s.switched.push_back({std::move(sites[row].name), std::move(sites[row].file), sites[row].line, per_row[row]});
  std::sort(s.switched.begin(), s.switched.end(), [](const switched_calls& a, const switched_calls& b) {
    return std::tie(b.calls, a.name, a.file, a.line) < std::tie(a.calls, b.name, b.file, b.line);
  });
}

// A forked child reports its own calls only (measure/totals.cpp clears the rest).
void forget_in_child(runtime::thread_record*) { std::memset(switched, 0, sizeof switched[0] * runtime::site_count()); }

PERF_RUNTIME_ON_START(register_switched_calls) {
  runtime::add_snapshot_part(add_switched_calls);
  runtime::add_thread_hooks({.fork_child = forget_in_child});
}

}  // namespace
}  // namespace perf

void perf::detail::count_switched_call(unsigned id) noexcept {
  if (id < runtime::max_sites) __atomic_fetch_add(&switched[id], 1, __ATOMIC_RELAXED);
}
