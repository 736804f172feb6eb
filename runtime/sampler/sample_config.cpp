#include "sample_config.hpp"

#include <fmt/format.h>

#include <charconv>
#include <string_view>

namespace perf::runtime {
namespace {

// `value` as a whole number from `low` to `high`, or `fallback` plus a warning.
unsigned parse_bounded(const char* variable, std::string_view value, unsigned low, unsigned high, unsigned fallback,
                       std::vector<std::string>& warnings) {
  unsigned number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error == std::errc() && end == value.data() + value.size() && number >= low && number <= high) return number;
  warnings.push_back(fmt::format("{}='{}' is not a number from {} to {}; using {}", variable, value, low, high, fallback));
  return fallback;
}

}  // namespace

const char* clock_name(sample_clock clock) { return clock == sample_clock::wall ? "wall" : "cpu"; }

const char* source_name(sample_source source) { return source == sample_source::timer ? "timer" : "perf_event"; }

sample_config parse_sample_config(const std::function<const char*(const char*)>& getenv_fn) {
  sample_config result;
  if (const char* hz = getenv_fn("PERF_SAMPLE_HZ"); hz != nullptr && *hz != '\0')
    result.hz = parse_bounded("PERF_SAMPLE_HZ", hz, 0, max_sample_hz, default_sample_hz, result.warnings);
  if (const char* depth = getenv_fn("PERF_SAMPLE_DEPTH"); depth != nullptr && *depth != '\0')
    result.depth = parse_bounded("PERF_SAMPLE_DEPTH", depth, 1, max_sample_depth, default_sample_depth, result.warnings);
  if (const char* clock = getenv_fn("PERF_SAMPLE_CLOCK"); clock != nullptr && *clock != '\0') {
    const std::string_view value = clock;
    if (value == "wall")
      result.clock = sample_clock::wall;
    else if (value != "cpu")
      result.warnings.push_back(fmt::format("PERF_SAMPLE_CLOCK='{}' is neither cpu nor wall; using cpu", value));
  }
  if (const char* source = getenv_fn("PERF_SAMPLE_SOURCE"); source != nullptr && *source != '\0') {
    const std::string_view value = source;
    if (value == "timer")
      result.source = sample_source::timer;
    else if (value != "perf_event")
      result.warnings.push_back(
          fmt::format("PERF_SAMPLE_SOURCE='{}' is neither perf_event nor timer; using perf_event", value));
  }
  if (const char* path = getenv_fn("PERF_PROFILE")) result.profile_path = path;
  return result;
}

}  // namespace perf::runtime
