// The heap sampler's live set: the addresses of the sampled blocks not freed yet,
// each with its requested size and its site. Internal to heap/.
//
// An open-addressing table of 2^16 slots in memory of its own (mapped once, when
// sampling starts): find() reads it without a lock, with relaxed atomic loads, and is
// what a free that passed detail::maybe_sampled() runs; insert() and remove() run
// under the heap sampler's lock and keep detail::sampled_filter's bits (a bit is set
// while some live block hashes to it). A removed block leaves a tombstone that a later
// insertion reuses, so a concurrent find() never misses a block that lies further on;
// no slot lies more than `probe_limit` slots from its block's home, so every probe
// ends. Beyond `capacity` blocks (or a neighbourhood full), insert() refuses; the
// sampler then thins the set (for_each_live, remove) and tries again.
#ifndef PERF_RUNTIME_HEAP_INTERNAL_LIVE_BLOCKS_HPP
#define PERF_RUNTIME_HEAP_INTERNAL_LIVE_BLOCKS_HPP

#include <cstddef>
#include <cstdint>

namespace perf::runtime::heap_internal {

class live_blocks {
 public:
  static constexpr size_t slots = size_t{1} << 16;
  static constexpr size_t capacity = slots / 2;  // blocks tracked at once
  static constexpr unsigned probe_limit = 64;
  static constexpr size_t not_found = ~size_t{0};

  struct block {
    uint64_t requested;  // the size the code asked for
    uint32_t site;       // index in the site table
    uint32_t thinned;    // the set's thinnings it stands for: it weighs 2^thinned sampled blocks
  };

  // Maps the table; false when the memory cannot be had (then nothing is tracked).
  bool make() noexcept;

  // The slot of `address`, or not_found. Lock-free; any thread.
  size_t find(uintptr_t address) const noexcept;
  // Adds `address`, which is not in the set (the caller removes a stale entry of it
  // first); false when the table is full. Under the lock.
  bool insert(uintptr_t address, block value) noexcept;
  // Removes the block in `slot` (from find()) and returns it. Under the lock.
  block remove(size_t slot) noexcept;
  // Calls visit(slot, block&) for every block in the set; `visit` may remove it
  // (remove(slot)) or change its value. Under the lock.
  template <class Visit>
  void for_each_live(Visit visit) noexcept {
    if (keys_ == nullptr) return;
    for (size_t slot = 0; slot < slots; ++slot)
      if (keys_[slot] != empty && keys_[slot] != tombstone) visit(slot, values_[slot]);
  }

  size_t size() const noexcept { return size_; }

 private:
  static constexpr uintptr_t empty = 0;
  static constexpr uintptr_t tombstone = 1;
  uintptr_t* keys_ = nullptr;
  block* values_ = nullptr;
  uint16_t* home_counts_ = nullptr;  // live blocks per home slot (= per filter bit)
  unsigned longest_probe_ = 0;       // the farthest any block lies from its home
  size_t size_ = 0;
};

}  // namespace perf::runtime::heap_internal

#endif  // PERF_RUNTIME_HEAP_INTERNAL_LIVE_BLOCKS_HPP
