// The heap sampler's part of the allocation path (perf/detail/alloc_counters.hpp's
// sample_allocation and forget_sampled, which alloc defines), registered by the heap
// component at start-up (heap/heap_sampler.cpp), as the components' other hooks are:
// alloc calls it and never names heap.
#ifndef PERF_RUNTIME_ALLOC_HEAP_SAMPLING_HOOK_HPP
#define PERF_RUNTIME_ALLOC_HEAP_SAMPLING_HOOK_HPP

#include <stdint.h>

#include "perf/detail/alloc_counters.hpp"

namespace perf::runtime {

struct heap_sampling_hook {
  // An allocation due for sampling (sample_allocation's contract). Async-signal-safe
  // as the allocator must be; takes no lock the allocator holds.
  void (*sample)(alloc::detail::thread_counters& record, const void* block, uint64_t requested) noexcept;
  // A free the filter let through (forget_sampled's contract).
  void (*forget)(const void* block) noexcept;
};

// Registers `hook`; once, from a PERF_RUNTIME_ON_START function. Until then, an
// allocation due for sampling only sets its thread's countdown to zero (it asks again
// at its next allocation) and a free has nothing to forget. Any thread.
void set_heap_sampling_hook(const heap_sampling_hook& hook) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_ALLOC_HEAP_SAMPLING_HOOK_HPP
