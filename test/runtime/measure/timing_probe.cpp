// A program whose exit report the adaptive-timing tests read (PERF_TIMING):
//   timing_probe   200,000 calls of an empty leaf, then exits
#include "perf/perf.hpp"

namespace {

__attribute__((noinline)) void leaf() {
  PERF_MEASURE_NO_TICKS("timing_probe.leaf");
  __asm__ __volatile__("");
}

}  // namespace

int main() {
  for (int i = 0; i < 200'000; ++i) leaf();
  return 0;
}
