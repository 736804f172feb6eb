// The tick log as a Perfetto trace (PERF_TRACE=*.pftrace): protocol buffers of
// Perfetto's public trace schema (perfetto/trace/trace.proto; the fields written are
// listed in test/runtime/ticklog/perfetto_subset.proto). One track per thread, named
// like the thread, under the process's track; a slice per measured scope the ring
// holds an end of (begun and not ended when the scope was still open as the ring was
// read; begun at the first event kept, with the debug annotation `cut`, when its
// enter was overwritten), an instant event per tick with its value as the debug
// annotation `n`, and where a thread's ring dropped older events, the same note as the
// JSON's at its first event kept (category "perf", the count as `dropped`).
// Names and source locations are interned once per thread.
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
