// How close the report comes to the truth (docs/performance.md, "Compensation"):
// a measured parent that does a fixed amount of work and then calls N measured
// empty functions, for N = 1, 10, 100, against the same code unmeasured, in one
// run. Per round, the unmeasured parent and the leaf are timed with the steady
// clock, and the measured parent's total and self time are read from two snapshots
// around its calls; each figure is the least over the rounds, the one least
// disturbed by other load (a median would charge the longer measured calls more of
// the machine's noise).
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
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "perf/perf.hpp"

namespace {

constexpr int rounds = 101;
constexpr int calls_per_round = 200;

uint64_t work_input[2048];  // 16 KiB: in the L1 cache
uint64_t work_output = 1;

// About 0.3 us of independent loads and adds on a 2 GHz core.
__attribute__((noinline)) void throughput_bound_work() {
  uint64_t a = 0, b = 0, c = 0, d = 0;
  for (int i = 0; i < 1024; ++i) {
    a += work_input[4 * i & 2047];
    b ^= work_input[(4 * i + 1) & 2047];
    c += work_input[(4 * i + 2) & 2047];
    d ^= work_input[(4 * i + 3) & 2047];
    __asm__ __volatile__("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
  }
  work_output = a + b + c + d;
}

// About 0.5 us of one chain of multiply-adds on a 2 GHz core.
__attribute__((noinline)) void latency_bound_work() {
  uint64_t x = work_output;
  for (int i = 0; i < 256; ++i) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    __asm__ __volatile__("" : "+r"(x));
  }
  work_output = x;
}

__attribute__((noinline)) void plain_leaf() { __asm__ __volatile__(""); }

__attribute__((noinline)) void measured_leaf() {
  PERF_MEASURE("leaf");
  __asm__ __volatile__("");
}

template <void (*Work)(), void (*Leaf)(), int Callees>
__attribute__((always_inline)) inline void parent_body() {
  Work();
  for (int i = 0; i < Callees; ++i) Leaf();
}

template <void (*Work)(), int Callees>
__attribute__((noinline)) void plain_parent() {
  parent_body<Work, plain_leaf, Callees>();
}

// One site per parent: PERF_MEASURE's name is a string literal.
#define MEASURED_PARENT(work, callees)                                  \
  __attribute__((noinline)) void measured_parent_##work##_##callees() { \
    PERF_MEASURE(#work " parent of " #callees);                         \
    parent_body<work##_work, measured_leaf, callees>();                 \
  }
MEASURED_PARENT(throughput_bound, 1)
MEASURED_PARENT(throughput_bound, 10)
MEASURED_PARENT(throughput_bound, 100)
MEASURED_PARENT(latency_bound, 1)
MEASURED_PARENT(latency_bound, 10)
MEASURED_PARENT(latency_bound, 100)

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

template <class Call>
double ns_per_call(int calls, Call call) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) call();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / calls;
}

const perf::function_stats* find(const perf::snapshot& s, const std::string& name) {
  for (const perf::function_stats& f : s.functions)
    if (f.name == name) return &f;
  return nullptr;
}

double least(const std::vector<double>& values) { return *std::min_element(values.begin(), values.end()); }

struct figures {
  std::vector<double> truth_total, plain_leaf, reported_total, reported_self, leaf_mean;
};

template <void (*Work)(), int Callees>
figures measure(void (*measured_parent)(), const std::string& name) {
  figures out;
  for (int round = 0; round <= rounds; ++round) {
    const double plain = ns_per_call(calls_per_round, plain_parent<Work, Callees>);
    const double leaf = ns_per_call(calls_per_round * Callees, plain_leaf);
    const perf::snapshot before = perf::take_snapshot();
    for (int i = 0; i < calls_per_round; ++i) measured_parent();
    const perf::snapshot after = perf::take_snapshot();
    if (round == 0) continue;  // warm-up
    const perf::function_stats* parent_after = find(after, name);
    const perf::function_stats* parent_before = find(before, name);
    const perf::function_stats* leaf_after = find(after, "leaf");
    const perf::function_stats* leaf_before = find(before, "leaf");
    auto delta = [](const perf::function_stats* a, const perf::function_stats* b, double perf::function_stats::*field) {
      return a->*field - (b == nullptr ? 0.0 : b->*field);
    };
    out.truth_total.push_back(plain);
    out.plain_leaf.push_back(leaf);
    out.reported_total.push_back(delta(parent_after, parent_before, &perf::function_stats::total_ns) / calls_per_round);
    out.reported_self.push_back(delta(parent_after, parent_before, &perf::function_stats::self_ns) / calls_per_round);
    out.leaf_mean.push_back(delta(leaf_after, leaf_before, &perf::function_stats::total_ns) /
                            static_cast<double>(leaf_after->calls - (leaf_before == nullptr ? 0 : leaf_before->calls)));
  }
  return out;
}

template <void (*Work)(), int Callees>
void report(void (*measured_parent)(), const std::string& name) {
  const figures f = measure<Work, Callees>(measured_parent, name);
  const double truth_total = least(f.truth_total), truth_self = truth_total - Callees * least(f.plain_leaf);
  const double total = least(f.reported_total), self = least(f.reported_self);
  const double tolerance = std::max(0.05 * truth_self, 2.0 * Callees);
  std::printf("%7d  %11.1f  %14.1f  %+6.1f%%  %10.1f  %13.1f  %+6.1f%%  %9.1f  %9.1f  %s\n", Callees, truth_total,
              total, 100 * (total - truth_total) / truth_total, truth_self, self,
              100 * (self - truth_self) / truth_self, tolerance, least(f.leaf_mean),
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
    const perf::function_stats* fib_before = find(before, "fib");
    truth.push_back(plain);
    reported.push_back(find(after, "fib")->total_ns - (fib_before == nullptr ? 0.0 : fib_before->total_ns));
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

  if (std::getenv("PERF_COMPENSATE") != nullptr) return 0;
  std::printf("\nthe same with PERF_COMPENSATE=off:\n");
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    setenv("PERF_COMPENSATE", "off", 1);
    execv("/proc/self/exe", argv);
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
