#include "ticklog/ticklog_config.hpp"

#include <fmt/format.h>

#include <charconv>
#include <string_view>

#include "core/settled_config.hpp"
#include "core/startup.hpp"
#include "ticklog/internal/perfetto_trace.hpp"

namespace perf::runtime {
namespace {

// A count from 1 to max_ring_events, rounded up to a power of two of at least 16.
uint64_t parse_ring_events(std::string_view value, std::vector<std::string>& warnings) {
  uint64_t count = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
  if (error != std::errc() || end != value.data() + value.size() || count < 1 || count > max_ring_events) {
    warnings.push_back(fmt::format("PERF_RING_EVENTS='{}' is not a count from 1 to {}; using {}", value,
                                   max_ring_events, default_ring_events));
    return default_ring_events;
  }
  return ring_events_for(count);
}

// PERF_RINGS_KEPT: how many exited threads keep their tick rings, 0 to 4096.
uint64_t parse_rings_kept(std::string_view value, std::vector<std::string>& warnings) {
  constexpr uint64_t most = 4096;
  uint64_t count = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
  if (error == std::errc() && end == value.data() + value.size() && count <= most) return count;
  warnings.push_back(
      fmt::format("PERF_RINGS_KEPT='{}' is not a count from 0 to {}; using {}", value, most, default_rings_kept));
  return default_rings_kept;
}

// PERF_TRACE_STREAM: on or off.
bool parse_trace_stream(std::string_view value, std::vector<std::string>& warnings) {
  if (value == "on") return true;
  if (value == "off") return false;
  warnings.push_back(fmt::format("PERF_TRACE_STREAM='{}' is neither on nor off; using on", value));
  return true;
}

// Its warnings at start-up, with core's, not at the first thread's attach.
PERF_RUNTIME_ON_START(settle_ticklog_config) { current_ticklog_config(); }

}  // namespace

uint64_t ring_events_for(uint64_t count) {
  uint64_t capacity = 16;
  while (capacity < count && capacity < max_ring_events) capacity *= 2;
  return capacity;
}

ticklog_config parse_ticklog_config(const std::function<const char*(const char*)>& getenv_fn) {
  ticklog_config result;
  if (const char* path = getenv_fn("PERF_TICKLOG")) result.ticklog_path = path;
  if (const char* path = getenv_fn("PERF_TRACE")) result.trace_path = path;
  if (const char* stream = getenv_fn("PERF_TRACE_STREAM"); stream != nullptr && *stream != '\0')
    result.trace_stream = parse_trace_stream(stream, result.warnings);
  if (result.trace_stream && is_perfetto_trace_path(result.trace_path)) result.ring_events = streamed_ring_events;
  if (const char* events = getenv_fn("PERF_RING_EVENTS"); events != nullptr && *events != '\0')
    result.ring_events = parse_ring_events(events, result.warnings);
  if (const char* kept = getenv_fn("PERF_RINGS_KEPT"); kept != nullptr && *kept != '\0')
    result.rings_kept = parse_rings_kept(kept, result.warnings);
  return result;
}

const ticklog_config& current_ticklog_config() { return settled_config<ticklog_config, parse_ticklog_config>(); }

}  // namespace perf::runtime
