// Issue 29's targets for adaptive timing (docs/performance.md, "Adaptive timing"), as
// ratios measured in one run, one line each with its target:
//   leaf        a leaf whose body takes about 2 ns, called 10 M times in a loop: the
//               measured loop's time / the plain loop's; the calls the report counts
//               (exact); the reported mean / the plain call's time (within 10%)
//   parent      the same leaf called N = 1, 10, 100 times by a measured parent (the
//               compensation bench's shapes, compensation_shapes.hpp): the parent's
//               reported self time against its true self time (within 5% or 2 ns per callee)
//   alternating a function whose calls alternate strictly between a ~1 ns and a ~100 ns
//               body: its estimated mean / the mean of its twin that times every call
//               (PERF_MEASURE_TIME_ALL), within 5%; and / the plain call's time (a
//               latency-bound chain runs the probe in its shadow: compensation takes
//               too much there, from both twins alike; docs/performance.md, "Compensation")
//   slow        a function of about 1 us, not probe-dominated: the measured loop's time /
//               the plain loop's (unchanged: every call timed) and its reported mean /
//               the plain call's time
// Rounds alternate the plain and the measured code; a figure is the median of the
// rounds' ratios, each taken in one round's conditions (the VM's clock speed drifts). The skip list's throughput is
// memtable_bench's. Unless PERF_TIMING is set, the bench then runs itself again with
// PERF_TIMING=all (every call timed), so one command shows the figures of both. Benches
// are not tests: the exit status says nothing of the targets.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "adaptive/bodies.hpp"
#include "adaptive/leaf_loops.hpp"
#include "compensation_shapes.hpp"
#include "perf/perf.hpp"
#include "run_again.hpp"

namespace {

using bench::calls_growth;
using bench::growth;
using bench::least;
using bench::median;

uint64_t sink = 1;

using bench::loop_ns_per_call;
using bench::measured_loop;
using bench::ns_since;
using bench::reported_loop;

// Plain and measured loops of `calls` calls in alternating rounds (the first a
// warm-up), each round's figures paired (measured over plain, in the same conditions:
// the VM's clock speed drifts between seconds), their median over the rounds; and
// whether every round reported exactly `calls` calls.
struct loop_figures {
  double plain_ns = 0;    // the least time of a plain call
  double cost = 0;        // measured loop / plain loop
  double mean_ratio = 0;  // reported mean / plain call
  bool counts_exact = true;
  uint64_t calls_seen = 0;  // in the last round
};

template <uint64_t (*Plain)(uint64_t), uint64_t (*Measured)(uint64_t)>
loop_figures compare_loops(uint64_t calls, int rounds, const std::string& name) {
  std::vector<double> plain, cost, mean_ratio;
  loop_figures out;
  for (int round = 0; round <= rounds; ++round) {
    const double plain_ns = loop_ns_per_call<Plain>(calls);
    const reported_loop r = measured_loop<Measured>(calls, name);
    out.counts_exact = out.counts_exact && r.calls == calls;
    out.calls_seen = r.calls;
    if (round == 0) continue;  // warm-up
    plain.push_back(plain_ns);
    cost.push_back(r.loop_ns_per_call / plain_ns);
    mean_ratio.push_back(r.mean_ns / plain_ns);
  }
  out.plain_ns = least(plain);
  out.cost = median(cost);
  out.mean_ratio = median(mean_ratio);
  return out;
}

const char* verdict(bool met) { return met ? "met" : "NOT MET"; }

// ---- leaf: a 2 ns body, 10 M calls in a loop

constexpr uint64_t leaf_calls = 10'000'000;
constexpr int leaf_rounds = 7;

__attribute__((noinline)) uint64_t plain_leaf(uint64_t x) { return bench::two_ns_body(x); }

__attribute__((noinline)) uint64_t measured_leaf(uint64_t x) {
  PERF_MEASURE("2 ns leaf");
  return bench::two_ns_body(x);
}

void report_leaf() {
  const loop_figures f = compare_loops<plain_leaf, measured_leaf>(leaf_calls, leaf_rounds, "2 ns leaf");
  const double cost = f.cost, mean = f.mean_ratio;
  std::printf(
      "leaf: 2 ns body (%.2f ns a plain call), %llu calls a loop: measured loop / plain loop %.2fx "
      "(target <= 1.5x): %s\n",
      f.plain_ns, static_cast<unsigned long long>(leaf_calls), cost, verdict(cost <= 1.5));
  std::printf("leaf: calls reported %llu of %llu, %s (target: exact in every round): %s\n",
              static_cast<unsigned long long>(f.calls_seen), static_cast<unsigned long long>(leaf_calls),
              f.counts_exact ? "in every round" : "NOT in every round", verdict(f.counts_exact));
  std::printf("leaf: reported mean / plain call %.3f (target within 10%%): %s\n", mean,
              verdict(std::fabs(mean - 1) <= 0.10));
  std::fflush(stdout);
}

// ---- parent: the leaf under a measured parent (the compensation bench's shapes)

constexpr int parent_rounds = 101;
constexpr int parent_calls_per_round = 200;

uint64_t leaf_state = 1;

__attribute__((noinline)) void plain_leaf_of_parent() { leaf_state = bench::two_ns_body(leaf_state); }

__attribute__((noinline)) void measured_leaf_of_parent() {
  PERF_MEASURE("2 ns leaf of a parent");
  leaf_state = bench::two_ns_body(leaf_state);
}

BENCH_MEASURED_PARENTS(measured_leaf_of_parent, " 2 ns leaves")

template <void (*Work)(), int Callees>
void report_parent(void (*measured_parent)(), const char* work) {
  const std::string name = std::string(work) + " parent of " + std::to_string(Callees) + " 2 ns leaves";
  const bench::parent_figures f = bench::measure_parent<Work, plain_leaf_of_parent, Callees>(
      measured_parent, name, "2 ns leaf of a parent", parent_rounds, parent_calls_per_round);
  const double truth_self = f.truth_self_ns(Callees), self = f.self_ns();
  const double tolerance = std::max(0.05 * truth_self, 2.0 * Callees);
  std::printf(
      "parent: %s work, %3d callees: reported self %.1f ns / true self %.1f ns, error %+.1f ns "
      "(target within %.1f ns: 5%% or 2 ns per callee): %s\n",
      work, Callees, self, truth_self, self - truth_self, tolerance,
      verdict(std::fabs(self - truth_self) <= tolerance));
  std::fflush(stdout);
}

// ---- alternating: strictly alternating 1 ns and 100 ns calls

constexpr uint64_t alternating_calls = 200'000;
constexpr int alternating_rounds = 21;
// Independent loads and adds, not a chain: a latency-bound body runs the probe in its
// shadow, which compensation cannot know (docs/performance.md, "Compensation"), and
// this bench is about sampling, not compensation.
__attribute__((always_inline)) inline uint64_t alternating_body(uint64_t x, bool long_call) {
  return long_call ? bench::loads<250>(x) : x + 1;  // about 100 ns, about 1 ns
}

__attribute__((noinline)) uint64_t plain_alternating(uint64_t x, bool long_call) {
  return alternating_body(x, long_call);
}

__attribute__((noinline)) uint64_t measured_alternating(uint64_t x, bool long_call) {
  PERF_MEASURE("alternating");
  return alternating_body(x, long_call);
}

__attribute__((noinline)) uint64_t every_call_timed_alternating(uint64_t x, bool long_call) {
  PERF_MEASURE_TIME_ALL("alternating, every call timed");
  return alternating_body(x, long_call);
}

template <uint64_t (*Function)(uint64_t, bool)>
double alternating_ns_per_call() {
  uint64_t x = sink;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < alternating_calls; ++i) x = Function(x, (i & 1) != 0);
  const double ns = ns_since(start);
  sink = x;
  return ns / alternating_calls;
}

// The measured function and its twin in one loop, so that both run in the same
// conditions (code placement, what runs before them); each sees its calls alternate.
void run_measured_twins() {
  uint64_t x = sink;
  for (uint64_t i = 0; i < alternating_calls; ++i) {
    x = measured_alternating(x, (i & 1) != 0);
    x = every_call_timed_alternating(x, (i & 1) != 0);
  }
  sink = x;
}

void report_alternating() {
  std::vector<double> plain, estimated, every_call;
  for (int round = 0; round <= alternating_rounds; ++round) {
    const double plain_ns = alternating_ns_per_call<plain_alternating>();
    const perf::snapshot before = perf::take_snapshot();
    run_measured_twins();
    const perf::snapshot after = perf::take_snapshot();
    if (round == 0) continue;  // warm-up
    plain.push_back(plain_ns);
    estimated.push_back(growth(before, after, "alternating", &perf::function_stats::total_ns) / alternating_calls);
    every_call.push_back(growth(before, after, "alternating, every call timed", &perf::function_stats::total_ns) /
                         alternating_calls);
  }
  // The median of the means: the least would pick the round whose sample was luckiest.
  const double ratio = median(estimated) / median(every_call);
  std::printf(
      "alternating: 1 ns and 100 ns calls: estimated mean %.1f ns / every call timed %.1f ns = %.3f "
      "(target within 5%%): %s; / plain call %.1f ns = %.3f\n",
      median(estimated), median(every_call), ratio, verdict(std::fabs(ratio - 1) <= 0.05), least(plain),
      median(estimated) / least(plain));
  std::fflush(stdout);
}

// ---- slow: a 1 us function, not probe-dominated

constexpr uint64_t slow_calls = 2'000;
constexpr int slow_rounds = 21;

__attribute__((noinline)) uint64_t plain_slow(uint64_t x) { return bench::chain<1100>(x); }

__attribute__((noinline)) uint64_t measured_slow(uint64_t x) {
  PERF_MEASURE("1 us function");
  return bench::chain<1100>(x);
}

void report_slow() {
  const loop_figures f = compare_loops<plain_slow, measured_slow>(slow_calls, slow_rounds, "1 us function");
  std::printf(
      "slow: 1 us body (%.0f ns a plain call): measured loop / plain loop %.3fx, reported mean / plain call "
      "%.3f, calls %s (target: as before adaptive timing, every call timed)\n",
      f.plain_ns, f.cost, f.mean_ratio, f.counts_exact ? "exact" : "NOT exact");
  std::fflush(stdout);
}

}  // namespace

int main(int, char** argv) {
  measured_leaf(0);  // attaches the thread before the first round
  const perf::snapshot s = perf::take_snapshot();
  std::printf("clock %s at %.3f GHz; probe %.2f ns a call, %s\n", s.clock.source.c_str(), s.clock.ghz, s.clock.probe_ns,
              s.clock.compensated ? "subtracted" : "not subtracted (PERF_COMPENSATE=off)");
  report_leaf();
  report_parent<bench::throughput_bound_work, 1>(measured_parent_throughput_bound_1, "throughput_bound");
  report_parent<bench::throughput_bound_work, 10>(measured_parent_throughput_bound_10, "throughput_bound");
  report_parent<bench::throughput_bound_work, 100>(measured_parent_throughput_bound_100, "throughput_bound");
  report_parent<bench::latency_bound_work, 1>(measured_parent_latency_bound_1, "latency_bound");
  report_parent<bench::latency_bound_work, 10>(measured_parent_latency_bound_10, "latency_bound");
  report_parent<bench::latency_bound_work, 100>(measured_parent_latency_bound_100, "latency_bound");
  report_alternating();
  report_slow();
  return bench::run_again_with(argv, "PERF_TIMING", "all");
}
