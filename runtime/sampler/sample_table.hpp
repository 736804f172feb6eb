// The samples taken so far: a fixed, lock-free table of distinct stacks (per thread
// and per innermost measured function) with their counts, filled by the sample
// handler and read at exit or on demand.
#ifndef PERF_RUNTIME_SAMPLER_SAMPLE_TABLE_HPP
#define PERF_RUNTIME_SAMPLER_SAMPLE_TABLE_HPP

#include <stddef.h>
#include <stdint.h>

namespace perf::runtime {

// One distinct stack as the table holds it. `frames[0]` is the interrupted
// instruction, the rest return addresses, innermost first.
struct stack_view {
  uint32_t tid;
  uint32_t site;  // innermost open measured function's site id; 0: none
  uint32_t depth;
  const uintptr_t* frames;
  uint64_t count;
};

class sample_table {
 public:
  // Reserves address space for `slots` stacks of at most `depth` frames; pages are
  // committed as stacks land in them: a slot found by the stack's hash (a few words),
  // and its frames in the order stacks arrive, so that the table's resident memory is
  // about the distinct stacks' frames, not a page each. Not async-signal-safe.
  sample_table(unsigned slots, unsigned depth);
  sample_table(const sample_table&) = delete;
  sample_table& operator=(const sample_table&) = delete;
  ~sample_table();

  // Counts `weight` samples of the stack `frames[0..depth)` (cut to the table's
  // depth) on thread `tid`. Async-signal-safe and lock-free: no allocation, no
  // lock, no system call; any number of threads and handlers may add at once. A
  // stack that finds no free slot near its hash is counted in dropped() instead.
  void add(uint32_t tid, uint32_t site, const uintptr_t* frames, unsigned depth, uint64_t weight) noexcept;

  // Calls `visit(const stack_view&)` for every stack added so far. May run while
  // others add: a stack being added is seen fully or not at all, counts may lag.
  // A stack can appear in more than one view (two threads claimed a slot for it at
  // once); readers merge them.
  template <typename Visit>
  void for_each(Visit&& visit) const;

  uint64_t dropped() const noexcept { return __atomic_load_n(&dropped_, __ATOMIC_RELAXED); }
  // The samples counted in the table's stacks: once no one adds, the sum of the
  // counts for_each() sees; while others add, the two may differ by the samples
  // being added.
  uint64_t counted() const noexcept { return __atomic_load_n(&counted_, __ATOMIC_RELAXED); }
  // The calls of add() that counted() holds: the independent observations behind the
  // counts (a timer's signal that counts its overrun is one interrupt of many samples).
  uint64_t interrupts() const noexcept { return __atomic_load_n(&interrupts_, __ATOMIC_RELAXED); }
  unsigned depth() const noexcept { return depth_; }

  // Forgets every stack. Only while nobody adds (the child of fork, a test).
  void clear() noexcept;

 private:
  struct slot {
    uint64_t hash;   // 0: free; busy_hash: being filled; else published (release)
    uint64_t count;  // atomic
    uint32_t tid;
    uint32_t site;
    uint32_t depth;
    uint32_t frames;  // where its frames are: the frames_used_-th stack claimed
  };
  static constexpr uint64_t busy_hash = 1;

  uintptr_t* frames_of(const slot& s) const noexcept { return frames_ + size_t{s.frames} * depth_; }
  size_t bytes() const noexcept;
  void count_interrupt(uint64_t weight) noexcept;

  unsigned slot_count_;
  unsigned depth_;
  slot* slots_;
  uintptr_t* frames_;
  uint32_t frames_used_ = 0;  // atomic: stacks claimed, each taking the next `depth_` frames
  uint64_t dropped_ = 0;      // atomic
  uint64_t counted_ = 0;      // atomic
  uint64_t interrupts_ = 0;   // atomic
};

template <typename Visit>
void sample_table::for_each(Visit&& visit) const {
  for (size_t i = 0; i < slot_count_; ++i) {
    const slot& s = slots_[i];
    if (__atomic_load_n(&s.hash, __ATOMIC_ACQUIRE) <= busy_hash) continue;
    visit(stack_view{s.tid, s.site, s.depth, frames_of(s), __atomic_load_n(&s.count, __ATOMIC_RELAXED)});
  }
}

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_SAMPLE_TABLE_HPP
