#include "next_allocator.hpp"

#include <dlfcn.h>
#include <stdint.h>

namespace perf::alloc::interpose {
namespace {

PERF_DETAIL_TLS bool in_lookup = false;

// Enough for what glibc's dlsym allocates (a dlerror buffer at most).
alignas(64) unsigned char bootstrap[16 * 1024];
size_t bootstrap_used = 0;

// Each bootstrap block is preceded by its size, in the 16 bytes before it.
constexpr size_t header = 16;

template <class Function>
void look_up(Function& slot, const char* name) {
  __atomic_store_n(&slot, reinterpret_cast<Function>(dlsym(RTLD_NEXT, name)), __ATOMIC_RELAXED);
}

}  // namespace

next_allocator next_functions = {};

void resolve_next() noexcept {
  in_lookup = true;
  next_allocator& n = next_functions;
  look_up(n.malloc, "malloc");
  look_up(n.free, "free");
  look_up(n.calloc, "calloc");
  look_up(n.realloc, "realloc");
  look_up(n.aligned_alloc, "aligned_alloc");
  look_up(n.posix_memalign, "posix_memalign");
  look_up(n.memalign, "memalign");
  look_up(n.valloc, "valloc");
  look_up(n.pvalloc, "pvalloc");
  size_t (*usable_size)(void*) = nullptr;
  look_up(usable_size, "malloc_usable_size");
  // The first size query may allocate (tcmalloc creates its MallocExtension then):
  // made here, that allocation comes from the bootstrap buffer instead of recursing.
  if (n.malloc != nullptr && usable_size != nullptr) {
    void* block = n.malloc(1);
    usable_size(block);
    n.free(block);
  }
  in_lookup = false;
  __atomic_store_n(&n.usable_size, usable_size, __ATOMIC_RELEASE);  // last: the others are set
}

bool resolving() noexcept { return in_lookup; }

void* bootstrap_allocate(size_t bytes, size_t alignment) noexcept {
  if (alignment < header) alignment = header;
  size_t used = __atomic_load_n(&bootstrap_used, __ATOMIC_RELAXED);
  size_t start;
  do {
    start = (used + header + alignment - 1) / alignment * alignment;
    if (start > sizeof bootstrap || bytes > sizeof bootstrap - start) return nullptr;
  } while (!__atomic_compare_exchange_n(&bootstrap_used, &used, start + bytes, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  *reinterpret_cast<size_t*>(bootstrap + start - header) = bytes;
  return bootstrap + start;
}

bool from_bootstrap(const void* block) noexcept {
  const auto address = reinterpret_cast<uintptr_t>(block);
  const auto begin = reinterpret_cast<uintptr_t>(bootstrap);
  return address - begin < sizeof bootstrap;
}

size_t bootstrap_size(const void* block) noexcept {
  return *reinterpret_cast<const size_t*>(static_cast<const unsigned char*>(block) - header);
}

}  // namespace perf::alloc::interpose
