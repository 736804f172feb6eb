// The calling thread's stack unwound from the tables (.eh_frame), which every frame
// has, whether its code keeps frame pointers or not (a sanitizer's allocator does
// not): the gtest budgets' recorded allocations, and the heap sampler's under a
// sanitizer's hooks.
#ifndef PERF_RUNTIME_ALLOC_UNWOUND_STACK_HPP
#define PERF_RUNTIME_ALLOC_UNWOUND_STACK_HPP

#include <cstdint>

namespace perf::runtime {

// Fills `frames` with the return addresses of the calling thread's stack, innermost
// first (from unwind_stack's caller's own address in it), up to `capacity`; returns
// how many. Slow (microseconds); takes no lock the allocator holds and does not
// allocate, so it may run inside an allocation.
unsigned unwind_stack(uintptr_t* frames, unsigned capacity) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_ALLOC_UNWOUND_STACK_HPP
