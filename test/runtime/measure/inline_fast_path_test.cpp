// PERF_INLINE_FAST_PATH (perf/measure.hpp): the scopes of this file take adaptive
// timing's fast path inline instead of in begin(). What they record is what the called
// fast path records (the same untimed_call; adaptive_timing_test.cpp has the rest):
// every call counted, a probe-dominated leaf, logged or not, timed on a sample, an
// expensive function and the _TIME_ALL forms on every call, and a thread that times
// all timing all.
#define PERF_INLINE_FAST_PATH 1

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>

#include "measure/adaptive_timing.hpp"
#include "measure/busy_loop.hpp"
#include "perf/perf.hpp"
#include "snapshot_lookup.hpp"

namespace perf::runtime {
namespace {

using perf::testing::stats_of;

static_assert(PERF_DETAIL_INLINE_FAST_PATH, "this file's scopes inline the fast path");

__attribute__((noinline)) void inline_leaf() {
  PERF_MEASURE_NO_TICKS("inline_fast_path_test.leaf");
  __asm__ __volatile__("");
}

__attribute__((noinline)) void inline_logged_leaf() {
  PERF_MEASURE("inline_fast_path_test.logged_leaf");
  __asm__ __volatile__("");
}

TEST(InlineFastPath, EveryCallOfASampledLeafIsCountedAndASampleTimed) {
  constexpr uint64_t calls = 1'000'000;
  std::thread([] {
    for (uint64_t i = 0; i < calls; ++i) {
      inline_leaf();
      inline_logged_leaf();
    }
  }).join();
  for (const char* name : {"inline_fast_path_test.leaf", "inline_fast_path_test.logged_leaf"}) {
    const function_stats f = stats_of(name);
    EXPECT_EQ(f.calls, calls) << name;
    EXPECT_GE(f.timed_calls, first_review) << name;
    EXPECT_LT(f.timed_calls, calls / 16) << name;
    EXPECT_LE(f.mean_ns_low, f.mean_ns) << name;
    EXPECT_LE(f.mean_ns, f.mean_ns_high) << name;
  }
}

// Calls `call` (given the call's index) `calls` times on a thread of its own, then
// expects the row `name` to have counted and timed every call.
template <class Call>
void expect_every_call_timed(const char* name, uint64_t calls, Call call) {
  std::thread([&] {
    for (uint64_t i = 0; i < calls; ++i) call(i);
  }).join();
  const function_stats f = stats_of(name);
  EXPECT_EQ(f.calls, calls) << name;
  EXPECT_EQ(f.timed_calls, calls) << name;
}

__attribute__((noinline)) void inline_expensive_leaf(std::chrono::nanoseconds duration) {
  PERF_MEASURE_NO_TICKS("inline_fast_path_test.expensive_leaf");
  perf::testing::spin_for(duration);
}

TEST(InlineFastPath, AFunctionThatIsNotProbeDominatedIsTimedOnEveryCall) {
  const auto duration = perf::testing::probe_costs(8, std::chrono::microseconds(2));
  expect_every_call_timed("inline_fast_path_test.expensive_leaf", 2'000,
                          [duration](uint64_t) { inline_expensive_leaf(duration); });
}

__attribute__((noinline)) void inline_time_all_leaf() {
  PERF_MEASURE_TIME_ALL("inline_fast_path_test.time_all");
  __asm__ __volatile__("");
}

TEST(InlineFastPath, TheTimeAllFormsTimeEveryCall) {
  expect_every_call_timed("inline_fast_path_test.time_all", 200'000, [](uint64_t) { inline_time_all_leaf(); });
}

__attribute__((noinline)) void inline_leaf_on_a_thread_timing_all() {
  PERF_MEASURE_NO_TICKS("inline_fast_path_test.leaf_timing_all");
  __asm__ __volatile__("");
}

// PERF_TIMING=all leaves a thread's `sampling` at 0 when it attaches.
TEST(InlineFastPath, AThreadThatTimesAllTimesEveryCall) {
  expect_every_call_timed("inline_fast_path_test.leaf_timing_all", 200'000, [](uint64_t i) {
    inline_leaf_on_a_thread_timing_all();
    if (i == 0) detail::current_thread->sampling = 0;  // the first call attached the thread
  });
}

}  // namespace
}  // namespace perf::runtime
