// Allocations in the report: each measured function's allocations and bytes per
// call, callees included, and a row per thread that allocated.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "alloc_test_support.hpp"
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

// The runtime's own allocations when a site is first called (its registration)
// fall into the measured scope around it: one call of allocates_two first keeps
// them out of calls_it's figures.
TEST(AllocReport, EachFunctionGetsItsAllocationsPerCallWithItsCallees) {
  allocates_two();
  for (int i = 0; i < 99; ++i) calls_it();
  for (int i = 0; i < 50; ++i) allocates_nothing();
  const snapshot s = take_snapshot();
  const function_stats* callee = find_function(s, "alloc_report.allocates_two");
  const function_stats* caller = find_function(s, "alloc_report.calls_it");
  const function_stats* idle = find_function(s, "alloc_report.allocates_nothing");
  ASSERT_TRUE(callee != nullptr && caller != nullptr && idle != nullptr);
  EXPECT_EQ(callee->calls, 100u);
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

TEST(AllocReport, EveryThreadThatAllocatedHasARowAliveOrExited) {
  long worker_tid = 0;
  counters made{};
  uint64_t sizes = 0;  // the blocks' sizes as the allocator reports them
  std::thread worker([&] {
    pthread_setname_np(pthread_self(), "alloc-reporter");
    worker_tid = gettid();
    made = measure([&sizes] {
      for (int i = 0; i < 7; ++i) {
        void* block = std::malloc(1000);
        sizes += block_size(block);
        std::free(block);
      }
    });
  });
  worker.join();
  allocates_nothing();  // the text report has sections once something was measured
  const snapshot s = take_snapshot();
  EXPECT_NE(s.allocations.counting, "inactive");
  const thread_allocations* row = nullptr;
  const thread_allocations* main_row = nullptr;
  for (const thread_allocations& t : s.allocations.threads) {
    if (t.tid == worker_tid) row = &t;
    if (t.tid == gettid()) main_row = &t;
  }
  ASSERT_NE(row, nullptr);
  ASSERT_NE(main_row, nullptr);
  EXPECT_EQ(made.allocations, 7u);
  EXPECT_GE(sizes, 7000u);
  EXPECT_EQ(made.bytes, sizes);
  EXPECT_TRUE(row->exited);
  EXPECT_EQ(row->name, "alloc-reporter");
  EXPECT_GE(row->allocations, 7u);
  EXPECT_GE(row->peak_live_bytes, 1000u);
  EXPECT_FALSE(main_row->exited);
  EXPECT_GT(main_row->allocations, 0u);
  const std::string text = format_text(s);
  EXPECT_NE(text.find("allocs/call  bytes/call"), std::string::npos) << text;
  EXPECT_NE(text.find("(alloc-reporter, exited): "), std::string::npos) << text;
}

}  // namespace
}  // namespace perf::alloc::test
