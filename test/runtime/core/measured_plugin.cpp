// A plugin with a measured function, which plugin_probe loads and unloads again and
// again. Built as a module that takes the runtime from the program that loads it.
#include <time.h>

#include "perf/measure.hpp"

extern "C" __attribute__((visibility("default"))) int measured_plugin_work(int x) {
  PERF_MEASURE("measured_plugin_work");
  return x + 1;
}

// Spins for `seconds` of the thread's CPU time in the plugin's own code (no call out
// of it but the clock's), for samples taken in a plugin that is unloaded afterwards.
extern "C" __attribute__((visibility("default"), noinline)) unsigned long plugin_spin(double seconds) {
  unsigned long spins = 0;
  timespec now{};
  do {
    for (int i = 0; i < 100000; ++i) spins = spins * 6364136223846793005ul + 1442695040888963407ul;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while (static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9 < seconds);
  return spins;
}
