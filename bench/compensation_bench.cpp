// How close the report comes to the truth (docs/performance.md, "Compensation"):
// a measured parent that does a fixed amount of work and then calls N measured
// empty functions, for N = 1, 10, 100, against the same code unmeasured, in one
// run. Per round, the unmeasured parent and the leaf are timed with the steady
// clock, and the measured parent's total and self time are read from two snapshots
// around its calls; each figure is the median over the rounds (compensation_shapes.hpp,
// shared with bench/adaptive/).
//
// Two kinds of work: throughput-bound (independent loads and adds, as most code
// is), and latency-bound (one chain of multiplications, which leaves the core idle
// enough to run a callee's probe in its shadow, so the probe costs the caller
// almost nothing there and subtracting it takes too much).
//
// Target: the parent's reported self time within 5% of the truth (its unmeasured
// time less N unmeasured leaf calls), or 2 ns per callee where that is larger.
//
// Then recursion: fib(20) measured, its outermost call's total against the same
// function unmeasured, with the same target per inner call.
//
// Unless PERF_COMPENSATE is set, the bench then runs itself again with
// PERF_COMPENSATE=off, so one command shows the figures before and after.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "compensation_shapes.hpp"
#include "perf/perf.hpp"
#include "run_again.hpp"

namespace {

using bench::latency_bound_work;
using bench::least;
using bench::ns_per_call;
using bench::throughput_bound_work;

constexpr int rounds = 101;
constexpr int calls_per_round = 200;

__attribute__((noinline)) void plain_leaf() { __asm__ __volatile__(""); }

__attribute__((noinline)) void measured_leaf() {
  PERF_MEASURE("leaf");
  __asm__ __volatile__("");
}

BENCH_MEASURED_PARENTS(measured_leaf, "")

// Recursion: fib(n) as written, measured, against its twin without the scope. The
// barrier keeps the compiler from turning one of the two recursive calls into a
// loop (GCC does so in the plain twin, not in the measured one, whose scope's
// destructor runs after the sum), so both make the same 2 fib(n + 1) - 1 calls.
constexpr unsigned fib_n = 20;

__attribute__((noinline)) unsigned plain_fib(unsigned n) {
  unsigned r = n < 2 ? n : plain_fib(n - 1) + plain_fib(n - 2);
  __asm__ __volatile__("" : "+r"(r));
  return r;
}

__attribute__((noinline)) unsigned measured_fib(unsigned n) {
  PERF_MEASURE("fib");
  unsigned r = n < 2 ? n : measured_fib(n - 1) + measured_fib(n - 2);
  __asm__ __volatile__("" : "+r"(r));
  return r;
}

void plain_fib_n() { plain_fib(fib_n); }
void measured_fib_n() { measured_fib(fib_n); }

template <void (*Work)(), int Callees>
void report(void (*measured_parent)(), const std::string& name) {
  const bench::parent_figures f =
      bench::measure_parent<Work, plain_leaf, Callees>(measured_parent, name, "leaf", rounds, calls_per_round);
  const double truth_total = f.truth_total_ns(), truth_self = f.truth_self_ns(Callees);
  const double total = f.total_ns(), self = f.self_ns();
  const double tolerance = std::max(0.05 * truth_self, 2.0 * Callees);
  std::printf("%7d  %11.1f  %14.1f  %+6.1f%%  %10.1f  %13.1f  %+6.1f%%  %9.1f  %9.1f  %s\n", Callees, truth_total,
              total, 100 * (total - truth_total) / truth_total, truth_self, self,
              100 * (self - truth_self) / truth_self, tolerance, bench::median(f.leaf_mean),
              std::abs(self - truth_self) <= tolerance ? "met" : "NOT MET");
  std::fflush(stdout);
}

// The outermost call's total against the plain twin's time: recursion compensated
// like any nesting, within 5% or 2 ns per inner call. One call per round: measured,
// fib(20) takes about 0.5 ms, short enough for the least of the rounds to escape
// preemption on a loaded machine.
void report_recursion() {
  uint64_t a = 0, b = 1;
  for (unsigned i = 0; i <= fib_n; ++i) b += std::exchange(a, b);
  const uint64_t calls = 2 * a - 1;  // 2 fib(n + 1) - 1
  std::vector<double> truth, reported;
  for (int round = 0; round <= 2 * rounds; ++round) {
    const double plain = ns_per_call(1, plain_fib_n);
    const perf::snapshot before = perf::take_snapshot();
    measured_fib_n();
    const perf::snapshot after = perf::take_snapshot();
    if (round == 0) continue;  // warm-up
    truth.push_back(plain);
    reported.push_back(bench::growth(before, after, "fib", &perf::function_stats::total_ns));
  }
  const double truth_total = least(truth), total = least(reported);
  const double inner_calls = static_cast<double>(calls - 1);
  const double tolerance = std::max(0.05 * truth_total, 2.0 * inner_calls);
  std::printf(
      "\nrecursion, fib(%u): %llu calls\ntruth total  reported total   error  per inner call  within tolerance\n"
      "%11.1f  %14.1f  %+6.1f%%  %+11.2f ns  %s\n",
      fib_n, static_cast<unsigned long long>(calls), truth_total, total, 100 * (total - truth_total) / truth_total,
      (total - truth_total) / inner_calls, std::abs(total - truth_total) <= tolerance ? "met" : "NOT MET");
  std::fflush(stdout);
}

void print_heading(const char* work) {
  std::printf(
      "\n%s work:\ncallees  truth total  reported total   error  truth self  reported self   error  tolerance  "
      "leaf mean  self within tolerance\n",
      work);
}

}  // namespace

int main(int, char** argv) {
  measured_leaf();  // attaches the thread and registers the leaf before the first round
  const perf::snapshot s = perf::take_snapshot();
  std::printf("clock %s at %.3f GHz; probe %.2f ns a call (%.2f ns inside), %s\n", s.clock.source.c_str(), s.clock.ghz,
              s.clock.probe_ns, s.clock.probe_inside_ns,
              s.clock.compensated ? "subtracted" : "not subtracted (PERF_COMPENSATE=off)");
  print_heading("throughput-bound");
  report<throughput_bound_work, 1>(measured_parent_throughput_bound_1, "throughput_bound parent of 1");
  report<throughput_bound_work, 10>(measured_parent_throughput_bound_10, "throughput_bound parent of 10");
  report<throughput_bound_work, 100>(measured_parent_throughput_bound_100, "throughput_bound parent of 100");
  print_heading("latency-bound");
  report<latency_bound_work, 1>(measured_parent_latency_bound_1, "latency_bound parent of 1");
  report<latency_bound_work, 10>(measured_parent_latency_bound_10, "latency_bound parent of 10");
  report<latency_bound_work, 100>(measured_parent_latency_bound_100, "latency_bound parent of 100");
  report_recursion();

  return bench::run_again_with(argv, "PERF_COMPENSATE", "off");
}
