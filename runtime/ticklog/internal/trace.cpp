#include "ticklog/internal/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <limits>

#include "report_format/escaping.hpp"
#include "report_format/text_format.hpp"
#include "ticklog/ticklog_config.hpp"

namespace perf::runtime {

using report_format::json_string;

namespace {

// One trace event of a thread, before it is written.
struct trace_entry {
  uint64_t start;
  uint64_t duration;  // for "X"
  char phase;         // 'X', 'B' or 'i'
  const event_copy* event;
};

std::string site_label(const std::vector<site_info>& sites, unsigned site) {
  return site < sites.size() ? sites[site].name : "?";
}

// The thread's events as trace entries, by start time, enclosing scopes first.
std::vector<trace_entry> entries_of(const thread_ticks& thread) {
  std::vector<trace_entry> entries;
  std::vector<const event_copy*> open;  // enter events not yet left
  for (const event_copy& e : thread.contents.events) {
    switch (e.kind) {
      case detail::event_kind::enter: open.push_back(&e); break;
      case detail::event_kind::exit:
        // An exit whose enter was overwritten has nothing to pair with.
        if (!open.empty() && open.back()->site == e.site) {
          const event_copy* enter = open.back();
          open.pop_back();
          entries.push_back({enter->time, e.time > enter->time ? e.time - enter->time : 0, 'X', enter});
        }
        break;
      case detail::event_kind::tick: entries.push_back({e.time, 0, 'i', &e}); break;
      case detail::event_kind::none: break;
    }
  }
  for (const event_copy* enter : open) entries.push_back({enter->time, 0, 'B', enter});
  std::stable_sort(entries.begin(), entries.end(), [](const trace_entry& a, const trace_entry& b) {
    return a.start != b.start ? a.start < b.start : a.duration > b.duration;
  });
  return entries;
}

}  // namespace

std::string trace_start(long pid) {
  return "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n" +
         fmt::format(
             "{{\"ph\": \"M\", \"pid\": {}, \"tid\": {}, \"name\": \"process_name\", \"args\": {{\"name\": {}}}}}", pid,
             pid, json_string(program_invocation_short_name));
}

std::string trace_thread(const thread_ticks& thread, const std::vector<site_info>& sites, uint64_t origin,
                         double ticks_per_ns, long pid) {
  auto microseconds = [&](uint64_t ticks) { return static_cast<double>(ticks) / ticks_per_ns / 1000; };
  const std::string name = thread.name.empty() ? fmt::format("thread {}", thread.tid) : thread.name;
  std::string out = fmt::format(
      ",\n{{\"ph\": \"M\", \"pid\": {}, \"tid\": {}, \"name\": \"thread_name\", \"args\": {{\"name\": {}}}}}", pid,
      thread.tid, json_string(name));
  // A ring that overflowed: the thread's timeline starts late, and says so where it starts.
  if (thread.contents.dropped != 0 && !thread.contents.events.empty()) {
    const uint64_t logged = thread.contents.events.size() + thread.contents.dropped;
    out += fmt::format(
        ",\n{{\"ph\": \"i\", \"s\": \"t\", \"pid\": {}, \"tid\": {}, \"ts\": {:.3f}, \"name\": \"perf: the timeline "
        "starts here: {} of this thread dropped before it (PERF_RING_EVENTS={} keeps {})\", \"cat\": \"perf\", "
        "\"args\": {{\"dropped\": {}}}}}",
        pid, thread.tid, microseconds(thread.contents.events.front().time - origin),
        report_format::format_count_of(thread.contents.dropped, "older event"), ring_events_for(logged),
        ring_keeps_all(logged) ? "them" : "more", thread.contents.dropped);
  }
  for (const trace_entry& entry : entries_of(thread)) {
    const double ts = microseconds(entry.start - origin);
    if (entry.phase == 'i') {
      const std::string_view label(entry.event->label, entry.event->label_length);
      out += fmt::format(
          ",\n{{\"ph\": \"i\", \"s\": \"t\", \"pid\": {}, \"tid\": {}, \"ts\": {:.3f}, \"name\": {}, \"args\": "
          "{{\"n\": {}}}}}",
          pid, thread.tid, ts, json_string(label.empty() ? std::string_view("tick") : label), entry.event->value);
    } else if (entry.phase == 'X') {
      out += fmt::format(
          ",\n{{\"ph\": \"X\", \"pid\": {}, \"tid\": {}, \"ts\": {:.3f}, \"dur\": {:.3f}, \"name\": {}, \"cat\": "
          "\"measured\"}}",
          pid, thread.tid, ts, microseconds(entry.duration), json_string(site_label(sites, entry.event->site)));
    } else {
      out += fmt::format(
          ",\n{{\"ph\": \"B\", \"pid\": {}, \"tid\": {}, \"ts\": {:.3f}, \"name\": {}, \"cat\": \"measured\"}}", pid,
          thread.tid, ts, json_string(site_label(sites, entry.event->site)));
    }
  }
  return out;
}

std::string format_trace(const tick_view& view, double ticks_per_ns, long pid) {
  uint64_t origin = std::numeric_limits<uint64_t>::max();
  for (const thread_ticks& thread : view.threads)
    if (!thread.contents.events.empty()) origin = std::min(origin, thread.contents.events.front().time);
  std::string out = trace_start(pid);
  for (const thread_ticks& thread : view.threads) out += trace_thread(thread, view.sites, origin, ticks_per_ns, pid);
  return out + trace_end;
}

}  // namespace perf::runtime
