// What the allocation tests share: measuring a piece of code on this thread, and
// keeping the compiler from removing an allocation whose block is never used.
#ifndef PERF_TEST_RUNTIME_ALLOC_SUPPORT_HPP
#define PERF_TEST_RUNTIME_ALLOC_SUPPORT_HPP

#include <malloc.h>

#include "perf/alloc.hpp"

namespace perf::alloc::test {

// The allocations and frees `body` makes on the calling thread.
template <class Body>
counters measure(Body body) {
  scoped_counter counter;
  body();
  return counter.elapsed();
}

// Makes `block` look used, so that its allocation stays.
inline void escape(void* block) { asm volatile("" : : "g"(block) : "memory"); }

// The size perf::alloc counts for `block`: the allocator's (or sanitizer's) usable size.
inline uint64_t block_size(void* block) { return malloc_usable_size(block); }

}  // namespace perf::alloc::test

#endif  // PERF_TEST_RUNTIME_ALLOC_SUPPORT_HPP
