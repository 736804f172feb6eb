// The allocator perf::alloc forwards to: the next definition of each function in
// symbol order (glibc, or jemalloc/tcmalloc/mimalloc when linked or preloaded after
// libperfalloc). Internal to the interposer.
#ifndef PERF_RUNTIME_ALLOC_INTERPOSE_NEXT_ALLOCATOR_HPP
#define PERF_RUNTIME_ALLOC_INTERPOSE_NEXT_ALLOCATOR_HPP

#include <stddef.h>

#include "perf/detail/alloc_counters.hpp"

namespace perf::alloc::interpose {

struct next_allocator {
  void* (*malloc)(size_t);
  void (*free)(void*);
  void* (*calloc)(size_t, size_t);
  void* (*realloc)(void*, size_t);
  void* (*aligned_alloc)(size_t, size_t);
  int (*posix_memalign)(void**, size_t, size_t);
  void* (*memalign)(size_t, size_t);
  void* (*valloc)(size_t);
  void* (*pvalloc)(size_t);
  size_t (*usable_size)(void*);
};

extern next_allocator next_functions;

// Looks the next allocator up. Allocations made meanwhile by the lookup itself
// (dlsym may allocate) come from a static buffer: see from_bootstrap().
void resolve_next() noexcept;

// Whether the calling thread is inside resolve_next(): its allocations must come
// from the bootstrap buffer.
bool resolving() noexcept;

// The next allocator, resolved on first use; null while the calling thread is
// resolving it (then allocations come from the bootstrap buffer).
PERF_DETAIL_ALWAYS_INLINE const next_allocator* next() noexcept {
  if (PERF_DETAIL_LIKELY(__atomic_load_n(&next_functions.usable_size, __ATOMIC_ACQUIRE) != nullptr))
    return &next_functions;
  if (resolving()) return nullptr;
  resolve_next();
  return &next_functions;
}
// A block of the bootstrap buffer (zeroed, never reused); null when it is exhausted.
void* bootstrap_allocate(size_t bytes, size_t alignment) noexcept;
// Whether `block` came from bootstrap_allocate(); such blocks are never counted nor freed.
bool from_bootstrap(const void* block) noexcept;
// The size bootstrap_allocate() gave `block`.
size_t bootstrap_size(const void* block) noexcept;

// Counts the allocation of `block` (non-null, from the next allocator).
PERF_DETAIL_ALWAYS_INLINE void count_allocated(void* block) noexcept {
  detail::count_allocation(next_functions.usable_size(block));
}

// Counts the free of `block` (non-null, from the next allocator); call it before
// the block is freed.
PERF_DETAIL_ALWAYS_INLINE void count_freed(void* block) noexcept {
  detail::count_free(next_functions.usable_size(block));
}

// Frees `block` from any source, counted; null is ignored.
PERF_DETAIL_ALWAYS_INLINE void release(void* block) noexcept {
  if (block == nullptr || PERF_DETAIL_UNLIKELY(from_bootstrap(block))) return;
  const next_allocator* functions = next();
  if (PERF_DETAIL_UNLIKELY(functions == nullptr)) return;  // nothing but bootstrap blocks exists yet
  count_freed(block);
  functions->free(block);
}

}  // namespace perf::alloc::interpose

#endif  // PERF_RUNTIME_ALLOC_INTERPOSE_NEXT_ALLOCATOR_HPP
