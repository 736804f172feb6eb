// The allocation budget assertions of perf/gtest.hpp: they pass when the statement
// stays within its budget, fail with the figures when not, and measure only the
// calling thread.
#include "perf/gtest.hpp"

#include <gtest/gtest-spi.h>

#include <atomic>
#include <cstdlib>
#include <thread>

namespace perf::testing {
namespace {

// Where the statements below put their blocks, so that the compiler keeps them.
char* volatile sink = nullptr;
char* volatile second_sink = nullptr;

void allocate_40() { sink = new char[40]; }
void release() {
  delete[] sink;
  delete[] second_sink;
  sink = nullptr;
  second_sink = nullptr;
}

TEST(AllocGtest, AnEmptyStatementMeasuresExactlyNothing) {
  detail::allocation_probe probe;
  probe.start();
  probe.stop();
  EXPECT_EQ(probe.used().allocations, 0u);
  EXPECT_EQ(probe.used().bytes, 0u);
  EXPECT_NO_ALLOCATION(;);
  ASSERT_ALLOCATIONS_AT_MOST(0, {});
}

TEST(AllocGtest, WithinBudgetPasses) {
  EXPECT_ALLOCATIONS_AT_MOST(40, allocate_40());
  release();
  ASSERT_ALLOCATION_COUNT_AT_MOST(1, allocate_40());
  release();
  int magnitude = 0;
  EXPECT_NO_ALLOCATION(magnitude = std::abs(-5));
  EXPECT_EQ(magnitude, 5);
}

TEST(AllocGtest, NoAllocationCatchesAnEscapingAllocation) {
  EXPECT_NONFATAL_FAILURE(EXPECT_NO_ALLOCATION(allocate_40()),
                          "Expected no allocation in `allocate_40()`, but it made 1 allocation of 40 bytes; "
                          "sizes of the first allocations: 40");
  release();
  EXPECT_FATAL_FAILURE(ASSERT_NO_ALLOCATION(allocate_40()), "Expected no allocation in `allocate_40()`");
  release();
}

TEST(AllocGtest, ByteBudgetNamesTheLimitTheCountAndTheSizes) {
  EXPECT_NONFATAL_FAILURE(EXPECT_ALLOCATIONS_AT_MOST(39,
                                                     {
                                                       allocate_40();
                                                       second_sink = static_cast<char*>(std::malloc(1000));
                                                     }),
                          "Expected at most 39 bytes allocated in `{ allocate_40(); second_sink = "
                          "static_cast<char*>(std::malloc(1000)); }`, but it made 2 allocations of 1040 bytes; "
                          "sizes of the first allocations: 40, 1000");
  delete[] sink;
  sink = nullptr;
  std::free(second_sink);
  second_sink = nullptr;
  EXPECT_FATAL_FAILURE(ASSERT_ALLOCATIONS_AT_MOST(39, allocate_40()), "Expected at most 39 bytes allocated");
  release();
}

TEST(AllocGtest, CountBudget) {
  EXPECT_NONFATAL_FAILURE(EXPECT_ALLOCATION_COUNT_AT_MOST(1,
                                                          {
                                                            allocate_40();
                                                            delete[] sink;
                                                            allocate_40();
                                                          }),
                          "Expected at most 1 allocation in `{ allocate_40(); delete[] sink; allocate_40(); }`, "
                          "but it made 2 allocations of 80 bytes; sizes of the first allocations: 40, 40");
  release();
  EXPECT_FATAL_FAILURE(ASSERT_ALLOCATION_COUNT_AT_MOST(0, allocate_40()), "Expected no allocation");
  release();
}

TEST(AllocGtest, TheMessageListsTheFirstEightSizes) {
  EXPECT_NONFATAL_FAILURE(EXPECT_NO_ALLOCATION(for (int i = 0; i < 10; ++i) {
                            delete[] sink;
                            allocate_40();
                          }),
                          "it made 10 allocations of 400 bytes; sizes of the first allocations: "
                          "40, 40, 40, 40, 40, 40, 40, 40, ...");
  release();
}

// Another thread's allocations while the statement runs are not the statement's.
TEST(AllocGtest, OnlyTheCallingThreadCounts) {
  std::atomic<int> step{0};
  std::thread other([&step] {
    while (step.load() != 1) std::this_thread::yield();
    for (int i = 0; i < 10; ++i) {
      second_sink = new char[40];
      delete[] second_sink;
    }
    second_sink = nullptr;
    step.store(2);
  });
  EXPECT_NO_ALLOCATION({
    step.store(1);
    while (step.load() != 2) std::this_thread::yield();
  });
  other.join();
}

}  // namespace
}  // namespace perf::testing
