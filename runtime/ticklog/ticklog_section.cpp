// The tick log's section of the report: events kept and dropped, in all and for
// each thread whose ring overwrote some.
#include <fmt/format.h>

#include <algorithm>

#include "core/report_sections.hpp"
#include "core/startup.hpp"
#include "perf/report.hpp"
#include "report_format/text_format.hpp"
#include "ticklog/ticklog_config.hpp"

namespace perf::runtime {

using report_format::format_count;
using report_format::format_count_of;
using report_format::thread_title;

namespace {

// Where a ring dropped events, the PERF_RING_EVENTS that keeps the whole run: the ring
// of the thread (or row of exited threads) that logged the most. Rows whose rings went
// to newer threads lost theirs to PERF_RINGS_KEPT, said on their own line.
std::string whole_run_hint(const snapshot& s) {
  if (s.ticklog.dropped == 0) return "";
  uint64_t most = 0;
  for (const thread_stats& thread : s.threads)
    if (!(thread.exited && thread.tick_events == 0)) most = std::max(most, thread.tick_events + thread.tick_dropped);
  return fmt::format("; PERF_RING_EVENTS={} keeps {}", ring_events_for(most),
                     ring_keeps_all(most) ? "the whole run" : "the most");
}

std::string ticklog_lines(const snapshot& s) {
  const ticklog_stats& t = s.ticklog;
  if (s.threads.empty()) return {};  // no thread measured or ticked: nothing logged
  if (!t.enabled) return "tick log: off (PERF_TICKS=off)\n";
  std::string out =
      fmt::format("tick log: {} kept, {} dropped (ring of {} per thread{})\n", format_count_of(t.events, "event"),
                  format_count(t.dropped), format_count_of(t.ring_events, "event"), whole_run_hint(s));
  // Rows whose rings went to newer threads (PERF_RINGS_KEPT) on one line: they
  // overflowed nothing, and a program with a thread per task has thousands.
  uint64_t gave_up_threads = 0, gave_up_dropped = 0;
  for (const thread_stats& thread : s.threads) {
    if (thread.tick_dropped == 0) continue;
    if (thread.exited && thread.tick_events == 0) {
      gave_up_threads += thread.threads;
      gave_up_dropped += thread.tick_dropped;
      continue;
    }
    out +=
        fmt::format("  {}: {} kept, {} dropped\n", thread_title(thread.tid, thread.name, thread.threads, thread.exited),
                    format_count(thread.tick_events), format_count(thread.tick_dropped));
  }
  if (gave_up_threads != 0)
    out += fmt::format(
        "  {} gave {} to newer threads: {} dropped "
        "(PERF_RINGS_KEPT keeps more)\n",
        format_count_of(gave_up_threads, "exited thread"), gave_up_threads == 1 ? "its ring" : "their rings",
        format_count(gave_up_dropped));
  return out;
}

std::string ticklog_json(const snapshot& s) {
  return fmt::format("{{\"enabled\": {}, \"events\": {}, \"dropped\": {}, \"ring_events\": {}}}", s.ticklog.enabled,
                     s.ticklog.events, s.ticklog.dropped, s.ticklog.ring_events);
}

PERF_RUNTIME_ON_START(register_ticklog_section) { add_report_section({100, "ticklog", ticklog_json, ticklog_lines}); }

}  // namespace
}  // namespace perf::runtime
