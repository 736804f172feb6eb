#include "ticklog/tail_threshold.hpp"

#include <algorithm>
#include <cmath>

#include "perf/detail/histogram_index.hpp"

namespace perf::runtime {
namespace {

// ceil(x) for an x that is a whole number but for the rounding of a product of
// decimal fractions (0.999 * 10000 is 9990.000000000002).
uint64_t ceil_of_decimal(double x) { return static_cast<uint64_t>(std::ceil(x - x * 1e-9)); }

}  // namespace

tail_threshold::tail_threshold(double quantile)
    : quantile_(quantile), needed_(calls_needed(quantile)), counts_(detail::histogram_buckets), next_search_(needed_) {}

uint64_t tail_threshold::calls_needed(double quantile) { return ceil_of_decimal(10 / (1 - quantile)); }

bool tail_threshold::add(uint64_t ticks) {
  const unsigned bucket = detail::bucket_index(ticks);
  const bool beyond = count_ >= needed_ && bucket > bucket_;
  ++counts_[bucket];
  ++count_;
  highest_ = std::max(highest_, bucket);
  if (count_ >= next_search_) find_quantile();
  return beyond;
}

// The bucket holding the call of rank ceil(Q * count), searched down from the
// highest: the calls above it are few.
void tail_threshold::find_quantile() {
  const uint64_t rank = ceil_of_decimal(quantile_ * static_cast<double>(count_));
  uint64_t beyond = 0;  // the calls in the buckets above `bucket`
  unsigned bucket = highest_;
  for (; bucket > 0 && beyond + counts_[bucket] <= count_ - rank; --bucket) beyond += counts_[bucket];
  bucket_ = bucket;
  next_search_ = count_ + std::max<uint64_t>(1, count_ / 100);
}

}  // namespace perf::runtime
