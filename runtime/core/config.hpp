// The PERF_* environment variables, parsed once at start-up.
#ifndef PERF_RUNTIME_CORE_CONFIG_HPP
#define PERF_RUNTIME_CORE_CONFIG_HPP

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace perf::runtime {

// Where the exit report goes (PERF_REPORT).
struct report_destination {
  enum class kind { standard_error, file, off };
  kind where = kind::standard_error;
  std::string path;  // for kind::file, with %p not yet expanded
};

// Events each thread's tick ring holds unless PERF_RING_EVENTS says otherwise.
constexpr uint64_t default_ring_events = uint64_t{1} << 16;
constexpr uint64_t max_ring_events = uint64_t{1} << 28;

// Exited threads the report lists one by one (the first to exit) unless PERF_THREADS
// says otherwise; the later ones are folded into a row per thread name.
constexpr uint64_t default_exited_threads_listed = 64;
constexpr uint64_t all_exited_threads_listed = UINT64_MAX;  // PERF_THREADS=all
// Exited threads whose tick rings are kept unless PERF_RINGS_KEPT says otherwise.
constexpr uint64_t default_rings_kept = 8;

struct config {
  report_destination report;
  std::string clock;  // PERF_CLOCK as given; runtime/clock.cpp interprets it
  bool ticks = true;  // PERF_TICKS: tick log on (the default) or off
  uint64_t ring_events = default_ring_events;  // PERF_RING_EVENTS, a power of two
  std::string ticklog_path;  // PERF_TICKLOG, %p not yet expanded; empty: none
  std::string trace_path;    // PERF_TRACE, likewise
  uint64_t exited_threads_listed = default_exited_threads_listed;  // PERF_THREADS
  uint64_t rings_kept = default_rings_kept;                         // PERF_RINGS_KEPT
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
