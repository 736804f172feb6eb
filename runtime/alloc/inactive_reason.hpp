// Why allocation counting is inactive in a process that has libperfalloc, for the
// report's one line. Reads the dynamic linker's state: call it off the hot path and
// never from a signal handler (the exit report, perf::write_report).
#ifndef PERF_RUNTIME_ALLOC_INACTIVE_REASON_HPP
#define PERF_RUNTIME_ALLOC_INACTIVE_REASON_HPP

#include <string>

namespace perf::runtime {

// The reason and its fix ("libtcmalloc_minimal.so.4 is ahead of libperfalloc in the
// link order; ..."), or "" when libperfalloc is not in the process (the program did
// not link perf::alloc: then it asked for no counting).
std::string counting_inactive_reason();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_ALLOC_INACTIVE_REASON_HPP
