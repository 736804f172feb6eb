#include "ticklog/internal/perfetto_trace.hpp"

#include "ticklog/internal/perfetto_sequence.hpp"
#include "ticklog/internal/spans.hpp"

namespace perf::runtime {

bool is_perfetto_trace_path(std::string_view path) {
  return path.ends_with(".pftrace") || path.ends_with(".perfetto-trace");
}

std::string format_perfetto_trace(const tick_view& view, double ticks_per_ns, long pid) {
  const uint64_t origin = first_event_time(view);
  const auto ns = [&](uint64_t ticks) { return perfetto_time_ns(ticks, origin, ticks_per_ns); };
  std::string out = perfetto_process_packet(pid);
  for (size_t t = 0; t < view.threads.size(); ++t) {
    const thread_ticks& thread = view.threads[t];
    perfetto_sequence sequence(out, t, view.sites);
    sequence.add_track(pid, thread.tid, thread.name);
    // The thread's samples go between its events, by time.
    auto next_sample = view.samples.begin();
    const auto samples_before = [&](uint64_t time) {
      for (; next_sample != view.samples.end() && next_sample->time < time; ++next_sample)
        if (next_sample->tid == thread.tid) sequence.sample(ns(next_sample->time), *next_sample);
    };
    const std::vector<event_copy>& events = thread.contents.events;
    if (!events.empty()) samples_before(events.front().time);
    if (thread.contents.dropped != 0 && !events.empty())
      sequence.note(ns(events.front().time), late_start_note(thread.contents), "dropped", thread.contents.dropped);
    const std::vector<span_role> roles = span_roles(events);
    // The scopes entered before the first event begin there, the outermost (the last
    // to end) first.
    for (size_t i = events.size(); i-- > 0;)
      if (roles[i].kind == span_role::ends_cut) sequence.slice_begin(ns(events.front().time), events[i].site, true);
    for (size_t i = 0; i < events.size(); ++i) {
      samples_before(events[i].time);
      switch (roles[i].kind) {
        case span_role::begins:
        case span_role::open: sequence.slice_begin(ns(events[i].time), events[i].site, false); break;
        case span_role::ends:
        case span_role::ends_cut: sequence.slice_end(ns(events[i].time)); break;
        case span_role::tick: sequence.tick(ns(events[i].time), events[i]); break;
        case span_role::left_out: break;
      }
    }
    samples_before(UINT64_MAX);
  }
  return out;
}

}  // namespace perf::runtime
