// The tick log's per-thread side: every thread that attaches gets a ring (unless
// PERF_TICKS=off), and read back for the outputs. The rings of the newest
// config::rings_kept exited threads (PERF_RINGS_KEPT) are kept; an older one is
// emptied, its events counted as dropped, and given to a thread that attaches
// later, so that the rings stay as many as the most threads ever living at once
// plus those kept.
#ifndef PERF_RUNTIME_TICKLOG_TICKLOG_HPP
#define PERF_RUNTIME_TICKLOG_TICKLOG_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "core/sites.hpp"
#include "core/timed_samples.hpp"
#include "ticklog/rings.hpp"

namespace perf::runtime {

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
  // The sampler's samples taken meanwhile, oldest first: a capture's (captures.hpp),
  // none elsewhere. Each sample's thread is among `threads`.
  std::vector<timed_sample> samples;
};

// The tick logs of every thread; `caller` (may be null) is the calling thread's
// ring, which is not being written while this runs. Takes the thread list's lock.
tick_view collect_ticks(const detail::tick_ring* caller);

// A thread's tick log found by tick_sources(), to be read later by copy_ticks(): a
// reader that copies one ring at a time holds one ring's copy, not every ring's.
struct tick_source {
  long tid = 0;
  std::string name;
  const ring_record* ring = nullptr;  // never freed
  bool exited = false;                // its thread had exited when it was found
};

// The threads that have a ring now, in collect_ticks' order. Takes the thread
// list's lock.
std::vector<tick_source> tick_sources();

// The events `source.ring` holds, as collect_ticks would copy them; none once the
// ring has passed to a newer thread (its thread exited and its events were dropped).
// Takes the thread list's lock.
ring_contents copy_ticks(const tick_source& source);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_TICKLOG_HPP
