// A loop the compiler keeps, for tests whose measured scopes must take some time.
#ifndef PERF_TEST_RUNTIME_MEASURE_BUSY_LOOP_HPP
#define PERF_TEST_RUNTIME_MEASURE_BUSY_LOOP_HPP

namespace perf::testing {

// `iterations` turns of an empty loop: about a cycle each.
__attribute__((noinline)) inline void busy_loop(unsigned iterations) {
  for (unsigned k = 0; k < iterations; ++k) __asm__ __volatile__("" ::: "memory");
}

}  // namespace perf::testing

#endif  // PERF_TEST_RUNTIME_MEASURE_BUSY_LOOP_HPP
