// Allocations in the report: each measured function's allocations and bytes per
// call, callees included, and a row per thread that allocated.
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "alloc/alloc_test_support.hpp"
#include "perf/measure.hpp"
#include "perf/report.hpp"

namespace perf::alloc::test {
namespace {

// Two blocks of 40 bytes per call (40: a usable size as requested, plain and sanitized).
__attribute__((noinline)) void allocates_two() {
  PERF_MEASURE("alloc_report.allocates_two");
  for (int i = 0; i < 2; ++i) {
    void* block = std::malloc(40);
    escape(block);
    std::free(block);
  }
}

// One block of 1000 bytes of its own, and what allocates_two makes.
__attribute__((noinline)) void calls_it() {
  PERF_MEASURE("alloc_report.calls_it");
  void* block = std::malloc(1000);
  escape(block);
  allocates_two();
  std::free(block);
}

// A recursive function: each level allocates 40 bytes and calls the next.
__attribute__((noinline)) void nests(int depth) {
  PERF_MEASURE("alloc_report.nests");
  void* block = std::malloc(40);
  escape(block);
  if (depth > 1) nests(depth - 1);
  std::free(block);
}

__attribute__((noinline)) void allocates_nothing() { PERF_MEASURE("alloc_report.allocates_nothing"); }

const function_stats* find_function(const snapshot& s, const std::string& name) {
  for (const function_stats& f : s.functions)
    if (f.name == name) return &f;
  return nullptr;
}

// The runtime's own allocations when a site is first called (registering it) are
// in nobody's figures: not in the first call's, not in its caller's.
TEST(AllocReport, EachFunctionGetsItsAllocationsPerCallWithItsCallees) {
  for (int i = 0; i < 99; ++i) calls_it();
  for (int i = 0; i < 50; ++i) allocates_nothing();
  const snapshot s = take_snapshot();
  const function_stats* callee = find_function(s, "alloc_report.allocates_two");
  const function_stats* caller = find_function(s, "alloc_report.calls_it");
  const function_stats* idle = find_function(s, "alloc_report.allocates_nothing");
  ASSERT_TRUE(callee != nullptr && caller != nullptr && idle != nullptr);
  EXPECT_EQ(callee->calls, 99u);
  EXPECT_EQ(caller->calls, 99u);
  EXPECT_EQ(callee->alloc_count, 2.0);
  EXPECT_EQ(callee->alloc_bytes, 80.0);
  EXPECT_EQ(caller->alloc_count, 3.0);
  EXPECT_EQ(caller->alloc_bytes, 1080.0);
  EXPECT_EQ(idle->alloc_count, 0.0);
  EXPECT_EQ(idle->alloc_bytes, 0.0);
  const std::string json = format_json(s);
  EXPECT_NE(json.find("\"name\": \"alloc_report.allocates_two\""), std::string::npos);
  EXPECT_NE(json.find("\"alloc_count\": 2.00, \"alloc_bytes\": 80.0,"), std::string::npos) << json;
}

// Like the total, a recursive function's allocations are counted once: the inner
// levels' are inside the outermost one's, not added again for each open activation.
TEST(AllocReport, RecursionIsCountedOnceLikeTheTotal) {
  for (int i = 0; i < 10; ++i) nests(4);
  const snapshot s = take_snapshot();
  const function_stats* f = find_function(s, "alloc_report.nests");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->calls, 40u);
  EXPECT_EQ(f->alloc_count, 1.0);
  EXPECT_EQ(f->alloc_bytes, 40.0);
}

// Runs `body` on a thread of its own and waits for it. With pthread_create, not
// std::thread, whose start state the new thread frees: a free the test would count.
template <class Body>
void run_on_new_thread(Body body) {
  pthread_t thread;
  const auto start = [](void* b) -> void* {
    (*static_cast<Body*>(b))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, nullptr, start, &body), 0);
  pthread_join(thread, nullptr);
}

// What a new thread's counters hold as its start routine begins: nothing, where
// perf::alloc interposes malloc. Under a sanitizer, counting through its hooks, they
// hold what the sanitizer allocated setting the thread up (AddressSanitizer calls
// pthread_getattr_np, which makes blocks): that is the thread's, not the runtime's.
void expect_nothing_counted_where_interposed(const counters& at_start) {
  if (detail::mode() != detail::interposed) return;
  EXPECT_EQ(at_start.allocations, 0u);
  EXPECT_EQ(at_start.frees, 0u);
  EXPECT_EQ(at_start.peak_live, 0u);
}

// The runtime's work on a thread (attaching it, arming its sampling timer as it
// starts, handing its figures over as it exits) is not the thread's: its row holds
// exactly what the thread itself allocated, and a thread that allocated nothing has none.
TEST(AllocReport, EveryThreadThatAllocatedHasARowAliveOrExited) {
  long worker_tid = 0;
  long idle_tid = 0;
  counters worker_at_start{};
  counters idle_at_start{};
  counters made{};
  uint64_t sizes = 0;  // the blocks' sizes as the allocator reports them
  uint64_t largest = 0;
  run_on_new_thread([&] {
    worker_at_start = this_thread();
    pthread_setname_np(pthread_self(), "alloc-reporter");
    worker_tid = gettid();
    allocates_nothing();  // attaches the thread to the runtime
    made = measure([&] {
      for (int i = 0; i < 7; ++i) {
        void* block = std::malloc(1000 + 8 * i);
        sizes += block_size(block);
        largest = std::max(largest, block_size(block));
        std::free(block);
      }
    });
  });
  run_on_new_thread([&] {
    idle_at_start = this_thread();
    idle_tid = gettid();
    allocates_nothing();
  });
  expect_nothing_counted_where_interposed(worker_at_start);
  expect_nothing_counted_where_interposed(idle_at_start);
  const snapshot s = take_snapshot();
  EXPECT_NE(s.allocations.counting, perf::allocation_counting::inactive);
  const thread_allocations* row = nullptr;
  const thread_allocations* idle_row = nullptr;
  const thread_allocations* main_row = nullptr;
  for (const thread_allocations& t : s.allocations.threads) {
    if (t.tid == worker_tid) row = &t;
    if (t.tid == idle_tid) idle_row = &t;
    if (t.tid == gettid()) main_row = &t;
  }
  ASSERT_NE(row, nullptr);
  ASSERT_NE(main_row, nullptr);
  EXPECT_EQ(made.allocations, 7u);
  EXPECT_GE(sizes, 7000u);
  EXPECT_EQ(made.bytes, sizes);
  EXPECT_TRUE(row->exited);
  EXPECT_EQ(row->name, "alloc-reporter");
  EXPECT_EQ(row->allocations, worker_at_start.allocations + 7);
  EXPECT_EQ(row->frees, worker_at_start.frees + 7);
  EXPECT_EQ(row->bytes, worker_at_start.bytes + sizes);
  EXPECT_EQ(row->bytes_freed, worker_at_start.bytes_freed + sizes);
  EXPECT_EQ(row->peak_live_bytes,
            std::max(worker_at_start.peak_live, worker_at_start.bytes - worker_at_start.bytes_freed + largest));
  if (idle_at_start.allocations == 0 && idle_at_start.frees == 0) {
    EXPECT_EQ(idle_row, nullptr) << "a row for a thread that allocated nothing";
  } else {
    ASSERT_NE(idle_row, nullptr);
    EXPECT_EQ(idle_row->allocations, idle_at_start.allocations);
    EXPECT_EQ(idle_row->frees, idle_at_start.frees);
  }
  EXPECT_FALSE(main_row->exited);
  EXPECT_GT(main_row->allocations, 0u);
  const std::string text = format_text(s);
  EXPECT_NE(text.find("allocs/call  bytes/call"), std::string::npos) << text;
  EXPECT_NE(text.find("(alloc-reporter, exited): "), std::string::npos) << text;
}

}  // namespace
}  // namespace perf::alloc::test
