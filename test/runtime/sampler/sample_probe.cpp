// A program whose CPU time is split in known proportions, for the sampler's tests.
// argv[1] picks the scenario; the summary goes to stderr, one line per entry:
//   function <name> <samples>      (the process's top functions)
//   thread <tid> <samples> <top function>
//   total <samples>
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <thread>

#include "perf/sampler.hpp"

namespace {

volatile uint64_t sink;

// Each function's loop is its own (a shared helper would be the hottest frame).
#define PERF_PROBE_CHURN(iterations)                                   \
  uint64_t state = sink;                                               \
  for (uint64_t i = 0; i < (iterations); ++i) {                        \
    state = state * 6364136223846793005u + 1442695040888963407u;       \
    __asm__ __volatile__("" : "+r"(state));                            \
  }                                                                    \
  sink = state

constexpr uint64_t unit = 4000000;  // a few milliseconds

// Every function churns a different amount: identical code folding would make two alike one.
__attribute__((noinline)) void three_quarters(uint64_t units) { PERF_PROBE_CHURN(3 * units * unit); }
__attribute__((noinline)) void one_quarter(uint64_t units) { PERF_PROBE_CHURN(units * unit); }
__attribute__((noinline)) void light_thread_work() { PERF_PROBE_CHURN(160 * unit); }
__attribute__((noinline)) void heavy_thread_work() { PERF_PROBE_CHURN(320 * unit); }
__attribute__((noinline)) void late_thread_work() { PERF_PROBE_CHURN(210 * unit); }
__attribute__((noinline)) void main_thread_work() { PERF_PROBE_CHURN(150 * unit); }

void ratio() {
  for (int round = 0; round < 100; ++round) {
    three_quarters(1);
    one_quarter(1);
  }
}

void threads() {
  std::thread light(light_thread_work);
  std::thread heavy(heavy_thread_work);
  light.join();
  heavy.join();
}

void late_thread() {
  main_thread_work();
  std::thread late(late_thread_work);
  late.join();
}

// A thread blocked in read() while samples arrive (PERF_SAMPLE_CLOCK=wall sends them
// to blocked threads too) gets its byte, not EINTR.
int blocked_read() {
  int fds[2];
  if (pipe(fds) != 0) return 1;
  long got = 0;
  std::thread reader([&] {
    char byte = 0;
    got = read(fds[0], &byte, 1);
  });
  // Samples interrupt a sleep (nanosleep returns EINTR whatever SA_RESTART says):
  // sleep to an absolute deadline, as a program that must sleep that long does.
  timespec deadline{};
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_nsec += 300000000;
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000;
  }
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr) == EINTR) {
  }
  (void)!write(fds[1], "x", 1);
  reader.join();
  std::fprintf(stderr, "read %ld\n", got);
  return got == 1 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const char* scenario = argc > 1 ? argv[1] : "";
  int status = 0;
  if (std::strcmp(scenario, "ratio") == 0) ratio();
  else if (std::strcmp(scenario, "threads") == 0) threads();
  else if (std::strcmp(scenario, "late-thread") == 0) late_thread();
  else if (std::strcmp(scenario, "blocked-read") == 0) status = blocked_read();
  else {
    std::fprintf(stderr, "usage: %s ratio|threads|late-thread|blocked-read\n", argv[0]);
    return 2;
  }
  const perf::sample_summary summary = perf::take_sample_summary(5);
  for (const perf::sampled_location& f : summary.top_functions)
    std::fprintf(stderr, "function %s %llu\n", f.function.c_str(), static_cast<unsigned long long>(f.samples));
  for (const perf::sampled_thread& t : summary.threads)
    std::fprintf(stderr, "thread %ld %llu %s\n", t.tid, static_cast<unsigned long long>(t.samples),
                 t.top_functions.empty() ? "-" : t.top_functions.front().function.c_str());
  std::fprintf(stderr, "total %llu\n", static_cast<unsigned long long>(summary.total));
  return status;
}
