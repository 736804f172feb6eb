// A program for perf-report's tests: a fixed amount of measured work, so that
// reports of its runs can be merged and compared.
//   PERF_PROBE_CALLS    calls of each step per thread (default 2000)
//   PERF_PROBE_THREADS  threads doing them (default 2)
//   PERF_PROBE_SLOW     factor on probe::render's spin (default 1; 1.2 is the "20% slower" build)
//   PERF_PROBE_TINY     1: each step also calls probe::tiny, whose figures are mostly the probe's
//   PERF_PROBE_SETUP    1: main first calls probe::setup once (a program's start-up work)
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "perf/perf.hpp"

namespace probe {

unsigned spin(unsigned rounds) {
  volatile unsigned x = 0;
  for (unsigned i = 0; i < rounds; ++i) x = x + i;
  return x;
}

double slow_factor = 1;

// parse and render do the same work, render's spin scaled by PERF_PROBE_SLOW: parse
// is the yardstick `diff --normalize` divides by, and a yardstick doing other work
// (once parse did not allocate) speeds up and slows down unlike render when the
// machine's speed changes. Not inlined: both run the very same instructions.
__attribute__((noinline)) void work(double factor) {
  auto buffer = std::make_unique<std::string>(200, 'x');  // two allocations: the string and its buffer
  spin(static_cast<unsigned>(3000 * factor));
}

void parse() {
  PERF_MEASURE("probe::parse");
  work(1);
}

void render() {
  PERF_MEASURE("probe::render");
  work(slow_factor);
}

bool with_tiny = false;

__attribute__((noinline)) void tiny() { PERF_MEASURE("probe::tiny"); }

void step() {
  PERF_MEASURE("probe::step");
  parse();
  render();
  if (with_tiny) tiny();
}

// Called once: a single call's duration says little about the next run's.
__attribute__((noinline)) void setup() {
  PERF_MEASURE("probe::setup");
  work(1);
}

}  // namespace probe

namespace {

long env(const char* name, long fallback) {
  const char* value = std::getenv(name);
  return value ? std::atol(value) : fallback;
}

}  // namespace

int main() {
  if (const char* slow = std::getenv("PERF_PROBE_SLOW")) probe::slow_factor = std::atof(slow);
  probe::with_tiny = env("PERF_PROBE_TINY", 0) == 1;
  if (env("PERF_PROBE_SETUP", 0) == 1) probe::setup();
  const long calls = env("PERF_PROBE_CALLS", 2000);
  std::vector<std::thread> threads;
  for (long t = 0; t < env("PERF_PROBE_THREADS", 2); ++t)
    threads.emplace_back([calls] {
      for (long i = 0; i < calls; ++i) probe::step();
    });
  for (std::thread& t : threads) t.join();
}
