// A leaf called in a loop, each call taking the last one's result, timed as a whole
// and as the report saw it: what the adaptive-timing benches compare.
#ifndef PERF_BENCH_ADAPTIVE_LEAF_LOOPS_HPP
#define PERF_BENCH_ADAPTIVE_LEAF_LOOPS_HPP

#include <chrono>
#include <cstdint>
#include <string>

#include "compensation_shapes.hpp"
#include "perf/perf.hpp"

namespace bench {

inline uint64_t leaf_loop_result = 1;  // the last loop's, so that no loop is left out

inline double ns_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

// `calls` calls of Leaf, each taking the last one's result: ns per call.
template <uint64_t (*Leaf)(uint64_t)>
double loop_ns_per_call(uint64_t calls) {
  uint64_t x = leaf_loop_result;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < calls; ++i) x = Leaf(x);
  const double ns = ns_since(start);
  leaf_loop_result = x;
  return ns / static_cast<double>(calls);
}

// What one measured loop's calls reported, from snapshots around it.
struct reported_loop {
  double loop_ns_per_call = 0;
  uint64_t calls = 0;
  double mean_ns = 0;
};

// A loop of `calls` calls of Measured, whose row the report names `name`.
template <uint64_t (*Measured)(uint64_t)>
reported_loop measured_loop(uint64_t calls, const std::string& name) {
  const perf::snapshot before = perf::take_snapshot();
  reported_loop out;
  out.loop_ns_per_call = loop_ns_per_call<Measured>(calls);
  const perf::snapshot after = perf::take_snapshot();
  out.calls = calls_growth(before, after, name);
  out.mean_ns = growth(before, after, name, &perf::function_stats::total_ns) / static_cast<double>(out.calls);
  return out;
}

}  // namespace bench

#endif  // PERF_BENCH_ADAPTIVE_LEAF_LOOPS_HPP
