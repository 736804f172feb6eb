// The allocation budget assertions of perf/gtest.hpp: they pass when the statement
// stays within its budget, fail with the figures when not, and measure only the
// calling thread.
#include "perf/gtest.hpp"

#include <gtest/gtest-spi.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

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
                          "the first ones:\n  40 bytes\n");
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
                          "the first ones:\n  40 bytes\n");
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
                          "but it made 2 allocations of 80 bytes; the first ones:\n  40 bytes\n");
  release();
  EXPECT_FATAL_FAILURE(ASSERT_ALLOCATION_COUNT_AT_MOST(0, allocate_40()), "Expected no allocation");
  release();
}

void allocate_40_ten_times() {
  for (int i = 0; i < 10; ++i) {
    delete[] sink;
    allocate_40();
  }
}

TEST(AllocGtest, TheMessageDescribesTheFirstEightAllocations) {
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    EXPECT_NO_ALLOCATION(allocate_40_ten_times());
  }
  release();
  ASSERT_EQ(failures.size(), 1);
  const std::string message = failures.GetTestPartResult(0).message();
  EXPECT_NE(message.find("it made 10 allocations of 400 bytes; the first ones:\n  40 bytes\n"), std::string::npos)
      << message;
  size_t described = 0;
  for (size_t at = message.find("\n  40 bytes"); at != std::string::npos; at = message.find("\n  40 bytes", at + 1))
    ++described;
  EXPECT_EQ(described, 8u) << message;
  EXPECT_NE(message.find("\n  and 2 more"), std::string::npos) << message;
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

// Outside namespace perf, whose frames the stacks fold as perf's own.
namespace {

// Grown by the statements below; global, so that the compiler keeps its allocations.
std::vector<int> pushed;

// The message names the test's own line that called push_back, first, in the stack
// of the allocation, and the bytes push_back asked for.
TEST(AllocGtestStacks, AFailureNamesTheLineThatAllocated) {
  pushed = {};
  ::testing::TestPartResultArray failures;
  int line;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    line = __LINE__ + 1;
    EXPECT_NO_ALLOCATION(pushed.push_back(4));
  }
  ASSERT_EQ(failures.size(), 1);
  const std::string message = failures.GetTestPartResult(0).message();
  const std::string usable = perf::alloc::detail::mode() == perf::alloc::detail::interposed ? " (usable size 24" : "";
  const std::string expected =
      "Failed\nExpected no allocation in `pushed.push_back(4)`, but it made 1 allocation of 4 bytes" +
      (usable.empty() ? "" : usable + " bytes)") + "; the first ones:\n  4 bytes" +
      (usable.empty() ? "" : usable + ")") +
      "\n    at (anonymous namespace)::AllocGtestStacks_"
      "AFailureNamesTheLineThatAllocated_Test::TestBody() (" +
      __FILE__ + ":" + std::to_string(line) + ")\n";
  EXPECT_EQ(message.substr(0, expected.size()), expected) << message;
  pushed = {};
}

// Grows `pushed` from a function of the test's own, one frame below the test body,
// at push_line.
constexpr int push_line = __LINE__ + 2;
__attribute__((noinline)) void push_one() {
  pushed.push_back(5);
  asm volatile("");  // the call stays a call, not a tail jump: the test body keeps its frame
}

// The whole stack of a failing budget, past the allocating line and the test body,
// names only the test's code: never the runtime's (perf's namespace, libperfrt,
// libperfalloc, the symbolizer's libbacktrace and zlib, whose first use is this very
// message) nor the C++ library's frames between, which fold into "...". GoogleTest's
// frames under the test body fold too, down to main (gtest_main's, without debug
// information: no file), where the walk ends.
TEST(AllocGtestStacks, TheWholeStackRunsFromTheAllocatingLineToTheTestBodyAndNamesNoRuntimeCode) {
  pushed = std::vector<int>();  // no capacity left from the tests before
  ::testing::TestPartResultArray failures;
  int line;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    line = __LINE__ + 1;
    EXPECT_NO_ALLOCATION(push_one());
  }
  ASSERT_EQ(failures.size(), 1);
  const std::string message = failures.GetTestPartResult(0).message();
  const std::string stack = message.substr(message.find("\n    at "));
  for (const char* runtime_code : {"perf::", "libperf", "backtrace_", "elf_", "inflate", "zlib"})
    EXPECT_EQ(stack.find(runtime_code), std::string::npos) << runtime_code << " in\n" << message;
  const std::string file = __FILE__;
  EXPECT_EQ(stack, "\n    at (anonymous namespace)::push_one() (" + file + ":" + std::to_string(push_line) +
                       ")\n    at (anonymous namespace)::AllocGtestStacks_"
                       "TheWholeStackRunsFromTheAllocatingLineToTheTestBodyAndNamesNoRuntimeCode_Test::TestBody() (" +
                       file + ":" + std::to_string(line) + ")\n    ...\n    at main")
      << message;
  pushed = {};
}

// A budget of 256 bytes holds a request of 256 bytes, whatever block it gets.
TEST(AllocGtestStacks, TheByteBudgetCountsTheBytesAskedFor) {
  EXPECT_ALLOCATIONS_AT_MOST(256, perf::testing::sink = static_cast<char*>(std::malloc(256)));
  std::free(perf::testing::sink);
  perf::testing::sink = nullptr;
}

}  // namespace
