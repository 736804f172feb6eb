// The tick log's section of the report: events kept and dropped, in all and for
// each thread whose ring overwrote some.
#include <fmt/format.h>

#include "core/startup.hpp"
#include "perf/report.hpp"
#include "report/sections.hpp"
#include "report/text_format.hpp"

namespace perf::runtime {
namespace {

std::string ticklog_lines(const snapshot& s) {
  const ticklog_stats& t = s.ticklog;
  if (s.threads.empty()) return {};  // no thread measured or ticked: nothing logged
  if (!t.enabled) return "tick log: off (PERF_TICKS=off)\n";
  std::string out =
      fmt::format("tick log: {} event{} kept, {} dropped (ring of {} events per thread{})\n", format_count(t.events),
                  t.events == 1 ? "" : "s", format_count(t.dropped), format_count(t.ring_events),
                  t.dropped == 0 ? "" : "; PERF_RING_EVENTS keeps more");
  for (const thread_stats& thread : s.threads)
    if (thread.tick_dropped != 0)
      out += fmt::format("  thread {} ({}): {} kept, {} dropped\n", thread.tid, printable(thread.name),
                         format_count(thread.tick_events), format_count(thread.tick_dropped));
  return out;
}

std::string ticklog_json(const snapshot& s) {
  return fmt::format("{{\"enabled\": {}, \"events\": {}, \"dropped\": {}, \"ring_events\": {}}}", s.ticklog.enabled,
                     s.ticklog.events, s.ticklog.dropped, s.ticklog.ring_events);
}

PERF_RUNTIME_ON_START(register_ticklog_section) { add_report_section({100, "ticklog", ticklog_json, ticklog_lines}); }

}  // namespace
}  // namespace perf::runtime
