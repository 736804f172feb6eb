// The sanitizer variants run with sanitizer_options.cpp's options, whoever starts
// them: each test below passes only with its option in effect.
#include <gtest/gtest.h>

#include <limits>
#include <thread>

namespace {

#if defined(__SANITIZE_ADDRESS__)  // the ASan variant is also the UBSan one

__attribute__((noinline)) int plus_one(int x) { return x + 1; }
volatile int result;  // kept: a call whose result is unused may be left out

// print_stacktrace=1: UBSan's report shows where the behaviour was undefined.
TEST(SanitizerOptions, UndefinedBehaviourIsReportedWithItsStack) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  volatile int largest = std::numeric_limits<int>::max();
  EXPECT_DEATH(result = plus_one(largest), "signed integer overflow.*#0 0x[0-9a-f]+ in ");
}

#endif

#if defined(__SANITIZE_THREAD__)

int unguarded;

void race() {
  std::thread writer([] {
    for (int i = 0; i < 100000; ++i) unguarded = unguarded + 1;
  });
  for (int i = 0; i < 100000; ++i) unguarded = unguarded + 1;
  writer.join();
}

// halt_on_error=1: the first race ends the program (ThreadSanitizer's exit code, 66).
TEST(SanitizerOptions, TheFirstRaceEndsTheProgram) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(race(), ::testing::ExitedWithCode(66), "WARNING: ThreadSanitizer: data race");
}

#endif

}  // namespace
