#include "limits.hpp"
[[perf::measure]] constexpr int twice(int x) { return 2 * x; }
int one() { return twice(limit()); }
