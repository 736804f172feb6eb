// What counting costs an allocation: a 32-byte malloc/free pair and new/delete
// pair, called as a program calls them, with and without an interposer, in one run
// (docs/performance.md). The same loops (alloc_pairs.cpp) are loaded twice:
// - "interposed": bound as usual, to the first definition in symbol order, which
//   is perf::alloc's (alloc_bench) or, in alloc_bench_uncounted, that of any
//   interposer preloaded into it (heaptrack's);
// - "plain": loaded with RTLD_DEEPBIND, its own dependencies first: malloc/free
//   through its PLT into glibc, new/delete into its static libstdc++ and from there
//   into glibc, which is what a program without any interposer pays (loaded with
//   glibc's own dlopen, as an interposer's dlopen may drop the flag).
// Each figure is the best of several interleaved repetitions, in the thread's CPU
// time (the machine is shared: wall time would count the waits).
//
//   alloc_bench [PAIRS [REPETITIONS]]     (default 2,000,000 pairs, 15 repetitions)
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <cstdio>

#include "thread_cpu_time.hpp"

#ifdef PERF_ALLOC_BENCH_COUNTED
#include "perf/alloc.hpp"
#endif

namespace {

using loop_function = void (*)(long);

struct loops {
  loop_function malloc_free;
  loop_function new_delete;
};

using dlopen_function = void* (*)(const char*, int);

bool load(dlopen_function open, const char* path, int binding, loops& found) {
  void* module = open(path, RTLD_NOW | RTLD_LOCAL | binding);
  if (module == nullptr) {
    std::fprintf(stderr, "alloc_bench: %s\n", dlerror());
    return false;
  }
  found.malloc_free = reinterpret_cast<loop_function>(dlsym(module, "malloc_free_pairs"));
  found.new_delete = reinterpret_cast<loop_function>(dlsym(module, "new_delete_pairs"));
  if (found.malloc_free == nullptr || found.new_delete == nullptr) {
    std::fprintf(stderr, "alloc_bench: %s lacks the loops\n", path);
    return false;
  }
  return true;
}

// Nanoseconds per pair of one run of `loop`.
double time_pairs(loop_function loop, long pairs) {
  const double start = thread_cpu_seconds() * 1e9;
  loop(pairs);
  return (thread_cpu_seconds() * 1e9 - start) / static_cast<double>(pairs);
}

#ifdef PERF_ALLOC_BENCH_COUNTED
const char* const interposer = "counted";
// Whether `loop` made exactly `pairs` allocations and as many frees on this thread.
bool counted_exactly(loop_function loop, long pairs, long expected) {
  const perf::alloc::scoped_counter counter;
  loop(pairs);
  const perf::alloc::counters used = counter.elapsed();
  return used.allocations == static_cast<uint64_t>(expected) && used.frees == static_cast<uint64_t>(expected);
}
#else
const char* const interposer = "interposed";
#endif

}  // namespace

int main(int argc, char** argv) {
  const long pairs = argc > 1 ? std::atol(argv[1]) : 2'000'000;
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 15;
  loops interposed, plain;
  if (pairs <= 0 || repetitions <= 0) {
    std::fprintf(stderr, "usage: alloc_bench [PAIRS [REPETITIONS]]\n");
    return 2;
  }
  // glibc's own dlopen for the plain loops: heaptrack's drops RTLD_DEEPBIND.
  const auto glibc_dlopen =
      reinterpret_cast<dlopen_function>(dlsym(dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD), "dlopen"));
  if (glibc_dlopen == nullptr || !load(dlopen, PERF_ALLOC_PAIRS, 0, interposed) ||
      !load(glibc_dlopen, PERF_ALLOC_PAIRS_PLAIN, RTLD_DEEPBIND, plain))
    return 1;
#ifdef PERF_ALLOC_BENCH_COUNTED
  // The bench is fair only if the interposed loops are counted, each pair once,
  // and the plain ones are not.
  const bool fair = perf::alloc::counting_active() && counted_exactly(interposed.malloc_free, 1000, 1000) &&
                    counted_exactly(interposed.new_delete, 1000, 1000) && counted_exactly(plain.malloc_free, 1000, 0) &&
                    counted_exactly(plain.new_delete, 1000, 0);
  std::printf("counting: %s\n",
              fair ? "active; each interposed pair counted once, plain pairs not" : "NOT AS EXPECTED");
  if (!fair) return 1;
#else
  // heaptrack clears LD_PRELOAD at start-up: name the module whose malloc is called.
  Dl_info owner;
  const bool found = dladdr(dlsym(RTLD_DEFAULT, "malloc"), &owner) != 0;
  std::printf("malloc of the interposed loops: %s\n", found ? owner.dli_fname : "unknown");
#endif
  double malloc_plain = 1e9, malloc_interposed = 1e9, new_plain = 1e9, new_interposed = 1e9;
  for (int r = 0; r < repetitions; ++r) {
    malloc_plain = std::min(malloc_plain, time_pairs(plain.malloc_free, pairs));
    malloc_interposed = std::min(malloc_interposed, time_pairs(interposed.malloc_free, pairs));
    new_plain = std::min(new_plain, time_pairs(plain.new_delete, pairs));
    new_interposed = std::min(new_interposed, time_pairs(interposed.new_delete, pairs));
  }
  auto line = [](const char* what, double interposed_ns, double plain_ns) {
    std::printf("%s: %.2f ns %s, %.2f ns plain: %.3fx", what, interposed_ns, interposer, plain_ns,
                interposed_ns / plain_ns);
#ifdef PERF_ALLOC_BENCH_COUNTED
    std::printf(" (target <= 1.10: %s)", interposed_ns / plain_ns <= 1.10 ? "met" : "NOT MET");
#endif
    std::printf("\n");
  };
  line("32-byte malloc/free pair", malloc_interposed, malloc_plain);
  line("32-byte new/delete pair", new_interposed, new_plain);
  return 0;
}
