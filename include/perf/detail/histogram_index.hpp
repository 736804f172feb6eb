// Log-linear histogram bucketing shared by the hot path and the runtime's merge code.
// Not part of the public API.
//
// Values below 128 get a bucket each. Above, every power of two is split into 64
// equal buckets, so a bucket is at most 1/64 of its lower bound wide and its
// midpoint is within 1/128 (0.78%) of any value in it. 3776 buckets span the whole
// uint64_t range; they are grouped in blocks of 64 that are allocated on first use.
#ifndef PERF_DETAIL_HISTOGRAM_INDEX_HPP
#define PERF_DETAIL_HISTOGRAM_INDEX_HPP

#include <stdint.h>

namespace perf {
namespace detail {

constexpr unsigned histogram_sub_bits = 6;
constexpr unsigned histogram_block_size = 1u << histogram_sub_bits;  // buckets per block
constexpr unsigned histogram_buckets = 3776;                         // bucket_index(UINT64_MAX) + 1
constexpr unsigned histogram_blocks = histogram_buckets / histogram_block_size;

// The bucket holding `value`: (s << 6) + (value >> s), with s = max(0, msb(value) - 6).
inline unsigned bucket_index(uint64_t value) noexcept {
  const unsigned msb = 63u - static_cast<unsigned>(__builtin_clzll(value | 127u));
  const unsigned shift = msb - histogram_sub_bits;
  return (shift << histogram_sub_bits) + static_cast<unsigned>(value >> shift);
}

// Smallest value that falls in bucket `index`.
inline uint64_t bucket_lower_bound(unsigned index) noexcept {
  if (index < 2 * histogram_block_size) return index;
  const unsigned shift = (index >> histogram_sub_bits) - 1;
  return static_cast<uint64_t>(index - (shift << histogram_sub_bits)) << shift;
}

// Number of distinct values in bucket `index`.
inline uint64_t bucket_width(unsigned index) noexcept {
  if (index < 2 * histogram_block_size) return 1;
  return uint64_t{1} << ((index >> histogram_sub_bits) - 1);
}

}  // namespace detail
}  // namespace perf

#endif  // PERF_DETAIL_HISTOGRAM_INDEX_HPP
