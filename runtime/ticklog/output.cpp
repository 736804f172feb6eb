// The tick log written at exit (PERF_TICKLOG, PERF_TRACE: JSON or Perfetto, the
// streamed trace finished) and by perf::dump_ticks.
#include <unistd.h>

#include <algorithm>

#include "core/output_file.hpp"
#include "core/settings.hpp"
#include "core/startup.hpp"
#include "perf/tick.hpp"
#include "ticklog/internal/perfetto_trace.hpp"
#include "ticklog/internal/tick_lines.hpp"
#include "ticklog/internal/trace.hpp"
#include "ticklog/ticklog.hpp"
#include "ticklog/ticklog_config.hpp"
#include "ticklog/trace_stream.hpp"

namespace perf::runtime {
namespace {

tick_view collect_all_ticks() {
  const detail::thread_state* caller = detail::current_thread;
  return collect_ticks(caller != nullptr ? caller->ring : nullptr);
}

struct merged_event {
  size_t thread;
  const event_copy* event;
};

// Every event of `view`, by time; a thread's own events keep their order.
std::vector<merged_event> in_time_order(const tick_view& view) {
  std::vector<merged_event> merged;
  for (size_t t = 0; t < view.threads.size(); ++t)
    for (const event_copy& e : view.threads[t].contents.events) merged.push_back({t, &e});
  std::stable_sort(merged.begin(), merged.end(),
                   [](const merged_event& a, const merged_event& b) { return a.event->time < b.event->time; });
  return merged;
}

bool write_plain(int fd, const tick_view& view, double ticks_per_ns) {
  uint64_t dropped = 0;
  for (const thread_ticks& thread : view.threads) dropped += thread.contents.dropped;
  const std::vector<merged_event> merged = in_time_order(view);

  tick_line_writer out(fd);
  out.text("# perf-instrument tick log, pid ");
  out.number(static_cast<uint64_t>(getpid()));
  out.text(": ");
  out.count(merged.size(), "event");
  out.text(" of ");
  out.count(view.threads.size(), "thread");
  out.text(", ");
  out.number(dropped);
  out.text(" older ones dropped\n");
  out.column_headings();
  auto ns = [&](uint64_t ticks) { return static_cast<uint64_t>(static_cast<double>(ticks) / ticks_per_ns + 0.5); };
  std::vector<uint64_t> previous(view.threads.size(), 0);
  std::vector<bool> seen(view.threads.size(), false);
  const uint64_t origin = merged.empty() ? 0 : merged.front().event->time;
  for (const merged_event& m : merged) {
    const event_copy& e = *m.event;
    const uint64_t delta = seen[m.thread] ? e.time - previous[m.thread] : 0;
    seen[m.thread] = true;
    previous[m.thread] = e.time;
    const char* site = e.site < view.sites.size() ? view.sites[e.site].name.c_str() : nullptr;
    out.event(ns(e.time - origin), ns(delta), view.threads[m.thread].tid, e, site);
  }
  return out.flush();
}

// The tick log and the trace where PERF_TICKLOG and PERF_TRACE say, at exit.
void write_exit_ticks() {
  const ticklog_config& wanted = current_ticklog_config();
  const bool trace_at_exit = !wanted.trace_path.empty() && !trace_streaming();
  finish_trace_stream();
  if (!current_settings().environment.ticks || (wanted.ticklog_path.empty() && !trace_at_exit)) return;
  const tick_view view = collect_all_ticks();
  const double ticks_per_ns = current_clock_rate().ticks_per_ns;
  if (!wanted.ticklog_path.empty())
    write_output("tick log", wanted.ticklog_path, [&](int fd) { return write_plain(fd, view, ticks_per_ns); });
  if (trace_at_exit) {
    const long pid = static_cast<long>(getpid());
    const std::string trace = is_perfetto_trace_path(wanted.trace_path) ? format_perfetto_trace(view, ticks_per_ns, pid)
                                                                        : format_trace(view, ticks_per_ns, pid);
    write_output("trace", wanted.trace_path, [&](int fd) { return write_all(fd, trace.data(), trace.size()); });
  }
}

PERF_RUNTIME_ON_START(register_exit_ticks) { add_exit_output(write_exit_ticks); }

}  // namespace
}  // namespace perf::runtime

bool perf::dump_ticks(const std::string& path) {
  const runtime::tick_view view = runtime::collect_all_ticks();
  const double ticks_per_ns = runtime::current_clock_rate().ticks_per_ns;
  return runtime::write_output("tick log", path, [&](int fd) { return runtime::write_plain(fd, view, ticks_per_ns); });
}
