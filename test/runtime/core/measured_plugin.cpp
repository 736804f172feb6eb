// A plugin with a measured function, which plugin_probe loads and unloads again and
// again. Built as a module that takes the runtime from the program that loads it.
#include "perf/measure.hpp"

extern "C" __attribute__((visibility("default"))) int measured_plugin_work(int x) {
  PERF_MEASURE("measured_plugin_work");
  return x + 1;
}
