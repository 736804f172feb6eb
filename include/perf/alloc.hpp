// Allocation counters: how many heap blocks the calling thread allocated and freed,
// and their bytes. Counting needs perf::alloc linked into the program (CMake target
// perf::alloc; perf_instrument_target() and the zero-edit integration link it):
//
//   perf::alloc::scoped_counter counter;
//   parse(text);
//   const perf::alloc::counters used = counter.elapsed();  // allocations, bytes, ...
//
// Bytes are the sizes of the blocks as the allocator reports them
// (malloc_usable_size; the requested size under AddressSanitizer and
// ThreadSanitizer), taken the same way at allocation and at free, so that
// allocated and freed bytes balance whatever the compiler passes to `delete`.
// Reading the counters takes no lock and allocates nothing. This header compiles
// as C++11 and later.
#ifndef PERF_ALLOC_HPP
#define PERF_ALLOC_HPP

#include <stdint.h>

#include "perf/detail/alloc_counters.hpp"

namespace perf {
namespace alloc {

struct counters {
  uint64_t allocations;
  uint64_t bytes;
  uint64_t frees;
  uint64_t bytes_freed;
  uint64_t peak_live;  // highest `bytes - bytes_freed` of the thread so far
};

// Whether allocations are being counted: false when perf::alloc is not linked, or
// when another allocator comes before it in symbol order (then every counter stays 0).
inline bool counting_active() noexcept { return detail::mode() != detail::inactive; }

// The calling thread's counters since it started.
inline counters this_thread() noexcept {
  const detail::thread_counters& record = *detail::current;
  return counters{detail::load_relaxed(record.allocations), detail::load_relaxed(record.bytes),
                  detail::load_relaxed(record.frees), detail::load_relaxed(record.bytes_freed),
                  detail::load_relaxed(record.peak_live)};
}

// Counts the calling thread's allocations from its construction on. `peak_live`
// of elapsed() is the thread's peak, not the region's. Use it on one thread.
class scoped_counter {
 public:
  scoped_counter() noexcept : start_(this_thread()) {}

  counters elapsed() const noexcept {
    const counters now = this_thread();
    return counters{now.allocations - start_.allocations, now.bytes - start_.bytes, now.frees - start_.frees,
                    now.bytes_freed - start_.bytes_freed, now.peak_live};
  }

 private:
  counters start_;
};

}  // namespace alloc
}  // namespace perf

#endif  // PERF_ALLOC_HPP
