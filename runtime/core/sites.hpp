// The process-wide table of measured sites: ids handed out on a site's first call.
#ifndef PERF_RUNTIME_CORE_SITES_HPP
#define PERF_RUNTIME_CORE_SITES_HPP

#include <stdint.h>

#include <string>
#include <vector>

#include "perf/detail/thread_state.hpp"

namespace perf::runtime {

// Site ids index every thread's slot array, which is reserved for this many.
constexpr unsigned max_sites = 1u << detail::site_id_bits;

// What the report shows of a site, copied at registration: a library unloaded with
// dlclose() takes its site objects and string literals with it.
struct site_info {
  std::string name;
  std::string file;
  unsigned line = 0;
  unsigned row = 0;  // the id of the first site registered with this name and location
};

// Gives `s` its key (and returns it; see detail::site_key): a new id on its first
// registration, from 1 up, and the row of the first site registered with its name
// and location. A site of a library unloaded and loaded again (the same module path,
// offset in it, name and location) gets the id it had before, so that reloading a
// plugin uses up no ids. The sites beyond max_sites - 2 share the last id, shown as
// an overflow row. Thread-safe; takes the dynamic loader's lock, then the table's,
// but calls no allocator while holding the table's. The calling thread is busy
// meanwhile (core/runtime_work.hpp). `code` is an address in the measured function's
// code (see site_code); a site registered again after its library's reloading takes
// the new one.
unsigned register_site(detail::site& s, const void* code);

// One more than the highest id handed out so far. Thread-safe, lock-free.
unsigned site_count() noexcept;

// Every site registered so far, indexed by id ([0] is unused). Thread-safe, takes no lock.
std::vector<site_info> copy_sites();
// The sites registered so far from id `first` on: [i] is site first + i. Thread-safe, takes no lock.
std::vector<site_info> copy_sites_from(unsigned first);

// The name of site `id`, or null. Async-signal-safe: for the crash dump.
const char* site_name(unsigned id) noexcept;

// An address inside the function that measures site `id` (the return address of its
// first timed call's begin()), or 0 (none registered, or the overflow row). It may lie
// in a library unloaded since. Thread-safe, lock-free.
uintptr_t site_code(unsigned id) noexcept;

// For core/threads' fork handlers only: the table is held locked across fork(),
// and in the child unlocked by the forking thread, which locked it.
void lock_sites_for_fork();
void unlock_sites_after_fork();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_SITES_HPP
