// Mergeable statistics of one function: what a thread's slot holds, summed over
// threads and over the sites that share a name and a source location.
#ifndef PERF_RUNTIME_MEASURE_STATS_HPP
#define PERF_RUNTIME_MEASURE_STATS_HPP

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "perf/detail/histogram_index.hpp"
#include "perf/detail/thread_state.hpp"

namespace perf::runtime {

// Count, mean and sum of squared deviations from the mean; merged with Chan et
// al.'s pairwise formula, which keeps the precision the per-thread sums had.
struct moments {
  uint64_t count = 0;
  double mean = 0;
  double m2 = 0;

  // From shifted sums: Σ(x - reference) and Σ(x - reference)² over `count` values.
  static moments from_shifted(uint64_t count, uint64_t reference, int64_t sum_deviation,
                              double sum_squared_deviation);
  void merge(const moments& other);
  double variance() const;  // population variance; 0 for fewer than two values
};

// Log-linear histogram of durations in ticks (buckets: perf/detail/histogram_index.hpp),
// holding only the blocks of buckets that were hit.
class histogram {
 public:
  void add(unsigned bucket, uint64_t count);
  // Adds the counters of one block of buckets, as a thread's arena holds them
  // (read atomically: their thread may still be writing).
  void add_block(unsigned block, const uint64_t* counters);
  void merge(const histogram& other);
  uint64_t count() const { return count_; }
  // The nonzero buckets as (bucket, count), ascending.
  std::vector<std::pair<unsigned, uint64_t>> nonzero_buckets() const;
  // The value at quantile `q` in [0, 1]: the midpoint of the bucket holding the
  // rank ceil(q * count), within 1/128 of every value in that bucket.
  double quantile(double q) const;
  // For each of `bounds` (ascending, in ticks): how many values are at most it,
  // a bucket counting as its midpoint.
  std::vector<uint64_t> cumulative_counts(const std::vector<double>& bounds) const;

 private:
  using block = std::array<uint64_t, detail::histogram_block_size>;
  std::array<std::unique_ptr<block>, detail::histogram_blocks> blocks_;
  uint64_t count_ = 0;
};

// Everything the report shows of one function, in ticks.
struct accumulator {
  uint64_t calls = 0;
  uint64_t total = 0;
  uint64_t self = 0;
  uint64_t min = UINT64_MAX;
  uint64_t max = 0;
  uint64_t alloc_count = 0;
  uint64_t alloc_bytes = 0;
  moments distribution;
  histogram durations;

  // Adds a slot that its own thread may still be writing (fields read atomically).
  // The thread's pending durations are not in it: see add_pending_durations.
  void add(const detail::slot& s, const uint64_t* arena);
  void merge(const accumulator& other);
};

// Adds the durations that `thread` has not yet put in its histograms to the
// accumulators of their sites (indexed by site id). While the thread runs on, a
// few of them may be counted twice or not at all; all other statistics are exact.
void add_pending_durations(const detail::thread_state& thread, std::vector<accumulator>& per_site);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_STATS_HPP
