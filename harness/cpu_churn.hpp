// CPU-bound work whose samples land where it is written: the sampler's accuracy probe
// and its bench give each function a loop of its own through this macro (a shared
// helper function would be the hottest frame instead).
#ifndef PERF_HARNESS_CPU_CHURN_HPP
#define PERF_HARNESS_CPU_CHURN_HPP

#include <cstdint>

// Where each churn leaves its state, so that the compiler keeps the loop; one per
// thread, so that threads churning at once do not race on it.
inline thread_local volatile uint64_t cpu_churn_sink;

// `iterations` steps of a 64-bit LCG, kept in a register so that nothing but the loop
// is sampled. A function body whose line is the hot line: keep the call on one line.
#define PERF_TEST_CPU_CHURN(iterations)                          \
  uint64_t state = cpu_churn_sink;                               \
  for (uint64_t i = 0; i < (iterations); ++i) {                  \
    state = state * 6364136223846793005u + 1442695040888963407u; \
    __asm__ __volatile__("" : "+r"(state));                      \
  }                                                              \
  cpu_churn_sink = state

#endif  // PERF_HARNESS_CPU_CHURN_HPP
