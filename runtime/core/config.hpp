// The PERF_* variables of core, parsed once at start-up: PERF_CLOCK, PERF_TICKS,
// PERF_THREADS. Each component parses its own (ticklog/ticklog_config.hpp,
// exit_report/report_destination.hpp, sampler/sample_config.hpp, measure/probe_cost.hpp,
// export/listen_address.hpp).
#ifndef PERF_RUNTIME_CORE_CONFIG_HPP
#define PERF_RUNTIME_CORE_CONFIG_HPP

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace perf::runtime {

// Exited threads the report lists one by one (the first to exit) unless PERF_THREADS
// says otherwise; the later ones are folded into a row per thread name.
constexpr uint64_t default_exited_threads_listed = 64;
constexpr uint64_t all_exited_threads_listed = UINT64_MAX;  // PERF_THREADS=all

struct config {
  std::string clock;  // PERF_CLOCK as given; runtime/clock.cpp interprets it
  // PERF_TICKS: tick log on (the default) or off; in core, since the hot path's ring
  // and the probe's cost measured at start-up depend on it.
  bool ticks = true;
  uint64_t exited_threads_listed = default_exited_threads_listed;  // PERF_THREADS
  // One line per value that could not be used, naming the variable.
  std::vector<std::string> warnings;
};

// Reads the configuration through `getenv_fn` (so tests need not touch the
// process environment); a null result means unset.
config parse_config(const std::function<const char*(const char*)>& getenv_fn);

// `pattern` with every "%p" replaced by `pid`.
std::string expand_pid(std::string_view pattern, long pid);

// The same into `out` (NUL-terminated) without allocating, for a signal handler;
// false when it takes `capacity` bytes or more. Async-signal-safe.
bool expand_pid(std::string_view pattern, long pid, char* out, size_t capacity) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_CONFIG_HPP
