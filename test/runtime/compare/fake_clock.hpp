// A clock for comparisons whose time moves only when told: each read advances it by
// one nanosecond (so the resolution is 1 ns), and callables advance it by their cost.
#ifndef PERF_TEST_RUNTIME_COMPARE_FAKE_CLOCK_HPP
#define PERF_TEST_RUNTIME_COMPARE_FAKE_CLOCK_HPP

#include <cstdint>
#include <vector>

#include "perf/compare.hpp"

namespace perf::testing {

struct fake_clock {
  std::uint64_t now = 0;

  // Options for batches of one call (a batch lasts one resolution) and no warm-up, so
  // that every call after the first (calibration) is one round's batch.
  comparison_options options() {
    comparison_options options;
    options.clock = [this] { return ++now; };
    options.batch_resolutions = 1;
    options.warmup_rounds = 0;
    return options;
  }

  // A callable that costs costs[i] on its i-th call (cycling): a batch of it lasts
  // costs[i] + 1 ns, the read that ends the batch included.
  auto scripted(std::vector<std::uint64_t> costs) {
    return [this, costs, call = std::size_t{0}]() mutable { now += costs[call++ % costs.size()]; };
  }
  auto constant(std::uint64_t cost) {
    return [this, cost] { now += cost; };
  }
};

}  // namespace perf::testing

#endif  // PERF_TEST_RUNTIME_COMPARE_FAKE_CLOCK_HPP
