// Included by a C++17 and a C++20 unit.
#pragma once
[[perf::measure]] constexpr int square(int x) { return x * x; }
[[perf::measure]] inline int twice(int x) { return 2 * x; }
