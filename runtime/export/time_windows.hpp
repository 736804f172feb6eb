// Profiles and traces of a window of time that starts now: what
// /debug/pprof/profile?seconds=N and /trace?seconds=N serve when the N seconds are over.
#ifndef PERF_RUNTIME_EXPORT_TIME_WINDOWS_HPP
#define PERF_RUNTIME_EXPORT_TIME_WINDOWS_HPP

#include <functional>
#include <optional>
#include <string>

#include "export/transport.hpp"

namespace perf::runtime {

// Remembers the samples taken so far and returns what gives the samples taken
// after that, as a gzipped pprof profile.proto. Nothing when sampling is off.
std::optional<std::function<std::string()>> start_profile_window();

// Remembers the time now and returns what gives, when the window ends, the
// tick-log events logged since that the rings still hold, as Chrome Trace Event
// JSON written a thread at a time: each ring is read when its turn comes, and what
// is held at once is one ring's events (96 bytes each) and their JSON. Nothing when
// the tick log is off.
std::optional<std::function<body_writer()>> start_trace_window();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_TIME_WINDOWS_HPP
