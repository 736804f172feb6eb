// The shapes of the compensation bench (a measured parent that does a fixed amount of
// work, then calls N measured leaves, against the same code unmeasured) and the way it
// reads the report's figures, shared by compensation_bench.cpp and bench/adaptive/.
//
// Each figure is taken per round, the plain and the measured code in the same round,
// and its median over the rounds is kept. Not the least: where the leaf is sampled
// (adaptive timing), each round's reported self time carries the error of the
// estimate its untimed calls credited meanwhile, and the least over the rounds picks
// the round whose estimate came out highest (with 100 sampled callees, a self time
// 76% short where the median was 8% short: docs/performance.md, "Adaptive timing").
// Single-threaded: the figures are read from snapshots taken around the measured calls
// on the calling thread.
#ifndef PERF_BENCH_COMPENSATION_SHAPES_HPP
#define PERF_BENCH_COMPENSATION_SHAPES_HPP

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "perf/perf.hpp"

namespace bench {

inline uint64_t work_input[2048];  // 16 KiB: in the L1 cache
inline uint64_t work_output = 1;

// About 0.3 us of independent loads and adds on a 2 GHz core.
__attribute__((noinline)) inline void throughput_bound_work() {
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
__attribute__((noinline)) inline void latency_bound_work() {
  uint64_t x = work_output;
  for (int i = 0; i < 256; ++i) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    __asm__ __volatile__("" : "+r"(x));
  }
  work_output = x;
}

template <void (*Work)(), void (*Leaf)(), int Callees>
__attribute__((always_inline)) inline void parent_body() {
  Work();
  for (int i = 0; i < Callees; ++i) Leaf();
}

// The six measured parents, measured_parent_<work>_<callees> for the two works and
// N = 1, 10, 100, each calling `leaf` and named "<work> parent of <callees><suffix>"
// (PERF_MEASURE's name is a string literal: one site per parent).
#define BENCH_MEASURED_PARENT(work, callees, leaf, suffix)              \
  __attribute__((noinline)) void measured_parent_##work##_##callees() { \
    PERF_MEASURE(#work " parent of " #callees suffix);                  \
    bench::parent_body<bench::work##_work, leaf, callees>();            \
  }
#define BENCH_MEASURED_PARENTS(leaf, suffix)                 \
  BENCH_MEASURED_PARENT(throughput_bound, 1, leaf, suffix)   \
  BENCH_MEASURED_PARENT(throughput_bound, 10, leaf, suffix)  \
  BENCH_MEASURED_PARENT(throughput_bound, 100, leaf, suffix) \
  BENCH_MEASURED_PARENT(latency_bound, 1, leaf, suffix)      \
  BENCH_MEASURED_PARENT(latency_bound, 10, leaf, suffix)     \
  BENCH_MEASURED_PARENT(latency_bound, 100, leaf, suffix)

template <void (*Work)(), void (*PlainLeaf)(), int Callees>
__attribute__((noinline)) void plain_parent() {
  parent_body<Work, PlainLeaf, Callees>();
}

template <class Call>
double ns_per_call(int calls, Call call) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) call();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / calls;
}

inline const perf::function_stats* find(const perf::snapshot& s, const std::string& name) {
  for (const perf::function_stats& f : s.functions)
    if (f.name == name) return &f;
  return nullptr;
}

// What a field of the row `name` grew by from `before` to `after` (the row may be
// missing from `before`: its first calls).
inline double growth(const perf::snapshot& before, const perf::snapshot& after, const std::string& name,
                     double perf::function_stats::*field) {
  const perf::function_stats* earlier = find(before, name);
  return find(after, name)->*field - (earlier == nullptr ? 0.0 : earlier->*field);
}
inline uint64_t calls_growth(const perf::snapshot& before, const perf::snapshot& after, const std::string& name) {
  const perf::function_stats* earlier = find(before, name);
  return find(after, name)->calls - (earlier == nullptr ? 0 : earlier->calls);
}

inline double least(const std::vector<double>& values) { return *std::min_element(values.begin(), values.end()); }

inline double median(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

// Per round (the first a warm-up), in ns per parent call: the plain parent
// (truth_total), one plain leaf call (plain_leaf), the measured parent's reported
// total and self time; and the measured leaf's reported mean.
struct parent_figures {
  std::vector<double> truth_total, plain_leaf, reported_total, reported_self, leaf_mean;

  // The medians over the rounds: the plain parent's time, and its self time (its time
  // less `callees` plain leaf calls, of the same round); the reported total and self.
  double truth_total_ns() const { return median(truth_total); }
  double truth_self_ns(int callees) const {
    std::vector<double> self(truth_total.size());
    for (size_t i = 0; i < self.size(); ++i) self[i] = truth_total[i] - callees * plain_leaf[i];
    return median(self);
  }
  double total_ns() const { return median(reported_total); }
  double self_ns() const { return median(reported_self); }
};

template <void (*Work)(), void (*PlainLeaf)(), int Callees>
parent_figures measure_parent(void (*measured_parent)(), const std::string& parent_name, const std::string& leaf_name,
                              int rounds, int calls_per_round) {
  parent_figures out;
  for (int round = 0; round <= rounds; ++round) {
    const double plain = ns_per_call(calls_per_round, plain_parent<Work, PlainLeaf, Callees>);
    const double leaf = ns_per_call(calls_per_round * Callees, PlainLeaf);
    const perf::snapshot before = perf::take_snapshot();
    for (int i = 0; i < calls_per_round; ++i) measured_parent();
    const perf::snapshot after = perf::take_snapshot();
    if (round == 0) continue;  // warm-up
    out.truth_total.push_back(plain);
    out.plain_leaf.push_back(leaf);
    out.reported_total.push_back(growth(before, after, parent_name, &perf::function_stats::total_ns) / calls_per_round);
    out.reported_self.push_back(growth(before, after, parent_name, &perf::function_stats::self_ns) / calls_per_round);
    out.leaf_mean.push_back(growth(before, after, leaf_name, &perf::function_stats::total_ns) /
                            static_cast<double>(calls_growth(before, after, leaf_name)));
  }
  return out;
}

}  // namespace bench

#endif  // PERF_BENCH_COMPENSATION_SHAPES_HPP
