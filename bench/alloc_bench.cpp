// What counting costs an allocation: a 32-byte malloc/free pair and new/delete
// pair through perf::alloc, against the same pair straight from glibc, in one run
// (docs/performance.md). Each figure is the best of several interleaved
// repetitions, in the thread's CPU time (the machine is shared: wall time would
// count the waits); every call goes through a function pointer, so the compiler
// can neither inline nor remove a pair.
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <new>

#include "perf/alloc.hpp"

namespace {

using allocate_function = void* (*)(size_t);
using release_function = void (*)(void*);

allocate_function glibc_malloc;
release_function glibc_free;

// What libstdc++'s operator new and delete do, on glibc's malloc and free: the
// baseline of a new/delete pair without perf::alloc.
__attribute__((noinline)) void* uncounted_new(size_t bytes) {
  if (void* block = glibc_malloc(bytes)) return block;
  throw std::bad_alloc();
}
__attribute__((noinline)) void uncounted_delete(void* block) { glibc_free(block); }

void* counted_new(size_t bytes) { return ::operator new(bytes); }
void counted_delete(void* block) { ::operator delete(block, 32); }

double thread_cpu_ns() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
}

constexpr int pairs = 2'000'000;
constexpr int repetitions = 15;

// Nanoseconds per pair of the best repetition.
double time_pairs(allocate_function allocate, release_function release) {
  allocate_function volatile allocate_call = allocate;
  release_function volatile release_call = release;
  const double start = thread_cpu_ns();
  for (int i = 0; i < pairs; ++i) release_call(allocate_call(32));
  return (thread_cpu_ns() - start) / pairs;
}

}  // namespace

int main() {
  void* glibc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  glibc_malloc = reinterpret_cast<allocate_function>(dlsym(glibc, "malloc"));
  glibc_free = reinterpret_cast<release_function>(dlsym(glibc, "free"));
  if (glibc_malloc == nullptr || glibc_free == nullptr || !perf::alloc::counting_active()) {
    std::fprintf(stderr, "alloc_bench: %s\n",
                 glibc_malloc == nullptr ? "glibc's malloc not found" : "allocation counting is inactive");
  }
  double malloc_glibc = 1e9, malloc_counted = 1e9, new_glibc = 1e9, new_counted = 1e9;
  for (int r = 0; r < repetitions; ++r) {
    malloc_glibc = std::min(malloc_glibc, time_pairs(glibc_malloc, glibc_free));
    malloc_counted = std::min(malloc_counted, time_pairs(&malloc, &free));
    new_glibc = std::min(new_glibc, time_pairs(&uncounted_new, &uncounted_delete));
    new_counted = std::min(new_counted, time_pairs(&counted_new, &counted_delete));
  }
  const perf::alloc::counters counted = perf::alloc::this_thread();
  std::printf("counting: %s; %llu allocations, %llu frees counted on this thread\n",
              perf::alloc::counting_active() ? "active" : "INACTIVE",
              static_cast<unsigned long long>(counted.allocations), static_cast<unsigned long long>(counted.frees));
  auto line = [](const char* what, double counted_ns, double glibc_ns) {
    std::printf("%s: %.2f ns counted, %.2f ns glibc alone: %.3fx (target <= 1.10: %s)\n", what, counted_ns, glibc_ns,
                counted_ns / glibc_ns, counted_ns / glibc_ns <= 1.10 ? "met" : "NOT MET");
  };
  line("32-byte malloc/free pair", malloc_counted, malloc_glibc);
  line("32-byte new/delete pair", new_counted, new_glibc);
  return 0;
}
