// The process-wide list of measured sites and of threads, living and exited.
// Only slow paths come here: a site's first call, a thread's first and last.
#ifndef PERF_RUNTIME_REGISTRY_HPP
#define PERF_RUNTIME_REGISTRY_HPP

#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "perf/detail/thread_state.hpp"
#include "stats.hpp"
#include "ticklog.hpp"

namespace perf::runtime {

// The runtime's side of a thread: its hot block (first, so that a pointer to the
// block is a pointer to the record) and who it is.
struct thread_record {
  detail::thread_state state;
  long tid = 0;
  pthread_t handle{};
  void* signal_stack = nullptr;  // from add_signal_stack()
};
static_assert(offsetof(thread_record, state) == 0);

struct thread_summary {
  long tid = 0;
  std::string name;
  uint64_t calls = 0;
  bool exited = false;
  ring_counts ticks;
};

// What the report shows of a site, copied at registration: a library unloaded with
// dlclose() takes its site objects and string literals with it.
struct site_info {
  std::string name;
  std::string file;
  unsigned line = 0;
};

// One thread's tick log, read back.
struct thread_ticks {
  long tid = 0;
  std::string name;
  ring_contents contents;
};

// Every thread's tick log, exited threads first, and the sites its events name.
struct tick_view {
  std::vector<site_info> sites;  // index = site id
  std::vector<thread_ticks> threads;
};

// A consistent copy of everything measured so far, per site id.
struct registry_view {
  std::vector<site_info> sites;            // index = site id; [0] is unused
  std::vector<accumulator> per_site;       // same indexing
  std::vector<thread_summary> threads;     // exited threads first, then living ones
};

class registry {
 public:
  // Site ids index every thread's slot array, which is reserved for this many.
  static constexpr unsigned max_sites = 1u << 16;

  static registry& instance();  // never destroyed: the exit report runs after static destructors

  unsigned register_site(detail::site& s);
  void add_thread(thread_record* thread);
  // A ring of `capacity` events for the new thread `tid`: a new one, or, once the rings
  // kept for exited threads have reached their limit (rings_kept_after_exit), the
  // oldest of those, emptied: its thread's events then count as dropped.
  ring_record* ring_for_new_thread(uint64_t capacity, long tid);
  // Merges an exiting thread's statistics into the totals and forgets the thread.
  void retire_thread(thread_record* thread);
  registry_view collect();
  // The tick logs of every thread; `caller` (may be null) is the calling thread's
  // ring, which is not being written while this runs.
  tick_view collect_ticks(const detail::tick_ring* caller);

  // The name of site `id`, or null. Async-signal-safe: for the crash dump.
  static const char* site_name(unsigned id) noexcept;

  // fork(): the registry is locked across the call; the child keeps only `survivor`
  // (the forking thread), with its statistics cleared, and starts from nothing.
  void lock_for_fork();
  void unlock_after_fork();
  void reset_in_child(thread_record* survivor);

 private:
  std::mutex mutex_;
  std::vector<site_info> sites_{site_info{}};
  std::vector<thread_record*> living_;
  std::vector<accumulator> retired_;  // index = site id
  std::vector<thread_summary> retired_threads_;
  struct retired_ring {
    ring_record* record;
    size_t summary;  // its thread's entry in retired_threads_
  };
  std::deque<retired_ring> retired_rings_;  // oldest first
};

// The calling thread's statistics cleared; its open activations stay open.
void clear_thread_statistics(thread_record& thread, unsigned site_count);
// How many exited threads keep their rings: those of about 96 MiB of events (64 at
// the default size), within 64 to 4096.
uint64_t rings_kept_after_exit(uint64_t capacity);

// Releases the memory of a thread record created by attach_thread().
void destroy_thread_record(thread_record* thread);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_REGISTRY_HPP
