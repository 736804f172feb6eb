// The program a tracer attaches to while it runs (usdt_test.cpp): measures
// usdt_traced, linked with the shared libperfrt as a program built with the installed
// package is. Before it says "ready" it calls usdt_traced 1000 times (no tracer can
// count those); then it calls usdt_marker every 10 ms until a line arrives on stdin
// (the test sends it once the tracer reported a marker's exit: the probes are live);
// then it calls usdt_traced `calls` times (argv[1]), says "done", and waits for stdin
// to close.
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "perf/measure.hpp"

namespace {

// About a microsecond of work: beside the probe's cost, never sampled (every call timed).
__attribute__((noinline)) void work() {
  for (unsigned k = 0; k < 2000; ++k) __asm__ __volatile__("" ::: "memory");
}

__attribute__((noinline)) void usdt_traced() {
  PERF_MEASURE("usdt_traced");
  work();
}

// Timed on every call: a sampled marker could pass the probe only after its countdown.
__attribute__((noinline)) void usdt_marker() { PERF_MEASURE_TIME_ALL("usdt_marker"); }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: usdt_target CALLS\n");
    return 2;
  }
  const long calls = std::atol(argv[1]);
  for (int i = 0; i < 1000; ++i) usdt_traced();
  std::printf("ready\n");
  std::fflush(stdout);
  pollfd input = {STDIN_FILENO, POLLIN, 0};
  while (poll(&input, 1, 10) == 0) usdt_marker();
  char line[16];
  if (read(STDIN_FILENO, line, sizeof line) <= 0) return 3;
  for (long i = 0; i < calls; ++i) usdt_traced();
  std::printf("done\n");
  std::fflush(stdout);
  while (read(STDIN_FILENO, line, sizeof line) > 0) {}
  return 0;
}
