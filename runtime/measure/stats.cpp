#include "measure/stats.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/settings.hpp"
#include "measure/adaptive_timing.hpp"
#include "perf/detail/atomic.hpp"

namespace perf::runtime {

using detail::load_relaxed;

moments moments::from_shifted(uint64_t count, uint64_t reference, int64_t sum_deviation, double sum_squared_deviation) {
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

namespace {

// Calls visit(block, counters) for each block of histogram buckets that slot `s`
// holds in `arena`; its own thread may still be writing them. (A block whose bit is
// seen before its handle reads handle 0, the arena's first block, never used: zeros.)
template <class Visit>
void for_each_block(const detail::slot& s, const uint64_t* arena, Visit visit) {
  for (uint64_t blocks = load_relaxed(s.used_blocks); blocks != 0; blocks &= blocks - 1) {
    const unsigned b = static_cast<unsigned>(__builtin_ctzll(blocks));
    visit(b, arena + uint64_t{load_relaxed(s.blocks[b])} * detail::histogram_block_size);
  }
}

// Calls visit(site, duration, callees) for each timed call `thread` has not yet folded
// into its slots whose site id is below `sites`; `callees`: it had measured callees.
template <class Visit>
void for_each_pending(const detail::thread_state& thread, size_t sites, Visit visit) {
  const uint32_t pending = __atomic_load_n(&thread.pending_count, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < pending && i < detail::pending_capacity; ++i) {
    const uint64_t entry = load_relaxed(thread.pending[i]);
    const uint64_t site = entry >> detail::pending_site_shift;
    if (site < sites) visit(site, entry & detail::pending_duration_mask, (entry & detail::pending_callees_bit) != 0);
  }
}

}  // namespace

void histogram::add_sorted(const std::pair<unsigned, uint64_t>* counts, size_t n) {
  if (n == 0) return;
  for (size_t i = 0; i < n; ++i) count_ += counts[i].second;
  auto held =
      std::lower_bound(buckets_.begin(), buckets_.end(), counts[0].first,
                       [](const std::pair<unsigned, uint64_t>& b, unsigned bucket) { return b.first < bucket; });
  const size_t first_held = static_cast<size_t>(held - buckets_.begin());
  size_t fresh = 0;  // buckets not held yet
  for (size_t i = 0; i < n; ++i) {
    while (held != buckets_.end() && held->first < counts[i].first) ++held;
    if (held == buckets_.end() || held->first != counts[i].first) ++fresh;
    else held->second += counts[i].second;  // added in place; nothing else to do when none is fresh
  }
  if (fresh == 0) return;
  // Merged from the back into the grown vector: each held bucket is there already
  // with its count added, each fresh one is put in.
  size_t old_end = buckets_.size(), out = old_end + fresh;
  buckets_.resize(out);
  for (size_t i = n; i > 0 && out > old_end;) {
    const std::pair<unsigned, uint64_t>& c = counts[i - 1];
    if (old_end > first_held && buckets_[old_end - 1].first >= c.first) {
      if (buckets_[old_end - 1].first == c.first) --i;  // held: moved with its count
      buckets_[--out] = buckets_[--old_end];
    } else {
      buckets_[--out] = c;
      --i;
    }
  }
}

void histogram::add(unsigned bucket, uint64_t n) {
  if (n == 0) return;
  const std::pair<unsigned, uint64_t> one{bucket, n};
  add_sorted(&one, 1);
}

void bucket_tally::add_block(unsigned block, const uint64_t* counters) {
  uint64_t* into = counts_.data() + block * detail::histogram_block_size;
  for (unsigned j = 0; j < detail::histogram_block_size; ++j) into[j] += load_relaxed(counters[j]);
  touched_ |= uint64_t{1} << block;
}

void bucket_tally::move_to(histogram& h) {
  nonzero_.clear();
  for (; touched_ != 0; touched_ &= touched_ - 1) {  // ascending
    const unsigned block = static_cast<unsigned>(__builtin_ctzll(touched_));
    uint64_t* counts = counts_.data() + block * detail::histogram_block_size;
    for (unsigned j = 0; j < detail::histogram_block_size; ++j)
      if (counts[j] != 0) nonzero_.emplace_back(block * detail::histogram_block_size + j, std::exchange(counts[j], 0));
  }
  h.add(nonzero_);
}

void histogram::merge(const histogram& other) { add_sorted(other.buckets_.data(), other.buckets_.size()); }

namespace {

// Exact buckets hold one value; wider ones are represented by their midpoint.
double representative(unsigned bucket) {
  const uint64_t width = detail::bucket_width(bucket);
  return static_cast<double>(detail::bucket_lower_bound(bucket)) + (width == 1 ? 0.0 : static_cast<double>(width) / 2);
}

}  // namespace

double histogram::quantile(double q) const {
  double value = 0;
  quantiles(nonzero_buckets(), {&q, 1}, {&value, 1});
  return value;
}

void quantiles(const bucket_counts& buckets, std::span<const double> qs, std::span<double> values) {
  std::fill(values.begin(), values.end(), 0.0);
  uint64_t count = 0;
  for (const auto& [bucket, n] : buckets) count += n;
  if (count == 0 || qs.empty()) return;
  auto rank = [&](size_t k) {
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(qs[k] * static_cast<double>(count))));
  };
  size_t next = 0;  // the first of qs whose value is not found yet
  uint64_t next_rank = rank(0);
  uint64_t seen = 0;
  for (const auto& [bucket, n] : buckets) {
    seen += n;
    while (seen >= next_rank) {
      values[next] = representative(bucket);
      if (++next == qs.size()) return;
      next_rank = rank(next);
    }
  }
}

latency_binning::latency_binning(double ticks_per_ns) {
  std::array<double, bounds> bound_ticks;
  for (unsigned b = 0; b < bounds; ++b) bound_ticks[b] = latency_bucket_bounds_seconds[b] * 1e9 * ticks_per_ns;
  for (unsigned bucket = 0; bucket < detail::histogram_buckets; ++bucket) {
    const double value = representative(bucket);
    unsigned b = 0;
    while (b < bounds && value > bound_ticks[b]) ++b;
    of_[bucket] = static_cast<uint8_t>(b);
  }
}

std::vector<uint64_t> latency_binning::cumulative(const bucket_counts& buckets) const {
  std::vector<uint64_t> below(bounds, 0);
  for (const auto& [bucket, n] : buckets)
    for (unsigned b = of_[bucket]; b < bounds; ++b) below[b] += n;
  return below;
}

const latency_binning& fixed_latency_binning() {
  static const latency_binning* const binning = new latency_binning(current_clock_rate().ticks_per_ns);
  return *binning;
}

bool call_totals::add(const detail::slot& s) {
  const uint64_t n = load_relaxed(s.timed);
  if (n == 0) return false;  // a slot's first calls are timed
  const uint64_t untimed = load_relaxed(s.untimed);
  calls += n + untimed;
  timed += n;
  if (untimed != 0) {
    const estimated_sums e = estimate_sums(s);
    estimated.total += e.total;
    estimated.self += e.self;
    estimated.sum += e.sum;
    estimated.variance += e.variance;
    estimated.outliers += e.outliers;
    estimated.outlier_sum += e.outlier_sum;
  } else {
    estimated.total += static_cast<double>(load_relaxed(s.total));
    estimated.self += static_cast<double>(static_cast<int64_t>(load_relaxed(s.self)));
    estimated.sum += static_cast<double>(n) * static_cast<double>(load_relaxed(s.reference)) +
                     static_cast<double>(load_relaxed(s.sum_deviation));
  }
  had_callees = had_callees || load_relaxed(s.had_callees) != 0;
  total += load_relaxed(s.total);
  self += load_relaxed(s.self);
  min = std::min(min, load_relaxed(s.min));
  max = std::max(max, load_relaxed(s.max));
  alloc_count += load_relaxed(s.alloc_count);
  alloc_bytes += load_relaxed(s.alloc_bytes);
  distribution.merge(moments::from_shifted(n, load_relaxed(s.reference), load_relaxed(s.sum_deviation),
                                           load_relaxed(s.sum_squared_deviation)));
  return true;
}

void call_totals::add_pending(uint64_t duration, bool callees) {
  calls += 1;
  timed += 1;
  estimated.sum += static_cast<double>(duration);
  had_callees = had_callees || callees;
  min = std::min(min, duration);
  max = std::max(max, duration);
  distribution.merge(moments{1, static_cast<double>(duration), 0.0});
}

bool call_totals::merge(const call_totals& other) {
  if (other.calls == 0) return false;
  calls += other.calls;
  timed += other.timed;
  estimated.total += other.estimated.total;
  estimated.self += other.estimated.self;
  estimated.sum += other.estimated.sum;
  estimated.variance += other.estimated.variance;
  estimated.outliers += other.estimated.outliers;
  estimated.outlier_sum += other.estimated.outlier_sum;
  had_callees = had_callees || other.had_callees;
  total += other.total;
  self += other.self;
  min = std::min(min, other.min);
  max = std::max(max, other.max);
  alloc_count += other.alloc_count;
  alloc_bytes += other.alloc_bytes;
  distribution.merge(other.distribution);
  return true;
}

void accumulator::add(const detail::slot& s, const uint64_t* arena, bucket_tally& tally) {
  if (!call_totals::add(s)) return;
  for_each_block(s, arena, [&](unsigned block, const uint64_t* counters) { tally.add_block(block, counters); });
}

void accumulator::merge(const accumulator& other) {
  if (!call_totals::merge(other)) return;
  durations.merge(other.durations);
}

void binned_totals::add(const detail::slot& s, const uint64_t* arena, const latency_binning& binning) {
  if (!call_totals::add(s)) return;
  for_each_block(s, arena, [&](unsigned block, const uint64_t* counters) {
    for (unsigned j = 0; j < detail::histogram_block_size; ++j)
      latency[binning(block * detail::histogram_block_size + j)] += load_relaxed(counters[j]);
  });
}

void binned_totals::merge(const binned_totals& other) {
  if (!call_totals::merge(other)) return;
  for (size_t b = 0; b < latency.size(); ++b) latency[b] += other.latency[b];
}

void add_pending_durations(const detail::thread_state& thread, std::vector<accumulator>& per_site) {
  for_each_pending(thread, per_site.size(), [&](uint64_t site, uint64_t duration, bool callees) {
    if (per_site[site].calls == 0) return;
    per_site[site].add_pending(duration, callees);
    per_site[site].durations.add(detail::bucket_index(duration), 1);
  });
}

void add_pending_durations(const detail::thread_state& thread, std::vector<binned_totals>& per_site,
                           const latency_binning& binning) {
  for_each_pending(thread, per_site.size(), [&](uint64_t site, uint64_t duration, bool callees) {
    if (per_site[site].calls == 0) return;
    per_site[site].add_pending(duration, callees);
    ++per_site[site].latency[binning(detail::bucket_index(duration))];
  });
}

}  // namespace perf::runtime
