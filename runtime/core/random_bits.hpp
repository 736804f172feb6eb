// The pieces of the runtime's per-thread random draws (adaptive timing's countdowns,
// the heap sampler's): a seed distinct per thread and per run, splitmix64's mixing,
// and a uniform variate from 53 random bits. Each owner keeps its own generator state
// on its own thread; these functions keep none, allocate nothing and are
// async-signal-safe.
#ifndef PERF_RUNTIME_CORE_RANDOM_BITS_HPP
#define PERF_RUNTIME_CORE_RANDOM_BITS_HPP

#include <time.h>

#include <cstdint>

namespace perf::runtime {

// splitmix64's finalizer: every bit of `z` moves about half of the result's.
inline uint64_t mix64(uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A nonzero seed from `distinct` (an address of the calling thread's own) and the
// monotonic clock: distinct per thread and per run.
inline uint64_t fresh_seed(const void* distinct) noexcept {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  const uint64_t z = mix64(reinterpret_cast<uintptr_t>(distinct) ^ (static_cast<uint64_t>(now.tv_nsec) << 20) ^
                           static_cast<uint64_t>(now.tv_sec));
  return z != 0 ? z : 1;
}

// A uniform variate in (0, 1] from the top 53 bits of `bits`: never 0, so its
// logarithm is finite.
inline double uniform_above_zero(uint64_t bits) noexcept { return static_cast<double>((bits >> 11) + 1) * 0x1p-53; }

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_RANDOM_BITS_HPP
