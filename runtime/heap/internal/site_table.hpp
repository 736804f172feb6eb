// The heap sampler's sites: one record per distinct sampled stack, with what its
// samples estimate. Internal to heap/.
//
// Records and their index live in memory of their own (mapped once, when sampling
// starts), so that the sampled path allocates nothing. Every member function runs
// under the heap sampler's lock. Beyond `capacity` stacks, find_or_add() refuses.
#ifndef PERF_RUNTIME_HEAP_INTERNAL_SITE_TABLE_HPP
#define PERF_RUNTIME_HEAP_INTERNAL_SITE_TABLE_HPP

#include <cstddef>
#include <cstdint>

namespace perf::runtime::heap_internal {

// Return addresses kept per stack, from the sampler's frame walk (the allocation
// functions' own frames and the heap sampler's included).
constexpr unsigned site_frames = 64;

struct site_record {
  uint64_t hash;
  uint32_t depth;
  bool truncated;  // the stack was deeper than `frames`
  uint64_t samples;
  uint64_t live_samples;
  double allocated_objects;
  double allocated_bytes;
  double live_objects;
  double live_bytes;
  uintptr_t frames[site_frames];
};

class site_table {
 public:
  static constexpr uint32_t capacity = 4096;
  static constexpr uint32_t none = ~uint32_t{0};

  // Maps the records; false when the memory cannot be had (then every find_or_add refuses).
  bool make() noexcept;

  // The index of the site of `frames` (its first `depth`), added if new; `none` when
  // the table is full.
  uint32_t find_or_add(const uintptr_t* frames, uint32_t depth, bool truncated) noexcept;

  site_record& operator[](uint32_t index) noexcept { return records_[index]; }
  const site_record* records() const noexcept { return records_; }
  uint32_t size() const noexcept { return size_; }

 private:
  static constexpr uint32_t index_slots = capacity * 2;
  site_record* records_ = nullptr;
  uint32_t* index_ = nullptr;  // open addressing: a record's index + 1, 0 empty
  uint32_t size_ = 0;
};

}  // namespace perf::runtime::heap_internal

#endif  // PERF_RUNTIME_HEAP_INTERNAL_SITE_TABLE_HPP
