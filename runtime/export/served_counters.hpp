// What /metrics serves of a counter that can dip: Prometheus reads any decrease of a
// counter as a restart of the program, and rate() then counts the whole value again.
// A function's self time is such a counter: a sum of signed compensated parts
// (measure/stats.hpp), it goes down a little where a thin wrapper's measured callees
// come out longer than its calls.
#ifndef PERF_RUNTIME_EXPORT_SERVED_COUNTERS_HPP
#define PERF_RUNTIME_EXPORT_SERVED_COUNTERS_HPP

#include <algorithm>
#include <cstddef>
#include <vector>

namespace perf::runtime {

// The values served per row, each held at its highest so far. Not thread-safe: the
// caller serializes scrapes.
class served_counters {
 public:
  // `value` for `row`, or the highest value served for it before if that is higher.
  double serve(size_t row, double value) {
    if (highest_.size() <= row) highest_.resize(row + 1, 0.0);
    return highest_[row] = std::max(highest_[row], value);
  }

 private:
  std::vector<double> highest_;
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_SERVED_COUNTERS_HPP
