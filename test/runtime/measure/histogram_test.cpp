// The log-linear histogram: bucket arithmetic and the accuracy of its quantiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "measure/stats.hpp"
#include "perf/detail/histogram_index.hpp"

namespace perf::runtime {
namespace {

using detail::bucket_index;
using detail::bucket_lower_bound;
using detail::bucket_width;

TEST(BucketIndex, SmallValuesHaveABucketEach) {
  for (uint64_t v = 0; v < 128; ++v) {
    EXPECT_EQ(bucket_index(v), v);
    EXPECT_EQ(bucket_lower_bound(static_cast<unsigned>(v)), v);
    EXPECT_EQ(bucket_width(static_cast<unsigned>(v)), 1u);
  }
}

TEST(BucketIndex, EveryValueLiesInItsBucketAndBucketsAreNarrow) {
  std::mt19937_64 random(42);
  std::vector<uint64_t> values = {128, 129, 255, 256, 1000, 1u << 20, UINT64_MAX, UINT64_MAX / 3};
  for (int i = 0; i < 100000; ++i) values.push_back(random() >> (random() % 64));
  for (const uint64_t v : values) {
    const unsigned b = bucket_index(v);
    ASSERT_LT(b, detail::histogram_buckets) << v;
    const uint64_t lower = bucket_lower_bound(b);
    ASSERT_LE(lower, v);
    ASSERT_LE(v - lower, bucket_width(b) - 1) << v;
    // A bucket is at most 1/64 of its lower bound wide.
    ASSERT_LE(bucket_width(b) * 64, std::max<uint64_t>(lower, 64)) << v;
  }
  EXPECT_EQ(bucket_index(UINT64_MAX), detail::histogram_buckets - 1);
}

TEST(BucketIndex, BucketsAreContiguousAndOrdered) {
  for (unsigned b = 1; b < detail::histogram_buckets; ++b)
    ASSERT_EQ(bucket_lower_bound(b), bucket_lower_bound(b - 1) + bucket_width(b - 1)) << b;
}

double exact_quantile(std::vector<uint64_t> sorted, double q) {
  const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return static_cast<double>(sorted[std::max<size_t>(rank, 1) - 1]);
}

TEST(Histogram, QuantilesAreWithinOnePercent) {
  std::mt19937_64 random(7);
  std::lognormal_distribution<double> latency(8.0, 1.5);  // a heavy tail around 3000 ticks
  std::vector<uint64_t> values;
  histogram h;
  for (int i = 0; i < 200000; ++i) {
    const auto v = static_cast<uint64_t>(latency(random));
    values.push_back(v);
    h.add(bucket_index(v), 1);
  }
  std::sort(values.begin(), values.end());
  for (const double q : {0.5, 0.9, 0.99, 0.999}) {
    const double exact = exact_quantile(values, q);
    EXPECT_NEAR(h.quantile(q), exact, exact * 0.01) << "q=" << q;
  }
  EXPECT_EQ(h.count(), 200000u);
}

TEST(Histogram, MergingEqualsAddingEverythingToOne) {
  histogram a, b, both;
  for (uint64_t v = 1; v < 100000; v += 7) {
    (v % 2 ? a : b).add(bucket_index(v), 1);
    both.add(bucket_index(v), 1);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), both.count());
  for (const double q : {0.0, 0.25, 0.5, 0.75, 0.99, 1.0}) EXPECT_EQ(a.quantile(q), both.quantile(q)) << q;
}

TEST(Histogram, EmptyHistogramHasNoQuantile) { EXPECT_EQ(histogram().quantile(0.5), 0.0); }

// A histogram keeps its nonzero buckets in order, each once, whatever the order and
// the overlap of what is added: single buckets, blocks of a thread's arena through a
// tally (several threads' at once), other histograms.
TEST(Histogram, KeepsEveryBucketOnceInOrderWhateverIsAdded) {
  std::mt19937_64 random(11);
  std::vector<uint64_t> truth(detail::histogram_buckets);
  histogram h;
  bucket_tally tally;
  for (int round = 0; round < 200; ++round) {
    switch (random() % 3) {
      case 0: {  // one bucket
        const auto bucket = static_cast<unsigned>(random() % detail::histogram_buckets);
        const uint64_t n = 1 + random() % 5;
        h.add(bucket, n);
        truth[bucket] += n;
        break;
      }
      case 1: {  // blocks of two "threads", then handed over
        for (int thread = 0; thread < 2; ++thread) {
          const auto block = static_cast<unsigned>(random() % detail::histogram_blocks);
          std::vector<uint64_t> counters(detail::histogram_block_size);
          for (unsigned j = 0; j < counters.size(); ++j)
            if (random() % 4 == 0) counters[j] = random() % 3;
          tally.add_block(block, counters.data());
          for (unsigned j = 0; j < counters.size(); ++j) truth[block * detail::histogram_block_size + j] += counters[j];
        }
        tally.move_to(h);
        break;
      }
      case 2: {  // another histogram
        histogram other;
        for (int i = 0; i < 20; ++i) {
          const auto bucket = static_cast<unsigned>(random() % detail::histogram_buckets);
          other.add(bucket, 1);
          truth[bucket] += 1;
        }
        h.merge(other);
        break;
      }
    }
  }
  bucket_counts expected;
  uint64_t count = 0;
  for (unsigned b = 0; b < truth.size(); ++b)
    if (truth[b] != 0) expected.emplace_back(b, truth[b]), count += truth[b];
  EXPECT_EQ(h.nonzero_buckets(), expected);
  EXPECT_EQ(h.count(), count);
}

}  // namespace
}  // namespace perf::runtime
