// Mergeable statistics of one function: what a thread's slot holds, summed over
// threads and over the sites that share a name and a source location.
#ifndef PERF_RUNTIME_MEASURE_STATS_HPP
#define PERF_RUNTIME_MEASURE_STATS_HPP

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <span>
#include <utility>
#include <vector>

#include "core/timed_durations.hpp"
#include "measure/adaptive_timing.hpp"
#include "perf/detail/histogram_index.hpp"
#include "perf/detail/thread_state.hpp"
#include "perf/report.hpp"

namespace perf::runtime {

// Count, mean and sum of squared deviations from the mean; merged with Chan et
// al.'s pairwise formula, which keeps the precision the per-thread sums had.
struct moments {
  uint64_t count = 0;
  double mean = 0;
  double m2 = 0;

  // From shifted sums: Σ(x - reference) and Σ(x - reference)² over `count` values.
  static moments from_shifted(uint64_t count, uint64_t reference, int64_t sum_deviation, double sum_squared_deviation);
  void merge(const moments& other);
  double variance() const;  // population variance; 0 for fewer than two values
};

// Log-linear histogram of durations in ticks (buckets: perf/detail/histogram_index.hpp),
// as its nonzero buckets in order: a snapshot builds one per function, and a function
// hits few of the 3,776 buckets, so that a snapshot of 10,000 functions neither
// allocates nor writes nor reads again the 512-byte blocks a thread's arena holds.
class histogram {
 public:
  void add(unsigned bucket, uint64_t count);
  // Adds `counts`: nonzero, buckets ascending, each once.
  void add(const bucket_counts& counts) { add_sorted(counts.data(), counts.size()); }
  void merge(const histogram& other);
  uint64_t count() const { return count_; }
  const bucket_counts& nonzero_buckets() const { return buckets_; }
  // quantiles() of this histogram's values at `q`.
  double quantile(double q) const;

 private:
  // Adds `counts` (nonzero, ascending) to buckets_.
  void add_sorted(const std::pair<unsigned, uint64_t>* counts, size_t n);

  bucket_counts buckets_;  // nonzero, ascending
  uint64_t count_ = 0;
};

// Every bucket's counter, to add many threads' blocks of buckets of one function
// into (a dense add, in memory that stays in the cache from one function to the next),
// then hand to its histogram at once. 30 KB: one per snapshot, on the heap.
class bucket_tally {
 public:
  // Adds the counters of block `block` of buckets, as a thread's arena holds them
  // (read atomically: their thread may still be writing).
  void add_block(unsigned block, const uint64_t* counters);
  // Adds what it counted to `h`, and is empty again.
  void move_to(histogram& h);

 private:
  std::array<uint64_t, detail::histogram_buckets> counts_{};
  uint64_t touched_ = 0;   // bit b: block b has counts
  bucket_counts nonzero_;  // move_to's, kept for its capacity
};

// The values at quantiles `qs` (ascending, each in [0, 1]) of the values counted in
// `buckets`, into `values` (as many): for each, the midpoint of the bucket holding
// the rank ceil(q * count), within 1/128 of every value in that bucket; 0 when
// `buckets` is empty.
void quantiles(const bucket_counts& buckets, std::span<const double> qs, std::span<double> values);

// Which of the fixed latency buckets (perf::latency_bucket_bounds_seconds) each
// histogram bucket falls in, for one clock rate: a bucket counts as its midpoint,
// which is at most that bound and above the one before.
class latency_binning {
 public:
  static constexpr unsigned bounds = std::size(latency_bucket_bounds_seconds);

  explicit latency_binning(double ticks_per_ns);
  // The fixed bucket of histogram bucket `bucket`; `bounds` when above every bound.
  unsigned operator()(unsigned bucket) const { return of_[bucket]; }
  // For each bound: how many of the values counted in `buckets` are at most it.
  std::vector<uint64_t> cumulative(const bucket_counts& buckets) const;

 private:
  std::array<uint8_t, detail::histogram_buckets> of_;
};

// The binning for this process's clock. Thread-safe.
const latency_binning& fixed_latency_binning();

// Everything the report shows of one function but its distribution's buckets, in ticks.
// Every figure but `calls` and `estimated` is of the timed calls.
struct call_totals {
  uint64_t calls = 0;  // every call, timed or not
  uint64_t timed = 0;  // the calls timed: the count of the moments and the histogram
  // The sums over every call, estimated from the timed ones where some went untimed
  // (measure/adaptive_timing.hpp), with the timed calls counted apart; the exact sums
  // where all were timed.
  estimated_sums estimated;
  // Whether a timed call had a measured callee (on any thread): else the function is
  // a leaf, whose total is its self time.
  bool had_callees = false;
  uint64_t total = 0;
  uint64_t self = 0;  // a sum of signed parts, modulo 2^64 (see detail::finish): read it with self_ticks()
  uint64_t min = UINT64_MAX;
  uint64_t max = 0;
  uint64_t alloc_count = 0;
  uint64_t alloc_bytes = 0;
  moments distribution;

  // Adds a slot's figures but its histogram; its own thread may still be writing
  // it (fields read atomically). Both return false, having added nothing, for no calls.
  bool add(const detail::slot& s);
  bool merge(const call_totals& other);
  // Adds a timed call of `duration` not yet folded into its slot (detail::drain_pending);
  // `callees`: it had measured callees.
  void add_pending(uint64_t duration, bool callees);
  // The self time, floored at zero: where a function's measured callees came out
  // longer than its calls on the whole (a thin wrapper), it has none.
  double self_ticks() const { return std::max(0.0, static_cast<double>(static_cast<int64_t>(self))); }
};

// Everything the report shows of one function, in ticks.
struct accumulator : call_totals {
  histogram durations;

  // Adds a slot that its own thread may still be writing (fields read atomically),
  // its durations into `tally` (for tally.move_to(durations) once every slot of the
  // function is added). The thread's pending calls are not in it: see
  // add_pending_durations.
  void add(const detail::slot& s, const uint64_t* arena, bucket_tally& tally);
  void merge(const accumulator& other);
};

// What /metrics shows of one function: the durations counted in the fixed latency
// buckets instead of a histogram. Bucket for bucket the same counts as
// fixed_latency_binning().cumulative() of the accumulator's histogram.
struct binned_totals : call_totals {
  // [i]: durations in fixed bucket i (not cumulative); [bounds]: above every bound.
  std::array<uint64_t, latency_binning::bounds + 1> latency{};

  // As accumulator::add.
  void add(const detail::slot& s, const uint64_t* arena, const latency_binning& binning);
  void merge(const binned_totals& other);
};

// Adds the timed calls that `thread` has not yet folded into its slots (count,
// extremes, moments, histogram) to the accumulators of their sites (indexed by site
// id), but for a site whose accumulator counts no call: read after the thread's slots,
// a duration may belong to a call whose total its slot did not show yet. While the
// thread runs on, a few of them may be counted twice or not at all; all other
// statistics are exact. A pending call that had measured callees marks its site as
// no leaf (call_totals::had_callees).
void add_pending_durations(const detail::thread_state& thread, std::vector<accumulator>& per_site);
// The same for binned totals.
void add_pending_durations(const detail::thread_state& thread, std::vector<binned_totals>& per_site,
                           const latency_binning& binning);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_STATS_HPP
