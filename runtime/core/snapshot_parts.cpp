#include "core/snapshot_parts.hpp"

#include <unistd.h>

#include <vector>

#include "core/registrations.hpp"
#include "core/settings.hpp"
#include "core/thread_name.hpp"

namespace perf::runtime {

void add_snapshot_part(snapshot_part part) { registered<snapshot_part>().push_back(part); }

snapshot take_snapshot(const thread_list& threads, snapshot_depth depth) {
  snapshot s;
  s.pid = static_cast<long>(getpid());
  const clock_rate& rate = current_clock_rate();
  const settings& chosen = current_settings();
  s.clock = {std::string(clock_name(chosen.clock)), rate.ticks_per_ns, rate.origin,
             static_cast<double>(chosen.clock_resolution) / rate.ticks_per_ns};
  auto add_row = [&](long tid, std::string name, uint64_t threads_in_row, bool exited) {
    thread_stats& row = s.threads.emplace_back();
    row.tid = tid;
    row.name = std::move(name);
    row.threads = threads_in_row;
    row.exited = exited;
  };
  for (const exited_thread& t : threads.exited) add_row(t.tid, t.name, t.threads, true);
  for (const thread_record* t : threads.living) add_row(t->tid, thread_name(*t), 1, has_left(*t));
  for (snapshot_part part : registered<snapshot_part>()) part(s, threads, depth);
  return s;
}

}  // namespace perf::runtime

perf::snapshot perf::take_snapshot() {
  snapshot s;
  runtime::visit_threads([&](const runtime::thread_list& threads) {
    s = runtime::take_snapshot(threads, runtime::snapshot_depth::report);
  });
  return s;
}
