// The workload of the comparison experiments: a known amount of work, in steps.
#ifndef PERF_BENCH_COMPARE_WORKLOAD_HPP
#define PERF_BENCH_COMPARE_WORKLOAD_HPP

#include <cstdint>

// Where each call of mix() continues: the chain of one call depends on the last, so
// consecutive calls cannot overlap in the out-of-order core, and twice the iterations
// take twice the time (independent calls overlapped: mix(400) took 2.16 times mix(200)).
inline std::uint64_t mix_state = 1;

// `iterations` dependent multiply-adds (about 4 cycles each), which the compiler can
// neither fold nor vectorise.
__attribute__((noinline)) inline std::uint64_t mix(std::uint64_t iterations) {
  std::uint64_t x = mix_state;
  for (std::uint64_t i = 0; i < iterations; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    __asm__ __volatile__("" : "+r"(x));
  }
  mix_state = x;
  return x;
}

#endif  // PERF_BENCH_COMPARE_WORKLOAD_HPP
