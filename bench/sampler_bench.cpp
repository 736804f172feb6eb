// The sampler's costs and accuracy as ratios measured in one run (see docs/sampler.md):
//   overhead    = CPU time of a CPU-bound loop while its thread is sampled at 100 Hz
//                 (the default) and at 1 kHz, by each source (the perf_event task
//                 clock, the timers) / the same loop unsampled in the same round; the
//                 median over many short rounds (the VM is shared: a median of paired
//                 ratios cancels what drifts between rounds)
//   accuracy    = 10 runs per source of about 0.4 s of CPU at 1 kHz: a 3:1 split in
//                 one thread (in rounds of 4 ms, a 250 Hz tick's period, and of 20 ms)
//                 and a 1:2 split across two threads; the shares read, how
//                 many runs fall within 3 points and how many 95% intervals hold the
//                 true share, and the samples / (CPU time x rate)
//   one sample  = at 64 frames: the kernel's delivery of the signal and the return
//                 from the handler (a signal the handler ignores, sent to itself with
//                 tgkill, less the cost of a system call: a timer's signal needs none),
//                 plus the handler's own work (walk + table): a signal of the bench's
//                 own whose handler records a sample, less one whose handler does not
//   gperftools  = the same loop under gperftools' profiler (ProfilerStart, setitimer
//                 ITIMER_PROF, SIGPROF) at the same rates / unsampled
// Run: build/bench/sampler_bench
#include <gperftools/profiler.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "harness/cpu_churn.hpp"
#include "perf/sampler.hpp"
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

// `units` of about a millisecond each.
constexpr uint64_t unit = 1000000;
__attribute__((noinline)) void three_parts(uint64_t units) { PERF_TEST_CPU_CHURN(3 * units * unit); }
__attribute__((noinline)) void one_part(uint64_t units) { PERF_TEST_CPU_CHURN(units * unit); }
__attribute__((noinline)) void one_third_thread() { PERF_TEST_CPU_CHURN(133 * unit); }
__attribute__((noinline)) void two_thirds_thread() { PERF_TEST_CPU_CHURN(267 * unit); }

double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double timed_loop() {
  const double start = thread_cpu_seconds();
  cpu_bound_loop();
  return thread_cpu_seconds() - start;
}

struct sample_cost {
  double system_call_ns = 0;  // getppid(): what tgkill adds to a timer's delivery
  double delivery_ns = 0;     // the kernel's part
  double handler_ns = 0;      // the handler's work
};

bool record_in_handler = false;
void record_on_signal(int, siginfo_t*, void* ucontext) {
  if (record_in_handler) perf::runtime::record_sample(ucontext, 1, 1);
}

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
  // The handler's work: a signal of the bench's own whose handler records a sample
  // (the walk goes up through the kernel's signal frame, as the sampler's does), less
  // the same signal with a handler that records none.
  double with_signal[2];
  for (const bool record : {false, true}) {
    record_in_handler = record;
    start = thread_cpu_seconds();
    for (int i = 0; i < calls; ++i) syscall(SYS_tgkill, pid, tid, SIGUSR2);
    with_signal[record] = (thread_cpu_seconds() - start) * 1e9 / calls;
  }
  cost.handler_ns = with_signal[1] - with_signal[0];
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

// The runs of one split by one source.
struct accuracy {
  std::vector<double> shares;
  int within_three_points = 0;
  int interval_holds = 0;
  double least_count = 1e9, most_count = 0;  // samples / (CPU seconds x rate)
  uint64_t interrupts = 0, samples = 0;
};

const perf::sampled_location* find(const std::vector<perf::sampled_location>& list, const char* function) {
  for (const perf::sampled_location& l : list)
    if (l.function.find(function) != std::string::npos) return &l;
  return nullptr;
}

// Samples `work` alone at 1 kHz from `source` and returns the summary; `cpu` gets
// the process's CPU seconds the work took.
template <typename Work>
perf::sample_summary sampled_run(perf::runtime::sample_source source, Work work, double& cpu) {
  using namespace perf::runtime;
  stop_sampling();
  sampled_stacks()->clear();
  resume_sampling(1000, source);
  const double start = process_cpu_seconds();
  work();
  cpu = process_cpu_seconds() - start;
  stop_sampling();
  return perf::take_sample_summary(10);
}

void add_run(accuracy& a, const perf::sample_summary& s, double share, double low, double high, double truth,
             double cpu) {
  a.shares.push_back(share);
  a.within_three_points += std::fabs(share - truth) <= 0.03;
  a.interval_holds += low <= truth && truth <= high;
  const double count = static_cast<double>(s.total) / (cpu * 1000);
  a.least_count = std::min(a.least_count, count);
  a.most_count = std::max(a.most_count, count);
  a.interrupts += s.interrupts;
  a.samples += s.total;
}

// Rounds of 4 x `units` ms: at 1 unit a round is the 250 Hz tick's period, so a
// timer's signals land at the same point of every round (aliasing).
accuracy three_to_one(perf::runtime::sample_source source, uint64_t units) {
  accuracy a;
  for (int run = 0; run < 10; ++run) {
    double cpu = 0;
    const perf::sample_summary s = sampled_run(
        source,
        [units] {
          for (uint64_t round = 0; round < 100 / units; ++round) three_parts(units), one_part(units);
        },
        cpu);
    const perf::sampled_location* heavy = find(s.top_functions, "three_parts");
    const perf::sampled_location* light = find(s.top_functions, "one_part");
    if (heavy == nullptr || light == nullptr) continue;
    add_run(a, s, static_cast<double>(heavy->samples) / static_cast<double>(heavy->samples + light->samples),
            heavy->share_low, heavy->share_high, 0.75, cpu);
  }
  return a;
}

accuracy one_to_two_threads(perf::runtime::sample_source source) {
  accuracy a;
  for (int run = 0; run < 10; ++run) {
    double cpu = 0;
    const perf::sample_summary s = sampled_run(
        source,
        [] {
          std::thread light(one_third_thread), heavy(two_thirds_thread);
          light.join();
          heavy.join();
        },
        cpu);
    const perf::sampled_location* light = find(s.top_functions, "one_third_thread");
    const perf::sampled_location* heavy = find(s.top_functions, "two_thirds_thread");
    if (heavy == nullptr || light == nullptr) continue;
    add_run(a, s, static_cast<double>(light->samples) / static_cast<double>(heavy->samples + light->samples),
            light->share_low, light->share_high, 1.0 / 3, cpu);
  }
  return a;
}

void print_accuracy(const char* split, const char* source, const accuracy& a) {
  if (a.shares.empty()) return;
  const auto [low, high] = std::minmax_element(a.shares.begin(), a.shares.end());
  std::printf("%-22s %-11s %6.3f-%5.3f %8d/%zu %9d/%zu %7.3f-%5.3f %10.2f\n", split, source, *low, *high,
              a.within_three_points, a.shares.size(), a.interval_holds, a.shares.size(), a.least_count, a.most_count,
              static_cast<double>(a.samples) / static_cast<double>(a.interrupts));
}

}  // namespace

int main() {
  using namespace perf::runtime;
  if (sampling_hz() == 0) {
    std::fprintf(stderr, "sampler_bench: sampling is off (PERF_SAMPLE_HZ=0?)\n");
    return 1;
  }
  constexpr int rounds = 150;
  slowdown event_default, event_kilohertz, timer_default, timer_kilohertz, gperftools_default, gperftools_kilohertz;
  double fastest = 1e9;
  for (int round = 0; round < rounds; ++round) {
    stop_sampling();
    const double off = timed_loop();
    fastest = std::min(fastest, off);
    const std::pair<sample_source, slowdown*> runs[] = {{sample_source::perf_event, &event_default},
                                                        {sample_source::perf_event, &event_kilohertz},
                                                        {sample_source::timer, &timer_default},
                                                        {sample_source::timer, &timer_kilohertz}};
    for (const auto& [source, result] : runs) {
      resume_sampling(result == &event_default || result == &timer_default ? default_sample_hz : 1000, source);
      result->add(timed_loop(), off);
      stop_sampling();
    }
  }
  resume_sampling(default_sample_hz, sample_source::perf_event);
  const bool event_allowed = sampling_source() == sample_source::perf_event;
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

  struct sigaction action {};
  action.sa_sigaction = record_on_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGUSR2, &action, nullptr);
  const sample_cost cost = sample_cost_at_depth(64);
  std::printf("CPU-bound loop, %.1f ms unsampled; median of %d rounds\n", fastest * 1e3, rounds);
  std::printf("%-34s %10s %10s\n", "", "100 Hz", "1 kHz");
  if (event_allowed)
    std::printf("%-34s %9.2f%% %9.2f%%\n", "sampler overhead, perf_event", event_default.percent(),
                event_kilohertz.percent());
  else std::printf("sampler overhead, perf_event: refused here (the rows below are the timers')\n");
  std::printf("%-34s %9.2f%% %9.2f%%\n", "sampler overhead, timer", timer_default.percent(), timer_kilohertz.percent());
  std::printf("%-34s %9.2f%% %9.2f%%\n", "gperftools profiler overhead", gperftools_default.percent(),
              gperftools_kilohertz.percent());
  std::printf(
      "one sample at 64 frames: %.0f ns = %.0f ns signal delivery and return + %.0f ns handler work "
      "(a system call: %.0f ns)\n",
      cost.delivery_ns + cost.handler_ns, cost.delivery_ns, cost.handler_ns, cost.system_call_ns);

  std::printf("\naccuracy at 1 kHz, 10 runs of ~0.4 s CPU each\n%-22s %-11s %12s %10s %11s %13s %10s\n", "split",
              "source", "share read", "within 3pt", "interval ok", "samples/cpu", "per signal");
  for (const sample_source source : {sample_source::perf_event, sample_source::timer}) {
    if (source == sample_source::perf_event && !event_allowed) continue;
    print_accuracy("3:1, rounds of 4 ms", source_name(source), three_to_one(source, 1));
    print_accuracy("3:1, rounds of 20 ms", source_name(source), three_to_one(source, 5));
    print_accuracy("1:2 across two threads", source_name(source), one_to_two_threads(source));
  }
  return 0;
}
