// The calling thread's CPU time, the benches' clock: on a shared machine, wall time
// would count the waits for a core that other jobs hold.
#ifndef PERF_BENCH_THREAD_CPU_TIME_HPP
#define PERF_BENCH_THREAD_CPU_TIME_HPP

#include <time.h>

// Seconds of CPU the calling thread has used.
inline double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

#endif  // PERF_BENCH_THREAD_CPU_TIME_HPP
