// ThreadSanitizer (GCC 12's libtsan) runs the allocation hooks from its malloc,
// calloc, realloc, free and operator new/delete, but not from aligned_alloc,
// posix_memalign, memalign, valloc, pvalloc and reallocarray. Under it, perf::alloc
// defines these, counts them itself and forwards to ThreadSanitizer's (reallocarray
// to its realloc, which is hooked). Only where the definitions come before
// ThreadSanitizer's in symbol order: linked into the executable.
#include "alloc/interpose/sanitized.hpp"

#if PERF_ALLOC_THREAD_SANITIZER

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>

#include "perf/detail/alloc_counters.hpp"

// The sanitizer's (GCC installs no <sanitizer/allocator_interface.h>).
extern "C" size_t __sanitizer_get_allocated_size(const volatile void* block);

namespace {

template <class Function>
Function next(const char* name) {
  return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

// ThreadSanitizer's block size is the size asked for.
void* counted(void* block) {
  if (block == nullptr) return block;
  const size_t bytes = __sanitizer_get_allocated_size(block);
  perf::alloc::detail::count_allocation(block, bytes, bytes);
  return block;
}

}  // namespace

extern "C" {

PERF_DETAIL_EXPORT void* aligned_alloc(size_t alignment, size_t bytes) {
  static const auto forward = next<void* (*)(size_t, size_t)>("aligned_alloc");
  return counted(forward(alignment, bytes));
}

PERF_DETAIL_EXPORT void* memalign(size_t alignment, size_t bytes) {
  static const auto forward = next<void* (*)(size_t, size_t)>("memalign");
  return counted(forward(alignment, bytes));
}

PERF_DETAIL_EXPORT int posix_memalign(void** block, size_t alignment, size_t bytes) {
  static const auto forward = next<int (*)(void**, size_t, size_t)>("posix_memalign");
  const int result = forward(block, alignment, bytes);
  if (result == 0) counted(*block);
  return result;
}

PERF_DETAIL_EXPORT void* valloc(size_t bytes) {
  static const auto forward = next<void* (*)(size_t)>("valloc");
  return counted(forward(bytes));
}

PERF_DETAIL_EXPORT void* pvalloc(size_t bytes) {
  static const auto forward = next<void* (*)(size_t)>("pvalloc");
  return counted(forward(bytes));
}

PERF_DETAIL_EXPORT void* reallocarray(void* block, size_t count, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(block, bytes);
}

}  // extern "C"

#endif  // PERF_ALLOC_THREAD_SANITIZER
