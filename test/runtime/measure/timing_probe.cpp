// A program whose exit report the adaptive-timing tests read (PERF_TIMING):
//   timing_probe [MS]   200,000 calls of an empty leaf, then calls of it for MS more
//                       milliseconds (none by default), then exits
#include <chrono>
#include <cstdlib>

#include "perf/perf.hpp"

namespace {

__attribute__((noinline)) void leaf() {
  PERF_MEASURE_NO_TICKS("timing_probe.leaf");
  __asm__ __volatile__("");
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 0; i < 200'000; ++i) leaf();
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(argc > 1 ? std::atoi(argv[1]) : 0);
  while (std::chrono::steady_clock::now() < until)
    for (int i = 0; i < 10'000; ++i) leaf();
  return 0;
}
