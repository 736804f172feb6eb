// The order in which a comparison's callables run in each round.
#ifndef PERF_RUNTIME_COMPARE_ROUND_ORDER_HPP
#define PERF_RUNTIME_COMPARE_ROUND_ORDER_HPP

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "perf/compare.hpp"

namespace perf::compare_impl {

// Williams' design for `count` treatments: a Latin square (every treatment once in
// every row and every position) in which every treatment is immediately followed by
// every other one equally often: once in the `count` rows for an even count, twice in
// the 2 × count rows for an odd one.
std::vector<std::vector<std::size_t>> williams_design(std::size_t count);

// Rounds' orders, one after the other.
class round_sequence {
 public:
  round_sequence(std::size_t count, round_order order, std::uint64_t seed);

  const std::vector<std::size_t>& next();
  // Rounds in one whole design (williams) or the number of callables (random): run()
  // looks at its intervals only after whole cycles.
  std::size_t cycle() const { return cycle_; }

 private:
  round_order order_;
  std::vector<std::vector<std::size_t>> design_;  // williams: the rows, random: one row
  std::size_t cycle_;
  std::size_t round_ = 0;
  std::mt19937_64 random_;
};

}  // namespace perf::compare_impl

#endif  // PERF_RUNTIME_COMPARE_ROUND_ORDER_HPP
