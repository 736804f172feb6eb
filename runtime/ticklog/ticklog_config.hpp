// The tick log's PERF_* variables: PERF_RING_EVENTS, PERF_RINGS_KEPT, PERF_TICKLOG,
// PERF_TRACE and PERF_TRACE_STREAM. (PERF_TICKS stays in core/config.hpp: it switches the hot path's ring
// off, and the probe's cost measured at start-up depends on it.)
#ifndef PERF_RUNTIME_TICKLOG_TICKLOG_CONFIG_HPP
#define PERF_RUNTIME_TICKLOG_TICKLOG_CONFIG_HPP

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace perf::runtime {

// Events each thread's tick ring holds unless PERF_RING_EVENTS says otherwise.
constexpr uint64_t default_ring_events = uint64_t{1} << 16;
// The same where a Perfetto PERF_TRACE streams: twice the room (3 MiB a thread), so
// that the trace's writer, which shares the processors with the program, reads every
// event of a thread that fills a default ring in 26 ms (docs/timeline.md).
constexpr uint64_t streamed_ring_events = uint64_t{1} << 17;
constexpr uint64_t max_ring_events = uint64_t{1} << 28;
// Exited threads whose tick rings are kept unless PERF_RINGS_KEPT says otherwise.
constexpr uint64_t default_rings_kept = 8;

struct ticklog_config {
  // PERF_RING_EVENTS, a power of two; unset, streamed_ring_events where the trace streams
  uint64_t ring_events = default_ring_events;
  uint64_t rings_kept = default_rings_kept;  // PERF_RINGS_KEPT
  std::string ticklog_path;                  // PERF_TICKLOG, %p not yet expanded; empty: none
  std::string trace_path;                    // PERF_TRACE, likewise
  bool trace_stream = true;                  // PERF_TRACE_STREAM (on|off): a Perfetto trace streams
  // One line per value that could not be used, naming the variable.
  std::vector<std::string> warnings;
};

// The ring PERF_RING_EVENTS=`count` gives: `count` rounded up to a power of two of at
// least 16, at most max_ring_events. A thread that logged `count` events in all keeps
// every one in it (ring_keeps_all: whether it does, max_ring_events being the most).
uint64_t ring_events_for(uint64_t count);
inline bool ring_keeps_all(uint64_t count) { return count <= max_ring_events; }

// Reads the tick log's variables through `getenv_fn` (a null result means unset).
ticklog_config parse_ticklog_config(const std::function<const char*(const char*)>& getenv_fn);

// Parsed on first use (the tick log's start-up makes that first use), its warnings
// on stderr once, one line each. Thread-safe.
const ticklog_config& current_ticklog_config();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_TICKLOG_CONFIG_HPP
