// The sampler's costs as ratios measured in one run (see docs/sampler.md):
//   overhead    = CPU time of a CPU-bound loop while its thread is sampled at 100 Hz
//                 (the default) and at 1 kHz / the same loop unsampled, rounds
//                 interleaved, minimum of each
//   per sample  = the extra CPU time at 1 kHz / the samples taken: everything a
//                 sample costs, the kernel's signal delivery included
//   handler     = the handler's own work (walk + table) at 64 frames, called directly
//   gperftools  = the same loop under gperftools' profiler (ProfilerStart, setitimer
//                 ITIMER_PROF, SIGPROF) at the same rates / unsampled
// Run: build/bench/sampler_bench
#include <gperftools/profiler.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sampler/sampler.hpp"

namespace {

volatile uint64_t sink;

__attribute__((noinline)) void cpu_bound_loop() {
  uint64_t state = sink;
  for (uint64_t i = 0; i < 40000000; ++i) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    __asm__ __volatile__("" : "+r"(state));
  }
  sink = state;
}

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double timed_loop() {
  const double start = thread_cpu_seconds();
  cpu_bound_loop();
  return thread_cpu_seconds() - start;
}

uint64_t samples_taken() {
  uint64_t total = 0;
  perf::runtime::sampled_stacks()->for_each([&](const perf::runtime::stack_view& v) { total += v.count; });
  return total;
}

// The handler's work at `depth` frames: recurse, then record from a real context.
__attribute__((noinline)) double handler_ns_at_depth(int depth) {
  if (depth > 1) {
    const double result = handler_ns_at_depth(depth - 1);
    sink = sink + 1;  // not a tail call: the frame stays
    return result;
  }
  ucontext_t context;
  getcontext(&context);
  constexpr int calls = 200000;
  const double start = thread_cpu_seconds();
  for (int i = 0; i < calls; ++i) perf::runtime::record_sample(&context, 1, 1);
  return (thread_cpu_seconds() - start) * 1e9 / calls;
}

struct rates {
  double off = 1e9, default_rate = 1e9, kilohertz = 1e9;
};

}  // namespace

int main() {
  using namespace perf::runtime;
  if (sampling_hz() == 0) {
    std::fprintf(stderr, "sampler_bench: sampling is off (PERF_SAMPLE_HZ=0?)\n");
    return 1;
  }
  constexpr int rounds = 15;
  rates ours, gperftools;
  uint64_t kilohertz_samples = 0;
  double kilohertz_seconds = 0;
  for (int round = 0; round < rounds; ++round) {
    stop_sampling();
    ours.off = std::min(ours.off, timed_loop());
    resume_sampling(default_sample_hz);
    ours.default_rate = std::min(ours.default_rate, timed_loop());
    resume_sampling(1000);
    const uint64_t before = samples_taken();
    const double seconds = timed_loop();
    kilohertz_samples += samples_taken() - before;
    kilohertz_seconds += seconds;
    ours.kilohertz = std::min(ours.kilohertz, seconds);
  }
  stop_sampling();
  const double per_sample_us =
      (kilohertz_seconds - rounds * ours.off) * 1e6 / static_cast<double>(kilohertz_samples);

  // gperftools reads its rate when its profiler starts.
  const std::string profile = "/tmp/sampler_bench_gperftools_" + std::to_string(getpid());
  for (int round = 0; round < rounds; ++round) {
    gperftools.off = std::min(gperftools.off, timed_loop());
    for (unsigned hz : {default_sample_hz, 1000u}) {
      setenv("CPUPROFILE_FREQUENCY", std::to_string(hz).c_str(), 1);
      ProfilerStart(profile.c_str());
      const double seconds = timed_loop();
      ProfilerStop();
      double& best = hz == default_sample_hz ? gperftools.default_rate : gperftools.kilohertz;
      best = std::min(best, seconds);
    }
  }
  unlink(profile.c_str());

  const double handler_ns = handler_ns_at_depth(64);
  std::printf("CPU-bound loop, %.1f ms unsampled (minimum of %d rounds)\n", ours.off * 1e3, rounds);
  std::printf("%-34s %10s %10s\n", "", "100 Hz", "1 kHz");
  std::printf("%-34s %9.2f%% %9.2f%%\n", "perf-instrument sampler overhead", (ours.default_rate / ours.off - 1) * 100,
              (ours.kilohertz / ours.off - 1) * 100);
  std::printf("%-34s %9.2f%% %9.2f%%\n", "gperftools profiler overhead",
              (gperftools.default_rate / gperftools.off - 1) * 100, (gperftools.kilohertz / gperftools.off - 1) * 100);
  std::printf("one sample, all costs (1 kHz):     %.2f us (%llu samples)\n", per_sample_us,
              static_cast<unsigned long long>(kilohertz_samples));
  std::printf("handler work at 64 frames:         %.0f ns\n", handler_ns);
  return 0;
}
