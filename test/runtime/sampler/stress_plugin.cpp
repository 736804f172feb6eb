// A library the stress probe loads and unloads while it is being sampled.
#include <cstdint>

extern "C" __attribute__((visibility("default"), noinline)) uint64_t plugin_work(uint64_t iterations) {
  uint64_t state = iterations;
  for (uint64_t i = 0; i < iterations; ++i) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    __asm__ __volatile__("" : "+r"(state));
  }
  return state;
}
