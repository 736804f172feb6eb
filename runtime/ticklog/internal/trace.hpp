// The tick log as Chrome Trace Event JSON (PERF_TRACE), for Perfetto and
// chrome://tracing: a complete event ("X") per measured scope whose exit the ring
// still holds (from the first event kept, args.cut saying so, where its enter was
// overwritten), a begin event ("B") per scope still open, an instant event ("i") per
// tick with its value in args.n, and each thread's name as metadata. A thread whose
// ring dropped older events has an instant event of category "perf" at its first
// kept event, saying how many were dropped and the PERF_RING_EVENTS that keeps them
// (args.dropped: the count).
#ifndef PERF_RUNTIME_TICKLOG_INTERNAL_TRACE_HPP
#define PERF_RUNTIME_TICKLOG_INTERNAL_TRACE_HPP

#include <string>
#include <vector>

#include "ticklog/ticklog.hpp"

namespace perf::runtime {

std::string format_trace(const tick_view& view, double ticks_per_ns, long pid);

// The same trace in pieces, for writing it a thread at a time: trace_start, then
// trace_thread for each thread, then trace_end. Times are counted from `origin` (in
// ticks); `sites` names the events' sites (index = site id).
std::string trace_start(long pid);
std::string trace_thread(const thread_ticks& thread, const std::vector<site_info>& sites, uint64_t origin,
                         double ticks_per_ns, long pid);
inline constexpr const char* trace_end = "\n]}\n";

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_INTERNAL_TRACE_HPP
