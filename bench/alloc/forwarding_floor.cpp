// The least an interposer that forwards can cost: malloc and free that count
// nothing and only forward to glibc the way perf::alloc does (through a function
// pointer; malloc with a call, as a counting malloc must see the block before it
// returns it; free with a tail jump). Preloaded into alloc_bench_uncounted, it gives
// the floor of perf::alloc's malloc/free ratio (docs/performance.md):
//   LD_PRELOAD=build/bench/alloc/libforwarding_floor.so build/bench/alloc/alloc_bench_uncounted
#include <stddef.h>

extern "C" {
// glibc's own names of its malloc and free.
void* __libc_malloc(size_t bytes);
void __libc_free(void* block);
}

namespace {

// Not const, so that the calls go through the pointers, as perf::alloc's do.
void* (*next_malloc)(size_t) = __libc_malloc;
void (*next_free)(void*) = __libc_free;

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void* malloc(size_t bytes) {
  void* block = next_malloc(bytes);
  asm volatile("" : : "r"(block));  // where a counting malloc counts the block
  return block;
}

__attribute__((visibility("default"))) void free(void* block) { next_free(block); }
}
