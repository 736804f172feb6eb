#include "ticklog/internal/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>

#include "report_format/escaping.hpp"
#include "ticklog/internal/spans.hpp"

namespace perf::runtime {

using report_format::json_string;

namespace {

// One trace event of a thread, before it is written.
struct trace_entry {
  uint64_t start;
  uint64_t duration;  // for "X"
  char phase;         // 'X', 'B' or 'i'
  const event_copy* event;
  bool cut = false;  // an "X" whose enter came before the first event kept
};

// The arguments of a span whose start the ring no longer holds.
constexpr const char* cut_args = ", \"args\": {\"cut\": \"entered before the first event kept\"}";

std::string site_label(const std::vector<site_info>& sites, unsigned site) {
  return site < sites.size() ? sites[site].name : "?";
}

// The thread's events as trace entries, by start time, enclosing scopes first.
std::vector<trace_entry> entries_of(const thread_ticks& thread) {
  const std::vector<event_copy>& events = thread.contents.events;
  const std::vector<span_role> roles = span_roles(events);
  std::vector<trace_entry> entries;
  for (size_t i = 0; i < events.size(); ++i) {
    const event_copy& e = events[i];
    switch (roles[i].kind) {
      case span_role::begins: {
        const uint64_t end = events[roles[i].partner].time;
        entries.push_back({e.time, end > e.time ? end - e.time : 0, 'X', &e});
        break;
      }
      case span_role::ends_cut: {
        const uint64_t first = events.front().time;
        entries.push_back({first, e.time > first ? e.time - first : 0, 'X', &e, true});
        break;
      }
      case span_role::open: entries.push_back({e.time, 0, 'B', &e}); break;
      case span_role::tick: entries.push_back({e.time, 0, 'i', &e}); break;
      case span_role::ends:
      case span_role::left_out: break;
    }
  }
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
    out += fmt::format(
        ",\n{{\"ph\": \"i\", \"s\": \"t\", \"pid\": {}, \"tid\": {}, \"ts\": {:.3f}, \"name\": {}, \"cat\": \"perf\", "
        "\"args\": {{\"dropped\": {}}}}}",
        pid, thread.tid, microseconds(thread.contents.events.front().time - origin),
        json_string(late_start_note(thread.contents)), thread.contents.dropped);
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
          "\"measured\"{}}}",
          pid, thread.tid, ts, microseconds(entry.duration), json_string(site_label(sites, entry.event->site)),
          entry.cut ? cut_args : "");
    } else {
      out += fmt::format(
          ",\n{{\"ph\": \"B\", \"pid\": {}, \"tid\": {}, \"ts\": {:.3f}, \"name\": {}, \"cat\": \"measured\"}}", pid,
          thread.tid, ts, json_string(site_label(sites, entry.event->site)));
    }
  }
  return out;
}

std::string format_trace(const tick_view& view, double ticks_per_ns, long pid) {
  const uint64_t origin = first_event_time(view);
  std::string out = trace_start(pid);
  for (const thread_ticks& thread : view.threads) out += trace_thread(thread, view.sites, origin, ticks_per_ns, pid);
  return out + trace_end;
}

}  // namespace perf::runtime
