#include "histogram.hpp"

#include <algorithm>
#include <cmath>

#include "perf/detail/histogram_index.hpp"
#include "report_format/schema.hpp"

namespace perf::perf_report {

uint64_t histogram::count() const {
  uint64_t n = 0;
  for (const auto& [bucket, count] : buckets) n += count;
  return n;
}

double histogram::lower_ns(unsigned bucket) const {
  return static_cast<double>(detail::bucket_lower_bound(bucket)) / ghz;
}

double histogram::upper_ns(unsigned bucket) const {
  return static_cast<double>(detail::bucket_lower_bound(bucket) + detail::bucket_width(bucket)) / ghz;
}

unsigned histogram::bucket_of_ns(double ns) const {
  const double ticks = ns * ghz;
  if (!(ticks > 0)) return 0;
  constexpr double beyond = 18446744073709551616.0;  // 2^64: no uint64_t holds it
  return detail::bucket_index(ticks >= beyond ? UINT64_MAX : static_cast<uint64_t>(ticks));
}

unsigned histogram::bucket_at_rank(uint64_t rank) const {
  uint64_t seen = 0;
  for (const auto& [bucket, count] : buckets) {
    seen += count;
    if (seen >= rank) return bucket;
  }
  return buckets.empty() ? 0 : buckets.back().first;
}

double histogram::quantile_ns(double q) const {
  const uint64_t n = count();
  if (n == 0) return 0;
  const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(n))));
  const unsigned bucket = bucket_at_rank(rank);
  const uint64_t width = detail::bucket_width(bucket);
  return (static_cast<double>(detail::bucket_lower_bound(bucket)) +
          (width == 1 ? 0.0 : static_cast<double>(width) / 2)) /
         ghz;
}

double histogram::interpolated_quantile_ns(double q, double least_width_ns) const {
  const double rank = q * static_cast<double>(count());
  double seen = 0;
  for (const auto& [bucket, in_bucket] : buckets) {
    const double here = static_cast<double>(in_bucket);
    if (seen + here >= rank) {
      const double place = here == 0 ? 0.5 : std::clamp((rank - seen) / here, 0.0, 1.0);
      const double width = std::max(static_cast<double>(detail::bucket_width(bucket)) / ghz, least_width_ns);
      const double middle = (static_cast<double>(detail::bucket_lower_bound(bucket)) +
                             static_cast<double>(detail::bucket_width(bucket)) / 2) /
                            ghz;
      return middle + (place - 0.5) * width;
    }
    seen += here;
  }
  return buckets.empty() ? 0 : upper_ns(buckets.back().first);
}

void histogram::merge(const histogram& other) {
  const histogram& same_rate = report_format::same_clock_rate(other.ghz, ghz) ? other : other.rebinned(ghz);
  std::vector<std::pair<unsigned, uint64_t>> merged;
  merged.reserve(buckets.size() + same_rate.buckets.size());
  auto a = buckets.cbegin();
  auto b = same_rate.buckets.cbegin();
  while (a != buckets.cend() || b != same_rate.buckets.end()) {
    if (b == same_rate.buckets.end() || (a != buckets.cend() && a->first < b->first)) merged.push_back(*a++);
    else if (a == buckets.cend() || b->first < a->first) merged.push_back(*b++);
    else merged.emplace_back(a->first, a->second + b->second), ++a, ++b;
  }
  buckets = std::move(merged);
}

histogram histogram::rebinned(double target_ghz) const {
  histogram out;
  out.ghz = target_ghz;
  for (const auto& [bucket, count] : buckets) {
    const double midpoint_ns = (lower_ns(bucket) + upper_ns(bucket)) / 2;
    out.buckets.emplace_back(out.bucket_of_ns(midpoint_ns), count);
  }
  out.normalize();
  return out;
}

void histogram::normalize() {
  if (std::is_sorted(buckets.begin(), buckets.end(), [](const auto& x, const auto& y) { return x.first < y.first; }) &&
      std::adjacent_find(buckets.begin(), buckets.end(),
                         [](const auto& x, const auto& y) { return x.first == y.first; }) == buckets.end())
    return;
  std::sort(buckets.begin(), buckets.end());
  std::vector<std::pair<unsigned, uint64_t>> combined;
  for (const auto& [bucket, count] : buckets) {
    if (!combined.empty() && combined.back().first == bucket) combined.back().second += count;
    else combined.emplace_back(bucket, count);
  }
  buckets = std::move(combined);
}

}  // namespace perf::perf_report
