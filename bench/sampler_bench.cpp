// The sampler's costs as ratios measured in one run (see docs/sampler.md):
//   overhead    = CPU time of a CPU-bound loop while its thread is sampled at 100 Hz
//                 (the default) and at 1 kHz / the same loop unsampled in the same
//                 round; the median over many short rounds (the VM is shared: a
//                 median of paired ratios cancels what drifts between rounds)
//   one sample  = at 64 frames: the kernel's delivery of the signal and the return
//                 from the handler (a signal the handler ignores, sent to itself with
//                 tgkill, less the cost of a system call: a timer's signal needs none),
//                 plus the handler's own work (walk + table), called directly
//   gperftools  = the same loop under gperftools' profiler (ProfilerStart, setitimer
//                 ITIMER_PROF, SIGPROF) at the same rates / unsampled
// Run: build/bench/sampler_bench
#include <gperftools/profiler.h>
#include <sys/syscall.h>
#include <signal.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sampler/sampler.hpp"
#include "thread_cpu_time.hpp"

namespace {

volatile uint64_t sink;

__attribute__((noinline)) void cpu_bound_loop() {
  uint64_t state = sink;
  for (uint64_t i = 0; i < 8000000; ++i) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    __asm__ __volatile__("" : "+r"(state));
  }
  sink = state;
}

double timed_loop() {
  const double start = thread_cpu_seconds();
  cpu_bound_loop();
  return thread_cpu_seconds() - start;
}

struct sample_cost {
  double system_call_ns = 0;  // getppid(): what tgkill adds to a timer's delivery
  double delivery_ns = 0;     // the kernel's part
  double handler_ns = 0;   // the handler's work
};

// Both parts of a sample's cost with `depth` frames on the stack.
__attribute__((noinline)) sample_cost sample_cost_at_depth(int depth) {
  if (depth > 1) {
    const sample_cost result = sample_cost_at_depth(depth - 1);
    sink = sink + 1;  // not a tail call: the frame stays
    return result;
  }
  constexpr int calls = 200000;
  sample_cost cost;
  const int signal = perf::runtime::sample_signal();
  double start = thread_cpu_seconds();
  for (int i = 0; i < calls; ++i) syscall(SYS_getppid);
  cost.system_call_ns = (thread_cpu_seconds() - start) * 1e9 / calls;
  start = thread_cpu_seconds();
  const long pid = getpid(), tid = syscall(SYS_gettid);
  for (int i = 0; i < calls; ++i) syscall(SYS_tgkill, pid, tid, signal);  // not SI_TIMER: ignored at once
  cost.delivery_ns = (thread_cpu_seconds() - start) * 1e9 / calls - cost.system_call_ns;
  ucontext_t context;
  getcontext(&context);
  start = thread_cpu_seconds();
  for (int i = 0; i < calls; ++i) perf::runtime::record_sample(&context, 1, 1);
  cost.handler_ns = (thread_cpu_seconds() - start) * 1e9 / calls;
  return cost;
}

// The loop's slowdown with some profiler on: the median over rounds of (time on /
// time off in the same round) - 1.
struct slowdown {
  std::vector<double> ratios;
  void add(double on, double off) { ratios.push_back(on / off); }
  double percent() {
    std::sort(ratios.begin(), ratios.end());
    return (ratios[ratios.size() / 2] - 1) * 100;
  }
};

}  // namespace

int main() {
  using namespace perf::runtime;
  if (sampling_hz() == 0) {
    std::fprintf(stderr, "sampler_bench: sampling is off (PERF_SAMPLE_HZ=0?)\n");
    return 1;
  }
  constexpr int rounds = 150;
  slowdown ours_default, ours_kilohertz, gperftools_default, gperftools_kilohertz;
  double fastest = 1e9;
  for (int round = 0; round < rounds; ++round) {
    stop_sampling();
    const double off = timed_loop();
    fastest = std::min(fastest, off);
    resume_sampling(default_sample_hz);
    ours_default.add(timed_loop(), off);
    stop_sampling();
    resume_sampling(1000);
    ours_kilohertz.add(timed_loop(), off);
  }
  stop_sampling();

  // gperftools reads its rate when its profiler starts.
  const std::string profile = "/tmp/sampler_bench_gperftools_" + std::to_string(getpid());
  for (int round = 0; round < rounds; ++round) {
    const double off = timed_loop();
    for (unsigned hz : {default_sample_hz, 1000u}) {
      setenv("CPUPROFILE_FREQUENCY", std::to_string(hz).c_str(), 1);
      ProfilerStart(profile.c_str());
      const double on = timed_loop();
      ProfilerStop();
      (hz == default_sample_hz ? gperftools_default : gperftools_kilohertz).add(on, off);
    }
  }
  unlink(profile.c_str());

  const sample_cost cost = sample_cost_at_depth(64);
  std::printf("CPU-bound loop, %.1f ms unsampled; median of %d rounds\n", fastest * 1e3, rounds);
  std::printf("%-34s %10s %10s\n", "", "100 Hz", "1 kHz");
  std::printf("%-34s %9.2f%% %9.2f%%\n", "perf-instrument sampler overhead", ours_default.percent(),
              ours_kilohertz.percent());
  std::printf("%-34s %9.2f%% %9.2f%%\n", "gperftools profiler overhead", gperftools_default.percent(),
              gperftools_kilohertz.percent());
  std::printf("one sample at 64 frames: %.0f ns = %.0f ns signal delivery and return + %.0f ns handler work "
              "(a system call: %.0f ns)\n",
              cost.delivery_ns + cost.handler_ns, cost.delivery_ns, cost.handler_ns, cost.system_call_ns);
  return 0;
}
