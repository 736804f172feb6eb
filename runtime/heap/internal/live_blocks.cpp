#include "heap/internal/live_blocks.hpp"

#include <sys/mman.h>

#include "perf/detail/alloc_counters.hpp"

namespace perf::runtime::heap_internal {

using alloc::detail::load_relaxed;
using alloc::detail::sampled_filter;
using alloc::detail::sampled_filter_bit;
using alloc::detail::store_relaxed;

static_assert(live_blocks::slots == size_t{1} << alloc::detail::sampled_filter_bits_log2,
              "a block's home slot is its filter bit");

namespace {

size_t home(uintptr_t address) noexcept { return sampled_filter_bit(reinterpret_cast<const void*>(address)); }

}  // namespace

bool live_blocks::make() noexcept {
  const size_t bytes = slots * (sizeof(uintptr_t) + sizeof(block) + sizeof(uint16_t));
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return false;
  keys_ = static_cast<uintptr_t*>(memory);
  values_ = reinterpret_cast<block*>(keys_ + slots);
  home_counts_ = reinterpret_cast<uint16_t*>(values_ + slots);
  return true;
}

size_t live_blocks::find(uintptr_t address) const noexcept {
  if (keys_ == nullptr) return not_found;
  const size_t start = home(address);
  const unsigned longest = __atomic_load_n(&longest_probe_, __ATOMIC_RELAXED);
  for (unsigned i = 0; i <= longest; ++i) {
    const size_t slot = (start + i) & (slots - 1);
    const uintptr_t key = load_relaxed(keys_[slot]);
    if (key == address) return slot;
    if (key == empty) return not_found;
  }
  return not_found;
}

bool live_blocks::insert(uintptr_t address, block value) noexcept {
  if (keys_ == nullptr) return false;
  if (size_ == capacity) return false;
  const size_t start = home(address);
  for (unsigned i = 0; i < probe_limit; ++i) {
    const size_t slot = (start + i) & (slots - 1);
    const uintptr_t key = keys_[slot];
    if (key != empty && key != tombstone) continue;
    if (i > longest_probe_) __atomic_store_n(&longest_probe_, i, __ATOMIC_RELAXED);
    values_[slot] = value;
    store_relaxed(keys_[slot], address);
    if (home_counts_[start]++ == 0) {
      uint64_t& word = sampled_filter[start >> 6];
      store_relaxed(word, load_relaxed(word) | uint64_t{1} << (start & 63));
    }
    ++size_;
    return true;
  }
  return false;
}

live_blocks::block live_blocks::remove(size_t slot) noexcept {
  const size_t start = home(keys_[slot]);
  store_relaxed(keys_[slot], tombstone);
  if (--home_counts_[start] == 0) {
    uint64_t& word = sampled_filter[start >> 6];
    store_relaxed(word, load_relaxed(word) & ~(uint64_t{1} << (start & 63)));
  }
  --size_;
  return values_[slot];
}

}  // namespace perf::runtime::heap_internal
