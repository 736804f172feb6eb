// Thread names, for the report's rows.
#ifndef PERF_RUNTIME_CORE_THREAD_NAME_HPP
#define PERF_RUNTIME_CORE_THREAD_NAME_HPP

#include <map>
#include <string>

namespace perf::runtime {

struct thread_record;

// The name the living thread `tid` of this process gave itself (pthread_setname_np,
// at most 15 bytes; a new thread inherits its creator's), or "" when no such thread
// lives. Any thread may ask about any other: the name is read from
// /proc/self/task/<tid>/comm, as pthread_getname_np reads another thread's.
std::string thread_name(long tid);

// The name of the thread of a record in thread_list::living: its name now, or, once
// it has exited (has_left()), as it was when it exited. For visitors.
std::string thread_name(const thread_record& thread);

// The names of the threads the thread list knows, by tid: an exited thread's as it
// was when it exited, a living one's now (a living thread's wins over an exited one
// whose tid it reuses). Takes the thread list's lock.
std::map<long, std::string> known_thread_names();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_THREAD_NAME_HPP
