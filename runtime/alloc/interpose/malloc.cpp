// The C allocation functions: each forwards to the next allocator's own function
// (glibc's calloc, memalign... do not go through malloc, so nothing is counted
// twice; reallocarray, which glibc makes of realloc, goes to realloc) and counts
// what it returns.
#include "alloc/interpose/sanitized.hpp"

#if !PERF_ALLOC_SANITIZED

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc/interpose/next_allocator.hpp"

using namespace perf::alloc::interpose;

namespace {

bool product(size_t count, size_t size, size_t& bytes) noexcept { return !__builtin_mul_overflow(count, size, &bytes); }

// realloc and reallocarray: `resize` is the next allocator's call, `bytes` the new size.
template <class Resize>
void* counted_resize(void* block, size_t bytes, Resize resize) noexcept {
  const next_allocator* functions = next();
  if (PERF_DETAIL_UNLIKELY(functions == nullptr || from_bootstrap(block))) {
    // Out of the bootstrap buffer: a fresh block, with the old contents.
    void* moved = functions == nullptr ? bootstrap_allocate(bytes, 16) : counted(next_malloc(bytes), bytes);
    if (moved != nullptr && block != nullptr) {
      const size_t old = bootstrap_size(block);
      memcpy(moved, block, old < bytes ? old : bytes);
    }
    return moved;
  }
  const size_t old_bytes = block != nullptr ? block_size(block) : 0;
  // Out of the heap sampler's live set before the block can be reused: a sampled
  // block reallocated is a free and an allocation (if the call fails, the block
  // stays the program's but leaves the live set).
  perf::alloc::detail::thread_counters& record = perf::alloc::detail::this_thread_record();
  if (block != nullptr && perf::alloc::detail::maybe_sampled(record, block)) perf::alloc::detail::forget_sampled(block);
  void* resized = resize(*functions);
  if (resized != nullptr) {
    if (block != nullptr) perf::alloc::detail::add_free(record, old_bytes);
    count_allocated(resized, bytes);
  } else if (block != nullptr && bytes == 0) {
    perf::alloc::detail::add_free(record, old_bytes);  // realloc(p, 0) freed p
  }
  return resized;
}

}  // namespace

extern "C" {

// Before the next allocator is resolved, next_malloc() resolves it.
PERF_DETAIL_EXPORT void* malloc(size_t bytes) { return counted(next_malloc(bytes), bytes); }

PERF_DETAIL_EXPORT void free(void* block) { release(block); }

PERF_DETAIL_EXPORT void* calloc(size_t count, size_t size) {
  const next_allocator* functions = next();
  if (PERF_DETAIL_UNLIKELY(functions == nullptr)) {
    size_t bytes;
    return product(count, size, bytes) ? bootstrap_allocate(bytes, 16) : nullptr;
  }
  return counted(functions->calloc(count, size), count * size);  // no overflow when calloc succeeds
}

PERF_DETAIL_EXPORT void* realloc(void* block, size_t bytes) {
  return counted_resize(block, bytes, [&](const next_allocator& functions) { return functions.realloc(block, bytes); });
}

PERF_DETAIL_EXPORT void* reallocarray(void* block, size_t count, size_t size) {
  size_t bytes;
  if (!product(count, size, bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  // Through realloc: glibc's reallocarray calls realloc, which would count it twice.
  return counted_resize(block, bytes, [&](const next_allocator& functions) { return functions.realloc(block, bytes); });
}

PERF_DETAIL_EXPORT void* aligned_alloc(size_t alignment, size_t bytes) {
  const next_allocator* functions = next();
  if (PERF_DETAIL_UNLIKELY(functions == nullptr)) return bootstrap_allocate(bytes, alignment);
  return counted(functions->aligned_alloc(alignment, bytes), bytes);
}

PERF_DETAIL_EXPORT void* memalign(size_t alignment, size_t bytes) {
  const next_allocator* functions = next();
  if (PERF_DETAIL_UNLIKELY(functions == nullptr)) return bootstrap_allocate(bytes, alignment);
  return counted(functions->memalign(alignment, bytes), bytes);
}

PERF_DETAIL_EXPORT int posix_memalign(void** block, size_t alignment, size_t bytes) {
  const next_allocator* functions = next();
  if (PERF_DETAIL_UNLIKELY(functions == nullptr)) {
    *block = bootstrap_allocate(bytes, alignment);
    return *block != nullptr ? 0 : ENOMEM;
  }
  const int result = functions->posix_memalign(block, alignment, bytes);
  if (result == 0) counted(*block, bytes);
  return result;
}

PERF_DETAIL_EXPORT void* valloc(size_t bytes) {
  const next_allocator* functions = next();
  if (PERF_DETAIL_UNLIKELY(functions == nullptr)) return bootstrap_allocate(bytes, 4096);
  return counted(functions->valloc(bytes), bytes);
}

PERF_DETAIL_EXPORT void* pvalloc(size_t bytes) {
  const next_allocator* functions = next();
  if (PERF_DETAIL_UNLIKELY(functions == nullptr)) return bootstrap_allocate((bytes + 4095) / 4096 * 4096, 4096);
  return counted(functions->pvalloc(bytes), bytes);
}

}  // extern "C"

#endif  // !PERF_ALLOC_SANITIZED
