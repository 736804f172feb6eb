// A thread block outside the registry, for tests of what the hot path records.
#ifndef PERF_TEST_RUNTIME_MEASURE_FAKE_THREAD_HPP
#define PERF_TEST_RUNTIME_MEASURE_FAKE_THREAD_HPP

#include <vector>

#include "measure/stats.hpp"
#include "perf/detail/thread_state.hpp"

namespace perf::runtime {

// A thread block with one site (id 1) and a small arena, outside the registry.
struct fake_thread {
  std::vector<uint64_t> arena = std::vector<uint64_t>(8 * detail::histogram_block_size);
  std::vector<detail::slot> slots = std::vector<detail::slot>(2);
  detail::slot& target = slots[1];
  detail::thread_state state{};

  fake_thread() {
    state.clock = detail::clock_source::monotonic;  // what open() reads; tests set the times themselves
    state.slots = slots.data();
    state.arena = arena.data();
    state.arena_used = 1;
    state.arena_capacity = 8;
  }
  void add(uint64_t duration) { detail::add_sample(state, target, 1, duration); }
  // Folds the pending calls into their slots (count, extremes, moments, histogram), as
  // the thread does when its buffer is full.
  void drain() { detail::drain_pending(state); }
  accumulator read() {
    drain();
    accumulator a;
    bucket_tally tally;
    a.add(target, arena.data(), tally);
    tally.move_to(a.durations);
    return a;
  }
};

}  // namespace perf::runtime

#endif  // PERF_TEST_RUNTIME_MEASURE_FAKE_THREAD_HPP
