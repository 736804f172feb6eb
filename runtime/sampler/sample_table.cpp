#include "sampler/sample_table.hpp"

#include <sys/mman.h>

#include <new>

namespace perf::runtime {
namespace {

// Slots looked at from a stack's hash before it counts as dropped.
constexpr size_t probe_limit = 64;

uint64_t mix(uint64_t h, uint64_t value) noexcept {
  h ^= value + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccd;
}

}  // namespace

sample_table::sample_table(unsigned slots, unsigned depth) : slot_count_(slots), depth_(depth) {
  void* memory = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  slots_ = static_cast<slot*>(memory);
  frames_ = reinterpret_cast<uintptr_t*>(slots_ + slot_count_);
}

sample_table::~sample_table() { munmap(slots_, bytes()); }

size_t sample_table::bytes() const noexcept {
  return size_t{slot_count_} * (sizeof(slot) + sizeof(uintptr_t) * depth_);
}

void sample_table::add(uint32_t tid, uint32_t site, const uintptr_t* frames, unsigned depth, uint64_t weight) noexcept {
  if (depth > depth_) depth = depth_;
  uint64_t hash = mix(mix(tid, site), depth);
  for (unsigned i = 0; i < depth; ++i) hash = mix(hash, frames[i]);
  hash |= 2;  // never free or busy
  auto same_stack = [&](const slot& s) {
    if (s.tid != tid || s.site != site || s.depth != depth) return false;
    const uintptr_t* held = frames_of(s);
    for (unsigned i = 0; i < depth; ++i)
      if (held[i] != frames[i]) return false;
    return true;
  };
  for (size_t probe = 0; probe < probe_limit; ++probe) {
    const size_t index = (hash + probe) % slot_count_;
    slot& s = slots_[index];
    uint64_t seen = __atomic_load_n(&s.hash, __ATOMIC_ACQUIRE);
    if (seen == 0) {
      if (!__atomic_compare_exchange_n(&s.hash, &seen, busy_hash, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
        if (seen != hash || !same_stack(s)) continue;
        __atomic_fetch_add(&s.count, weight, __ATOMIC_RELAXED);
        count_interrupt(weight);
        return;
      }
      s.tid = tid;
      s.site = site;
      s.depth = depth;
      // At most one claim per slot: never beyond the frames reserved.
      s.frames = __atomic_fetch_add(&frames_used_, 1, __ATOMIC_RELAXED);
      uintptr_t* held = frames_of(s);
      for (unsigned i = 0; i < depth; ++i) held[i] = frames[i];
      __atomic_store_n(&s.count, weight, __ATOMIC_RELAXED);
      __atomic_store_n(&s.hash, hash, __ATOMIC_RELEASE);
      count_interrupt(weight);
      return;
    }
    // A slot being filled by another thread is passed over, never waited for.
    if (seen == hash && same_stack(s)) {
      __atomic_fetch_add(&s.count, weight, __ATOMIC_RELAXED);
      count_interrupt(weight);
      return;
    }
  }
  __atomic_fetch_add(&dropped_, weight, __ATOMIC_RELAXED);
}

void sample_table::clear() noexcept {
  // Anonymous private pages read as zeros again: every slot free, nothing copied.
  madvise(slots_, bytes(), MADV_DONTNEED);
  __atomic_store_n(&frames_used_, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&dropped_, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&counted_, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&interrupts_, 0, __ATOMIC_RELAXED);
}

void sample_table::count_interrupt(uint64_t weight) noexcept {
  __atomic_fetch_add(&counted_, weight, __ATOMIC_RELAXED);
  __atomic_fetch_add(&interrupts_, 1, __ATOMIC_RELAXED);
}

}  // namespace perf::runtime
