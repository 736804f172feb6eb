#include "next_allocator.hpp"

#include <dlfcn.h>
#include <stdint.h>

#include <cstring>
#include <initializer_list>

namespace perf::alloc::interpose {
namespace {

PERF_DETAIL_TLS bool in_lookup = false;

size_t bootstrap_used = 0;

// Each bootstrap block is preceded by its size, in the 16 bytes before it.
constexpr size_t header = 16;

template <class Function>
void look_up(Function& slot, const char* name) {
  __atomic_store_n(&slot, reinterpret_cast<Function>(dlsym(RTLD_NEXT, name)), __ATOMIC_RELAXED);
}

// Whether the next allocator is glibc's and its chunk headers give the usable
// sizes (no malloc debugging changes them): checked on a few blocks, small to mmapped.
bool headers_give_usable_sizes(const next_allocator& n, size_t (*usable_size)(void*) noexcept) {
  Dl_info malloc_owner, size_owner;
  if (dladdr(reinterpret_cast<void*>(n.malloc), &malloc_owner) == 0 ||
      dladdr(reinterpret_cast<void*>(usable_size), &size_owner) == 0 ||
      std::strstr(malloc_owner.dli_fname, "/libc.so.") == nullptr || malloc_owner.dli_fbase != size_owner.dli_fbase)
    return false;
  bool agree = true;
  for (size_t bytes : {size_t{1}, size_t{40}, size_t{1000}, size_t{1} << 20}) {
    void* block = n.malloc(bytes);
    if (block == nullptr) return false;
    agree = agree && glibc_usable_size(block) == usable_size(block);
    n.free(block);
  }
  return agree;
}

}  // namespace

next_allocator next_functions = {};
// Enough for what glibc's dlsym allocates (a dlerror buffer at most).
alignas(64) unsigned char bootstrap[16 * 1024];

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
  size_t (*usable_size)(void*) noexcept = nullptr;
  look_up(usable_size, "malloc_usable_size");
  // The first size query may allocate (tcmalloc creates its MallocExtension then):
  // made here, that allocation comes from the bootstrap buffer instead of recursing.
  if (n.malloc != nullptr && usable_size != nullptr) {
    void* block = n.malloc(1);
    usable_size(block);
    n.free(block);
    n.glibc_chunks = headers_give_usable_sizes(n, usable_size);
  }
  in_lookup = false;
  __atomic_store_n(&n.usable_size, usable_size, __ATOMIC_RELEASE);  // last: the others are set
}

bool resolving() noexcept { return in_lookup; }

void* count_allocated_slowly(void* block) noexcept {
  count_allocated(block);
  return block;
}

void release_slowly(void* block) noexcept {
  const next_allocator* functions = next();
  if (functions == nullptr) return;  // nothing but bootstrap blocks exists yet
  count_freed(block);
  functions->free(block);
}

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

size_t bootstrap_size(const void* block) noexcept {
  return *reinterpret_cast<const size_t*>(static_cast<const unsigned char*>(block) - header);
}

}  // namespace perf::alloc::interpose
