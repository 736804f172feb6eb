// A measured program that runs about 1 ms and exits: a test binary or a command-line
// tool, run thousands of times a day. At the default 100 Hz it takes no sample.
#include <chrono>

#include "perf/perf.hpp"

namespace {

__attribute__((noinline)) unsigned step(unsigned x) {
  PERF_MEASURE("short_program.step");
  for (int i = 0; i < 100; ++i) x = x * 1664525u + 1013904223u;
  return x;
}

}  // namespace

int main() {
  unsigned x = 1;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1);
  while (std::chrono::steady_clock::now() < until) x = step(x);
  return x == 0 ? 1 : 0;
}
