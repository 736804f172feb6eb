// What heap sampling (PERF_HEAP_SAMPLE) costs the allocation path: the 32-byte
// new/delete pair of alloc_bench (alloc_pairs.cpp, bound to perf::alloc) with the
// calling thread's countdown running, against the same pair with the countdown put out
// of reach and its frees not checked, which is exactly the path with sampling off (its
// blocks are never sampled, so none is missed) (docs/performance.md). Both in
// one run, interleaved, best of several repetitions in the thread's CPU time, called
// 16 frames deep so that a sampled allocation walks a stack of a program's depth.
//
//   PERF_HEAP_SAMPLE=524288 heap_sample_bench [PAIRS [REPETITIONS]]   the 1.05x target
//   PERF_HEAP_SAMPLE=1 heap_sample_bench 200000                       every allocation sampled
#include <dlfcn.h>
#include <stdint.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "perf/alloc.hpp"
#include "perf/detail/alloc_counters.hpp"
#include "thread_cpu_time.hpp"

namespace {

using loop_function = void (*)(long);

constexpr int depth = 16;

// Runs `loop` `frames` calls deeper.
__attribute__((noinline)) void nested(loop_function loop, long pairs, int frames) {
  if (frames > 0) nested(loop, pairs, frames - 1);
  else loop(pairs);
  asm volatile("" ::: "memory");  // no tail call: every frame stays
}

// Nanoseconds per pair of one run of `loop`; with `sampling` false, the thread's
// record is as with sampling off meanwhile and then put back as it was.
double time_pairs(loop_function loop, long pairs, bool sampling) {
  perf::alloc::detail::thread_counters& record = perf::alloc::detail::this_thread_record();
  const int64_t countdown = record.sample_countdown;
  const uint32_t check_frees = record.check_frees;
  if (!sampling) {
    record.sample_countdown = INT64_MAX;
    record.check_frees = 0;
  }
  const double start = thread_cpu_seconds() * 1e9;
  nested(loop, pairs, depth);
  const double ns = (thread_cpu_seconds() * 1e9 - start) / static_cast<double>(pairs);
  if (!sampling) {
    record.sample_countdown = countdown;
    record.check_frees = check_frees;
  }
  return ns;
}

}  // namespace

int main(int argc, char** argv) {
  const long pairs = argc > 1 ? std::atol(argv[1]) : 2'000'000;
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 15;
  const char* sample = std::getenv("PERF_HEAP_SAMPLE");
  const double mean = sample != nullptr ? std::atof(sample) : 0;
  if (pairs <= 0 || repetitions <= 0 || mean <= 0) {
    std::fprintf(stderr, "usage: PERF_HEAP_SAMPLE=BYTES heap_sample_bench [PAIRS [REPETITIONS]]\n");
    return 2;
  }
  void* module = dlopen(PERF_ALLOC_PAIRS, RTLD_NOW | RTLD_LOCAL);
  const auto new_delete =
      module != nullptr ? reinterpret_cast<loop_function>(dlsym(module, "new_delete_pairs")) : nullptr;
  if (new_delete == nullptr || !perf::alloc::counting_active()) {
    std::fprintf(stderr, "heap_sample_bench: %s\n",
                 new_delete == nullptr ? dlerror() : "allocation counting is inactive");
    return 1;
  }
  double sampled = 1e9, unsampled = 1e9;
  for (int r = 0; r < repetitions; ++r) {
    // Each first in turn: neither gains from going second.
    if (r % 2 == 0) unsampled = std::min(unsampled, time_pairs(new_delete, pairs, false));
    sampled = std::min(sampled, time_pairs(new_delete, pairs, true));
    if (r % 2 != 0) unsampled = std::min(unsampled, time_pairs(new_delete, pairs, false));
  }
  // A 32-byte allocation is sampled with probability 1 - exp(-32/mean).
  const double per_pair = -std::expm1(-32 / mean);
  std::printf("32-byte new/delete pair, %d frames deep: %.2f ns sampled at PERF_HEAP_SAMPLE=%s, %.2f ns without: %.3fx",
              depth, sampled, sample, unsampled, sampled / unsampled);
  if (mean == 524288) std::printf(" (target <= 1.05: %s)", sampled / unsampled <= 1.05 ? "met" : "NOT MET");
  std::printf("\n");
  // Where most pairs are sampled, their extra cost is the sampled path's.
  if (per_pair > 0.5) {
    const double per_sample = (sampled - unsampled) / per_pair;
    std::printf(
        "per sampled allocation (its stack walked and recorded, its free out of the live set): %.0f ns "
        "(target <= 3000: %s)\n",
        per_sample, per_sample <= 3000 ? "met" : "NOT MET");
  }
  return 0;
}
