// Thread names, for the report's rows.
#ifndef PERF_RUNTIME_CORE_THREAD_NAME_HPP
#define PERF_RUNTIME_CORE_THREAD_NAME_HPP

#include <string>

namespace perf::runtime {

// The name the living thread `tid` of this process gave itself (pthread_setname_np,
// at most 15 bytes; a new thread inherits its creator's), or "" when no such thread
// lives. Any thread may ask about any other: the name is read from
// /proc/self/task/<tid>/comm, as pthread_getname_np reads another thread's.
std::string thread_name(long tid);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_THREAD_NAME_HPP
