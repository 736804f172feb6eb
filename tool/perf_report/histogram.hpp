// The runtime's log-linear duration histogram (perf/detail/histogram_index.hpp) as
// the JSON report carries it: nonzero buckets of clock ticks.
#ifndef PERF_REPORT_TOOL_HISTOGRAM_HPP
#define PERF_REPORT_TOOL_HISTOGRAM_HPP

#include <cstdint>
#include <utility>
#include <vector>

namespace perf::perf_report {

struct histogram {
  double ghz = 1;                                      // clock ticks per nanosecond of the bucket bounds
  std::vector<std::pair<unsigned, uint64_t>> buckets;  // (bucket index, count), ascending, nonzero only

  uint64_t count() const;
  // Bucket bounds in nanoseconds: [lower, upper).
  double lower_ns(unsigned bucket) const;
  double upper_ns(unsigned bucket) const;
  // The bucket holding a duration of `ns` (negative: the first; past the last: the last).
  unsigned bucket_of_ns(double ns) const;
  // The bucket holding the value of rank `rank` (1-based, at most count()).
  unsigned bucket_at_rank(uint64_t rank) const;
  // The runtime's quantile: the midpoint of the bucket of rank ceil(q * count), in ns.
  double quantile_ns(double q) const;
  // The quantile with the bucket's values taken as spread evenly across it: rank
  // q * count's place within its bucket, in ns. Finer than a bucket (a 64th of the
  // value), so that medians of several processes seldom tie (perf-report ab's samples).
  // A bucket is taken as at least `least_width_ns` wide about its midpoint: a clock
  // that steps by 10 ns puts every call on a step, so a change of a fraction of a step
  // moves calls between steps, which this sees and the bucket's own width would not.
  double interpolated_quantile_ns(double q, double least_width_ns = 0) const;
  // Adds `other`: bucket by bucket when both count at the same rate (within the
  // calibration's precision: report_format::same_clock_rate), else each of other's
  // buckets at its midpoint in ns converted to this rate.
  void merge(const histogram& other);
  // The same counts in buckets of `target_ghz` (each at its midpoint).
  histogram rebinned(double target_ghz) const;
  // Sorts `buckets` and adds up repeated ones (after filling them in any order).
  void normalize();
};

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_HISTOGRAM_HPP
