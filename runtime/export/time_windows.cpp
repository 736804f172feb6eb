#include "export/time_windows.hpp"

#include <memory>

#include "core/settings.hpp"
#include "core/thread_name.hpp"
#include "sampler/profile.hpp"
#include "sampler/profile_formats.hpp"
#include "sampler/sampler.hpp"
#include "ticklog/trace_writer.hpp"

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

std::optional<std::function<body_writer()>> start_trace_window() {
  if (!current_settings().environment.ticks) return std::nullopt;
  const uint64_t start = detail::clock_now(current_settings().clock);
  return [start]() -> body_writer {
    auto writer = std::make_shared<trace_writer>(start);
    return [writer](char* out, size_t room) { return writer->write(out, room); };
  };
}

}  // namespace perf::runtime
