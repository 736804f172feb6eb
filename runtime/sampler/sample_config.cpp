#include "sampler/sample_config.hpp"

#include <fmt/format.h>

#include <signal.h>

#include <charconv>
#include <string_view>
#include <tuple>
#include <utility>

namespace perf::runtime {
namespace {

// `value` as a whole number from `low` to `high`, or `fallback` plus a warning.
unsigned parse_bounded(const char* variable, std::string_view value, unsigned low, unsigned high, unsigned fallback,
                       std::vector<std::string>& warnings) {
  unsigned number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error == std::errc() && end == value.data() + value.size() && number >= low && number <= high) return number;
  warnings.push_back(
      fmt::format("{}='{}' is not a number from {} to {}; using {}", variable, value, low, high, fallback));
  return fallback;
}

// The signals PERF_SAMPLE_SIGNAL may name: those whose default action is harmless or
// that programs leave to tools, and the real-time ones the C library does not keep.
constexpr std::pair<const char*, int> named_signals[] = {
    {"SIGURG", SIGURG}, {"SIGPROF", SIGPROF}, {"SIGVTALRM", SIGVTALRM}, {"SIGUSR1", SIGUSR1}, {"SIGUSR2", SIGUSR2}};

// PERF_SAMPLE_SIGNAL's value as a signal number; 0 if it is none of the above.
int parse_signal(std::string_view value) {
  for (const auto& [name, number] : named_signals)
    if (value == name) return number;
  using range_end = std::tuple<std::string_view, int, int>;  // name, signal, direction inwards
  for (const auto& [prefix, base, direction] :
       {range_end{"SIGRTMIN", SIGRTMIN, 1}, range_end{"SIGRTMAX", SIGRTMAX, -1}}) {
    if (value.substr(0, prefix.size()) != prefix) continue;
    std::string_view offset = value.substr(prefix.size());
    if (offset.empty()) return base;
    if (offset[0] != (direction > 0 ? '+' : '-')) return 0;
    offset.remove_prefix(1);
    int n = 0;
    const auto [end, error] = std::from_chars(offset.data(), offset.data() + offset.size(), n);
    const int number = base + direction * n;
    const bool whole = error == std::errc() && end == offset.data() + offset.size();
    return whole && number >= SIGRTMIN && number <= SIGRTMAX ? number : 0;
  }
  return 0;
}

}  // namespace

std::string signal_name(int signal) {
  for (const auto& [name, number] : named_signals)
    if (signal == number) return name;
  if (signal < SIGRTMIN || signal > SIGRTMAX) return fmt::format("signal {}", signal);
  if (SIGRTMAX - signal <= signal - SIGRTMIN)
    return signal == SIGRTMAX ? "SIGRTMAX" : fmt::format("SIGRTMAX-{}", SIGRTMAX - signal);
  return signal == SIGRTMIN ? "SIGRTMIN" : fmt::format("SIGRTMIN+{}", signal - SIGRTMIN);
}

const char* clock_name(sample_clock clock) { return clock == sample_clock::wall ? "wall" : "cpu"; }

const char* source_name(sample_source source) { return source == sample_source::timer ? "timer" : "perf_event"; }

sample_config parse_sample_config(const std::function<const char*(const char*)>& getenv_fn) {
  sample_config result;
  if (const char* hz = getenv_fn("PERF_SAMPLE_HZ"); hz != nullptr && *hz != '\0')
    result.hz = parse_bounded("PERF_SAMPLE_HZ", hz, 0, max_sample_hz, default_sample_hz, result.warnings);
  if (const char* depth = getenv_fn("PERF_SAMPLE_DEPTH"); depth != nullptr && *depth != '\0')
    result.depth =
        parse_bounded("PERF_SAMPLE_DEPTH", depth, 1, max_sample_depth, default_sample_depth, result.warnings);
  if (const char* clock = getenv_fn("PERF_SAMPLE_CLOCK"); clock != nullptr && *clock != '\0') {
    const std::string_view value = clock;
    if (value == "wall") result.clock = sample_clock::wall;
    else if (value != "cpu")
      result.warnings.push_back(fmt::format("PERF_SAMPLE_CLOCK='{}' is neither cpu nor wall; using cpu", value));
  }
  if (const char* signal = getenv_fn("PERF_SAMPLE_SIGNAL"); signal != nullptr && *signal != '\0') {
    result.signal = parse_signal(signal);
    if (result.signal == 0)
      result.warnings.push_back(
          fmt::format("PERF_SAMPLE_SIGNAL='{}' is not one of SIGURG, SIGPROF, SIGVTALRM, SIGUSR1, SIGUSR2, SIGRTMIN+n, "
                      "SIGRTMAX-n; using the first free of SIGURG, SIGPROF and the real-time signals",
                      signal));
  }
  if (const char* source = getenv_fn("PERF_SAMPLE_SOURCE"); source != nullptr && *source != '\0') {
    const std::string_view value = source;
    if (value == "timer") result.source = sample_source::timer;
    else if (value != "perf_event")
      result.warnings.push_back(
          fmt::format("PERF_SAMPLE_SOURCE='{}' is neither perf_event nor timer; using perf_event", value));
  }
  if (const char* path = getenv_fn("PERF_PROFILE")) result.profile_path = path;
  return result;
}

}  // namespace perf::runtime
