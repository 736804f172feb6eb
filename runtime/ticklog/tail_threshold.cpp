#include "ticklog/tail_threshold.hpp"

#include <cmath>

#include "perf/detail/histogram_index.hpp"

namespace perf::runtime {
namespace {

// ceil(x) for an x that is a whole number but for the rounding of a product of
// decimal fractions (0.999 * 10000 is 9990.000000000002).
uint64_t ceil_of_decimal(double x) { return static_cast<uint64_t>(std::ceil(x - x * 1e-9)); }

}  // namespace

uint64_t calls_needed(double quantile) { return ceil_of_decimal(10 / (1 - quantile)); }

// The bucket holding the call of rank ceil(Q * count), searched down from the
// highest: the calls above it are few.
std::optional<uint64_t> tail_limit(const bucket_counts& buckets, double quantile) {
  uint64_t count = 0;
  for (const auto& [bucket, calls] : buckets) count += calls;
  if (count < calls_needed(quantile)) return std::nullopt;  // (10 or more: never an empty histogram)
  const uint64_t rank = ceil_of_decimal(quantile * static_cast<double>(count));
  uint64_t beyond = 0;  // the calls in the buckets above the one looked at
  auto holding = buckets.rbegin();
  for (; holding + 1 != buckets.rend() && beyond + holding->second <= count - rank; ++holding)
    beyond += holding->second;
  return detail::bucket_lower_bound(holding->first) + detail::bucket_width(holding->first) - 1;
}

}  // namespace perf::runtime
