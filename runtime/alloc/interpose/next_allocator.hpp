// The allocator perf::alloc forwards to: the next definition of each function in
// symbol order (glibc, or jemalloc/tcmalloc/mimalloc when linked or preloaded after
// libperfalloc). Internal to the interposer.
#ifndef PERF_RUNTIME_ALLOC_INTERPOSE_NEXT_ALLOCATOR_HPP
#define PERF_RUNTIME_ALLOC_INTERPOSE_NEXT_ALLOCATOR_HPP

#include <stddef.h>
#include <stdint.h>

#include "perf/detail/alloc_counters.hpp"

// Internal to libperfalloc: hidden, so that its code reaches these symbols directly
// rather than through the GOT.
#pragma GCC visibility push(hidden)

namespace perf::alloc::interpose {

// C functions, which never throw: noexcept lets a noexcept caller end in a tail call.
// Every field is written only by resolve_next() and read with atomic loads.
struct next_allocator {
  // Until the next allocator is resolved, a function that resolves it (or, on the
  // resolving thread, allocates from the bootstrap buffer): malloc() calls it with
  // no test. Set last, so that a caller that sees the next malloc sees the rest.
  void* (*malloc)(size_t) noexcept;
  void (*free)(void*) noexcept;
  void* (*calloc)(size_t, size_t) noexcept;
  void* (*realloc)(void*, size_t) noexcept;
  void* (*aligned_alloc)(size_t, size_t) noexcept;
  int (*posix_memalign)(void**, size_t, size_t) noexcept;
  void* (*memalign)(size_t, size_t) noexcept;
  void* (*valloc)(size_t) noexcept;
  void* (*pvalloc)(size_t) noexcept;
  // Null until every function above but malloc is resolved.
  size_t (*usable_size)(void*) noexcept;
  // True once resolved, when the blocks are glibc's, whose usable size the chunk
  // header gives without a call (checked against malloc_usable_size when resolved).
  bool glibc_chunks;
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

// The next allocator's malloc; before it is resolved, the function that resolves it.
PERF_DETAIL_ALWAYS_INLINE void* next_malloc(size_t bytes) noexcept {
  return __atomic_load_n(&next_functions.malloc, __ATOMIC_ACQUIRE)(bytes);
}

// Whether the next allocator is resolved and its blocks are glibc's chunks.
PERF_DETAIL_ALWAYS_INLINE bool glibc_chunks() noexcept {
  return __atomic_load_n(&next_functions.glibc_chunks, __ATOMIC_ACQUIRE);
}

// A block of the bootstrap buffer (zeroed, never reused); null when it is exhausted.
void* bootstrap_allocate(size_t bytes, size_t alignment) noexcept;
// The bootstrap buffer, for from_bootstrap().
extern unsigned char bootstrap[16 * 1024];

// Whether `block` came from bootstrap_allocate(); such blocks are never counted nor freed.
PERF_DETAIL_ALWAYS_INLINE bool from_bootstrap(const void* block) noexcept {
  return reinterpret_cast<uintptr_t>(block) - reinterpret_cast<uintptr_t>(bootstrap) < sizeof bootstrap;
}
// The size bootstrap_allocate() gave `block`.
size_t bootstrap_size(const void* block) noexcept;

// glibc's usable size of `block` from its chunk header: the chunk's size (the low
// three bits are flags) less the header, twice as large for an mmapped chunk (bit 1).
PERF_DETAIL_ALWAYS_INLINE size_t glibc_usable_size(const void* block) noexcept {
  const size_t header = static_cast<const size_t*>(block)[-1];
  size_t chunk = header & ~size_t{7};
  if (PERF_DETAIL_UNLIKELY((header & 2) != 0)) chunk -= sizeof(size_t);
  return chunk - sizeof(size_t);
}

// The usable size of `block` (non-null, from the next allocator, resolved).
PERF_DETAIL_ALWAYS_INLINE size_t block_size(void* block) noexcept {
  if (PERF_DETAIL_LIKELY(glibc_chunks())) return glibc_usable_size(block);
  return next_functions.usable_size(block);
}

// Counts the allocation of `block` (non-null, from the next allocator), asked for as
// `requested` bytes.
PERF_DETAIL_ALWAYS_INLINE void count_allocated(void* block, size_t requested) noexcept {
  detail::count_allocation(block, block_size(block), requested);
}

// What counted() does when the fast path does not apply (a bootstrap block is
// returned uncounted), out of line; returns `block`.
void* count_allocated_slowly(void* block, size_t requested) noexcept;

// What counted() does with a block whose allocation is due for heap sampling, out of
// line; returns `block`.
void* sample_slowly(detail::thread_counters& record, void* block, size_t requested) noexcept;

// Counts `block`, asked for as `requested` bytes, if there is one (from malloc's
// function pointer, or the next allocator resolved) and returns it. A glibc block on a thread with its record and
// no sizes to record is counted with no call, so that the caller needs no frame to
// keep `block` across one. (The placeholder record's `recording` is nonzero: one
// test covers a thread without its record.) Heap sampling adds a subtraction and a
// compare (detail::sample_due).
PERF_DETAIL_ALWAYS_INLINE void* counted(void* block, size_t requested) noexcept {
  if (PERF_DETAIL_UNLIKELY(block == nullptr)) return block;
  detail::thread_counters& record = *detail::current;
  if (PERF_DETAIL_UNLIKELY(record.recording != 0 || !glibc_chunks())) return count_allocated_slowly(block, requested);
  detail::add_allocation(record, glibc_usable_size(block));
  if (detail::sample_due(record, requested)) return sample_slowly(record, block, requested);
  return block;
}

// Counts the free of `block` (non-null, from the next allocator); call it before
// the block is freed.
PERF_DETAIL_ALWAYS_INLINE void count_freed(void* block) noexcept { detail::count_free(block, block_size(block)); }

// release() of a bootstrap block, before the next allocator is resolved, for a
// thread without its counter record (or recording sizes), or for blocks that are
// not glibc's, or a block that may be a sampled one: out of line, so that release()
// of a glibc block makes no call but the tail call to free.
void release_slowly(void* block) noexcept;

// Frees `block` from any source, counted; null is ignored.
PERF_DETAIL_ALWAYS_INLINE void release(void* block) noexcept {
  if (block == nullptr) return;
  detail::thread_counters& record = *detail::current;
  if (PERF_DETAIL_UNLIKELY(from_bootstrap(block) || record.recording != 0 || !glibc_chunks() ||
                           detail::maybe_sampled(record, block)))
    return release_slowly(block);
  detail::add_free(record, glibc_usable_size(block));
  __atomic_load_n(&next_functions.free, __ATOMIC_RELAXED)(block);
}

}  // namespace perf::alloc::interpose

#pragma GCC visibility pop

#endif  // PERF_RUNTIME_ALLOC_INTERPOSE_NEXT_ALLOCATOR_HPP
