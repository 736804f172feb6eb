// The tick log as Chrome Trace Event JSON (PERF_TRACE), for Perfetto and
// chrome://tracing: a complete event ("X") per measured scope whose enter and exit
// the ring still holds, a begin event ("B") per scope still open, an instant event
// ("i") per tick with its value in args.n, and each thread's name as metadata.
#ifndef PERF_RUNTIME_TICKLOG_INTERNAL_TRACE_HPP
#define PERF_RUNTIME_TICKLOG_INTERNAL_TRACE_HPP

#include <string>

#include "ticklog/ticklog.hpp"

namespace perf::runtime {

std::string format_trace(const tick_view& view, double ticks_per_ns, long pid);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_INTERNAL_TRACE_HPP
