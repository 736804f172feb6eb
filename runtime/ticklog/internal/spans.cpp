#include "ticklog/internal/spans.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "report_format/text_format.hpp"
#include "ticklog/ticklog_config.hpp"

namespace perf::runtime {

std::vector<span_role> span_roles(const std::vector<event_copy>& events) {
  std::vector<span_role> roles(events.size());
  std::vector<size_t> open(events.size());  // enters not yet left, innermost last
  pair_spans(
      events.size(), [&](size_t i) { return events[i].kind; }, [&](size_t i) { return events[i].site; }, open.data(),
      open.size(),
      [&](size_t i, span_role::kind_t kind, size_t partner) {
        roles[i] = {kind, partner};
      });
  return roles;
}

uint64_t first_event_time(const tick_view& view) {
  uint64_t first = std::numeric_limits<uint64_t>::max();
  for (const thread_ticks& thread : view.threads)
    if (!thread.contents.events.empty()) first = std::min(first, thread.contents.events.front().time);
  if (!view.samples.empty()) first = std::min(first, view.samples.front().time);
  return first;
}

std::string late_start_note(const ring_contents& contents) {
  const uint64_t logged = contents.events.size() + contents.dropped;
  return fmt::format(
      "perf: the timeline starts here: {} of this thread dropped before it (PERF_RING_EVENTS={} keeps {})",
      report_format::format_count_of(contents.dropped, "older event"), ring_events_for(logged),
      ring_keeps_all(logged) ? "them" : "more");
}

}  // namespace perf::runtime
