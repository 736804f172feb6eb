// The bodies the adaptive-timing benches measure, which the compiler can neither
// remove nor shorten (each step goes through an empty asm that claims to change the
// values): dependent chains of multiply-adds (a body's time is its chain's latency)
// and runs of independent loads and adds.
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

inline uint64_t loaded[2048];  // 16 KiB: in the L1 cache

// `Iterations` rounds of four independent loads and adds (throughput-bound, as the
// compensation bench's throughput_bound_work): about 0.7 ns each on the dev VM.
template <int Iterations>
__attribute__((always_inline)) inline uint64_t loads(uint64_t x) {
  uint64_t a = x, b = 0, c = 0, d = 0;
  for (int i = 0; i < Iterations; ++i) {
    a += loaded[4 * i & 2047];
    b ^= loaded[(4 * i + 1) & 2047];
    c += loaded[(4 * i + 2) & 2047];
    d ^= loaded[(4 * i + 3) & 2047];
    __asm__ __volatile__("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
  }
  return a + b + c + d;
}

// The hot leaf of issue 29: about 2 ns with its call.
__attribute__((always_inline)) inline uint64_t two_ns_body(uint64_t x) { return chain<2>(x); }

}  // namespace bench

#endif  // PERF_BENCH_ADAPTIVE_BODIES_HPP
