#include "export/windows.hpp"

#include <unistd.h>

#include <algorithm>
#include <memory>

#include "core/settings.hpp"
#include "core/thread_name.hpp"
#include "sampler/profile.hpp"
#include "sampler/profile_formats.hpp"
#include "sampler/sampler.hpp"
#include "ticklog/internal/trace.hpp"
#include "ticklog/ticklog.hpp"

namespace perf::runtime {

std::optional<std::function<std::string()>> start_profile_window() {
  const sample_table* table = sampled_stacks();
  if (table == nullptr) return std::nullopt;
  auto before = std::make_shared<const stack_counts>(count_stacks(*table));
  return [table, before] {
    const profile p = collect_profile(*table, sampling_hz(), current_sample_config().clock, before.get());
    return gzip(encode_pprof(p, known_thread_names()));
  };
}

std::optional<std::function<std::string()>> start_trace_window() {
  if (!current_settings().environment.ticks) return std::nullopt;
  const uint64_t start = detail::clock_now(current_settings().clock);
  return [start] {
    tick_view view = collect_ticks(nullptr);
    for (thread_ticks& thread : view.threads) {
      auto& events = thread.contents.events;
      events.erase(events.begin(), std::find_if(events.begin(), events.end(),
                                                [start](const event_copy& e) { return e.time >= start; }));
    }
    view.threads.erase(std::remove_if(view.threads.begin(), view.threads.end(),
                                      [](const thread_ticks& t) { return t.contents.events.empty(); }),
                       view.threads.end());
    return format_trace(view, current_clock_rate().ticks_per_ns, static_cast<long>(getpid()));
  };
}

}  // namespace perf::runtime
