// The clock read on the hot path. Not part of the public API.
//
// The source is chosen once, at start-up, by the runtime (runtime/clock.cpp): the
// hot path only switches on a byte it already holds in its thread block.
#ifndef PERF_DETAIL_CLOCK_HPP
#define PERF_DETAIL_CLOCK_HPP

#include <stdint.h>

#include "perf/detail/compiler.hpp"

namespace perf {
namespace detail {

enum class clock_source : unsigned char {
  rdtscp,        // x86-64 RDTSCP: waits for earlier instructions, no fence needed
  rdtsc,         // x86-64 plain RDTSC: cheapest, may be reordered by a few cycles
  rdtsc_fenced,  // x86-64 LFENCE;RDTSC
  cntvct,        // aarch64 virtual counter
  monotonic,     // clock_gettime(CLOCK_MONOTONIC), in nanoseconds
};

// clock_gettime(CLOCK_MONOTONIC) in nanoseconds; out of line to keep <time.h> out.
PERF_DETAIL_EXPORT uint64_t monotonic_now() noexcept;

// Reads the given clock. The "memory" clobbers keep the compiler from moving the
// measured code's memory accesses across the read; they emit no instruction.
PERF_DETAIL_ALWAYS_INLINE uint64_t clock_now(clock_source source) noexcept {
#if defined(__x86_64__)
  uint32_t lo, hi;
  if (PERF_DETAIL_LIKELY(source == clock_source::rdtsc)) {
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi)::"memory");
  } else if (source == clock_source::rdtscp) {
    __asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi)::"rcx", "memory");
  } else if (source == clock_source::rdtsc_fenced) {
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
  } else {
    return monotonic_now();
  }
  return (static_cast<uint64_t>(hi) << 32) | lo;
#elif defined(__aarch64__)
  if (PERF_DETAIL_LIKELY(source == clock_source::cntvct)) {
    uint64_t ticks;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(ticks)::"memory");
    return ticks;
  }
  return monotonic_now();
#else
  (void)source;
  return monotonic_now();
#endif
}

}  // namespace detail
}  // namespace perf

#endif  // PERF_DETAIL_CLOCK_HPP
