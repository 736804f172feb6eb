// A sample unit test of a hot path, as a user writes it with perf/gtest.hpp: the
// good version passes; the regressed one, which copies its input into a
// std::string, fails with the allocation it made. ctest runs each alone and
// checks the outcome (CMakeLists.txt).
#include "perf/gtest.hpp"

#include <cstdlib>
#include <string>

namespace {

const char* const line = "12345 is the order number, and the rest is a comment";

// Reads the leading number of `text`.
long order_number(const char* text) { return std::strtol(text, nullptr, 10); }

// The same after a careless change: a copy of the whole line (53 characters: on
// the heap, past the small-string buffer).
long order_number_regressed(const char* text) {
  const std::string copy(text);
  return std::strtol(copy.c_str(), nullptr, 10);
}

TEST(HotPath, GoodParseDoesNotAllocate) {
  long number = 0;
  EXPECT_NO_ALLOCATION(number = order_number(line));
  EXPECT_EQ(number, 12345);
}

TEST(HotPath, RegressedParseDoesNotAllocate) {
  long number = 0;
  EXPECT_NO_ALLOCATION(number = order_number_regressed(line));
  EXPECT_EQ(number, 12345);
}

}  // namespace
