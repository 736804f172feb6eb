// The bodies the adaptive-timing benches measure: dependent chains of multiply-adds
// the compiler can neither remove nor shorten (each step goes through an empty asm
// that claims to change the value), so a body's time is its chain's latency.
#ifndef PERF_BENCH_ADAPTIVE_BODIES_HPP
#define PERF_BENCH_ADAPTIVE_BODIES_HPP

#include <cstdint>

namespace bench {

// `Steps` multiply-adds, one after the other: about 0.9 ns each on the dev VM (a
// 64-bit multiply's latency and an add).
template <int Steps>
__attribute__((always_inline)) inline uint64_t chain(uint64_t x) {
  for (int i = 0; i < Steps; ++i) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    __asm__ __volatile__("" : "+r"(x));
  }
  return x;
}

// The hot leaf of issue 29: about 2 ns with its call.
__attribute__((always_inline)) inline uint64_t two_ns_body(uint64_t x) { return chain<2>(x); }

}  // namespace bench

#endif  // PERF_BENCH_ADAPTIVE_BODIES_HPP
