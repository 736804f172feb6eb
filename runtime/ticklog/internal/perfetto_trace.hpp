// The tick log as a Perfetto trace made at exit from the rings (PERF_TRACE=*.pftrace
// with PERF_TRACE_STREAM=off, and a forked child's), of the packets of
// internal/perfetto_sequence.hpp. One track per thread; a slice per measured scope the ring
// holds an end of (begun and not ended when the scope was still open as the ring was
// read; begun at the first event kept, with the debug annotation `cut`, when its
// enter was overwritten), an instant event per tick with its value as the debug
// annotation `n`, and where a thread's ring dropped older events, the same note as the
// JSON's at its first event kept (category "perf", the count as `dropped`). A
// capture's samples (tick_view::samples) are instants of category "sample" on their
// thread's track, between its events by time.
#ifndef PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_TRACE_HPP
#define PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_TRACE_HPP

#include <string>
#include <string_view>

#include "ticklog/ticklog.hpp"

namespace perf::runtime {

// Whether `path` names a Perfetto trace (it ends in .pftrace or .perfetto-trace)
// rather than a JSON one.
bool is_perfetto_trace_path(std::string_view path);

// The whole trace; timestamps in nanoseconds from the earliest event.
std::string format_perfetto_trace(const tick_view& view, double ticks_per_ns, long pid);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_TRACE_HPP
