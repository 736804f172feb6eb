#include "alloc/interpose/next_allocator.hpp"

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
  slot = reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

template <class Function>
void publish(Function& slot, Function value) {
  __atomic_store_n(&slot, value, __ATOMIC_RELAXED);
}

// Whether the next allocator is glibc's and its chunk headers give the usable
// sizes (no malloc debugging changes them): checked on a few blocks, small to mmapped.
bool headers_give_usable_sizes(const next_allocator& n) {
  Dl_info malloc_owner, size_owner;
  if (dladdr(reinterpret_cast<void*>(n.malloc), &malloc_owner) == 0 ||
      dladdr(reinterpret_cast<void*>(n.usable_size), &size_owner) == 0 ||
      std::strstr(malloc_owner.dli_fname, "/libc.so.") == nullptr || malloc_owner.dli_fbase != size_owner.dli_fbase)
    return false;
  bool agree = true;
  for (size_t bytes : {size_t{1}, size_t{40}, size_t{1000}, size_t{1} << 20}) {
    void* block = n.malloc(bytes);
    if (block == nullptr) return false;
    agree = agree && glibc_usable_size(block) == n.usable_size(block);
    n.free(block);
  }
  return agree;
}

// next_functions.malloc until the next allocator is resolved.
void* resolve_then_malloc(size_t bytes) noexcept {
  if (resolving()) return bootstrap_allocate(bytes, 16);
  resolve_next();
  return next_malloc(bytes);
}

}  // namespace

constinit next_allocator next_functions = [] {
  next_allocator unresolved{};
  unresolved.malloc = resolve_then_malloc;
  return unresolved;
}();
// Enough for what glibc's dlsym allocates (a dlerror buffer at most).
alignas(64) unsigned char bootstrap[16 * 1024];

void resolve_next() noexcept {
  in_lookup = true;
  next_allocator found = {};
  look_up(found.malloc, "malloc");
  look_up(found.free, "free");
  look_up(found.calloc, "calloc");
  look_up(found.realloc, "realloc");
  look_up(found.aligned_alloc, "aligned_alloc");
  look_up(found.posix_memalign, "posix_memalign");
  look_up(found.memalign, "memalign");
  look_up(found.valloc, "valloc");
  look_up(found.pvalloc, "pvalloc");
  look_up(found.usable_size, "malloc_usable_size");
  // The first size query may allocate (tcmalloc creates its MallocExtension then):
  // made here, that allocation comes from the bootstrap buffer instead of recursing.
  if (found.malloc != nullptr && found.usable_size != nullptr) {
    void* block = found.malloc(1);
    found.usable_size(block);
    found.free(block);
    found.glibc_chunks = headers_give_usable_sizes(found);
  }
  in_lookup = false;
  // Published in the order next(), glibc_chunks() and next_malloc() rely on.
  next_allocator& n = next_functions;
  publish(n.free, found.free);
  publish(n.calloc, found.calloc);
  publish(n.realloc, found.realloc);
  publish(n.aligned_alloc, found.aligned_alloc);
  publish(n.posix_memalign, found.posix_memalign);
  publish(n.memalign, found.memalign);
  publish(n.valloc, found.valloc);
  publish(n.pvalloc, found.pvalloc);
  __atomic_store_n(&n.usable_size, found.usable_size, __ATOMIC_RELEASE);
  __atomic_store_n(&n.glibc_chunks, found.glibc_chunks, __ATOMIC_RELEASE);
  __atomic_store_n(&n.malloc, found.malloc, __ATOMIC_RELEASE);
}

bool resolving() noexcept { return in_lookup; }

void* count_allocated_slowly(void* block, size_t requested) noexcept {
  if (!from_bootstrap(block)) count_allocated(block, requested);
  return block;
}

void* sample_slowly(detail::thread_counters& record, void* block, size_t requested) noexcept {
  detail::sample_allocation(record, block, requested);
  return block;
}

void release_slowly(void* block) noexcept {
  if (from_bootstrap(block)) return;
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
  } while (
      !__atomic_compare_exchange_n(&bootstrap_used, &used, start + bytes, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  *reinterpret_cast<size_t*>(bootstrap + start - header) = bytes;
  return bootstrap + start;
}

size_t bootstrap_size(const void* block) noexcept {
  return *reinterpret_cast<const size_t*>(static_cast<const unsigned char*>(block) - header);
}

}  // namespace perf::alloc::interpose
