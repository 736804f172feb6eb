// Runtime work done on a program's thread whose heap allocations that thread's
// allocation counters (perf/alloc.hpp) must not show: registering a site or the
// thread itself, arming a new thread's sampling timer. Without it, a thread that
// allocates nothing would get a row of the runtime's allocations, and a function's
// first measured call would carry its own registration.
#ifndef PERF_RUNTIME_CORE_UNCOUNTED_ALLOCATIONS_HPP
#define PERF_RUNTIME_CORE_UNCOUNTED_ALLOCATIONS_HPP

#include <stdint.h>

#include "perf/alloc.hpp"

namespace perf::runtime {

// While an uncounted_allocations lives, the calling thread's counters count as
// always; when it is destroyed they are put back to what they were when it was
// made, so the region's allocations and frees vanish from them (its peak too).
// Heap sampling (PERF_HEAP_SAMPLE) samples none of the region's allocations and
// takes its bytes off no countdown. Use it on one thread, as a local; regions nest.
// A reader on another thread may see the counters move during the region and go
// back after it. Allocates nothing.
class uncounted_allocations {
 public:
  uncounted_allocations() noexcept
      : saved_(alloc::this_thread()),
        saved_sizes_seen_(alloc::detail::current->sizes_seen),
        saved_requested_bytes_(alloc::detail::current->requested_bytes),
        saved_countdown_(alloc::detail::current->sample_countdown) {
    // The placeholder (a thread without its record) is never written.
    if (alloc::detail::current->state != alloc::detail::unattached)
      alloc::detail::current->sample_countdown = INT64_MAX;
  }
  ~uncounted_allocations() {
    alloc::detail::thread_counters& record = *alloc::detail::current;
    if (record.state == alloc::detail::unattached) return;  // nothing was counted
    record.sample_countdown = saved_countdown_;
    // A record attached in the region goes back to the placeholder's zeros.
    using alloc::detail::store_relaxed;
    store_relaxed(record.allocations, saved_.allocations);
    store_relaxed(record.bytes, saved_.bytes);
    store_relaxed(record.frees, saved_.frees);
    store_relaxed(record.bytes_freed, saved_.bytes_freed);
    store_relaxed(record.peak_live, saved_.peak_live);
    store_relaxed(record.sizes_seen, saved_sizes_seen_);
    store_relaxed(record.requested_bytes, saved_requested_bytes_);
  }
  uncounted_allocations(const uncounted_allocations&) = delete;
  uncounted_allocations& operator=(const uncounted_allocations&) = delete;

 private:
  const alloc::counters saved_;
  const uint32_t saved_sizes_seen_;
  const uint64_t saved_requested_bytes_;
  const int64_t saved_countdown_;
};

// Puts the calling thread's counters back to zero: what it allocated so far was not
// the program's doing. For the main thread at the end of the runtime's start-up
// (core/startup.cpp), which also saw the start-up of the libraries loaded before it.
// Allocates nothing.
inline void forget_counted_allocations() noexcept {
  alloc::detail::thread_counters& record = *alloc::detail::current;
  if (record.state == alloc::detail::unattached) return;  // nothing was counted
  using alloc::detail::store_relaxed;
  store_relaxed(record.allocations, uint64_t{0});
  store_relaxed(record.bytes, uint64_t{0});
  store_relaxed(record.frees, uint64_t{0});
  store_relaxed(record.bytes_freed, uint64_t{0});
  store_relaxed(record.peak_live, uint64_t{0});
}

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_UNCOUNTED_ALLOCATIONS_HPP
