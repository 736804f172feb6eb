// Every form of operator new and delete: plain, array, nothrow, sized, aligned and
// their combinations. new calls the next allocator's malloc (or posix_memalign)
// itself, so an allocation is counted once, not again in malloc.
#include "alloc/interpose/sanitized.hpp"

#if !PERF_ALLOC_SANITIZED

#include <cstddef>
#include <new>

#include "alloc/interpose/next_allocator.hpp"

using namespace perf::alloc::interpose;

namespace {

// One block from the next allocator, or null; counted when there is one.
void* try_allocate(std::size_t bytes, std::size_t alignment) noexcept {
  if (bytes == 0) bytes = 1;  // new must return distinct blocks for size 0
  const next_allocator* functions = next();
  void* block;
  if (PERF_DETAIL_UNLIKELY(functions == nullptr)) {
    block = bootstrap_allocate(bytes, alignment);
  } else if (alignment <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    block = counted(next_malloc(bytes), bytes);
  } else {
    if (functions->posix_memalign(&block, alignment, bytes) != 0) block = nullptr;
    block = counted(block, bytes);
  }
  return block;
}

// What the throwing forms do: retry through the new-handler, or throw.
[[gnu::noinline]] void* allocate(std::size_t bytes, std::size_t alignment) {
  for (;;) {
    if (void* block = try_allocate(bytes, alignment)) return block;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

// What the nothrow forms do: as the throwing ones, but null instead of bad_alloc,
// and no exception (which would allocate) unless the new-handler throws one.
void* allocate_nothrow(std::size_t bytes, std::size_t alignment) noexcept {
  for (;;) {
    if (void* block = try_allocate(bytes, alignment)) return block;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) return nullptr;
    try {
      handler();
    } catch (const std::bad_alloc&) { return nullptr; }
  }
}

constexpr std::size_t unaligned = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

std::size_t value(std::align_val_t alignment) { return static_cast<std::size_t>(alignment); }

}  // namespace

#define PERF_ALLOC_NEW PERF_DETAIL_EXPORT void* operator
#define PERF_ALLOC_DELETE PERF_DETAIL_EXPORT void operator

// The plain forms try the next malloc first, with no call in between: malloc(0)
// returns a distinct block under glibc; a null goes to allocate(), which asks for
// 1 byte, then calls the new-handler.
PERF_ALLOC_NEW new (std::size_t bytes) {
  if (void* block = counted(next_malloc(bytes), bytes)) return block;
  return allocate(bytes, unaligned);
}
PERF_ALLOC_NEW new[](std::size_t bytes) {
  if (void* block = counted(next_malloc(bytes), bytes)) return block;
  return allocate(bytes, unaligned);
}
PERF_ALLOC_NEW new (std::size_t bytes, const std::nothrow_t&) noexcept { return allocate_nothrow(bytes, unaligned); }
PERF_ALLOC_NEW new[](std::size_t bytes, const std::nothrow_t&) noexcept { return allocate_nothrow(bytes, unaligned); }
PERF_ALLOC_NEW new (std::size_t bytes, std::align_val_t alignment) { return allocate(bytes, value(alignment)); }
PERF_ALLOC_NEW new[](std::size_t bytes, std::align_val_t alignment) { return allocate(bytes, value(alignment)); }
PERF_ALLOC_NEW new (std::size_t bytes, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return allocate_nothrow(bytes, value(alignment));
}
PERF_ALLOC_NEW new[](std::size_t bytes, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return allocate_nothrow(bytes, value(alignment));
}

// The size a sized delete passes is not used: freed bytes are the block's usable
// size, the same figure whether the compiler emits sized (GCC) or unsized (Clang 14)
// delete.
PERF_ALLOC_DELETE delete (void* block) noexcept { release(block); }
PERF_ALLOC_DELETE delete[](void* block) noexcept { release(block); }
PERF_ALLOC_DELETE delete (void* block, std::size_t) noexcept { release(block); }
PERF_ALLOC_DELETE delete[](void* block, std::size_t) noexcept { release(block); }
PERF_ALLOC_DELETE delete (void* block, const std::nothrow_t&) noexcept { release(block); }
PERF_ALLOC_DELETE delete[](void* block, const std::nothrow_t&) noexcept { release(block); }
PERF_ALLOC_DELETE delete (void* block, std::align_val_t) noexcept { release(block); }
PERF_ALLOC_DELETE delete[](void* block, std::align_val_t) noexcept { release(block); }
PERF_ALLOC_DELETE delete (void* block, std::size_t, std::align_val_t) noexcept { release(block); }
PERF_ALLOC_DELETE delete[](void* block, std::size_t, std::align_val_t) noexcept { release(block); }
PERF_ALLOC_DELETE delete (void* block, std::align_val_t, const std::nothrow_t&) noexcept { release(block); }
PERF_ALLOC_DELETE delete[](void* block, std::align_val_t, const std::nothrow_t&) noexcept { release(block); }

#endif  // !PERF_ALLOC_SANITIZED
