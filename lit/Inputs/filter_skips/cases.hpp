// Input of filter_skips.test and launch_filter_skips.test (with one.cpp, two.cpp): functions
// a --filter of everything meets and cannot measure, and a marked one.
#pragma once
#define DEFINE_CASE(name) \
  struct name {           \
    int run() { return 1; } \
  };
DEFINE_CASE(first_case)
DEFINE_CASE(second_case)
constexpr int square(int x) { return x * x; }
[[perf::measure]] constexpr int marked(int x) { return x + 1; }
