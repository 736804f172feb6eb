#include "heap/internal/site_table.hpp"

#include <sys/mman.h>

#include <cstring>

namespace perf::runtime::heap_internal {
namespace {

uint64_t stack_hash(const uintptr_t* frames, uint32_t depth, bool truncated) noexcept {
  uint64_t h = 0xcbf29ce484222325ull ^ depth ^ (truncated ? 0x100000000ull : 0);
  for (uint32_t i = 0; i < depth; ++i) h = (h ^ frames[i]) * 0x100000001b3ull;
  return h ^ (h >> 29);
}

}  // namespace

bool site_table::make() noexcept {
  const size_t bytes = capacity * sizeof(site_record) + index_slots * sizeof(uint32_t);
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return false;
  records_ = static_cast<site_record*>(memory);
  index_ = reinterpret_cast<uint32_t*>(records_ + capacity);
  return true;
}

uint32_t site_table::find_or_add(const uintptr_t* frames, uint32_t depth, bool truncated) noexcept {
  if (records_ == nullptr) return none;
  const uint64_t hash = stack_hash(frames, depth, truncated);
  for (uint32_t probe = 0; probe < index_slots; ++probe) {
    uint32_t& entry = index_[(hash + probe) & (index_slots - 1)];
    if (entry == 0) {
      if (size_ == capacity) return none;
      site_record& record = records_[size_];
      record.hash = hash;
      record.depth = depth;
      record.truncated = truncated;
      std::memcpy(record.frames, frames, depth * sizeof(uintptr_t));
      entry = ++size_;
      return size_ - 1;
    }
    const site_record& record = records_[entry - 1];
    if (record.hash == hash && record.depth == depth && record.truncated == truncated &&
        std::memcmp(record.frames, frames, depth * sizeof(uintptr_t)) == 0)
      return entry - 1;
  }
  return none;
}

}  // namespace perf::runtime::heap_internal
