// Loops the compiler keeps, for tests whose measured scopes must take some time.
#ifndef PERF_TEST_RUNTIME_MEASURE_BUSY_LOOP_HPP
#define PERF_TEST_RUNTIME_MEASURE_BUSY_LOOP_HPP

#include <algorithm>
#include <chrono>

#include "perf/report.hpp"

namespace perf::testing {

// `iterations` turns of an empty loop: about a cycle each.
__attribute__((noinline)) inline void busy_loop(unsigned iterations) {
  for (unsigned k = 0; k < iterations; ++k) __asm__ __volatile__("" ::: "memory");
}

// `probes` times this process's probe cost, and at least `least`: a duration that stays
// the same multiple of the probe whatever the build costs it (a ThreadSanitizer build's
// probe is about 1 us, forty times a plain build's).
inline std::chrono::nanoseconds probe_costs(double probes, std::chrono::nanoseconds least) {
  static const double probe_ns = take_snapshot().clock.probe_ns;
  return std::max(least, std::chrono::nanoseconds(static_cast<long long>(probes * probe_ns)));
}

// Spins on the steady clock for `duration`.
inline void spin_for(std::chrono::nanoseconds duration) {
  const auto until = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < until) {}
}

}  // namespace perf::testing

#endif  // PERF_TEST_RUNTIME_MEASURE_BUSY_LOOP_HPP
