#include "measure/stats.hpp"

#include <algorithm>
#include <cmath>

#include "perf/detail/atomic.hpp"

namespace perf::runtime {

using detail::load_relaxed;

moments moments::from_shifted(uint64_t count, uint64_t reference, int64_t sum_deviation,
                              double sum_squared_deviation) {
  if (count == 0) return {};
  const double n = static_cast<double>(count);
  const double mean_deviation = static_cast<double>(sum_deviation) / n;
  const double m2 = sum_squared_deviation - static_cast<double>(sum_deviation) * mean_deviation;
  return {count, static_cast<double>(reference) + mean_deviation, std::max(m2, 0.0)};
}

void moments::merge(const moments& other) {
  if (other.count == 0) return;
  if (count == 0) {
    *this = other;
    return;
  }
  const double n_a = static_cast<double>(count), n_b = static_cast<double>(other.count);
  const double n = n_a + n_b;
  const double delta = other.mean - mean;
  mean += delta * n_b / n;
  m2 += other.m2 + delta * delta * n_a * n_b / n;
  count += other.count;
}

double moments::variance() const { return count < 2 ? 0.0 : m2 / static_cast<double>(count); }

void histogram::add(unsigned bucket, uint64_t n) {
  if (n == 0) return;
  auto& b = blocks_[bucket / detail::histogram_block_size];
  if (!b) b = std::make_unique<block>();
  (*b)[bucket % detail::histogram_block_size] += n;
  count_ += n;
}

void histogram::add_block(unsigned block_index, const uint64_t* counters) {
  auto& b = blocks_[block_index];
  if (!b) b = std::make_unique<block>();
  uint64_t added = 0;
  for (unsigned j = 0; j < detail::histogram_block_size; ++j) {
    const uint64_t n = load_relaxed(counters[j]);
    (*b)[j] += n;
    added += n;
  }
  count_ += added;
}

void histogram::merge(const histogram& other) {
  for (unsigned i = 0; i < detail::histogram_blocks; ++i) {
    if (!other.blocks_[i]) continue;
    for (unsigned j = 0; j < detail::histogram_block_size; ++j)
      add(i * detail::histogram_block_size + j, (*other.blocks_[i])[j]);
  }
}

std::vector<std::pair<unsigned, uint64_t>> histogram::nonzero_buckets() const {
  std::vector<std::pair<unsigned, uint64_t>> buckets;
  for (unsigned i = 0; i < detail::histogram_blocks; ++i) {
    if (!blocks_[i]) continue;
    for (unsigned j = 0; j < detail::histogram_block_size; ++j)
      if ((*blocks_[i])[j] != 0) buckets.emplace_back(i * detail::histogram_block_size + j, (*blocks_[i])[j]);
  }
  return buckets;
}

namespace {

// Exact buckets hold one value; wider ones are represented by their midpoint.
double representative(unsigned bucket) {
  const uint64_t width = detail::bucket_width(bucket);
  return static_cast<double>(detail::bucket_lower_bound(bucket)) + (width == 1 ? 0.0 : static_cast<double>(width) / 2);
}

}  // namespace

double histogram::quantile(double q) const {
  if (count_ == 0) return 0;
  const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_))));
  uint64_t seen = 0;
  for (unsigned i = 0; i < detail::histogram_blocks; ++i) {
    if (!blocks_[i]) continue;
    for (unsigned j = 0; j < detail::histogram_block_size; ++j) {
      seen += (*blocks_[i])[j];
      if (seen >= rank) return representative(i * detail::histogram_block_size + j);
    }
  }
  return 0;
}

std::vector<uint64_t> histogram::cumulative_counts(const std::vector<double>& bounds) const {
  std::vector<uint64_t> below(bounds.size(), 0);
  for (unsigned i = 0; i < detail::histogram_blocks; ++i) {
    if (!blocks_[i]) continue;
    for (unsigned j = 0; j < detail::histogram_block_size; ++j) {
      const uint64_t n = (*blocks_[i])[j];
      if (n == 0) continue;
      const double value = representative(i * detail::histogram_block_size + j);
      for (size_t b = 0; b < bounds.size(); ++b)
        if (value <= bounds[b]) below[b] += n;
    }
  }
  return below;
}

void accumulator::add(const detail::slot& s, const uint64_t* arena) {
  const uint64_t n = load_relaxed(s.calls);
  if (n == 0) return;
  calls += n;
  total += load_relaxed(s.total);
  self += load_relaxed(s.self);
  min = std::min(min, load_relaxed(s.min));
  max = std::max(max, load_relaxed(s.max));
  alloc_count += load_relaxed(s.alloc_count);
  alloc_bytes += load_relaxed(s.alloc_bytes);
  distribution.merge(moments::from_shifted(n, load_relaxed(s.reference), load_relaxed(s.sum_deviation),
                                           load_relaxed(s.sum_squared_deviation)));
  for (unsigned b = 0; b < detail::histogram_blocks; ++b) {
    const uint32_t handle = load_relaxed(s.blocks[b]);
    if (handle == 0) continue;
    durations.add_block(b, arena + uint64_t{handle} * detail::histogram_block_size);
  }
}

void accumulator::merge(const accumulator& other) {
  if (other.calls == 0) return;
  calls += other.calls;
  total += other.total;
  self += other.self;
  min = std::min(min, other.min);
  max = std::max(max, other.max);
  alloc_count += other.alloc_count;
  alloc_bytes += other.alloc_bytes;
  distribution.merge(other.distribution);
  durations.merge(other.durations);
}

void add_pending_durations(const detail::thread_state& thread, std::vector<accumulator>& per_site) {
  const uint32_t pending = __atomic_load_n(&thread.pending_count, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < pending && i < detail::pending_capacity; ++i) {
    const uint64_t entry = load_relaxed(thread.pending[i]);
    const uint64_t site = entry >> detail::pending_duration_bits;
    if (site < per_site.size())
      per_site[site].durations.add(detail::bucket_index(entry & detail::pending_duration_mask), 1);
  }
}

}  // namespace perf::runtime
