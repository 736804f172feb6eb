// A project that links the runtime through pkg-config, built by a plain Makefile and by
// Meson (pkgconfig.cmake): a mark that its plain build compiles quietly at -Werror, and
// a function measured by hand.
#include <perf/perf.hpp>

[[perf::measure]] static int cube(int x) { return x * x * x; }

static int square(int x) {
  PERF_MEASURE("consumer::square");
  return x * x;
}

int main() {
  int sum = 0;
  for (int i = 0; i < 12; ++i) sum += square(i);
  return sum == 506 && cube(2) == 8 ? 0 : 1;
}
