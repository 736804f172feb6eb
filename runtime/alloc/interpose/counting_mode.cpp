// At start-up, perf::alloc decides how it counts: through its own allocation
// functions when the program calls them, or through the sanitizer's allocation
// hooks when AddressSanitizer or ThreadSanitizer owns malloc. If neither works (a
// preloaded allocator comes first), counting stays inactive, which the gtest
// helpers and the report say.
#include <dlfcn.h>
#include <stddef.h>

#include "alloc/interpose/sanitized.hpp"
#include "core/startup.hpp"
#include "core/uncounted_allocations.hpp"
#include "perf/detail/alloc_counters.hpp"

namespace perf::alloc::interpose {
namespace {

size_t (*sanitizer_block_size)(const volatile void*) = nullptr;

void on_sanitizer_malloc(const volatile void* block, size_t bytes) {
  if (block != nullptr) detail::count_allocation(const_cast<const void*>(block), bytes, bytes);
}

// Runs before the block is released: its size is still known.
void on_sanitizer_free(const volatile void* block) {
  if (block != nullptr) detail::count_free(const_cast<const void*>(block), sanitizer_block_size(block));
}

// Whether the malloc the program calls is the one of the module holding this code.
bool interposing() {
  Dl_info first, ours;
  void* first_malloc = dlsym(RTLD_DEFAULT, "malloc");
  return first_malloc != nullptr && dladdr(first_malloc, &first) != 0 &&
         dladdr(reinterpret_cast<void*>(&interposing), &ours) != 0 && first.dli_fbase == ours.dli_fbase;
}

using install_hooks_function = int (*)(void (*)(const volatile void*, size_t), void (*)(const volatile void*));

PERF_RUNTIME_AFTER_START(choose_counting_mode) {
  const runtime::uncounted_allocations start_up;  // dlsym's own (dlerror's buffer)
  auto install =
      reinterpret_cast<install_hooks_function>(dlsym(RTLD_DEFAULT, "__sanitizer_install_malloc_and_free_hooks"));
  sanitizer_block_size =
      reinterpret_cast<size_t (*)(const volatile void*)>(dlsym(RTLD_DEFAULT, "__sanitizer_get_allocated_size"));
  if (install != nullptr && sanitizer_block_size != nullptr) {
    if (install(on_sanitizer_malloc, on_sanitizer_free) != 0) detail::set_mode(detail::sanitizer_hooks);
    return;
  }
#if !PERF_ALLOC_SANITIZED
  if (interposing()) detail::set_mode(detail::interposed);
#endif
}

}  // namespace
}  // namespace perf::alloc::interpose
