// The runtime's costs as ratios measured in one run (see docs/performance.md):
//   probe cost   = (measured empty function - empty function) / one bare clock read,
//                  with the tick log's enter/exit events and without them (and / one
//                  bare RDTSC read where the runtime's clock is another); the empty
//                  function is a probe-dominated leaf, so under PERF_TIMING=adaptive (the
//                  default) most of its calls are untimed: the PERF_MEASURE_TIME_ALL one
//                  is timed on every call (as every call is under PERF_TIMING=all)
//   floor        = a timed call's statistics (no tick-log events) / a hand-written
//                  scope (two clock reads, a count and a sum), both less the empty call
//   tick cost    = perf::tick(n), perf::tick(n, label) / one bare clock read, for a
//                  string literal and for a string_view whose length is known at run time
//   first pass   = perf::tick(n), perf::tick(n, label) while a fresh thread's ring
//                  fills for the first time / one bare clock read, and the time of
//                  the thread's first tick
//   scaling      = per-thread throughput with N threads / with one thread
//   report time  = snapshot + text report for 10,000 sites x 16 threads, in the
//                  reporting thread's CPU time (and wall time); `runtime_bench
//                  --report-time` measures it alone
// Each time is the minimum over repetitions, the estimate least disturbed by noise.
// The probe's ratios are then measured again interleaved by perf::compare, each with
// its 95% confidence interval (docs/comparisons.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "perf/compare.hpp"
#include "perf/perf.hpp"
#include "thread_cpu_time.hpp"

namespace {

__attribute__((noinline)) void empty_function() { __asm__ __volatile__(""); }

__attribute__((noinline)) void measured_function() {
  PERF_MEASURE("bench.measured_function");
  __asm__ __volatile__("");
}

__attribute__((noinline)) void measured_function_time_all() {
  PERF_MEASURE_TIME_ALL("bench.measured_function_time_all");
  __asm__ __volatile__("");
}

__attribute__((noinline)) void measured_function_without_ticks() {
  PERF_MEASURE_NO_TICKS("bench.measured_function_without_ticks");
  __asm__ __volatile__("");
}

__attribute__((noinline)) void measured_function_time_all_without_ticks() {
  PERF_INSTRUMENT_NO_TICKS_TIME_ALL("bench.measured_function_time_all_without_ticks");
  __asm__ __volatile__("");
}

// The clock the runtime chose, found through the block of a thread that measured something.
perf::detail::clock_source runtime_clock() {
  measured_function();
  return perf::detail::current_thread->clock;
}

// The floor a timed call is held to: a scope written by hand, as a user would time a
// function without a profiler: two reads of the runtime's clock, a count and a sum
// in a thread-local record.
struct hand_timed_totals {
  uint64_t calls = 0;
  uint64_t ticks = 0;
};
thread_local hand_timed_totals hand_timed;
perf::detail::clock_source hand_clock = perf::detail::clock_source::monotonic;

__attribute__((noinline)) void hand_timed_function() {
  const uint64_t start = perf::detail::clock_now(hand_clock);
  __asm__ __volatile__("");
  const uint64_t end = perf::detail::clock_now(hand_clock);
  hand_timed.calls += 1;
  hand_timed.ticks += end - start;
}

void bare_clock_read(benchmark::State& state) {
  const perf::detail::clock_source source = runtime_clock();
  for (auto _ : state) benchmark::DoNotOptimize(perf::detail::clock_now(source));
}

#if defined(__x86_64__)
// Plain RDTSC whatever the runtime chose: the unit the issue tracker compares
// profilers in (on Intel, the runtime once chose RDTSCP).
void bare_rdtsc_read(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(perf::detail::clock_now(perf::detail::clock_source::rdtsc));
}
#endif

void empty_call(benchmark::State& state) {
  for (auto _ : state) empty_function();
}

void measured_call(benchmark::State& state) {
  for (auto _ : state) measured_function();
}

void measured_call_time_all(benchmark::State& state) {
  for (auto _ : state) measured_function_time_all();
}

void measured_call_without_ticks(benchmark::State& state) {
  for (auto _ : state) measured_function_without_ticks();
}

void measured_call_time_all_without_ticks(benchmark::State& state) {
  for (auto _ : state) measured_function_time_all_without_ticks();
}

void hand_timed_call(benchmark::State& state) {
  hand_clock = runtime_clock();
  for (auto _ : state) hand_timed_function();
  benchmark::DoNotOptimize(hand_timed.ticks);
}

void tick(benchmark::State& state) {
  int64_t n = 0;
  for (auto _ : state) perf::tick(++n);
}

void labelled_tick(benchmark::State& state) {
  int64_t n = 0;
  for (auto _ : state) perf::tick(++n, "twenty-byte label 20");
}

// A label whose length the compiler cannot know: a string_view built at run time.
void string_view_tick(benchmark::State& state) {
  const std::string text = "twenty-byte label 20";
  std::string_view label = text;
  int64_t n = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(label);
    perf::tick(++n, label);
  }
}

// Keeps every repetition's time per iteration, so the ratios can use the minimum.
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      const std::string key = run.run_name.function_name + "/" + std::to_string(run.threads);
      auto [entry, fresh] = best_ns.try_emplace(key, run.GetAdjustedRealTime());
      if (!fresh) entry->second = std::min(entry->second, run.GetAdjustedRealTime());
    }
  }
  std::map<std::string, double> best_ns;
};

const char* verdict(bool met) { return met ? "met" : "NOT MET"; }

// On fresh threads: the first tick (which makes the ring, and with a label commits
// the ring's labels) and one ring's worth of ticks after it, against the steady
// state; the best of 5 threads.
template <class Tick>
void first_pass(const char* what, double clock_ns, double target, uint64_t ring_events, Tick tick) {
  using clock = std::chrono::steady_clock;
  double first_tick_us = 1e300, first_pass_ns = 1e300;
  for (int rep = 0; rep < 5; ++rep)
    std::thread([&] {
      const auto start = clock::now();
      tick(0);
      const auto made = clock::now();
      for (uint64_t i = 1; i < ring_events; ++i) tick(static_cast<int64_t>(i));
      const auto filled = clock::now();
      first_tick_us = std::min(first_tick_us, std::chrono::duration<double, std::micro>(made - start).count());
      first_pass_ns = std::min(first_pass_ns, std::chrono::duration<double, std::nano>(filled - made).count() /
                                                  static_cast<double>(ring_events - 1));
    }).join();
  std::printf(
      "%s filling a fresh ring of %llu events: %.2f ns = %.2f bare clock reads (target <= %.2f: %s); "
      "the thread's first tick: %.0f us\n",
      what, static_cast<unsigned long long>(ring_events), first_pass_ns, first_pass_ns / clock_ns, target,
      verdict(first_pass_ns / clock_ns <= target), first_tick_us);
}

// Fills 10,000 sites on 16 threads and times the report while they are alive and after they exit.
void report_time(int threads) {
  constexpr int sites = 10'000;
  // Sites live as long as the program, as PERF_MEASURE's static ones do.
  static std::vector<std::string> names;
  static std::vector<perf::detail::site> site_table;
  for (int i = 0; i < sites; ++i) names.push_back("bench.site_" + std::to_string(i));
  for (int i = 0; i < sites; ++i)
    site_table.push_back({names[static_cast<size_t>(i)].c_str(), "bench.cpp", 1u + static_cast<unsigned>(i), 0});

  // The least wall and CPU time of 5 reports: on a loaded machine the wall time also
  // counts the waits for a core, which the reporting thread's CPU time leaves out.
  struct report_ms {
    double wall = 1e300, cpu = 1e300;
  };
  auto time_report_ms = [] {
    report_ms best;
    for (int rep = 0; rep < 5; ++rep) {
      const auto start = std::chrono::steady_clock::now();
      const double cpu_start = thread_cpu_seconds();
      benchmark::DoNotOptimize(perf::format_text(perf::take_snapshot()));
      best.cpu = std::min(best.cpu, (thread_cpu_seconds() - cpu_start) * 1e3);
      best.wall = std::min(best.wall,
                           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
  };

  std::barrier filled(threads + 1), measured(threads + 1);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      for (int i = 0; i < sites; ++i)
        for (int call = 0; call < 3; ++call) {
          perf::detail::basic_scope<true, false> s(site_table[static_cast<size_t>(i)]);
          // Durations spread over a few histogram blocks, as real functions' do.
          for (int spin = 0; spin < (i + t + call) % 5 * 40; ++spin) benchmark::ClobberMemory();
        }
      filled.arrive_and_wait();
      measured.arrive_and_wait();
    });
  filled.arrive_and_wait();
  const report_ms living = time_report_ms();
  measured.arrive_and_wait();
  for (std::thread& w : workers) w.join();
  const report_ms exited = time_report_ms();
  std::printf(
      "exit report, %d sites x %d threads: %.1f ms CPU (%.1f ms wall) with the threads running, %.1f ms CPU "
      "(%.1f ms wall) after they exited (target < 100 ms CPU: %s)\n",
      sites, threads, living.cpu, living.wall, exited.cpu, exited.wall,
      verdict(std::max(living.cpu, exited.cpu) < 100));
}

void print_probe_ratios(const std::map<std::string, double>& ns) {
  const double clock = ns.at("bare_clock_read/1");
  std::printf("bare clock read: %.2f ns\n", clock);
  // Where the runtime's clock is not plain RDTSC, each ratio also in bare RDTSC reads.
  const auto rdtsc = ns.find("bare_rdtsc_read/1");
  const bool other_clock = rdtsc != ns.end() && runtime_clock() != perf::detail::clock_source::rdtsc;
  if (other_clock) std::printf("bare rdtsc read: %.2f ns\n", rdtsc->second);
  auto ratio = [&](const char* what, double cost, double target) {
    std::printf("%s: %.2f ns = %.2f bare clock reads", what, cost, cost / clock);
    if (other_clock) std::printf(" = %.2f bare rdtsc reads", cost / rdtsc->second);
    std::printf(" (target <= %.2f: %s)\n", target, verdict(cost / clock <= target));
  };
  const double empty = ns.at("empty_call/1");
  ratio("measured call, statistics + tick-log events", ns.at("measured_call/1") - empty, 2.50);
  ratio("measured call, every call timed (PERF_MEASURE_TIME_ALL)", ns.at("measured_call_time_all/1") - empty, 2.50);
  ratio("measured call, statistics only (PERF_MEASURE_NO_TICKS)", ns.at("measured_call_without_ticks/1") - empty, 2.30);
  // Against the floor: a timed call's statistics (no tick-log events) beside a
  // hand-written two-read scope, both less the empty call.
  const double hand = ns.at("hand_timed_call/1") - empty;
  const double timed = ns.at("measured_call_time_all_without_ticks/1") - empty;
  std::printf("hand-written scope (two clock reads, a count and a sum): %.2f ns = %.2f bare clock reads\n", hand,
              hand / clock);
  std::printf("timed call, statistics only / hand-written scope: %.2f (target <= 1.15: %s)\n", timed / hand,
              verdict(timed / hand <= 1.15));
  std::printf("timed call with tick-log events / hand-written scope: %.2f\n",
              (ns.at("measured_call_time_all/1") - empty) / hand);
  ratio("perf::tick(n)", ns.at("tick/1"), 1.25);
  ratio("perf::tick(n, \"a 20-byte label\")", ns.at("labelled_tick/1"), 2.50);
  ratio("perf::tick(n, std::string_view of 20 bytes)", ns.at("string_view_tick/1"), 2.50);
  for (const auto& [key, time] : ns) {
    if (key.rfind("measured_call/", 0) != 0 || key == "measured_call/1") continue;
    // With N threads the reported time is wall time over all threads' iterations.
    const double per_thread = ns.at("measured_call/1") / (time * std::stod(key.substr(14)));
    std::printf("per-thread throughput with %s threads: %.2f of one thread's (target >= 0.90: %s)\n", key.c_str() + 14,
                per_thread, verdict(per_thread >= 0.90));
    std::fflush(stdout);
  }
}

// The probe cost and the measured/plain ratio, interleaved by perf::compare. The four
// candidates' intervals hold together with 95% confidence (Bonferroni), so the interval
// of a difference of two of them does too.
void print_interleaved_ratios(perf::detail::clock_source source) {
  perf::comparison reads;
  reads.reference("bare clock read", [source] { return perf::detail::clock_now(source); });
  reads.candidate("empty call", [] { empty_function(); });
  reads.candidate("measured call", [] { measured_function(); });
  reads.candidate("measured call, statistics only", [] { measured_function_without_ticks(); });
  reads.candidate("measured call, every call timed", [] { measured_function_time_all(); });
  const perf::comparison_result r = reads.run();
  std::printf("\ninterleaved by perf::compare, time / one bare clock read:\n%s", r.table().c_str());
  const perf::ratio_interval empty = r.interval("empty call");
  for (const char* name : {"measured call", "measured call, statistics only", "measured call, every call timed"}) {
    const perf::ratio_interval measured = r.interval(name);
    std::printf("probe cost, %s - empty call: %.2f bare clock reads, 95%% interval [%.2f, %.2f]\n", name,
                r.ratio(name) - r.ratio("empty call"), measured.lower - empty.upper, measured.upper - empty.lower);
  }
  perf::comparison calls;
  calls.reference("plain function", [] { empty_function(); });
  calls.candidate("measured function", [] { measured_function(); });
  std::printf("\ninterleaved by perf::compare, measured / plain function:\n%s", calls.run().table().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  // `runtime_bench --report-time`: the exit report's time alone (docs/performance.md).
  if (argc > 1 && std::string(argv[1]) == "--report-time") {
    report_time(16);
    return 0;
  }
  const int cores = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
  benchmark::RegisterBenchmark("bare_clock_read", bare_clock_read)->Repetitions(7);
#if defined(__x86_64__)
  benchmark::RegisterBenchmark("bare_rdtsc_read", bare_rdtsc_read)->Repetitions(7);
#endif
  benchmark::RegisterBenchmark("empty_call", empty_call)->Repetitions(7);
  benchmark::RegisterBenchmark("measured_call_without_ticks", measured_call_without_ticks)->Repetitions(7);
  benchmark::RegisterBenchmark("measured_call_time_all", measured_call_time_all)->Repetitions(7);
  benchmark::RegisterBenchmark("measured_call_time_all_without_ticks", measured_call_time_all_without_ticks)
      ->Repetitions(7);
  benchmark::RegisterBenchmark("hand_timed_call", hand_timed_call)->Repetitions(7);
  benchmark::RegisterBenchmark("tick", tick)->Repetitions(7);
  benchmark::RegisterBenchmark("labelled_tick", labelled_tick)->Repetitions(7);
  benchmark::RegisterBenchmark("string_view_tick", string_view_tick)->Repetitions(7);
  auto* measured = benchmark::RegisterBenchmark("measured_call", measured_call)->Repetitions(7)->UseRealTime();
  for (int threads = 1; threads <= cores; threads *= 2) measured->Threads(threads);
  if ((cores & (cores - 1)) != 0) measured->Threads(cores);

  benchmark::Initialize(&argc, argv);
  ratio_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  std::cout.flush();
  const auto& ns = reporter.best_ns;
  const perf::snapshot s = perf::take_snapshot();
  std::printf("\nclock: %s at %.3f GHz (%s)\n", s.clock.source.c_str(), s.clock.ghz, s.clock.frequency.c_str());
  if (ns.size() >= 10) {
    print_probe_ratios(ns);
    if (s.ticklog.enabled) {
      first_pass("perf::tick(n)", ns.at("bare_clock_read/1"), 1.25, s.ticklog.ring_events,
                 [](int64_t n) { perf::tick(n); });
      first_pass("perf::tick(n, \"a 20-byte label\")", ns.at("bare_clock_read/1"), 2.50, s.ticklog.ring_events,
                 [](int64_t n) { perf::tick(n, "twenty-byte label 20"); });
    }
  }
  print_interleaved_ratios(runtime_clock());
  report_time(16);
  return 0;
}
